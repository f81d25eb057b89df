package dev.cairn.bench.cairn;

import dev.cairn.world.World;
import dev.cairn.bench.Workload;
import dev.cairn.command.CommandBuffer;
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

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Parallel iteration and command buffers, per entity, each beside its sequential counterpart in the same run:
 * <ul>
 *     <li>{@code heavy*_1M}: a compute-bound system, {@link #heavy} (50 floating-point operations on position,
 *     velocity and acceleration), over 1,000,000 entities;</li>
 *     <li>{@code update*_10M}: the memory-bound position += velocity over 10,000,000 entities;</li>
 *     <li>{@code commands_1M}: a parallel iteration that records adding an acceleration to each of 1,000,000 entities
 *     into a {@link CommandBuffer}, then applies it; {@code commandsRecord_1M} and {@code commandsApply_1M} time its
 *     two halves apart; {@code directAdds_1M} adds the same components directly. The accelerations are removed
 *     between invocations, untimed.</li>
 * </ul>
 * Parallel runs use a pool of {@link #THREADS} workers (the machine's cores).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnParallel
{
    /** Workers of the parallel runs: one per core. */
    public static final int THREADS = Runtime.getRuntime().availableProcessors();

    /** Entities with position, velocity and acceleration (or, for the command workloads, without acceleration). */
    @State(Scope.Thread)
    public static class Bodies
    {
        World world;
        AcceleratingView accelerating;
        MoversView movers;
        PositionStorage positions;
        AccelerationStorage accelerations;
        CommandBuffer commands;
        ForkJoinPool pool;
        long[] entities;
        boolean adds;
        boolean applyOnly;

        /**
         * Creates the world.
         *
         * @param params gives the entity count and the benchmark.
         */
        @Setup(Level.Trial)
        public void setUp(final BenchmarkParams params)
        {
            final int count = params.getOpsPerInvocation();
            adds = params.getBenchmark().contains(".commands") || params.getBenchmark().endsWith("directAdds_1M");
            applyOnly = params.getBenchmark().endsWith("commandsApply_1M");
            world = new World();
            positions = world.storage(PositionStorage.TYPE);
            final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
            accelerations = world.storage(AccelerationStorage.TYPE);
            entities = new long[count];
            for (int i = 0; i < count; i++)
            {
                final long entity = world.create();
                positions.emplace(entity, Workload.x(i), Workload.y(i));
                velocities.emplace(entity, Workload.DX, Workload.DY);
                if (!adds)
                {
                    accelerations.emplace(entity, Workload.AX, Workload.AY);
                }
                entities[i] = entity;
            }
            accelerating = new AcceleratingView(world);
            movers = new MoversView(world);
            commands = new CommandBuffer(world);
            pool = new ForkJoinPool(THREADS);
        }

        /** Records the commands {@code commandsApply_1M} applies, untimed. */
        @Setup(Level.Invocation)
        public void recordForApply()
        {
            if (applyOnly)
            {
                recordAccelerations(this);
            }
        }

        /** Removes what the command workloads added, untimed. */
        @TearDown(Level.Invocation)
        public void removeAccelerations()
        {
            if (adds)
            {
                accelerations.clear();
            }
        }

        /** Frees the world's memory and stops the pool. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            pool.shutdown();
            world.close();
        }
    }

    /**
     * 50 floating-point operations: five steps of velocity += acceleration and position += velocity, with damping.
     */
    static void heavy(
        final PositionStorage.Ref position,
        final VelocityStorage.Ref velocity,
        final AccelerationStorage.Ref acceleration)
    {
        float x = position.x();
        float y = position.y();
        float dx = velocity.dx();
        float dy = velocity.dy();
        final float ax = acceleration.ax();
        final float ay = acceleration.ay();
        for (int k = 0; k < 5; k++)
        {
            dx = dx * 0.99f + ax * 0.01f;
            dy = dy * 0.99f + ay * 0.01f;
            x += dx * 0.001f;
            y += dy * 0.001f;
        }
        position.x(x);
        position.y(y);
        velocity.dx(dx);
        velocity.dy(dy);
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
        state.accelerating.forEach((entity, position, velocity, acceleration) ->
            heavy(position, velocity, acceleration));
    }

    /**
     * The compute-bound system over 1,000,000 entities, on every core.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void heavyParallel_1M(final Bodies state)
    {
        state.accelerating.parallelForEach(state.pool, 0, (entity, position, velocity, acceleration) ->
            heavy(position, velocity, acceleration));
    }

    /**
     * Position += velocity over 10,000,000 entities, on the calling thread.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void updateSequential_10M(final Bodies state)
    {
        state.movers.forEach((entity, position, velocity) ->
        {
            position.x(position.x() + velocity.dx());
            position.y(position.y() + velocity.dy());
        });
    }

    /**
     * Position += velocity over 10,000,000 entities, on every core.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void updateParallel_10M(final Bodies state)
    {
        state.movers.parallelForEach(state.pool, 0, (entity, position, velocity) ->
        {
            position.x(position.x() + velocity.dx());
            position.y(position.y() + velocity.dy());
        });
    }

    /**
     * Record adding an acceleration to each of 1,000,000 entities from a parallel iteration on every core, then apply.
     *
     * @param state the world, without accelerations.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void commands_1M(final Bodies state)
    {
        recordAccelerations(state);
        state.commands.apply();
    }

    /** Records adding an acceleration to every mover from a parallel iteration on every core. */
    static void recordAccelerations(final Bodies state)
    {
        final AccelerationStorage accelerations = state.accelerations;
        final CommandBuffer commands = state.commands;
        state.movers.parallelForEach(state.pool, 0, (entity, position, velocity) ->
            accelerations.emplace(commands, entity, Workload.AX, Workload.AY));
    }

    /**
     * Add an acceleration to each of 1,000,000 entities directly: what {@link #commands_1M} is compared with.
     *
     * @param state the world, without accelerations.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void directAdds_1M(final Bodies state)
    {
        final AccelerationStorage accelerations = state.accelerations;
        for (final long entity : state.entities)
        {
            accelerations.emplace(entity, Workload.AX, Workload.AY);
        }
    }

    /**
     * The recording half of {@link #commands_1M}: the same parallel iteration recording the same commands, which are
     * then forgotten rather than applied.
     *
     * @param state the world, without accelerations.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void commandsRecord_1M(final Bodies state)
    {
        recordAccelerations(state);
        state.commands.clear();
    }

    /**
     * The playback half of {@link #commands_1M}: applying the commands a parallel iteration recorded (untimed) before
     * each call.
     *
     * @param state the world, without accelerations, and the recorded commands.
     * @return how many commands were skipped (none).
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public int commandsApply_1M(final Bodies state)
    {
        return state.commands.apply();
    }
}
