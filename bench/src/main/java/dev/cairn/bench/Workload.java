package dev.cairn.bench;

import java.util.SplittableRandom;

/**
 * What every benchmark in this suite shares: entity counts, the JVM arguments of each fork, the starting values of
 * the components and the pre-shuffled access orders, so every library is measured on the same data.
 * <p>
 * Benchmark methods are named {@code <workload>_<size>} ({@code iterate2_1M}) and carry
 * {@code @OperationsPerInvocation(size)}, so JMH reports nanoseconds and bytes per <em>entity</em>; states read the
 * entity count back from {@code BenchmarkParams.getOpsPerInvocation()}. The report generator relies on this naming.
 */
public final class Workload
{
    /** The small world. */
    public static final int SMALL = 10_000;

    /** The large world. */
    public static final int LARGE = 1_000_000;

    /** The largest entity count, for the iteration workloads, where every library's memory allows it. */
    public static final int HUGE = 10_000_000;

    /** Entities in the storage the sort workload sorts. */
    public static final int SORT = 150_000;

    /** Seed of every random sequence in the suite. */
    public static final long SEED = 0x5EED_CA1EL;

    /** Agrona 2.x needs jdk.internal.misc; the two arguments of the flag as JMH's jvmArgsAppend wants them. */
    public static final String ADD_EXPORTS = "--add-exports";

    /** The value of {@link #ADD_EXPORTS}. */
    public static final String ADD_EXPORTS_VALUE = "java.base/jdk.internal.misc=ALL-UNNAMED";

    /** Dominion prints a banner on start unless told not to. */
    public static final String DOMINION_QUIET = "-Ddominion.show-banner=false";

    /** Fixed heap, so the heap-based peers neither resize nor run short at a million entities. */
    public static final String HEAP_MIN = "-Xms3g";

    /** See {@link #HEAP_MIN}. */
    public static final String HEAP_MAX = "-Xmx3g";

    private Workload()
    {
    }

    /**
     * Indices {@code 0..count-1} in a random order fixed by {@link #SEED}: the access order of the random-access
     * benchmark.
     *
     * @param count how many.
     * @return a permutation of {@code [0, count)}.
     */
    public static int[] shuffledIndices(final int count)
    {
        final int[] indices = new int[count];
        for (int i = 0; i < count; i++)
        {
            indices[i] = i;
        }
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = count - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swap = indices[i];
            indices[i] = indices[j];
            indices[j] = swap;
        }
        return indices;
    }

    /**
     * Whether entity number {@code i} carries the tag that the exclusion view filters out: every other one.
     *
     * @param i the entity's creation order.
     * @return true for half of the entities.
     */
    public static boolean frozen(final int i)
    {
        return (i & 1) == 0;
    }

    /**
     * A fresh random sequence for sort keys; each call returns the same sequence.
     *
     * @return a generator seeded with {@link #SEED}.
     */
    public static SplittableRandom random()
    {
        return new SplittableRandom(SEED);
    }

    /**
     * Starting x of entity {@code i}.
     *
     * @param i creation order.
     * @return the value.
     */
    public static float x(final int i)
    {
        return i;
    }

    /**
     * Starting y of entity {@code i}.
     *
     * @param i creation order.
     * @return the value.
     */
    public static float y(final int i)
    {
        return i * 0.5f;
    }

    /** Starting velocity, x. */
    public static final float DX = 1.0f;

    /** Starting velocity, y. */
    public static final float DY = 0.5f;

    /** Acceleration, x. */
    public static final float AX = 0.01f;

    /** Acceleration, y. */
    public static final float AY = 0.02f;

    /** What the one-component iteration adds to each position. */
    public static final float STEP = 1.0f;
}
