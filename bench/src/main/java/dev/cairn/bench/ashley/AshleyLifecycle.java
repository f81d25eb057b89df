package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.PooledEngine;
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
 * Ashley 1.7.4: create, destroy, and add-then-remove a component, per entity. Uses a {@link PooledEngine} with pools
 * sized for every entity and component (Ashley's documented way to avoid allocation when entities come and go):
 * {@code createEntity()}, {@code createComponent(Class)}, {@code Entity.add}, {@code addEntity}, {@code removeEntity},
 * {@code Entity.remove(Class)}. The engine is not updating, so every operation takes effect at once. Create fills a
 * new engine each invocation; destroy empties an engine filled before each invocation.
 * <p>
 * There is no {@code destroy_1M}: Ashley 1.7.4 removes an entity with {@code Array.removeValue}, a linear search of
 * the engine's entity array, so removing a million entities takes on the order of 10<sup>12</sup> steps (minutes per
 * invocation).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class AshleyLifecycle
{
    /** A pooled engine sized for the entity count. */
    public abstract static class EngineState
    {
        PooledEngine engine;
        Entity[] entities;

        /**
         * Creates the engine.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            entities = new Entity[params.getOpsPerInvocation()];
            open();
            prepared();
        }

        void open()
        {
            final int count = entities.length;
            engine = new PooledEngine(count, count, count, count);
        }

        void prepared()
        {
        }
    }

    /** A new, empty engine for each invocation. */
    @State(Scope.Thread)
    public static class Empty extends EngineState
    {
        /** Replaces the engine of the last invocation with a new one. */
        @Setup(Level.Invocation)
        public void renew()
        {
            open();
        }
    }

    /** An engine holding the entities to remove; refilled before each invocation. */
    @State(Scope.Thread)
    public static class Full extends EngineState
    {
        /** Creates the entities the invocation will remove. */
        @Setup(Level.Invocation)
        public void fill()
        {
            create(this);
        }
    }

    /** An engine of entities with position and velocity; add-remove leaves it as it found it. */
    @State(Scope.Thread)
    public static class Steady extends EngineState
    {
        @Override
        void prepared()
        {
            create(this);
        }
    }

    static void create(final EngineState state)
    {
        final PooledEngine engine = state.engine;
        final Entity[] entities = state.entities;
        for (int i = 0; i < entities.length; i++)
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
            engine.addEntity(entity);
            entities[i] = entity;
        }
    }

    static void destroy(final EngineState state)
    {
        final PooledEngine engine = state.engine;
        for (final Entity entity : state.entities)
        {
            engine.removeEntity(entity);
        }
    }

    static void addRemove(final EngineState state)
    {
        final PooledEngine engine = state.engine;
        final Entity[] entities = state.entities;
        for (final Entity entity : entities)
        {
            final Acceleration a = engine.createComponent(Acceleration.class);
            a.ax = Workload.AX;
            a.ay = Workload.AY;
            entity.add(a);
        }
        for (final Entity entity : entities)
        {
            entity.remove(Acceleration.class);
        }
    }

    /**
     * Create 10,000 entities with position and velocity.
     *
     * @param state an empty engine.
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
     * @param state an empty engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void create_1M(final Empty state)
    {
        create(state);
    }

    /**
     * Remove 10,000 entities with position and velocity.
     *
     * @param state an engine of them.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void destroy_10K(final Full state)
    {
        destroy(state);
    }

    /**
     * Add an acceleration to each of 10,000 entities, then remove it from each.
     *
     * @param state the engine.
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
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void addRemove_1M(final Steady state)
    {
        addRemove(state);
    }
}
