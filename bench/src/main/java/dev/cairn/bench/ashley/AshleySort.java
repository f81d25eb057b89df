package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.ComponentMapper;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.Family;
import com.badlogic.ashley.core.PooledEngine;
import com.badlogic.ashley.systems.SortedIteratingSystem;
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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Ashley 1.7.4: sort 150,000 entities by position x with a {@link SortedIteratingSystem}, Ashley's API for ordered
 * processing. Each invocation calls {@code forceSort()} and {@code engine.update(0)}: the system sorts its entity
 * array with the comparator (a TimSort over entity references) and then visits each entity with an empty
 * {@code processEntity}. The x values are re-randomised before each invocation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class AshleySort
{
    private static final ComponentMapper<Position> POSITIONS = ComponentMapper.getFor(Position.class);

    /** Orders entities by position x; visits them doing nothing. */
    static final class ByX extends SortedIteratingSystem
    {
        ByX()
        {
            super(Family.all(Position.class).get(), (a, b) -> Float.compare(POSITIONS.get(a).x, POSITIONS.get(b).x));
        }

        @Override
        protected void processEntity(final Entity entity, final float deltaTime)
        {
        }
    }

    /** An engine of entities with a position and the sorting system. */
    @State(Scope.Thread)
    public static class Unsorted
    {
        PooledEngine engine;
        ByX system;
        Position[] positions;
        SplittableRandom random;

        /** Creates the engine. */
        @Setup(Level.Trial)
        public void setUp()
        {
            engine = new PooledEngine(Workload.SORT, Workload.SORT, Workload.SORT, Workload.SORT);
            system = new ByX();
            engine.addSystem(system);
            positions = new Position[Workload.SORT];
            for (int i = 0; i < Workload.SORT; i++)
            {
                final Entity entity = engine.createEntity();
                final Position p = engine.createComponent(Position.class);
                p.y = Workload.y(i);
                entity.add(p);
                engine.addEntity(entity);
                positions[i] = p;
            }
            random = Workload.random();
        }

        /** Gives every entity a new random x. */
        @Setup(Level.Invocation)
        public void shuffle()
        {
            for (final Position p : positions)
            {
                p.x = (float)random.nextDouble();
            }
            system.forceSort();
        }
    }

    /**
     * Sort 150,000 entities by position x.
     *
     * @param state the engine.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SORT)
    public void sort_150K(final Unsorted state)
    {
        state.engine.update(0f);
    }
}
