package dev.cairn.bench.cairn;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.EntitySubscription;
import com.artemis.WorldConfigurationBuilder;
import com.artemis.io.JsonArtemisSerializer;
import com.artemis.io.SaveFileFormat;
import com.artemis.managers.WorldSerializationManager;
import dev.cairn.world.World;
import dev.cairn.bench.Workload;
import dev.cairn.snapshot.Snapshot;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;

/**
 * Saving and loading 10,000,000 entities with a position and a velocity, half of them also tagged frozen, to and from
 * memory, in nanoseconds per entity:
 * <ul>
 *     <li>{@code save} and {@code load}: {@link Snapshot}, into and out of a direct buffer (a load goes into a new
 *     world, made before the measured call);</li>
 *     <li>{@code loadReset}: a load into a world that held the same entities and was {@link World#reset()} before the
 *     measured call, so its memory is mapped already (a game rewinding to a saved state); {@code resetAndLoad}
 *     measures the reset too;</li>
 *     <li>{@code loadParallel} and {@code loadResetParallel}: the same loads spread over this thread and the common
 *     pool's ({@code Snapshot.load(world, bytes, executor)});</li>
 *     <li>{@code rawCopy}: a copy of as many bytes as the snapshot has, from one direct buffer to another: the
 *     limit; {@code rawCopyParallel} copies half on each of two threads; {@code rawCopyFresh} copies them into memory
 *     allocated for the copy, as a load into a new world must;</li>
 *     <li>{@code dataOutputSave} and {@code dataInputLoad}: what a user writes without a snapshot API, entity by
 *     entity through {@link DataOutputStream} and {@link DataInputStream} over a byte array; {@code
 *     dataInputLoadReset} loads into a reset world, as {@code loadReset} does;</li>
 *     <li>{@code artemisJsonSave} and {@code artemisJsonLoad}: Artemis-odb's own serializer
 *     ({@code artemis-odb-serializer-json-libgdx} 2.3.0, its {@code WorldSerializationManager} with a
 *     {@code JsonArtemisSerializer}) over the same entities in an Artemis-odb world, into and out of a byte array, at
 *     {@value #ARTEMIS_COUNT} entities: its JSON is built whole in the heap, which 10,000,000 entities would not fit.
 *     Its Kryo serializer is on Maven Central too, but not served by the mirror this project is built from.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {
    Workload.ADD_EXPORTS, Workload.ADD_EXPORTS_VALUE, Workload.DOMINION_QUIET, "-Xms6g", "-Xmx6g"})
public class CairnSnapshot
{
    /** Entities in each workload. */
    public static final int COUNT = 10_000_000;
    /** Entities in the Artemis-odb serializer's workloads. */
    public static final int ARTEMIS_COUNT = 1_000_000;

    /** A world of {@link #COUNT} entities, its snapshot, and room to copy it. */
    @State(Scope.Thread)
    public static class Saved
    {
        World world;
        ByteBuffer snapshot;
        ByteBuffer copy;
        byte[] streamed;
        World target;

        /** Builds the world and saves it once. */
        @Setup(Level.Trial)
        public void setUp()
        {
            world = new World();
            final PositionStorage positions = world.storage(PositionStorage.TYPE);
            final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
            final FrozenStorage frozen = world.storage(FrozenStorage.TYPE);
            for (int i = 0; i < COUNT; i++)
            {
                final long entity = world.create();
                positions.emplace(entity, Workload.x(i), Workload.y(i));
                velocities.emplace(entity, Workload.DX, Workload.DY);
                if ((i & 1) == 0)
                {
                    frozen.emplace(entity);
                }
            }
            snapshot = ByteBuffer.allocateDirect((int)Snapshot.sizeOf(world));
            Snapshot.save(world, snapshot);
            snapshot.flip();
            copy = ByteBuffer.allocateDirect(snapshot.capacity());
            streamed = dataOutputSave(world);
        }

        /** A new world for each load. */
        @Setup(Level.Invocation)
        public void newTarget()
        {
            closeTarget();
            target = new World();
        }

        /** Frees the memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            closeTarget();
            world.close();
        }

        private void closeTarget()
        {
            if (target != null)
            {
                target.close();
                target = null;
            }
        }
    }

    /** An Artemis-odb world of {@link #ARTEMIS_COUNT} entities, saved once by its serializer, and a new world to load. */
    @State(Scope.Thread)
    public static class ArtemisSaved
    {
        com.artemis.World world;
        EntitySubscription all;
        byte[] json;
        com.artemis.World target;

        /** Builds the world and saves it once; checks that the save loads back whole. */
        @Setup(Level.Trial)
        public void setUp()
        {
            world = artemisWorld();
            final ComponentMapper<dev.cairn.bench.artemis.Position> positions =
                world.getMapper(dev.cairn.bench.artemis.Position.class);
            final ComponentMapper<dev.cairn.bench.artemis.Velocity> velocities =
                world.getMapper(dev.cairn.bench.artemis.Velocity.class);
            final ComponentMapper<dev.cairn.bench.artemis.Frozen> frozen =
                world.getMapper(dev.cairn.bench.artemis.Frozen.class);
            for (int i = 0; i < ARTEMIS_COUNT; i++)
            {
                final int entity = world.create();
                final dev.cairn.bench.artemis.Position position = positions.create(entity);
                position.x = Workload.x(i);
                position.y = Workload.y(i);
                final dev.cairn.bench.artemis.Velocity velocity = velocities.create(entity);
                velocity.dx = Workload.DX;
                velocity.dy = Workload.DY;
                if ((i & 1) == 0)
                {
                    frozen.create(entity);
                }
            }
            world.process();
            all = world.getAspectSubscriptionManager().get(Aspect.all());
            json = artemisSave(world, all).toByteArray();
            final com.artemis.World check = artemisLoad(json, artemisWorld());
            final int loaded = check.getAspectSubscriptionManager().get(Aspect.all()).getEntities().size();
            if (loaded != ARTEMIS_COUNT)
            {
                throw new IllegalStateException("Artemis-odb's serializer loaded " + loaded + " entities of " +
                    ARTEMIS_COUNT);
            }
        }

        /** A new world for each load. */
        @Setup(Level.Invocation)
        public void newTarget()
        {
            target = artemisWorld();
        }
    }

    /** A world that is loaded again and again, so that its memory stays mapped; reset inside the measured call. */
    @State(Scope.Thread)
    public static class Rewound
    {
        World world;

        /** Loads the snapshot once, so that the world's memory has its final size. */
        @Setup(Level.Trial)
        public void setUp(final Saved saved)
        {
            world = new World();
            Snapshot.load(world, saved.snapshot.duplicate());
        }

        /** Frees the memory. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            world.close();
        }
    }

    /** The same world, reset before each measured call. */
    @State(Scope.Thread)
    public static class Reloaded extends Rewound
    {
        /** Empties the world before each measured load. */
        @Setup(Level.Invocation)
        public void reset()
        {
            world.reset();
        }
    }

    /**
     * Saves the world into a direct buffer.
     *
     * @param state the world.
     * @return the buffer.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public ByteBuffer save_10M(final Saved state)
    {
        state.copy.clear();
        Snapshot.save(state.world, state.copy);
        return state.copy;
    }

    /**
     * Loads the snapshot into a new world.
     *
     * @param state the snapshot and the new world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World load_10M(final Saved state)
    {
        Snapshot.load(state.target, state.snapshot.duplicate());
        return state.target;
    }

    /**
     * Loads the snapshot into a world reset before the call, whose memory is mapped already.
     *
     * @param saved    the snapshot.
     * @param reloaded the reset world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World loadReset_10M(final Saved saved, final Reloaded reloaded)
    {
        Snapshot.load(reloaded.world, saved.snapshot.duplicate());
        return reloaded.world;
    }

    /**
     * Loads the snapshot into a new world, its storages read in parallel by this thread and the common pool's.
     *
     * @param state the snapshot and the new world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World loadParallel_10M(final Saved state)
    {
        Snapshot.load(state.target, state.snapshot.duplicate(), ForkJoinPool.commonPool());
        return state.target;
    }

    /**
     * Loads the snapshot into a world reset before the call, its storages read in parallel by this thread and the
     * common pool's.
     *
     * @param saved    the snapshot.
     * @param reloaded the reset world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World loadResetParallel_10M(final Saved saved, final Reloaded reloaded)
    {
        Snapshot.load(reloaded.world, saved.snapshot.duplicate(), ForkJoinPool.commonPool());
        return reloaded.world;
    }

    /**
     * Resets a world holding the snapshot's entities and loads the snapshot into it again: rewinding to a saved state.
     *
     * @param saved   the snapshot.
     * @param rewound the world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World resetAndLoad_10M(final Saved saved, final Rewound rewound)
    {
        rewound.world.reset();
        Snapshot.load(rewound.world, saved.snapshot.duplicate());
        return rewound.world;
    }

    /**
     * Copies as many bytes as the snapshot holds between two direct buffers.
     *
     * @param state the buffers.
     * @return the target.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public ByteBuffer rawCopy_10M(final Saved state)
    {
        UnsafeApi.copyMemory(BufferUtil.address(state.snapshot), BufferUtil.address(state.copy),
            state.snapshot.capacity());
        return state.copy;
    }

    /**
     * Copies as many bytes as the snapshot holds between two direct buffers, half on this thread and half on the common
     * pool's: the limit for a parallel load.
     *
     * @param state the buffers.
     * @return the target.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public ByteBuffer rawCopyParallel_10M(final Saved state)
    {
        final long from = BufferUtil.address(state.snapshot);
        final long to = BufferUtil.address(state.copy);
        final long half = state.snapshot.capacity() / 2;
        final ForkJoinTask<?> other = ForkJoinPool.commonPool().submit(
            () -> UnsafeApi.copyMemory(from + half, to + half, state.snapshot.capacity() - half));
        UnsafeApi.copyMemory(from, to, half);
        other.join();
        return state.copy;
    }

    /**
     * Copies as many bytes as the snapshot holds into newly allocated memory, then frees it: the limit for a load,
     * which also writes into memory the kernel has not mapped yet.
     *
     * @param state the snapshot.
     * @return the first byte copied, so that the copy is not dead code.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public byte rawCopyFresh_10M(final Saved state)
    {
        final long size = state.snapshot.capacity();
        final long address = UnsafeApi.allocateMemory(size);
        try
        {
            UnsafeApi.copyMemory(BufferUtil.address(state.snapshot), address, size);
            return UnsafeApi.getByte(address);
        }
        finally
        {
            UnsafeApi.freeMemory(address);
        }
    }

    /**
     * Saves entity by entity through a {@link DataOutputStream}.
     *
     * @param state the world.
     * @return the bytes.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public byte[] dataOutputSave_10M(final Saved state)
    {
        return dataOutputSave(state.world);
    }

    /**
     * Loads what {@code dataOutputSave} wrote entity by entity through a {@link DataInputStream} into a new world.
     *
     * @param state the bytes and the new world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World dataInputLoad_10M(final Saved state)
    {
        return dataInputLoad(state.streamed, state.target);
    }

    /**
     * Loads what {@code dataOutputSave} wrote entity by entity through a {@link DataInputStream} into a world reset
     * before the call, whose memory is mapped already: the hand-written counterpart of {@code loadReset}.
     *
     * @param saved    the bytes.
     * @param reloaded the reset world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public World dataInputLoadReset_10M(final Saved saved, final Reloaded reloaded)
    {
        return dataInputLoad(saved.streamed, reloaded.world);
    }

    /**
     * Saves the Artemis-odb world through its own serializer, as JSON.
     *
     * @param state the world.
     * @return the bytes.
     */
    @Benchmark
    @OperationsPerInvocation(ARTEMIS_COUNT)
    public ByteArrayOutputStream artemisJsonSave_1M(final ArtemisSaved state)
    {
        return artemisSave(state.world, state.all);
    }

    /**
     * Loads what {@code artemisJsonSave} wrote into a new Artemis-odb world through its own serializer, and lets
     * the world take the entities in ({@code process()}), as it must before its systems see them.
     *
     * @param state the bytes and the new world.
     * @return the loaded world.
     */
    @Benchmark
    @OperationsPerInvocation(ARTEMIS_COUNT)
    public com.artemis.World artemisJsonLoad_1M(final ArtemisSaved state)
    {
        return artemisLoad(state.json, state.target);
    }

    static com.artemis.World artemisWorld()
    {
        final WorldSerializationManager serialization = new WorldSerializationManager();
        final com.artemis.World world = new com.artemis.World(new WorldConfigurationBuilder().with(serialization).build());
        serialization.setSerializer(new JsonArtemisSerializer(world));
        return world;
    }

    static ByteArrayOutputStream artemisSave(final com.artemis.World world, final EntitySubscription all)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
        world.getSystem(WorldSerializationManager.class).save(out, new SaveFileFormat(all));
        return out;
    }

    static com.artemis.World artemisLoad(final byte[] json, final com.artemis.World world)
    {
        world.getSystem(WorldSerializationManager.class).load(new ByteArrayInputStream(json), SaveFileFormat.class);
        world.process();
        return world;
    }

    static World dataInputLoad(final byte[] streamed, final World world)
    {
        final PositionStorage positions = world.storage(PositionStorage.TYPE);
        final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
        final FrozenStorage frozen = world.storage(FrozenStorage.TYPE);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(streamed)))
        {
            final int count = in.readInt();
            for (int i = 0; i < count; i++)
            {
                in.readLong();
                final long entity = world.create();
                positions.emplace(entity, in.readFloat(), in.readFloat());
                velocities.emplace(entity, in.readFloat(), in.readFloat());
                if (in.readBoolean())
                {
                    frozen.emplace(entity);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return world;
    }

    static byte[] dataOutputSave(final World world)
    {
        final PositionStorage positions = world.storage(PositionStorage.TYPE);
        final VelocityStorage velocities = world.storage(VelocityStorage.TYPE);
        final FrozenStorage frozen = world.storage(FrozenStorage.TYPE);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(COUNT * 26 + 4);
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeInt(world.aliveCount());
            world.forEachEntity(entity ->
            {
                try
                {
                    out.writeLong(entity);
                    out.writeFloat(positions.x(entity));
                    out.writeFloat(positions.y(entity));
                    out.writeFloat(velocities.dx(entity));
                    out.writeFloat(velocities.dy(entity));
                    out.writeBoolean(frozen.contains(entity));
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            });
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }
}
