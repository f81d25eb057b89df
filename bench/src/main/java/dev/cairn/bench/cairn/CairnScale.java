package dev.cairn.bench.cairn;

import dev.cairn.world.World;
import dev.cairn.bench.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Cairn at scale: creating 100 million entities with position and velocity in a JVM with a 256 MiB heap, against the
 * same per-entity work at 1 million in the same JVM. Each invocation creates the entities in a new world, so both sizes
 * pay the kernel's first touch of fresh pages; no handle is kept (100 million handles would not fit the heap). After
 * each invocation the fork prints the world's off-heap bytes per entity.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, "-Xmx256m"})
public class CairnScale
{
    private static final int MILLION = 1_000_000;
    private static final int HUNDRED_MILLION = 100_000_000;

    /** A new world for each invocation, closed after it. */
    @State(Scope.Thread)
    public static class Fresh
    {
        World world;
        PositionStorage positions;
        VelocityStorage velocities;

        /** Opens the world this invocation fills. */
        @Setup(Level.Invocation)
        public void open()
        {
            world = new World();
            positions = world.storage(PositionStorage.TYPE);
            velocities = world.storage(VelocityStorage.TYPE);
        }

        /** Reports the memory the entities took, then frees it. */
        @TearDown(Level.Invocation)
        public void close()
        {
            final int alive = world.aliveCount();
            System.out.printf(Locale.ROOT, "%n%,d entities: %.2f off-heap bytes per entity%n", alive,
                (double)world.offHeapBytes() / alive);
            world.close();
        }
    }

    /**
     * Creates 1 million entities with two components in a new world.
     *
     * @param state the world.
     * @return a value of the last entity, so that nothing is dead code.
     */
    @Benchmark
    @OperationsPerInvocation(MILLION)
    @Warmup(iterations = 10)
    @Measurement(iterations = 20)
    public long create_1M(final Fresh state)
    {
        return create(state, MILLION);
    }

    /**
     * Creates 100 million entities with two components in a new world.
     *
     * @param state the world.
     * @return a value of the last entity, so that nothing is dead code.
     */
    @Benchmark
    @OperationsPerInvocation(HUNDRED_MILLION)
    @Warmup(iterations = 1)
    @Measurement(iterations = 2)
    public long create_100M(final Fresh state)
    {
        return create(state, HUNDRED_MILLION);
    }

    private static long create(final Fresh state, final int count)
    {
        final World world = state.world;
        final PositionStorage positions = state.positions;
        final VelocityStorage velocities = state.velocities;
        long entity = 0;
        for (int i = 0; i < count; i++)
        {
            entity = world.create();
            positions.emplace(entity, Workload.x(i), Workload.y(i));
            velocities.emplace(entity, Workload.DX, Workload.DY);
        }
        return entity;
    }
}
