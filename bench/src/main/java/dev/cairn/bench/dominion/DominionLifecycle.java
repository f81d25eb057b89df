package dev.cairn.bench.dominion;

import dev.cairn.bench.Workload;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
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
 * Dominion 0.9.0: create, destroy, and add-then-remove a component, per entity. Create fills a new world each
 * invocation; destroy empties a world filled before each invocation. Entities are created with all their
 * components at once through {@code createEntity(Object...)}, which places them straight into their archetype, and
 * deleted with {@code deleteEntity}; a component is added with {@code Entity.add} and removed with
 * {@code Entity.removeType}, each of which moves the entity to another archetype.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class DominionLifecycle
{
    /** A new, empty world for each invocation. */
    @State(Scope.Thread)
    public static class Empty
    {
        Dominion dominion;
        Entity[] entities;

        /**
         * Sizes the handle array.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            entities = new Entity[params.getOpsPerInvocation()];
        }

        /** Creates the world. */
        @Setup(Level.Invocation)
        public void open()
        {
            dominion = Dominion.create();
        }

        /** Closes the world. */
        @TearDown(Level.Invocation)
        public void close()
        {
            dominion.close();
        }
    }

    /** A world holding the entities to delete; refilled before each invocation. */
    @State(Scope.Thread)
    public static class Full
    {
        Dominion dominion;
        Entity[] entities;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            dominion = Dominion.create();
            entities = new Entity[params.getOpsPerInvocation()];
        }

        /** Creates the entities the invocation will delete. */
        @Setup(Level.Invocation)
        public void fill()
        {
            DominionLifecycle.create(dominion, entities);
        }

        /** Closes the world. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            dominion.close();
        }
    }

    /** A world of entities with position and velocity; add-remove leaves it as it found it. */
    @State(Scope.Thread)
    public static class Steady
    {
        Dominion dominion;
        Entity[] entities;

        /**
         * Creates the world.
         *
         * @param params gives the entity count.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            dominion = Dominion.create();
            entities = new Entity[params.getOpsPerInvocation()];
            for (int i = 0; i < entities.length; i++)
            {
                entities[i] = dominion.createEntity(
                    new Position(Workload.x(i), Workload.y(i)), new Velocity(Workload.DX, Workload.DY));
            }
        }

        /** Closes the world. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            dominion.close();
        }
    }

    static void create(final Dominion dominion, final Entity[] entities)
    {
        for (int i = 0; i < entities.length; i++)
        {
            entities[i] = dominion.createEntity(
                new Position(Workload.x(i), Workload.y(i)), new Velocity(Workload.DX, Workload.DY));
        }
    }

    static void destroy(final Full state)
    {
        final Dominion dominion = state.dominion;
        final Entity[] entities = state.entities;
        for (int i = 0; i < entities.length; i++)
        {
            dominion.deleteEntity(entities[i]);
            entities[i] = null;
        }
    }

    static void addRemove(final Steady state)
    {
        final Entity[] entities = state.entities;
        for (final Entity entity : entities)
        {
            entity.add(new Acceleration(Workload.AX, Workload.AY));
        }
        for (final Entity entity : entities)
        {
            entity.removeType(Acceleration.class);
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
        create(state.dominion, state.entities);
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
        create(state.dominion, state.entities);
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
