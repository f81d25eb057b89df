package dev.cairn.bench.artemis;

import com.artemis.Archetype;
import com.artemis.ArchetypeBuilder;
import com.artemis.BaseSystem;
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
 * Artemis-odb 2.3.0 (plain, no weaver): iteration, a view with an exclusion and random access, per entity. Each
 * state builds its world through {@link WorldConfigurationBuilder} with exactly the one system measured
 * ({@link Systems}), creates the entities from an {@link Archetype} and runs one {@code world.process()} before
 * measuring, which flushes the subscriptions. A measured invocation is one {@code world.process()}. Random access is
 * {@code ComponentMapper.get(id)} over a shuffled id array.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class ArtemisIteration
{
    /** A world whose entities have position, velocity and acceleration (every other one Frozen if asked). */
    public abstract static class WorldState
    {
        World world;
        int[] ids;

        abstract BaseSystem system();

        boolean halfFrozen()
        {
            return false;
        }

        /**
         * Creates the world and its entities and runs one process().
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            final WorldConfigurationBuilder builder = new WorldConfigurationBuilder();
            final BaseSystem system = system();
            if (system != null)
            {
                builder.with(system);
            }
            world = new World(builder.build());
            final Archetype moving = new ArchetypeBuilder()
                .add(Position.class, Velocity.class, Acceleration.class).build(world);
            final Archetype frozen = new ArchetypeBuilder(moving).add(Frozen.class).build(world);
            final ComponentMapper<Position> positions = world.getMapper(Position.class);
            final ComponentMapper<Velocity> velocities = world.getMapper(Velocity.class);
            final ComponentMapper<Acceleration> accelerations = world.getMapper(Acceleration.class);
            ids = new int[count];
            for (int i = 0; i < count; i++)
            {
                final int id = world.create(halfFrozen() && Workload.frozen(i) ? frozen : moving);
                ids[i] = id;
                final Position p = positions.get(id);
                p.x = Workload.x(i);
                p.y = Workload.y(i);
                final Velocity v = velocities.get(id);
                v.dx = Workload.DX;
                v.dy = Workload.DY;
                final Acceleration a = accelerations.get(id);
                a.ax = Workload.AX;
                a.ay = Workload.AY;
            }
            world.process();
            prepared();
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

    /** World running {@link Systems.MoveOne}. */
    @State(Scope.Thread)
    public static class One extends WorldState
    {
        @Override
        BaseSystem system()
        {
            return new Systems.MoveOne();
        }
    }

    /** World running {@link Systems.MoveTwo}. */
    @State(Scope.Thread)
    public static class Two extends WorldState
    {
        @Override
        BaseSystem system()
        {
            return new Systems.MoveTwo();
        }
    }

    /** World running {@link Systems.MoveThree}. */
    @State(Scope.Thread)
    public static class Three extends WorldState
    {
        @Override
        BaseSystem system()
        {
            return new Systems.MoveThree();
        }
    }

    /** World running {@link Systems.MoveUnfrozen}; every other entity is Frozen. */
    @State(Scope.Thread)
    public static class Unfrozen extends WorldState
    {
        @Override
        BaseSystem system()
        {
            return new Systems.MoveUnfrozen();
        }

        @Override
        boolean halfFrozen()
        {
            return true;
        }
    }

    /** World without systems, a position mapper and the entity ids in a shuffled order. */
    @State(Scope.Thread)
    public static class Lookup extends WorldState
    {
        ComponentMapper<Position> positions;
        int[] shuffled;

        @Override
        BaseSystem system()
        {
            return null;
        }

        @Override
        void prepared()
        {
            positions = world.getMapper(Position.class);
            final int[] order = Workload.shuffledIndices(ids.length);
            shuffled = new int[ids.length];
            for (int i = 0; i < ids.length; i++)
            {
                shuffled[i] = ids[order[i]];
            }
        }
    }

    static float randomGet(final Lookup state)
    {
        final ComponentMapper<Position> positions = state.positions;
        float sum = 0;
        for (final int id : state.shuffled)
        {
            final Position p = positions.get(id);
            sum += p.x + p.y;
        }
        return sum;
    }

    /**
     * Position += (1, 1) over 10,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate1_10K(final One state)
    {
        state.world.process();
    }

    /**
     * Position += (1, 1) over 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate1_1M(final One state)
    {
        state.world.process();
    }

    /**
     * Position += (1, 1) over 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate1_10M(final One state)
    {
        state.world.process();
    }

    /**
     * Position += velocity over 10,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate2_10K(final Two state)
    {
        state.world.process();
    }

    /**
     * Position += velocity over 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Two state)
    {
        state.world.process();
    }

    /**
     * Position += velocity over 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate2_10M(final Two state)
    {
        state.world.process();
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate3_10K(final Three state)
    {
        state.world.process();
    }

    /**
     * Position += velocity, velocity += acceleration over 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Three state)
    {
        state.world.process();
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate3_10M(final Three state)
    {
        state.world.process();
    }

    /**
     * Position += velocity over 10,000 entities, half of them excluded by a tag.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final Unfrozen state)
    {
        state.world.process();
    }

    /**
     * Position += velocity over 1,000,000 entities, half of them excluded by a tag.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final Unfrozen state)
    {
        state.world.process();
    }

    /**
     * Position += velocity over 10,000,000 entities, half of them excluded by a tag.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void viewExclude_10M(final Unfrozen state)
    {
        state.world.process();
    }

    /**
     * Read the position of each of 10,000 entities in random order.
     *
     * @param state the world.
     * @return the sum of the coordinates read.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public float randomGet_10K(final Lookup state)
    {
        return randomGet(state);
    }

    /**
     * Read the position of each of 1,000,000 entities in random order.
     *
     * @param state the world.
     * @return the sum of the coordinates read.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public float randomGet_1M(final Lookup state)
    {
        return randomGet(state);
    }
}
