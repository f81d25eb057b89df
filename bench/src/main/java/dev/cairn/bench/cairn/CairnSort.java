package dev.cairn.bench.cairn;

import dev.cairn.world.World;
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
import org.openjdk.jmh.annotations.TearDown;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Cairn: sort a 150,000-entity position storage by x with {@code positions.sort(positions.comparingX())}: a stable
 * sort of packed indices through the generated, non-boxing comparator, then the packed handles and both columns
 * permuted in place. The x values are re-randomised before each invocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnSort
{
    /** A world of entities with a position. */
    @State(Scope.Thread)
    public static class Unsorted
    {
        World world;
        PositionStorage positions;
        SplittableRandom random;

        /** Creates the world. */
        @Setup(Level.Trial)
        public void setUp()
        {
            world = new World();
            positions = world.storage(PositionStorage.TYPE);
            for (int i = 0; i < Workload.SORT; i++)
            {
                positions.emplace(world.create(), 0f, Workload.y(i));
            }
            random = Workload.random();
        }

        /** Gives every entity a new random x. */
        @Setup(Level.Invocation)
        public void shuffle()
        {
            final PositionStorage positions = this.positions;
            for (int i = 0, n = positions.size(); i < n; i++)
            {
                positions.xAt(i, (float)random.nextDouble());
            }
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    /**
     * Sort 150,000 entities by position x.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SORT)
    public void sort_150K(final Unsorted state)
    {
        state.positions.sort(state.positions.comparingX());
    }
}
