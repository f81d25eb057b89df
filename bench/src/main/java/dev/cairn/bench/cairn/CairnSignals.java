package dev.cairn.bench.cairn;

import dev.cairn.world.World;
import dev.cairn.bench.Workload;
import dev.cairn.signal.Connection;
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
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * What signals, observers and change ticks cost, per entity, beside the workloads without them in
 * {@link CairnLifecycle} and {@link CairnIteration}:
 * <ul>
 *     <li>{@code addRemoveListened}: {@code CairnLifecycle.addRemove} with one listener on adds and one on removals of
 *     the acceleration storage;</li>
 *     <li>{@code iterateTracked2}: {@code CairnIteration.iterate2} over a tracked position, so every write is
 *     stamped;</li>
 *     <li>{@code iterateChanged2}: the same view filtered by change tick, where one entity in ten changed;</li>
 *     <li>{@code observerIterate}: position += velocity over a generated observer holding every entity.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnSignals
{
    /** Entities with position and velocity, an acceleration storage with listeners, and the tracked twins. */
    @State(Scope.Thread)
    public static class Signalled
    {
        World world;
        AccelerationStorage accelerations;
        long[] entities;
        TrackedMoversView trackedMovers;
        MovedMoversView movedMovers;
        ArrivalsObserver arrivals;
        int changedSince;
        long events;
        Connection added;
        Connection removing;

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
            final TrackedPositionStorage tracked = world.storage(TrackedPositionStorage.TYPE);
            accelerations = world.storage(AccelerationStorage.TYPE);
            arrivals = new ArrivalsObserver(world);
            entities = new long[count];
            for (int i = 0; i < count; i++)
            {
                final long entity = world.create();
                velocities.emplace(entity, Workload.DX, Workload.DY);
                positions.emplace(entity, Workload.x(i), Workload.y(i));
                tracked.emplace(entity, Workload.x(i), Workload.y(i));
                entities[i] = entity;
            }
            trackedMovers = new TrackedMoversView(world);
            movedMovers = new MovedMoversView(world);
            changedSince = world.advanceTick();
            for (int i = 0; i < count; i += 10)
            {
                tracked.x(entities[i], tracked.x(entities[i]) + 1);
            }
            if (arrivals.size() != count)
            {
                throw new IllegalStateException("the observer holds " + arrivals.size() + " of " + count + " entities");
            }
            added = accelerations.onAdded((entity, index) -> events++);
            removing = accelerations.onRemoving((entity, index) -> events++);
        }

        /** Frees the world's memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    /**
     * Add an acceleration to each of 1,000,000 entities, then remove it, with a listener on each.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void addRemoveListened_1M(final Signalled state)
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

    /**
     * Tracked position += velocity over 1,000,000 entities: every write stamps the change tick.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterateTracked2_1M(final Signalled state)
    {
        state.trackedMovers.forEach((entity, p, v) ->
        {
            p.x(p.x() + v.dx());
            p.y(p.y() + v.dy());
        });
    }

    /**
     * Sum the positions that changed since a tick (one entity in ten) over 1,000,000 entities, without writing.
     *
     * @param state the world.
     * @param sink  keeps the sum.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterateChanged2_1M(final Signalled state, final Blackhole sink)
    {
        final float[] sum = new float[1];
        state.movedMovers.forEach(state.changedSince, (entity, p, v) -> sum[0] += p.x() + v.dx());
        sink.consume(sum[0]);
    }

    /**
     * Position += velocity over an observer that holds every one of 1,000,000 entities.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void observerIterate_1M(final Signalled state)
    {
        state.arrivals.forEach((entity, p, v) ->
        {
            p.x(p.x() + v.dx());
            p.y(p.y() + v.dy());
        });
    }
}
