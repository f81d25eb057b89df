package dev.cairn.snapshots;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.world.World;
import dev.cairn.snapshot.ContinuousLoader;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshot.SnapshotFormatException;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Coverage-guided fuzzing of both loaders with hostile bytes. The input's last byte picks how its other bytes are
 * used: loaded as they are (mostly stopped by the checksums), or resealed first (every CRC32C recomputed, as a forger
 * who read the format would), which lets the fuzzer reach every structural check behind them; each into a new world
 * (half of them a world that held another and was reset) and through a continuous loader into a live one. A load must
 * either succeed with a world that saves back to the same bytes, or throw {@link SnapshotFormatException} and leave
 * the world exactly as it was, and a load into a new world with its storages read in parallel must end the same way;
 * anything else (another exception, a crash, a world changed by a failed load) is a finding. In a normal build this
 * replays the committed inputs in {@code src/test/resources/dev/cairn/snapshots/SnapshotFuzzTestInputs/fuzz/} (valid
 * snapshots of random worlds); {@code .ci/fuzz} runs it in fuzzing mode.
 */
class SnapshotFuzzTest
{
    private static final byte[] LIVE_SOURCE = liveSource();
    private static final ExecutorService THREADS = Executors.newFixedThreadPool(2, task ->
    {
        final Thread thread = new Thread(task, "snapshot-fuzz-load");
        thread.setDaemon(true);
        return thread;
    });

    @FuzzTest(maxDuration = "60s")
    void fuzz(final FuzzedDataProvider data)
    {
        final int mode = data.consumeInt(0, 3);
        final byte[] given = data.consumeRemainingAsBytes();
        final byte[] bytes = (mode & 1) == 1 ? Worlds.reseal(given) : given;
        if ((mode & 2) == 0)
        {
            loadIntoNewWorld(bytes);
        }
        else
        {
            loadIntoLiveWorld(bytes);
        }
    }

    private static void loadIntoNewWorld(final byte[] bytes)
    {
        try (World world = new World(1 << 16, 64L << 20))
        {
            if ((bytes.length & 1) == 1)
            {
                // A world that held another and was reset: its storages keep their memory and sparse pages.
                Snapshot.load(world, ByteBuffer.wrap(LIVE_SOURCE));
                world.reset();
            }
            final String before = Worlds.digest(world);
            try
            {
                Snapshot.load(world, ByteBuffer.wrap(bytes));
            }
            catch (final SnapshotFormatException ex)
            {
                assertEquals(before, Worlds.digest(world), "a failed load changed the world: " + ex.getMessage());
                assertEquals(ex.getMessage(), loadInParallel(bytes), "the parallel load failed otherwise");
                return;
            }
            assertEquals(Worlds.digest(world), loadInParallel(bytes), "the parallel load built another world");
            final byte[] saved = Worlds.bytes(Worlds.save(world));
            try (World copy = new World(1 << 16, 64L << 20))
            {
                Snapshot.load(copy, ByteBuffer.wrap(saved));
                assertEquals(Worlds.digest(world), Worlds.digest(copy));
                assertArrayEquals(saved, Worlds.bytes(Worlds.save(copy)));
            }
            Worlds.grow(world, new Random(bytes.length), 200);
            world.reset();
            Snapshot.load(world, ByteBuffer.wrap(saved));
            // Its storages stay (grow may have made more, saved empty), so compare what they hold.
            try (World copy = new World(1 << 16, 64L << 20))
            {
                Snapshot.load(copy, ByteBuffer.wrap(saved));
                assertEquals(Worlds.digest(copy), Worlds.digest(world), "loaded again into the reset world");
            }
        }
    }

    /** Loads into a new world with the storages read in parallel: the world's digest, or the exception's message. */
    private static String loadInParallel(final byte[] bytes)
    {
        try (World world = new World(1 << 16, 64L << 20))
        {
            final String before = Worlds.digest(world);
            try
            {
                Snapshot.load(world, ByteBuffer.wrap(bytes), THREADS);
                return Worlds.digest(world);
            }
            catch (final SnapshotFormatException ex)
            {
                assertEquals(before, Worlds.digest(world), "a failed parallel load changed the world");
                return ex.getMessage();
            }
        }
    }

    private static void loadIntoLiveWorld(final byte[] bytes)
    {
        try (World live = new World(1 << 16, 64L << 20); ContinuousLoader loader = new ContinuousLoader(live))
        {
            loader.load(ByteBuffer.wrap(LIVE_SOURCE));
            final String before = Worlds.digest(live);
            try
            {
                loader.load(ByteBuffer.wrap(bytes));
            }
            catch (final SnapshotFormatException ex)
            {
                assertEquals(before, Worlds.digest(live), "a failed load changed the live world: " + ex.getMessage());
                return;
            }
            catch (final IllegalStateException ex)
            {
                if (!ex.getMessage().contains("new local entities"))
                {
                    throw ex;
                }
                assertEquals(before, Worlds.digest(live), "a refused load changed the live world: " + ex.getMessage());
                return;
            }
            Worlds.grow(live, new Random(bytes.length), 200);
        }
    }

    private static byte[] liveSource()
    {
        try (World world = new World())
        {
            Worlds.grow(world, new Random(42), 400);
            return Worlds.bytes(Worlds.save(world));
        }
    }
}
