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
 * The group workloads of {@link CairnGroupIteration} walked by index ({@code forEachIndex}): the action reads and
 * writes the owned storages at the walk's index through their indexed accessors, with no {@code Ref} positioned per
 * entity.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnGroupIndexIteration
{
    /**
     * Position += velocity over a full-owning group of 1,000,000 entities, by index.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate2_1M(final Moving state)
    {
        state.movement.forEachIndex(state.move);
    }

    /**
     * Position += velocity over a full-owning group of 10,000,000 entities, by index.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void iterate2_10M(final Moving state)
    {
        state.movement.forEachIndex(state.move);
    }

    /**
     * Position += velocity, velocity += acceleration over a full-owning group of 1,000,000 entities, by index.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void iterate3_1M(final Moving state)
    {
        state.accelerated.forEachIndex(state.accelerate);
    }

    /**
     * The exclusion workload over 10,000 entities, half frozen, through a group by index (per entity of the world).
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.SMALL)
    public void viewExclude_10K(final HalfFrozen state)
    {
        state.active.forEachIndex(state.move);
    }

    /**
     * The exclusion workload over 1,000,000 entities, half frozen, through a group by index.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.LARGE)
    public void viewExclude_1M(final HalfFrozen state)
    {
        state.active.forEachIndex(state.move);
    }

    /**
     * The exclusion workload over 10,000,000 entities, half frozen, through a group by index.
     *
     * @param state the world.
     */
    @Benchmark
    @OperationsPerInvocation(Workload.HUGE)
    public void viewExclude_10M(final HalfFrozen state)
    {
        state.active.forEachIndex(state.move);
    }
}
