package dev.cairn.codegen;

import dev.cairn.codegen.fixture.Everything_InPlaceStorage;
import dev.cairn.codegen.fixture.Everything_SwapAndPopStorage;
import dev.cairn.codegen.fixture.Everything_SwapOnlyStorage;
import dev.cairn.codegen.fixture.Tags;
import dev.cairn.codegen.fixture.Tags_InPlaceStorage;
import dev.cairn.codegen.fixture.Tags_SwapAndPopStorage;
import dev.cairn.codegen.fixture.Tags_SwapOnlyStorage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Model-based tests of generated storages: for each test component (every field kind) and each deletion policy, long
 * seeded random sequences of emplace, add, patch, field writes by entity / index / Ref, erase, remove, swapElements,
 * compact, sort by each column, sortAs and clear run against the storage and a plain map; after every operation every
 * member must read back exactly, through every generated path. A failure reports its seed, the shortest failing prefix
 * and a shrunk sequence that still fails.
 * <p>
 * {@code -Dcairn.seed=N} replays one seed; {@code -Dcairn.fuzz.operations=N} sets the sequence length (pass both
 * through {@code -Dcairn.test.jvmArgs="..."} on the Maven command line).
 */
final class StorageModelTest
{
    private static final int OPERATIONS = Integer.getInteger("cairn.fuzz.operations", 20_000);
    private static final long FIXED_SEED = 0x5EED_CA12_0000_0001L;
    private static final long SHRINK_BUDGET = 4_000_000;

    static Stream<Arguments> storages()
    {
        return Stream.of(
            storage("Everything_SwapAndPopStorage",
                () -> new SwapAndPopSubject(Everything_SwapAndPopStorage.create())),
            storage("Everything_InPlaceStorage",
                () -> new InPlaceSubject(Everything_InPlaceStorage.create())),
            storage("Everything_SwapOnlyStorage",
                () -> new SwapOnlySubject(Everything_SwapOnlyStorage.create())),
            storage("Tags_SwapAndPopStorage", () ->
            {
                final Tags_SwapAndPopStorage tags = Tags_SwapAndPopStorage.create();
                return new TagSubject<>(tags, tags::emplace, new Tags.SwapAndPop());
            }),
            storage("Tags_InPlaceStorage", () ->
            {
                final Tags_InPlaceStorage tags = Tags_InPlaceStorage.create();
                return new TagSubject<>(tags, tags::emplace, new Tags.InPlace());
            }),
            storage("Tags_SwapOnlyStorage", () ->
            {
                final Tags_SwapOnlyStorage tags = Tags_SwapOnlyStorage.create();
                return new TagSubject<>(tags, tags::emplace, new Tags.SwapOnly());
            }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storages")
    void randomOperationsReadBackExactlyAsTheModelSays(final String name, final Supplier<StorageSubject> factory)
    {
        final StorageSubject probe = factory.get();
        final boolean hasColumns = probe.hasColumns();
        probe.storage().close();
        for (final long seed : seeds())
        {
            final List<Op> ops = Op.generate(seed, OPERATIONS, hasColumns);
            final ModelRun.Failure failure = ModelRun.run(factory, ops);
            if (failure != null)
            {
                fail(report(name, seed, ops, failure, factory), failure.cause());
            }
        }
    }

    /** The fixed seed every run replays, plus a fresh one; or just the seed given with -Dcairn.seed. */
    static long[] seeds()
    {
        final Long chosen = Long.getLong("cairn.seed");
        return chosen != null ? new long[]{chosen} : new long[]{FIXED_SEED, System.nanoTime()};
    }

    private static Arguments storage(final String name, final Supplier<StorageSubject> factory)
    {
        return Arguments.of(name, factory);
    }

    private static String report(
        final String name,
        final long seed,
        final List<Op> ops,
        final ModelRun.Failure failure,
        final Supplier<StorageSubject> factory)
    {
        final List<Op> prefix = ops.subList(0, Math.min(ops.size(), failure.operation() + 1));
        final List<Op> shrunk = shrink(prefix, failure.cause().getClass(), factory);
        final ModelRun.Failure shrunkFailure = ModelRun.run(factory, shrunk);
        final StringBuilder text = new StringBuilder()
            .append(name).append(" disagrees with the model at operation ").append(failure.operation())
            .append(" of seed ").append(seed).append(" (replay with -Dcairn.seed=").append(seed).append("): ")
            .append(failure.cause()).append('\n')
            .append("The shortest failing prefix has ").append(prefix.size()).append(" operations; these ")
            .append(shrunk.size()).append(" of them still fail")
            .append(shrunkFailure == null ? "" : " with " + shrunkFailure.cause()).append(":\n");
        for (int i = 0; i < shrunk.size(); i++)
        {
            text.append(String.format("  %4d: %s%n", i, shrunk.get(i)));
        }
        return text.toString();
    }

    /**
     * Removes chunks of operations, halving the chunk size down to single operations, as long as the sequence still
     * fails with the same kind of exception.
     */
    private static List<Op> shrink(
        final List<Op> failing, final Class<?> failureType, final Supplier<StorageSubject> factory)
    {
        List<Op> current = new ArrayList<>(failing);
        long budget = SHRINK_BUDGET;
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && budget > 0; chunk /= 2)
        {
            for (int start = 0; start < current.size() && budget > 0; )
            {
                final List<Op> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
                budget -= candidate.size();
                final ModelRun.Failure failure = candidate.isEmpty() ? null : ModelRun.run(factory, candidate);
                if (failure != null && failure.cause().getClass() == failureType)
                {
                    current = new ArrayList<>(candidate.subList(0, Math.min(candidate.size(),
                        failure.operation() + 1)));
                }
                else
                {
                    start += chunk;
                }
            }
        }
        return current;
    }
}
