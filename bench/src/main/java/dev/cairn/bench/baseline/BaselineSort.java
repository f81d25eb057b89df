package dev.cairn.bench.baseline;

import dev.cairn.bench.Workload;
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

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Baselines for sorting 150,000 entities by position x: the entity handle column and the x and y columns move
 * together, as a storage's do. The hand-written way: pack each row's sortable x bits and row number into one
 * {@code long}, {@code Arrays.sort} the longs (a primitive dual-pivot quicksort, no comparator calls), then gather
 * every column into a scratch column in the new order and swap the two. The x values are re-randomised before each
 * invocation. Report names: {@code ArraySort} and {@code BufferSort}, the two nested benchmark classes.
 */
public final class BaselineSort
{
    private BaselineSort()
    {
    }

    /**
     * A float's bits turned into an int with the same order as the floats (negative values flipped).
     *
     * @param value a float that is not NaN.
     * @return an int that compares like the float.
     */
    static int sortableBits(final float value)
    {
        final int bits = Float.floatToRawIntBits(value);
        return bits ^ ((bits >> 31) & Integer.MAX_VALUE);
    }

    static long key(final float x, final int row)
    {
        return ((long)sortableBits(x) << 32) | (row & 0xFFFF_FFFFL);
    }

    /** Sorting {@code long[]} and {@code float[]} columns. */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(value = 1, jvmArgsAppend = {
        Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET,
        Workload.HEAP_MIN, Workload.HEAP_MAX})
    public static class ArraySort
    {
        /** The columns, a scratch copy of each and the key array. */
        @State(Scope.Thread)
        public static class Columns
        {
            long[] entity = new long[Workload.SORT];
            float[] x = new float[Workload.SORT];
            float[] y = new float[Workload.SORT];
            long[] entityScratch = new long[Workload.SORT];
            float[] xScratch = new float[Workload.SORT];
            float[] yScratch = new float[Workload.SORT];
            long[] keys = new long[Workload.SORT];
            SplittableRandom random;

            /** Fills the handle and y columns. */
            @Setup(Level.Trial)
            public void setUp()
            {
                for (int i = 0; i < Workload.SORT; i++)
                {
                    entity[i] = i;
                    y[i] = Workload.y(i);
                }
                random = Workload.random();
            }

            /** Gives every row a new random x. */
            @Setup(Level.Invocation)
            public void shuffle()
            {
                for (int i = 0; i < Workload.SORT; i++)
                {
                    x[i] = (float)random.nextDouble();
                }
            }
        }

        /**
         * Sort 150,000 rows by x.
         *
         * @param c the columns.
         */
        @Benchmark
        @OperationsPerInvocation(Workload.SORT)
        public void sort_150K(final Columns c)
        {
            final float[] x = c.x;
            final float[] y = c.y;
            final long[] entity = c.entity;
            final long[] keys = c.keys;
            final int n = keys.length;
            for (int i = 0; i < n; i++)
            {
                keys[i] = key(x[i], i);
            }
            Arrays.sort(keys);
            final float[] xOut = c.xScratch;
            final float[] yOut = c.yScratch;
            final long[] entityOut = c.entityScratch;
            for (int k = 0; k < n; k++)
            {
                final int row = (int)keys[k];
                xOut[k] = x[row];
                yOut[k] = y[row];
                entityOut[k] = entity[row];
            }
            c.x = xOut;
            c.xScratch = x;
            c.y = yOut;
            c.yScratch = y;
            c.entity = entityOut;
            c.entityScratch = entity;
        }
    }

    /** Sorting off-heap {@link UnsafeBuffer} columns (bounds checks on, hoisted). */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(value = 1, jvmArgsAppend = {
        Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET,
        Workload.HEAP_MIN, Workload.HEAP_MAX})
    public static class BufferSort
    {
        /** The columns, a scratch copy of each and the key array. */
        @State(Scope.Thread)
        public static class Columns
        {
            UnsafeBuffer entity = BufferIteration.column(Workload.SORT, Long.BYTES);
            UnsafeBuffer x = BufferIteration.column(Workload.SORT, Float.BYTES);
            UnsafeBuffer y = BufferIteration.column(Workload.SORT, Float.BYTES);
            UnsafeBuffer entityScratch = BufferIteration.column(Workload.SORT, Long.BYTES);
            UnsafeBuffer xScratch = BufferIteration.column(Workload.SORT, Float.BYTES);
            UnsafeBuffer yScratch = BufferIteration.column(Workload.SORT, Float.BYTES);
            long[] keys = new long[Workload.SORT];
            SplittableRandom random;

            /** Fills the handle and y columns. */
            @Setup(Level.Trial)
            public void setUp()
            {
                for (int i = 0; i < Workload.SORT; i++)
                {
                    entity.putLong(i << 3, i);
                    y.putFloat(i << 2, Workload.y(i));
                }
                random = Workload.random();
            }

            /** Gives every row a new random x. */
            @Setup(Level.Invocation)
            public void shuffle()
            {
                for (int i = 0; i < Workload.SORT; i++)
                {
                    x.putFloat(i << 2, (float)random.nextDouble());
                }
            }
        }

        /**
         * Sort 150,000 rows by x.
         *
         * @param c the columns.
         */
        @Benchmark
        @OperationsPerInvocation(Workload.SORT)
        public void sort_150K(final Columns c)
        {
            final UnsafeBuffer x = c.x;
            final UnsafeBuffer y = c.y;
            final UnsafeBuffer entity = c.entity;
            final UnsafeBuffer xOut = c.xScratch;
            final UnsafeBuffer yOut = c.yScratch;
            final UnsafeBuffer entityOut = c.entityScratch;
            final long[] keys = c.keys;
            final int n = keys.length;
            x.boundsCheck(0, n << 2);
            y.boundsCheck(0, n << 2);
            entity.boundsCheck(0, n << 3);
            xOut.boundsCheck(0, n << 2);
            yOut.boundsCheck(0, n << 2);
            entityOut.boundsCheck(0, n << 3);
            for (int i = 0; i < n; i++)
            {
                keys[i] = key(x.getFloat(i << 2), i);
            }
            Arrays.sort(keys);
            for (int k = 0; k < n; k++)
            {
                final int row = (int)keys[k];
                xOut.putFloat(k << 2, x.getFloat(row << 2));
                yOut.putFloat(k << 2, y.getFloat(row << 2));
                entityOut.putLong(k << 3, entity.getLong(row << 3));
            }
            c.x = xOut;
            c.xScratch = x;
            c.y = yOut;
            c.yScratch = y;
            c.entity = entityOut;
            c.entityScratch = entity;
        }
    }
}
