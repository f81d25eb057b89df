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
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.concurrent.TimeUnit;

/**
 * Cairn: create, destroy, and add-then-remove a component, per entity, through a {@link World} and the generated
 * storages. Create is {@code world.create()} then {@code emplace} on the position and velocity storages, into a new
 * world each invocation (so it includes the storages' growth); destroy is {@code world.destroy(entity)}, which
 * removes the entity from every storage, and destroyAll {@code world.destroy(entities, count)} for all of them at once;
 * add-remove is {@code AccelerationStorage.emplace} then {@code erase}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnLifecycle
{
    /** A world, its storages and the handles of its entities. */
    public abstract static class WorldState
    {
        World world;
        PositionStorage positions;
        VelocityStorage velocities;
        AccelerationStorage accelerations;
        long[] entities;

        /**
         * Sizes the handle array and opens the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            entities = new long[params.getOpsPerInvocation()];
            open();
            prepared();
        }

        void open()
        {
            world = new World();
            positions = world.storage(PositionStorage.TYPE);
            velocities = world.storage(VelocityStorage.TYPE);
            accelerations = world.storage(AccelerationStorage.TYPE);
        }

        void prepared()
        {
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    /** A new, empty world for each invocation. */
    @State(Scope.Thread)
    public static class Empty extends WorldState
    {
        /** Replaces the world of the last invocation with a new one. */
        @Setup(Level.Invocation)
        public void renew()
        {
            world.close();
            open();
        }
    }

    /**
     * A world cleared before each invocation, which keeps the memory its last fill used: creating in it measures
     * Cairn's own work without the kernel's first touch of fresh pages, which a new world pays.
     */
    @State(Scope.Thread)
    public static class Cleared extends WorldState
    {
        @Override
        void prepared()
        {
            create(this);
        }

        /** Destroys every entity, keeping the memory. */
        @Setup(Level.Invocation)
        public void clear()
        {
            world.clear();
        }
    }

    /** A world holding the entities to destroy; refilled before each invocation. */
    @State(Scope.Thread)
    public static class Full extends WorldState
    {
        /** Creates the entities the invocation will destroy. */
        @Setup(Level.Invocation)
        public void fill()
        {
            create(this);
        }
    }

    /** A world of entities with position and velocity; add-remove leaves it as it found it. */
    @State(Scope.Thread)
    public static class Steady extends WorldState
    {
        @Override
        void prepared()
        {
            create(this);
        }
    }

    static void create(final WorldState state)
    {
        final World world = state.world;
        final PositionStorage positions = state.positions;
        final VelocityStorage velocities = state.velocities;
        final long[] entities = state.entities;
        for (int i = 0; i < entities.length; i++)
        {
            final long entity = world.create();
            positions.emplace(entity, Workload.x(i), Workload.y(i));
            velocities.emplace(entity, Workload.DX, Workload.DY);
            entities[i] = entity;
        }
    }

    static void destroy(final WorldState state)
    {
        final World world = state.world;
        for (final long entity : state.entities)
        {
            world.destroy(entity);
        }
    }

    static void addRemove(final WorldState state)
    {
        final AccelerationStorage accelerations = state.accelerations;
        final long[] entities = state.entities;
        for (final long entity : entities)
        {
            accelerations.emplace(entity, Workload.AX, Workload.AY);
        }
        for (final long entity : entities)
        {
            accelerations.erase(entity);
        }
    }

    /**
     * Create 10,000 entities with position and velocity.
     *
     * @param state an empty world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void create_10K(final Empty state)
    {
        create(state);
    }

    /**
     * Create 1,000,000 entities with position and velocity.
     *
     * @param state an empty world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void create_1M(final Empty state)
    {
        create(state);
    }

    /**
     * Create 10,000 entities with position and velocity in a world whose memory is mapped already.
     *
     * @param state a cleared world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void createReused_10K(final Cleared state)
    {
        create(state);
    }

    /**
     * Create 1,000,000 entities with position and velocity in a world whose memory is mapped already.
     *
     * @param state a cleared world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void createReused_1M(final Cleared state)
    {
        create(state);
    }

    /**
     * Destroy 10,000 entities with position and velocity.
     *
     * @param state a world of them.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void destroy_10K(final Full state)
    {
        destroy(state);
    }

    /**
     * Destroy 1,000,000 entities with position and velocity.
     *
     * @param state a world of them.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void destroy_1M(final Full state)
    {
        destroy(state);
    }

    /**
     * Destroy 10,000 entities with position and velocity in one call, {@code world.destroy(entities, count)}.
     *
     * @param state a world of them.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void destroyAll_10K(final Full state)
    {
        state.world.destroy(state.entities, state.entities.length);
    }

    /**
     * Destroy 1,000,000 entities with position and velocity in one call, {@code world.destroy(entities, count)}.
     *
     * @param state a world of them.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void destroyAll_1M(final Full state)
    {
        state.world.destroy(state.entities, state.entities.length);
    }

    /**
     * Add an acceleration to each of 10,000 entities, then remove it from each.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void addRemove_10K(final Steady state)
    {
        addRemove(state);
    }

    /**
     * Add an acceleration to each of 1,000,000 entities, then remove it from each.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void addRemove_1M(final Steady state)
    {
        addRemove(state);
    }
}
