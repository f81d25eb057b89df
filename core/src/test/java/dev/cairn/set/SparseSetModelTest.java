package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.model.ModelRun;
import dev.cairn.model.Op;
import dev.cairn.model.RandomChoices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Model-based test of {@link SparseSet} for each deletion policy: seeded random operation sequences (insert, erase,
 * remove, lookups, swaps, sorts, sortAs, compact, clear, reserve, shrinkToFit, erase while iterating, close, plus
 * entity pool create/destroy) are applied to the real set and to a model built from plain collections, and every
 * invariant is checked after every operation (see {@link dev.cairn.model.Harness}).
 * <p>
 * Each policy runs at least {@code cairn.fuzz.operations} operations (default 200,000), split into runs of 100 to
 * 3,000 operations on fresh structures. A failure is shrunk and reported as the shortest failing sequence found,
 * with the seed. Replay with {@code mvn -pl core test -Dtest=SparseSetModelTest -Dcairn.fuzz.seed=<seed>}; without
 * that property every build uses a new seed.
 */
class SparseSetModelTest
{
    private static final long OPERATIONS = Long.getLong("cairn.fuzz.operations", 200_000L);
    private static final long SEED = seed();

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void randomOperationSequencesAgreeWithTheModel(final DeletionPolicy policy)
    {
        final long started = System.nanoTime();
        final SplittableRandom runs = new SplittableRandom(SEED ^ (0x5DEECE66DL * (policy.ordinal() + 1)));
        long operations = 0;
        for (int run = 0; operations < OPERATIONS; run++)
        {
            final long runSeed = runs.nextLong();
            final int length = 100 + runs.nextInt(2901);
            final DeletionPolicy otherPolicy = DeletionPolicy.values()[runs.nextInt(DeletionPolicy.values().length)];
            final List<Op> trace = new ArrayList<>(length);
            final ModelRun.Failure failure =
                ModelRun.generate(policy, otherPolicy, new RandomChoices(runSeed), length, trace);
            if (failure != null)
            {
                throw ModelRun.report(policy, otherPolicy, trace, failure,
                    String.format("-Dcairn.fuzz.seed=0x%x (failed in run %d, at operation %d of %s, %.2f s in)",
                        SEED, run, operations + failure.step() + 1, policy, (System.nanoTime() - started) / 1e9));
            }
            operations += trace.size();
        }
        System.out.printf("SparseSetModelTest %s: %,d operations agree with the model (seed 0x%x; replay with "
            + "-Dcairn.fuzz.seed=0x%x)%n", policy, operations, SEED, SEED);
    }

    private static long seed()
    {
        final String property = System.getProperty("cairn.fuzz.seed");
        if (property == null || property.isBlank())
        {
            return new SplittableRandom().nextLong();
        }
        final String value = property.trim();
        return value.startsWith("0x") || value.startsWith("0X") ?
            Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value);
    }
}
