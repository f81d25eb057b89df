package dev.cairn.bench.baseline;

import dev.cairn.bench.Workload;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
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
 * Baseline: the same iteration, exclusion and random-access work as a hand-written loop over off-heap Agrona
 * {@link UnsafeBuffer} columns, one per field, with Agrona's bounds checks on (the default). Each loop checks its
 * whole range once up front ({@code boundsCheck(0, bytes)}), which lets the JIT prove the per-access checks redundant;
 * this is the floor for off-heap storage, so Cairn's overhead over it is the cost of being an ECS.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class BufferIteration
{
    /** Position, velocity and acceleration columns, a frozen byte per entity and a shuffled index order. */
    @State(Scope.Thread)
    public static class Columns
    {
        int count;
        UnsafeBuffer x;
        UnsafeBuffer y;
        UnsafeBuffer dx;
        UnsafeBuffer dy;
        UnsafeBuffer ax;
        UnsafeBuffer ay;
        UnsafeBuffer frozen;
        int[] shuffled;

        /**
         * Fills the columns.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            count = params.getOpsPerInvocation();
            x = column(count, Float.BYTES);
            y = column(count, Float.BYTES);
            dx = column(count, Float.BYTES);
            dy = column(count, Float.BYTES);
            ax = column(count, Float.BYTES);
            ay = column(count, Float.BYTES);
            frozen = column(count, 1);
            for (int i = 0; i < count; i++)
            {
                final int offset = i << 2;
                x.putFloat(offset, Workload.x(i));
                y.putFloat(offset, Workload.y(i));
                dx.putFloat(offset, Workload.DX);
                dy.putFloat(offset, Workload.DY);
                ax.putFloat(offset, Workload.AX);
                ay.putFloat(offset, Workload.AY);
                frozen.putByte(i, Workload.frozen(i) ? (byte)1 : (byte)0);
            }
            shuffled = Workload.shuffledIndices(count);
        }
    }

    static UnsafeBuffer column(final int count, final int width)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(64, count * width), 64));
    }

    static void iterate1(final Columns c)
    {
        final UnsafeBuffer x = c.x;
        final UnsafeBuffer y = c.y;
        final int bytes = c.count << 2;
        x.boundsCheck(0, bytes);
        y.boundsCheck(0, bytes);
        for (int offset = 0; offset < bytes; offset += Float.BYTES)
        {
            x.putFloat(offset, x.getFloat(offset) + Workload.STEP);
            y.putFloat(offset, y.getFloat(offset) + Workload.STEP);
        }
    }

    static void iterate2(final Columns c)
    {
        final UnsafeBuffer x = c.x;
        final UnsafeBuffer y = c.y;
        final UnsafeBuffer dx = c.dx;
        final UnsafeBuffer dy = c.dy;
        final int bytes = c.count << 2;
        x.boundsCheck(0, bytes);
        y.boundsCheck(0, bytes);
        dx.boundsCheck(0, bytes);
        dy.boundsCheck(0, bytes);
        for (int offset = 0; offset < bytes; offset += Float.BYTES)
        {
            x.putFloat(offset, x.getFloat(offset) + dx.getFloat(offset));
            y.putFloat(offset, y.getFloat(offset) + dy.getFloat(offset));
        }
    }

    static void iterate3(final Columns c)
    {
        final UnsafeBuffer x = c.x;
        final UnsafeBuffer y = c.y;
        final UnsafeBuffer dx = c.dx;
        final UnsafeBuffer dy = c.dy;
        final UnsafeBuffer ax = c.ax;
        final UnsafeBuffer ay = c.ay;
        final int bytes = c.count << 2;
        x.boundsCheck(0, bytes);
        y.boundsCheck(0, bytes);
        dx.boundsCheck(0, bytes);
        dy.boundsCheck(0, bytes);
        ax.boundsCheck(0, bytes);
        ay.boundsCheck(0, bytes);
        for (int offset = 0; offset < bytes; offset += Float.BYTES)
        {
            final float vx = dx.getFloat(offset);
            final float vy = dy.getFloat(offset);
            x.putFloat(offset, x.getFloat(offset) + vx);
            y.putFloat(offset, y.getFloat(offset) + vy);
            dx.putFloat(offset, vx + ax.getFloat(offset));
            dy.putFloat(offset, vy + ay.getFloat(offset));
        }
    }

    static void viewExclude(final Columns c)
    {
        final UnsafeBuffer x = c.x;
        final UnsafeBuffer y = c.y;
        final UnsafeBuffer dx = c.dx;
        final UnsafeBuffer dy = c.dy;
        final UnsafeBuffer frozen = c.frozen;
        final int count = c.count;
        final int bytes = count << 2;
        x.boundsCheck(0, bytes);
        y.boundsCheck(0, bytes);
        dx.boundsCheck(0, bytes);
        dy.boundsCheck(0, bytes);
        frozen.boundsCheck(0, count);
        for (int i = 0; i < count; i++)
        {
            if (frozen.getByte(i) == 0)
            {
                final int offset = i << 2;
                x.putFloat(offset, x.getFloat(offset) + dx.getFloat(offset));
                y.putFloat(offset, y.getFloat(offset) + dy.getFloat(offset));
            }
        }
    }

    static float randomGet(final Columns c)
    {
        final UnsafeBuffer x = c.x;
        final UnsafeBuffer y = c.y;
        final int bytes = c.count << 2;
        x.boundsCheck(0, bytes);
        y.boundsCheck(0, bytes);
        float sum = 0;
        for (final int i : c.shuffled)
        {
            sum += x.getFloat(i << 2) + y.getFloat(i << 2);
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
