package dev.cairn.deferral;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The rule of change (docs/views.md, "Changes during walks and listeners") against a brute-force model: long seeded
 * sequences of operations on a world of {@link DeferralFixtures} (see {@link DeferralHarness} for what they are and
 * what is checked, {@link DeferralModel} for the model), the world compared with the model after every operation and
 * during every walk and listener call.
 * <p>
 * Seeds 1 to {@code cairn.deferral.seeds} (default 220) run {@code cairn.deferral.operations} top-level operations
 * each (default 2,000), which with the changes, calls and listener calls made inside walks and listeners come to
 * about a million operations, in 15 to 30 seconds. A disagreement names its seed and operation, shows the trace of
 * the last operations ({@code -Dcairn.deferral.trace=N} lines, default 120), and is shrunk to a shorter sequence of
 * top-level operations that still fails the same way (each operation draws its decisions from a seed of its own, so
 * any subsequence is a valid run). Replay one seed with {@code -Dcairn.deferral.seed=N}, a shrunk sequence with
 * {@code -Dcairn.deferral.replay=setup:op,op,...} as the failure prints it. {@code -Dcairn.deferral.stats=true}
 * prints how often each walk, listener, refusal and recorded change occurred; {@code -Dcairn.deferral.avoid=...}
 * steps around known findings ({@link DeferralFindingsTest}) to look for others.
 */
final class DeferralModelTest
{
    private static final int SEEDS = Integer.getInteger("cairn.deferral.seeds", 220);
    private static final int OPERATIONS = Integer.getInteger("cairn.deferral.operations", 2_000);
    private static final long SHRINK_NANOS = 30_000_000_000L;

    /** Where a run failed, with the trace of the operations before. */
    record Failure(int operation, Throwable cause, String trace)
    {
    }

    @Test
    void theWorldAgreesWithTheModelOfDeferredChanges()
    {
        final String replay = System.getProperty("cairn.deferral.replay");
        if (replay != null)
        {
            final String[] parts = replay.split(":");
            final long[] operations = Arrays.stream(parts[1].split(",")).mapToLong(Long::parseLong).toArray();
            final Failure failure = run(Long.parseLong(parts[0]), operations);
            if (failure != null)
            {
                throw report(Long.parseLong(parts[0]), operations, failure, operations, failure);
            }
            return;
        }
        final Long only = Long.getLong("cairn.deferral.seed");
        final long first = only != null ? only : 1;
        final long last = only != null ? only : SEEDS;
        final long started = System.nanoTime();
        long operations = 0;
        final java.util.Map<String, Long> stats = new java.util.TreeMap<>();
        for (long seed = first; seed <= last; seed++)
        {
            final long[] steps = operationSeeds(seed, OPERATIONS);
            final Counted counted = new Counted();
            final Failure failure = run(seed, steps, counted);
            operations += counted.operations;
            counted.stats.forEach((what, count) -> stats.merge(what, count, Long::sum));
            if (failure != null)
            {
                final long[] shrunk = shrink(seed, steps, failure);
                throw report(seed, steps, failure, shrunk, run(seed, shrunk));
            }
        }
        if (Boolean.getBoolean("cairn.deferral.stats"))
        {
            stats.forEach((what, count) -> System.out.printf("%10d  %s%n", count, what));
        }
        System.out.printf("DeferralModelTest: %d seeds, %d operations (top-level and in walks and listeners), " +
            "%.1f s%n", last - first + 1, operations, (System.nanoTime() - started) / 1e9);
    }

    /** The seeds of a run's top-level operations. */
    static long[] operationSeeds(final long seed, final int count)
    {
        final SplittableRandom random = new SplittableRandom(seed * 0x9E37_79B9_7F4A_7C15L + 17);
        final long[] seeds = new long[count];
        for (int i = 0; i < count; i++)
        {
            seeds[i] = random.nextLong();
        }
        return seeds;
    }

    private static final class Counted
    {
        long operations;
        final java.util.Map<String, Long> stats = new java.util.TreeMap<>();
    }

    static Failure run(final long setup, final long[] operations)
    {
        return run(setup, operations, new Counted());
    }

    private static Failure run(final long setup, final long[] operations, final Counted counted)
    {
        final DeferralHarness harness;
        try
        {
            harness = new DeferralHarness(new Choices.Seeded(setup));
        }
        catch (final RuntimeException | Error thrown)
        {
            return new Failure(-1, thrown, "");
        }
        Failure failure = null;
        try
        {
            for (int i = 0; i < operations.length && failure == null; i++)
            {
                try
                {
                    harness.step(new Choices.Seeded(operations[i]));
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = new Failure(i, thrown, harness.trace());
                }
            }
        }
        finally
        {
            counted.operations = harness.operations();
            harness.stats().forEach((what, count) -> counted.stats.merge(what, count, Long::sum));
            try
            {
                harness.close();
            }
            catch (final RuntimeException | Error thrown)
            {
                if (failure == null)
                {
                    failure = new Failure(operations.length, thrown, harness.trace());
                }
            }
        }
        return failure;
    }

    /**
     * Leaves out top-level operations while the run still fails the same way (the same start of its message): halves,
     * then quarters and so on, for at most {@link #SHRINK_NANOS}.
     */
    static long[] shrink(final long setup, final long[] operations, final Failure failure)
    {
        final long deadline = System.nanoTime() + SHRINK_NANOS;
        final String kind = signature(failure.cause);
        long[] current = Arrays.copyOf(operations, Math.min(operations.length, failure.operation + 1));
        int chunk = Math.max(1, current.length / 2);
        while (System.nanoTime() < deadline)
        {
            boolean removed = false;
            for (int start = 0; start < current.length && System.nanoTime() < deadline; )
            {
                final long[] candidate = without(current, start, Math.min(current.length, start + chunk));
                final Failure again = candidate.length == 0 ? null : run(setup, candidate);
                if (again != null && signature(again.cause).equals(kind))
                {
                    current = Arrays.copyOf(candidate, Math.min(candidate.length, again.operation + 1));
                    removed = true;
                }
                else
                {
                    start += chunk;
                }
            }
            if (!removed)
            {
                if (chunk == 1)
                {
                    break;
                }
                chunk = Math.max(1, chunk / 2);
            }
        }
        return current;
    }

    /** What a failure says, without its handles and numbers: a shrunk run must fail the same way. */
    private static String signature(final Throwable failure)
    {
        final String message = String.valueOf(failure.getMessage()).replaceAll("[0-9]+", "#");
        return failure.getClass().getName() + ": " + message.substring(0, Math.min(message.length(), 50));
    }

    private static long[] without(final long[] operations, final int from, final int to)
    {
        final long[] left = new long[operations.length - (to - from)];
        System.arraycopy(operations, 0, left, 0, from);
        System.arraycopy(operations, to, left, from, operations.length - to);
        return left;
    }

    private static AssertionError report(
        final long seed, final long[] operations, final Failure failure, final long[] shrunk, final Failure again)
    {
        final List<String> seeds = new ArrayList<>();
        for (final long each : shrunk)
        {
            seeds.add(Long.toString(each));
        }
        final Failure shown = again != null ? again : failure;
        final AssertionError error = new AssertionError(
            "the world disagrees with the model: seed " + seed + " (rerun with -Dcairn.deferral.seed=" + seed + "), " +
            "operation " + failure.operation + " of " + operations.length + ": " + failure.cause.getMessage() +
            "\n\nshrunk to " + shrunk.length + " operations" + (again == null ? " (which no longer fail)" :
            ", failing at operation " + again.operation + ": " + again.cause.getMessage()) +
            "\nreplay: -Dcairn.deferral.replay=" + seed + ":" + String.join(",", seeds) +
            "\ntrace of the shrunk run, oldest first (indented: inside walks and listeners):\n" + shown.trace +
            "\n\ntrace of the original run:\n" + failure.trace + "\n",
            shown.cause);
        return error;
    }
}
