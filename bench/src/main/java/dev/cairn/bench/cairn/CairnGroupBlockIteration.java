package dev.cairn.bench.cairn;

import dev.cairn.bench.Workload;
import dev.cairn.bench.cairn.CairnGroupIteration.HalfFrozen;
import dev.cairn.bench.cairn.CairnGroupIteration.Moving;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.util.concurrent.TimeUnit;

/**
 * The group workloads of {@link CairnGroupIteration} walked by block ({@code forEachBlock}): the action loops over
 * heap arrays holding the owned columns of up to 512 entities, the positions (and in {@code iterate3}, the velocities)
 * asked for writable and so copied back, the rest read-only.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnGroupBlockIteration
{
    private static final MovementGroup.BlockAction MOVE = block ->
    {
        final int length = block.length();
        final float[] x = block.positionX();
        final float[] y = block.positionY();
        final float[] dx = block.velocityDxReadOnly();
        final float[] dy = block.velocityDyReadOnly();
        for (int i = 0; i < length; i++)
        {
            x[i] += dx[i];
            y[i] += dy[i];
        }
    };

    private static final ActiveMovementGroup.BlockAction MOVE_ACTIVE = block ->
    {
        final int length = block.length();
        final float[] x = block.positionX();
        final float[] y = block.positionY();
        final float[] dx = block.velocityDxReadOnly();
        final float[] dy = block.velocityDyReadOnly();
        for (int i = 0; i < length; i++)
        {
            x[i] += dx[i];
            y[i] += dy[i];
        }
    };

    private static final Acceleration3Group.BlockAction ACCELERATE = block ->
    {
        final int length = block.length();
        final float[] x = block.positionX();
        final float[] y = block.positionY();
        final float[] dx = block.velocityDx();
        final float[] dy = block.velocityDy();
        final float[] ax = block.accelerationAxReadOnly();
        final float[] ay = block.accelerationAyReadOnly();
        for (int i = 0; i < length; i++)
        {
            x[i] += dx[i];
            y[i] += dy[i];
            dx[i] += ax[i];
            dy[i] += ay[i];
        }
    };

    /**
     * Position += velocity over a full-owning group of 1,000,000 entities, by block.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Moving state)
    {
        state.movement.forEachBlock(MOVE);
    }

    /**
     * Position += velocity over a full-owning group of 10,000,000 entities, by block.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate2_10M(final Moving state)
    {
        state.movement.forEachBlock(MOVE);
    }

    /**
     * Position += velocity, velocity += acceleration over a full-owning group of 1,000,000 entities, by block.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Moving state)
    {
        state.accelerated.forEachBlock(ACCELERATE);
    }

    /**
     * The exclusion workload over 10,000 entities, half frozen, through a group by block (per entity of the world).
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final HalfFrozen state)
    {
        state.active.forEachBlock(MOVE_ACTIVE);
    }

    /**
     * The exclusion workload over 1,000,000 entities, half frozen, through a group by block.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final HalfFrozen state)
    {
        state.active.forEachBlock(MOVE_ACTIVE);
    }

    /**
     * The exclusion workload over 10,000,000 entities, half frozen, through a group by block.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void viewExclude_10M(final HalfFrozen state)
    {
        state.active.forEachBlock(MOVE_ACTIVE);
    }
}
