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
 * Cairn: iteration, a view with an exclusion and random access, per entity. Iteration goes through the generated
 * views ({@link DriftersView}, {@link MoversView}, {@link AcceleratingView}, {@link ActiveMoversView}), built once
 * per world as a system would hold them, with {@code forEach} and a non-capturing lambda over the views' positioned
 * {@code Ref}s. Random access is {@code indexOf(entity)} then {@code xAt}/{@code yAt} over a shuffled handle
 * array.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnIteration
{
    /** Entities with position, velocity and acceleration, the views over them, and the handles shuffled. */
    @State(Scope.Thread)
    public static class Moving
    {
        World world;
        PositionStorage positions;
        DriftersView drifters;
        MoversView movers;
        AcceleratingView accelerating;
        long[] shuffled;

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
            positions = world.storage(PositionStorage.TYPE);
            final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
            final AccelerationStorage accelerations = world.storage(AccelerationStorage.TYPE);
            final long[] entities = new long[count];
            for (int i = 0; i < count; i++)
            {
                final long entity = world.create();
                positions.emplace(entity, Workload.x(i), Workload.y(i));
                velocities.emplace(entity, Workload.DX, Workload.DY);
                accelerations.emplace(entity, Workload.AX, Workload.AY);
                entities[i] = entity;
            }
            drifters = new DriftersView(world);
            movers = new MoversView(world);
            accelerating = new AcceleratingView(world);
            final int[] order = Workload.shuffledIndices(count);
            shuffled = new long[count];
            for (int i = 0; i < count; i++)
            {
                shuffled[i] = entities[order[i]];
            }
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    /** Entities with position and velocity, every other one Frozen, and the view that excludes Frozen. */
    @State(Scope.Thread)
    public static class HalfFrozen
    {
        World world;
        ActiveMoversView active;

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
            active = new ActiveMoversView(world);
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    static void iterate1(final DriftersView view)
    {
        view.forEach((entity, p) ->
        {
            p.x(p.x() + Workload.STEP);
            p.y(p.y() + Workload.STEP);
        });
    }

    static void iterate2(final MoversView view)
    {
        view.forEach((entity, p, v) ->
        {
            p.x(p.x() + v.dx());
            p.y(p.y() + v.dy());
        });
    }

    static void iterate3(final AcceleratingView view)
    {
        view.forEach((entity, p, v, a) ->
        {
            final float dx = v.dx();
            final float dy = v.dy();
            p.x(p.x() + dx);
            p.y(p.y() + dy);
            v.dx(dx + a.ax());
            v.dy(dy + a.ay());
        });
    }

    static void viewExclude(final ActiveMoversView view)
    {
        view.forEach((entity, p, v) ->
        {
            p.x(p.x() + v.dx());
            p.y(p.y() + v.dy());
        });
    }

    static float randomGet(final Moving state)
    {
        final PositionStorage positions = state.positions;
        float sum = 0;
        for (final long entity : state.shuffled)
        {
            final int index = positions.indexOf(entity);
            sum += positions.xAt(index) + positions.yAt(index);
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
    public void iterate1_10K(final Moving state)
    {
        iterate1(state.drifters);
    }

    /**
     * Position += (1, 1) over 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate1_1M(final Moving state)
    {
        iterate1(state.drifters);
    }

    /**
     * Position += (1, 1) over 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate1_10M(final Moving state)
    {
        iterate1(state.drifters);
    }

    /**
     * Position += velocity over 10,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate2_10K(final Moving state)
    {
        iterate2(state.movers);
    }

    /**
     * Position += velocity over 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Moving state)
    {
        iterate2(state.movers);
    }

    /**
     * Position += velocity over 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate2_10M(final Moving state)
    {
        iterate2(state.movers);
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate3_10K(final Moving state)
    {
        iterate3(state.accelerating);
    }

    /**
     * Position += velocity, velocity += acceleration over 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Moving state)
    {
        iterate3(state.accelerating);
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate3_10M(final Moving state)
    {
        iterate3(state.accelerating);
    }

    /**
     * Position += velocity over 10,000 entities, half of them excluded by a tag.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final HalfFrozen state)
    {
        viewExclude(state.active);
    }

    /**
     * Position += velocity over 1,000,000 entities, half of them excluded by a tag.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final HalfFrozen state)
    {
        viewExclude(state.active);
    }

    /**
     * Position += velocity over 10,000,000 entities, half of them excluded by a tag.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void viewExclude_10M(final HalfFrozen state)
    {
        viewExclude(state.active);
    }

    /**
     * Read the position of each of 10,000 entities in random order.
     *
     * @param state the world.
     * @return the sum of the coordinates read.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public float randomGet_10K(final Moving state)
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
    public float randomGet_1M(final Moving state)
    {
        return randomGet(state);
    }
}
