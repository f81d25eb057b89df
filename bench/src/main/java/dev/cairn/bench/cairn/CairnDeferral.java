package dev.cairn.bench.cairn;

import dev.cairn.Entity;
import dev.cairn.bench.Workload;
import dev.cairn.world.World;
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

import java.util.concurrent.TimeUnit;

/**
 * Cairn: what a structural change made inside a walk costs against the same change made directly. Inside a walk a
 * change is checked and recorded, and made when the walk returns; the {@code InWalk} benchmarks include the walk of
 * {@code MoversView} that makes them, the {@code Direct} ones a plain loop over the handles. Each invocation starts
 * from a world of 1,000,000 entities with position and velocity, refilled in place before it (setup not measured).
 * The score is per change: half the entities are destroyed, or every entity gets an acceleration.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnDeferral
{
    /** A world of movers, refilled before each invocation. */
    @State(Scope.Thread)
    public static class Movers1M
    {
        World world;
        PositionStorage positions;
        VelocityStorage velocities;
        AccelerationStorage accelerations;
        MoversView movers;
        final long[] entities = new long[Workload.LARGE];

        /** Opens the world and builds the view. */
        @Setup(Level.Trial)
        public void open()
        {
            world = new World();
            positions = world.storage(PositionStorage.TYPE);
            velocities = world.storage(VelocityStorage.TYPE);
            accelerations = world.storage(AccelerationStorage.TYPE);
            movers = new MoversView(world);
        }

        /** Clears the world, keeping its memory, and creates the movers again. */
        @Setup(Level.Invocation)
        public void refill()
        {
            world.clear();
            for (int i = 0; i < entities.length; i++)
            {
                final long entity = world.create();
                positions.emplace(entity, Workload.x(i), Workload.y(i));
                velocities.emplace(entity, Workload.DX, Workload.DY);
                entities[i] = entity;
            }
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void close()
        {
            world.close();
        }
    }

    /**
     * Destroys every other mover from inside a walk of them: the destroys are recorded and made when it returns.
     *
     * @param state the movers.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE / 2)
    public void destroyHalfInWalk_1M(final Movers1M state)
    {
        final World world = state.world;
        state.movers.forEach((entity, position, velocity) ->
        {
            if ((Entity.index(entity) & 1) == 0)
            {
                world.destroy(entity);
            }
        });
    }

    /**
     * Destroys every other mover in a loop over their handles.
     *
     * @param state the movers.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE / 2)
    public void destroyHalfDirect_1M(final Movers1M state)
    {
        final World world = state.world;
        final long[] entities = state.entities;
        for (final long entity : entities)
        {
            if ((Entity.index(entity) & 1) == 0)
            {
                world.destroy(entity);
            }
        }
    }

    /**
     * Gives every mover an acceleration from inside a walk of them: the adds are recorded and made when it returns.
     *
     * @param state the movers.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void addInWalk_1M(final Movers1M state)
    {
        final AccelerationStorage accelerations = state.accelerations;
        state.movers.forEach((entity, position, velocity) -> accelerations.emplace(entity, Workload.AX, Workload.AY));
    }

    /**
     * Gives every mover an acceleration in a loop over their handles.
     *
     * @param state the movers.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void addDirect_1M(final Movers1M state)
    {
        final AccelerationStorage accelerations = state.accelerations;
        for (final long entity : state.entities)
        {
            accelerations.emplace(entity, Workload.AX, Workload.AY);
        }
    }
}
