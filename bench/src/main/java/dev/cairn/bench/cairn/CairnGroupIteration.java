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
import java.util.function.IntConsumer;

/**
 * Cairn's groups on the workloads of {@link CairnIteration}: the same actions over full-owning groups
 * ({@link MovementGroup}, {@link Acceleration3Group}, {@link ActiveMovementGroup}) instead of views, so the owned
 * storages are walked at the loop's index with no lookup; and add + remove of an owned component while a group that
 * owns it is registered (compare {@code CairnLifecycle.addRemove}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnGroupIteration
{
    /** Entities with position, velocity and acceleration, and the two full-owning groups over them. */
    @State(Scope.Thread)
    public static class Moving
    {
        World twoWorld;
        World threeWorld;
        MovementGroup movement;
        Acceleration3Group accelerated;
        /** Position += velocity at an index of the two-component world's storages. */
        IntConsumer move;
        /** Position += velocity, velocity += acceleration at an index of the three-component world's storages. */
        IntConsumer accelerate;

        /**
         * Creates the worlds: one per group, so that the groups own their storages alone.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            twoWorld = filled(count, false);
            movement = new MovementGroup(twoWorld);
            threeWorld = filled(count, true);
            accelerated = new Acceleration3Group(threeWorld);
            move = moveByIndex(twoWorld);
            accelerate = accelerateByIndex(threeWorld);
        }

        /** Frees the worlds' memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            twoWorld.close();
            threeWorld.close();
        }
    }

    /** Entities with position and velocity, every other one frozen, and the group that excludes frozen ones. */
    @State(Scope.Thread)
    public static class HalfFrozen
    {
        World world;
        ActiveMovementGroup active;
        /** Position += velocity at an index of the world's storages. */
        IntConsumer move;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            world = new World();
            final PositionStorage positions = world.storage(PositionStorage.TYPE);
            final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
            final FrozenStorage frozen = world.storage(FrozenStorage.TYPE);
            for (int i = 0; i < count; i++)
            {
                final long entity = world.create();
                positions.emplace(entity, Workload.x(i), Workload.y(i));
                velocities.emplace(entity, Workload.DX, Workload.DY);
                if (Workload.frozen(i))
                {
                    frozen.emplace(entity);
                }
            }
            active = new ActiveMovementGroup(world);
            move = moveByIndex(world);
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    /** Entities with position and velocity, and a group owning position, velocity and acceleration. */
    @State(Scope.Thread)
    public static class Steady
    {
        World world;
        AccelerationStorage accelerations;
        Acceleration3Group accelerated;
        long[] entities;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            world = filled(count, false);
            accelerations = world.storage(AccelerationStorage.TYPE);
            accelerated = new Acceleration3Group(world);
            entities = new long[count];
            world.forEachEntity(new java.util.function.LongConsumer()
            {
                private int next;

                @Override
                public void accept(final long entity)
                {
                    entities[next++] = entity;
                }
            });
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    static World filled(final int count, final boolean accelerated)
    {
        final World world = new World();
        final PositionStorage positions = world.storage(PositionStorage.TYPE);
        final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
        final AccelerationStorage accelerations = world.storage(AccelerationStorage.TYPE);
        for (int i = 0; i < count; i++)
        {
            final long entity = world.create();
            positions.emplace(entity, Workload.x(i), Workload.y(i));
            velocities.emplace(entity, Workload.DX, Workload.DY);
            if (accelerated)
            {
                accelerations.emplace(entity, Workload.AX, Workload.AY);
            }
        }
        return world;
    }

    static void iterate2(final MovementGroup group)
    {
        group.forEach((entity, p, v) ->
        {
            p.x(p.x() + v.dx());
            p.y(p.y() + v.dy());
        });
    }

    static void iterate3(final Acceleration3Group group)
    {
        group.forEach((entity, p, v, a) ->
        {
            final float dx = v.dx();
            final float dy = v.dy();
            p.x(p.x() + dx);
            p.y(p.y() + dy);
            v.dx(dx + a.ax());
            v.dy(dy + a.ay());
        });
    }

    static IntConsumer moveByIndex(final World world)
    {
        final PositionStorage positions = world.storage(PositionStorage.TYPE);
        final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
        return i ->
        {
            positions.xAt(i, positions.xAt(i) + velocities.dxAt(i));
            positions.yAt(i, positions.yAt(i) + velocities.dyAt(i));
        };
    }

    static IntConsumer accelerateByIndex(final World world)
    {
        final PositionStorage positions = world.storage(PositionStorage.TYPE);
        final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
        final AccelerationStorage accelerations = world.storage(AccelerationStorage.TYPE);
        return i ->
        {
            final float dx = velocities.dxAt(i);
            final float dy = velocities.dyAt(i);
            positions.xAt(i, positions.xAt(i) + dx);
            positions.yAt(i, positions.yAt(i) + dy);
            velocities.dxAt(i, dx + accelerations.axAt(i));
            velocities.dyAt(i, dy + accelerations.ayAt(i));
        };
    }

    static void exclude(final ActiveMovementGroup group)
    {
        group.forEach((entity, p, v) ->
        {
            p.x(p.x() + v.dx());
            p.y(p.y() + v.dy());
        });
    }

    /**
     * Position += velocity over a full-owning group of 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Moving state)
    {
        iterate2(state.movement);
    }

    /**
     * Position += velocity over a full-owning group of 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate2_10M(final Moving state)
    {
        iterate2(state.movement);
    }

    /**
     * Position += velocity, velocity += acceleration over a full-owning group of 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Moving state)
    {
        iterate3(state.accelerated);
    }

    /**
     * The exclusion workload over 10,000 entities, half frozen, through a group (per entity of the world).
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final HalfFrozen state)
    {
        exclude(state.active);
    }

    /**
     * The exclusion workload over 1,000,000 entities, half frozen, through a group.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final HalfFrozen state)
    {
        exclude(state.active);
    }

    /**
     * The exclusion workload over 10,000,000 entities, half frozen, through a group.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void viewExclude_10M(final HalfFrozen state)
    {
        exclude(state.active);
    }

    /**
     * Add an acceleration to each of 10,000 entities, then remove it, while a group owns accelerations: each add
     * joins the group and each removal leaves it, swapping in three storages.
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
     * Add an acceleration to each of 1,000,000 entities, then remove it, while a group owns accelerations: each add
     * joins the group and each removal leaves it, swapping in three storages.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void addRemove_1M(final Steady state)
    {
        addRemove(state);
    }

    static void addRemove(final Steady state)
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
}
