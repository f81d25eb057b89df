package dev.cairn.bench.artemis;

import com.artemis.Archetype;
import com.artemis.ArchetypeBuilder;
import com.artemis.ComponentMapper;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
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
 * Artemis-odb 2.3.0 (plain, no weaver): create, destroy, and add-then-remove a component, per entity. Create fills
 * a new world each invocation; destroy empties a world filled before each invocation. Entities are
 * created from an {@link Archetype} (Artemis-odb's fastest way to create entities with a known composition) and their
 * fields set through {@link ComponentMapper}s; deletion is {@code world.delete(id)}; a component is added with
 * {@code ComponentMapper.create(id)} and removed with {@code ComponentMapper.remove(id)}. Artemis applies entity and
 * composition changes in {@code world.process()}, so each measured invocation ends with one (or, for add-remove,
 * one after the adds and one after the removes): the work is not done until then.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class ArtemisLifecycle
{
    /** A world without systems, its archetype and mappers. */
    public abstract static class WorldState
    {
        World world;
        Archetype archetype;
        ComponentMapper<Position> positions;
        ComponentMapper<Velocity> velocities;
        ComponentMapper<Acceleration> accelerations;
        int[] ids;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            ids = new int[params.getOpsPerInvocation()];
            open();
            prepared();
        }

        void open()
        {
            world = new World(new WorldConfigurationBuilder().build());
            archetype = new ArchetypeBuilder().add(Position.class, Velocity.class).build(world);
            positions = world.getMapper(Position.class);
            velocities = world.getMapper(Velocity.class);
            accelerations = world.getMapper(Acceleration.class);
            world.process();
        }

        void prepared()
        {
        }

        /** Disposes of the world. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.dispose();
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
            world.dispose();
            open();
        }
    }

    /** A world holding the entities to delete; refilled before each invocation. */
    @State(Scope.Thread)
    public static class Full extends WorldState
    {
        /** Creates the entities the invocation will delete. */
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
        final Archetype archetype = state.archetype;
        final ComponentMapper<Position> positions = state.positions;
        final ComponentMapper<Velocity> velocities = state.velocities;
        final int[] ids = state.ids;
        for (int i = 0; i < ids.length; i++)
        {
            final int id = world.create(archetype);
            ids[i] = id;
            final Position p = positions.get(id);
            p.x = Workload.x(i);
            p.y = Workload.y(i);
            final Velocity v = velocities.get(id);
            v.dx = Workload.DX;
            v.dy = Workload.DY;
        }
        world.process();
    }

    static void destroy(final WorldState state)
    {
        final World world = state.world;
        for (final int id : state.ids)
        {
            world.delete(id);
        }
        world.process();
    }

    static void addRemove(final WorldState state)
    {
        final World world = state.world;
        final ComponentMapper<Acceleration> accelerations = state.accelerations;
        final int[] ids = state.ids;
        for (final int id : ids)
        {
            final Acceleration a = accelerations.create(id);
            a.ax = Workload.AX;
            a.ay = Workload.AY;
        }
        world.process();
        for (final int id : ids)
        {
            accelerations.remove(id);
        }
        world.process();
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
     * Delete 10,000 entities with position and velocity.
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
     * Delete 1,000,000 entities with position and velocity.
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
