package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.ComponentMapper;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.Family;
import com.badlogic.ashley.core.PooledEngine;
import com.badlogic.ashley.utils.ImmutableArray;
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
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.concurrent.TimeUnit;

/**
 * Ashley 1.7.4: iteration, a view with an exclusion and random access, per entity. As Ashley's wiki recommends for
 * speed: a {@link Family} resolved once to the engine's live {@link ImmutableArray} of members, walked with an index
 * loop, components read through {@link ComponentMapper}s (an array lookup by component index) rather than
 * {@code Entity.getComponent}. Random access is {@code ComponentMapper.get(entity)} over a shuffled entity array.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class AshleyIteration
{
    private static final ComponentMapper<Position> POSITIONS = ComponentMapper.getFor(Position.class);
    private static final ComponentMapper<Velocity> VELOCITIES = ComponentMapper.getFor(Velocity.class);
    private static final ComponentMapper<Acceleration> ACCELERATIONS = ComponentMapper.getFor(Acceleration.class);

    /** Entities with position, velocity and acceleration, their families, and the entities shuffled. */
    @State(Scope.Thread)
    public static class Moving
    {
        ImmutableArray<Entity> one;
        ImmutableArray<Entity> two;
        ImmutableArray<Entity> three;
        Entity[] shuffled;

        /**
         * Creates the engine.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            final PooledEngine engine = new PooledEngine(count, count, count, count);
            one = engine.getEntitiesFor(Family.all(Position.class).get());
            two = engine.getEntitiesFor(Family.all(Position.class, Velocity.class).get());
            three = engine.getEntitiesFor(Family.all(Position.class, Velocity.class, Acceleration.class).get());
            final Entity[] entities = new Entity[count];
            for (int i = 0; i < count; i++)
            {
                entities[i] = create(engine, i);
                final Acceleration a = engine.createComponent(Acceleration.class);
                a.ax = Workload.AX;
                a.ay = Workload.AY;
                entities[i].add(a);
                engine.addEntity(entities[i]);
            }
            final int[] order = Workload.shuffledIndices(count);
            shuffled = new Entity[count];
            for (int i = 0; i < count; i++)
            {
                shuffled[i] = entities[order[i]];
            }
        }
    }

    /** Entities with position and velocity, every other one Frozen, and the family that excludes Frozen. */
    @State(Scope.Thread)
    public static class HalfFrozen
    {
        ImmutableArray<Entity> unfrozen;

        /**
         * Creates the engine.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            final PooledEngine engine = new PooledEngine(count, count, count, count);
            unfrozen = engine.getEntitiesFor(Family.all(Position.class, Velocity.class).exclude(Frozen.class).get());
            for (int i = 0; i < count; i++)
            {
                final Entity entity = create(engine, i);
                if (Workload.frozen(i))
                {
                    entity.add(engine.createComponent(Frozen.class));
                }
                engine.addEntity(entity);
            }
        }
    }

    static Entity create(final PooledEngine engine, final int i)
    {
        final Entity entity = engine.createEntity();
        final Position p = engine.createComponent(Position.class);
        p.x = Workload.x(i);
        p.y = Workload.y(i);
        entity.add(p);
        final Velocity v = engine.createComponent(Velocity.class);
        v.dx = Workload.DX;
        v.dy = Workload.DY;
        entity.add(v);
        return entity;
    }

    static void iterate1(final ImmutableArray<Entity> entities)
    {
        for (int i = 0, n = entities.size(); i < n; i++)
        {
            final Position p = POSITIONS.get(entities.get(i));
            p.x += Workload.STEP;
            p.y += Workload.STEP;
        }
    }

    static void iterate2(final ImmutableArray<Entity> entities)
    {
        for (int i = 0, n = entities.size(); i < n; i++)
        {
            final Entity entity = entities.get(i);
            final Position p = POSITIONS.get(entity);
            final Velocity v = VELOCITIES.get(entity);
            p.x += v.dx;
            p.y += v.dy;
        }
    }

    static void iterate3(final ImmutableArray<Entity> entities)
    {
        for (int i = 0, n = entities.size(); i < n; i++)
        {
            final Entity entity = entities.get(i);
            final Position p = POSITIONS.get(entity);
            final Velocity v = VELOCITIES.get(entity);
            final Acceleration a = ACCELERATIONS.get(entity);
            p.x += v.dx;
            p.y += v.dy;
            v.dx += a.ax;
            v.dy += a.ay;
        }
    }

    static float randomGet(final Entity[] shuffled)
    {
        float sum = 0;
        for (final Entity entity : shuffled)
        {
            final Position p = POSITIONS.get(entity);
            sum += p.x + p.y;
        }
        return sum;
    }

    /**
     * Position += (1, 1) over 10,000 entities.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate1_10K(final Moving state)
    {
        iterate1(state.one);
    }

    /**
     * Position += (1, 1) over 1,000,000 entities.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate1_1M(final Moving state)
    {
        iterate1(state.one);
    }

    /**
     * Position += velocity over 10,000 entities.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate2_10K(final Moving state)
    {
        iterate2(state.two);
    }

    /**
     * Position += velocity over 1,000,000 entities.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Moving state)
    {
        iterate2(state.two);
    }

    /**
     * Position += velocity, velocity += acceleration over 10,000 entities.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void iterate3_10K(final Moving state)
    {
        iterate3(state.three);
    }

    /**
     * Position += velocity, velocity += acceleration over 1,000,000 entities.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Moving state)
    {
        iterate3(state.three);
    }

    /**
     * Position += velocity over 10,000 entities, half of them excluded by a tag.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final HalfFrozen state)
    {
        iterate2(state.unfrozen);
    }

    /**
     * Position += velocity over 1,000,000 entities, half of them excluded by a tag.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final HalfFrozen state)
    {
        iterate2(state.unfrozen);
    }

    /**
     * Read the position of each of 10,000 entities in random order.
     *
     * @param state the engine.
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
     * @param state the engine.
     * @return the sum of the coordinates read.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public float randomGet_1M(final Moving state)
    {
        return randomGet(state.shuffled);
    }
}
