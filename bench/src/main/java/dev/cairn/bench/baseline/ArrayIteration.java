package dev.cairn.bench.baseline;

import dev.cairn.bench.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.concurrent.TimeUnit;

/**
 * Baseline: the same iteration, exclusion and random-access work as a hand-written loop over on-heap
 * {@code float[]} columns (structure of arrays, one column per field). No entities, no membership: the floor for
 * code that knows its data layout at compile time. The exclusion loop tests a {@code boolean[]} per entity.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class ArrayIteration
{
    /** Position, velocity and acceleration columns, a frozen flag per entity and a shuffled index order. */
    @State(Scope.Thread)
    public static class Columns
    {
        float[] x;
        float[] y;
        float[] dx;
        float[] dy;
        float[] ax;
        float[] ay;
        boolean[] frozen;
        int[] shuffled;

        /**
         * Fills the columns.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            x = new float[count];
            y = new float[count];
            dx = new float[count];
            dy = new float[count];
            ax = new float[count];
            ay = new float[count];
            frozen = new boolean[count];
            for (int i = 0; i < count; i++)
            {
                x[i] = Workload.x(i);
                y[i] = Workload.y(i);
                dx[i] = Workload.DX;
                dy[i] = Workload.DY;
                ax[i] = Workload.AX;
                ay[i] = Workload.AY;
                frozen[i] = Workload.frozen(i);
            }
            shuffled = Workload.shuffledIndices(count);
        }
    }

    static void iterate1(final Columns c)
    {
        final float[] x = c.x;
        final float[] y = c.y;
        for (int i = 0; i < x.length; i++)
        {
            x[i] += Workload.STEP;
            y[i] += Workload.STEP;
        }
    }

    static void iterate2(final Columns c)
    {
        final float[] x = c.x;
        final float[] y = c.y;
        final float[] dx = c.dx;
        final float[] dy = c.dy;
        for (int i = 0; i < x.length; i++)
        {
            x[i] += dx[i];
            y[i] += dy[i];
        }
    }

    static void iterate3(final Columns c)
    {
        final float[] x = c.x;
        final float[] y = c.y;
        final float[] dx = c.dx;
        final float[] dy = c.dy;
        final float[] ax = c.ax;
        final float[] ay = c.ay;
        for (int i = 0; i < x.length; i++)
        {
            x[i] += dx[i];
            y[i] += dy[i];
            dx[i] += ax[i];
            dy[i] += ay[i];
        }
    }

    static void viewExclude(final Columns c)
    {
        final float[] x = c.x;
        final float[] y = c.y;
        final float[] dx = c.dx;
        final float[] dy = c.dy;
        final boolean[] frozen = c.frozen;
        for (int i = 0; i < x.length; i++)
        {
            if (!frozen[i])
            {
                x[i] += dx[i];
                y[i] += dy[i];
            }
        }
    }

    static float randomGet(final Columns c)
    {
        final float[] x = c.x;
        final float[] y = c.y;
        float sum = 0;
        for (final int i : c.shuffled)
        {
            sum += x[i] + y[i];
        }
        return sum;
    }

    /**
     * Position += (1, 1) over 10,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate1_10K(final Columns c)
    {
        iterate1(c);
    }

    /**
     * Position += (1, 1) over 1,000,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate1_1M(final Columns c)
    {
        iterate1(c);
    }

    /**
     * Position += (1, 1) over 10,000,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate1_10M(final Columns c)
    {
        iterate1(c);
    }

    /**
     * Position += velocity over 10,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate2_10K(final Columns c)
    {
        iterate2(c);
    }

    /**
     * Position += velocity over 1,000,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Columns c)
    {
        iterate2(c);
    }

    /**
     * Position += velocity over 10,000,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate2_10M(final Columns c)
    {
        iterate2(c);
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate3_10K(final Columns c)
    {
        iterate3(c);
    }

    /**
     * Position += velocity, velocity += acceleration over 1,000,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Columns c)
    {
        iterate3(c);
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000,000 entities.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate3_10M(final Columns c)
    {
        iterate3(c);
    }

    /**
     * Position += velocity over 10,000 entities, skipping the half that are frozen.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final Columns c)
    {
        viewExclude(c);
    }

    /**
     * Position += velocity over 1,000,000 entities, skipping the half that are frozen.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final Columns c)
    {
        viewExclude(c);
    }

    /**
     * Position += velocity over 10,000,000 entities, skipping the half that are frozen.
     *
     * @param c the columns.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void viewExclude_10M(final Columns c)
    {
        viewExclude(c);
    }

    /**
     * Read the position of each of 10,000 entities in random order.
     *
     * @param c the columns.
     * @return the sum of the coordinates read.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public float randomGet_10K(final Columns c)
    {
        return randomGet(c);
    }

    /**
     * Read the position of each of 1,000,000 entities in random order.
     *
     * @param c the columns.
     * @return the sum of the coordinates read.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public float randomGet_1M(final Columns c)
    {
        return randomGet(c);
    }
}
