package dev.cairn.bench.cairn;

import dev.cairn.world.World;
import dev.cairn.bench.Workload;
import dev.cairn.snapshot.ContinuousLoader;
import dev.cairn.snapshot.Snapshot;
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

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Continuous loading: a client world mirrors a server world of 100,000 entities (position, velocity, every other one
 * frozen) through a {@link ContinuousLoader}, per entity of the snapshot. {@code mirrorUnchanged} loads the snapshot
 * the client already holds (nothing to write); {@code mirrorMoved} alternates between two snapshots whose positions
 * all differ (every position patched).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, Workload.HEAP_MIN, Workload.HEAP_MAX})
public class CairnMirror
{
    /** Entities in each snapshot. */
    public static final int COUNT = 100_000;

    /** Two snapshots of one server world, before and after a move, and a client that loaded the first. */
    @State(Scope.Thread)
    public static class Mirrored
    {
        ByteBuffer before;
        ByteBuffer after;
        World client;
        ContinuousLoader loader;
        boolean moved;

        /** Builds the server world, saves it twice, and mirrors the first snapshot. */
        @Setup(Level.Trial)
        public void setUp()
        {
            try (World server = new World())
            {
                final PositionStorage positions = server.storage(PositionStorage.TYPE);
                final VelocityStorage velocities = server.storage(VelocityStorage.TYPE);
                final FrozenStorage frozen = server.storage(FrozenStorage.TYPE);
                for (int i = 0; i < COUNT; i++)
                {
                    final long entity = server.create();
                    positions.emplace(entity, Workload.x(i), Workload.y(i));
                    velocities.emplace(entity, Workload.DX, Workload.DY);
                    if ((i & 1) == 0)
                    {
                        frozen.emplace(entity);
                    }
                }
                before = saved(server);
                for (int i = 0; i < positions.size(); i++)
                {
                    positions.xAt(i, positions.xAt(i) + 1f);
                }
                after = saved(server);
            }
            client = new World();
            loader = new ContinuousLoader(client);
            loader.load(before.duplicate());
        }

        /** Frees the memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            loader.close();
            client.close();
        }

        private static ByteBuffer saved(final World world)
        {
            final ByteBuffer snapshot = ByteBuffer.allocateDirect((int)Snapshot.sizeOf(world));
            Snapshot.save(world, snapshot);
            return snapshot.flip();
        }
    }

    /**
     * Loads the snapshot the client mirrors already.
     *
     * @param state the client and snapshots.
     * @return the client, as a sink.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World mirrorUnchanged_100K(final Mirrored state)
    {
        state.loader.load(state.before.duplicate());
        return state.client;
    }

    /**
     * Loads the other snapshot: every position differs from the client's.
     *
     * @param state the client and snapshots.
     * @return the client, as a sink.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World mirrorMoved_100K(final Mirrored state)
    {
        state.moved = !state.moved;
        state.loader.load((state.moved ? state.after : state.before).duplicate());
        return state.client;
    }
}
