package dev.cairn.bench.dominion;

import dev.cairn.bench.Workload;
import dev.dominion.ecs.api.Dominion;
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

import java.util.concurrent.TimeUnit;

/**
 * Dominion 0.9.0 running {@code CairnParallel}'s compute-bound system over 1,000,000 entities: sequentially through
 * {@code Results.iterator()}, and in parallel through {@code Results.parallelStream()}, Dominion's own parallel
 * execution of one query (its {@code Scheduler} runs whole systems in parallel, not the entities of one).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class DominionParallel
{
    /** Entities with position, velocity and acceleration. */
    @State(Scope.Thread)
    public static class Bodies
    {
        Dominion dominion;

        /** Creates the world. */
        @Setup(Level.Trial)
        public void setUp()
        {
            dominion = Dominion.create();
            for (int i = 0; i < Workload.LARGE; i++)
            {
                dominion.createEntity(
                    new Position(Workload.x(i), Workload.y(i)),
                    new Velocity(Workload.DX, Workload.DY),
                    new Acceleration(Workload.AX, Workload.AY));
            }
        }

        /** Closes the world. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            dominion.close();
        }
    }

    /** The same 50 floating-point operations as {@code CairnParallel.heavy}. */
    static void heavy(final Position position, final Velocity velocity, final Acceleration acceleration)
    {
        float x = position.x;
        float y = position.y;
        float dx = velocity.dx;
        float dy = velocity.dy;
        final float ax = acceleration.ax;
        final float ay = acceleration.ay;
        for (int k = 0; k < 5; k++)
        {
            dx = dx * 0.99f + ax * 0.01f;
            dy = dy * 0.99f + ay * 0.01f;
            x += dx * 0.001f;
            y += dy * 0.001f;
        }
        position.x = x;
        position.y = y;
        velocity.dx = dx;
        velocity.dy = dy;
    }

    /**
     * The compute-bound system over 1,000,000 entities, on the calling thread.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void heavySequential_1M(final Bodies state)
    {
        final Results<Results.With3<Position, Velocity, Acceleration>> results =
            state.dominion.findCompositionsWith(Position.class, Velocity.class, Acceleration.class);
        for (final Results.With3<Position, Velocity, Acceleration> result : results)
        {
            heavy(result.comp1(), result.comp2(), result.comp3());
        }
    }

    /**
     * The compute-bound system over 1,000,000 entities, through Dominion's parallel stream.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void heavyParallel_1M(final Bodies state)
    {
        state.dominion.findCompositionsWith(Position.class, Velocity.class, Acceleration.class).parallelStream()
            .forEach(result -> heavy(result.comp1(), result.comp2(), result.comp3()));
    }
}
