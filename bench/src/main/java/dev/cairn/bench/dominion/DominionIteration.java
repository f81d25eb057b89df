package dev.cairn.bench.dominion;

import dev.cairn.bench.Workload;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
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

import java.util.Iterator;
import java.util.concurrent.TimeUnit;

/**
 * Dominion 0.9.0: iteration, a view with an exclusion and random access, per entity. Iteration uses
 * {@code findCompositionsWith(...)}, which Dominion's documentation names as the fast way to iterate (it does not
 * materialise the entity), walking the {@link Results} iterator each invocation as a system would each tick;
 * the exclusion uses {@code Results.without(Frozen.class)}; random access is {@code Entity.get(Position.class)}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class DominionIteration
{
    /** Entities with position, velocity and acceleration, plus the same entities in a shuffled array. */
    @State(Scope.Thread)
    public static class Moving
    {
        Dominion dominion;
        Entity[] shuffled;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            dominion = Dominion.create();
            final Entity[] entities = new Entity[count];
            for (int i = 0; i < count; i++)
            {
                entities[i] = dominion.createEntity(
                    new Position(Workload.x(i), Workload.y(i)),
                    new Velocity(Workload.DX, Workload.DY),
                    new Acceleration(Workload.AX, Workload.AY));
            }
            final int[] order = Workload.shuffledIndices(count);
            shuffled = new Entity[count];
            for (int i = 0; i < count; i++)
            {
                shuffled[i] = entities[order[i]];
            }
        }

        /** Closes the world. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            dominion.close();
        }
    }

    /** Entities with position and velocity; every other one also has the Frozen tag. */
    @State(Scope.Thread)
    public static class HalfFrozen
    {
        Dominion dominion;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            dominion = Dominion.create();
            for (int i = 0; i < count; i++)
            {
                final Position position = new Position(Workload.x(i), Workload.y(i));
                final Velocity velocity = new Velocity(Workload.DX, Workload.DY);
                if (Workload.frozen(i))
                {
                    dominion.createEntity(position, velocity, Frozen.INSTANCE);
                }
                else
                {
                    dominion.createEntity(position, velocity);
                }
            }
        }

        /** Closes the world. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            dominion.close();
        }
    }

    static void iterate1(final Dominion dominion)
    {
        final Iterator<Position> it = dominion.findCompositionsWith(Position.class).iterator();
        while (it.hasNext())
        {
            final Position p = it.next();
            p.x += Workload.STEP;
            p.y += Workload.STEP;
        }
    }

    static void iterate2(final Dominion dominion)
    {
        final Iterator<Results.With2<Position, Velocity>> it =
            dominion.findCompositionsWith(Position.class, Velocity.class).iterator();
        while (it.hasNext())
        {
            final Results.With2<Position, Velocity> row = it.next();
            final Position p = row.comp1();
            final Velocity v = row.comp2();
            p.x += v.dx;
            p.y += v.dy;
        }
    }

    static void iterate3(final Dominion dominion)
    {
        final Iterator<Results.With3<Position, Velocity, Acceleration>> it =
            dominion.findCompositionsWith(Position.class, Velocity.class, Acceleration.class).iterator();
        while (it.hasNext())
        {
            final Results.With3<Position, Velocity, Acceleration> row = it.next();
            final Position p = row.comp1();
            final Velocity v = row.comp2();
            final Acceleration a = row.comp3();
            p.x += v.dx;
            p.y += v.dy;
            v.dx += a.ax;
            v.dy += a.ay;
        }
    }

    static void viewExclude(final Dominion dominion)
    {
        final Iterator<Results.With2<Position, Velocity>> it =
            dominion.findCompositionsWith(Position.class, Velocity.class).without(Frozen.class).iterator();
        while (it.hasNext())
        {
            final Results.With2<Position, Velocity> row = it.next();
            final Position p = row.comp1();
            final Velocity v = row.comp2();
            p.x += v.dx;
            p.y += v.dy;
        }
    }

    static float randomGet(final Entity[] shuffled)
    {
        float sum = 0;
        for (final Entity entity : shuffled)
        {
            final Position p = entity.get(Position.class);
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
    public void iterate1_10K(final Moving state)
    {
        iterate1(state.dominion);
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
        iterate1(state.dominion);
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
        iterate1(state.dominion);
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
        iterate2(state.dominion);
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
        iterate2(state.dominion);
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
        iterate2(state.dominion);
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
        iterate3(state.dominion);
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
        iterate3(state.dominion);
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
        iterate3(state.dominion);
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
        viewExclude(state.dominion);
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
        viewExclude(state.dominion);
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
        viewExclude(state.dominion);
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
        return randomGet(state.shuffled);
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
        return randomGet(state.shuffled);
    }
}
