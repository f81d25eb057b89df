package dev.cairn.views;

import dev.cairn.world.World;
import dev.cairn.snapshot.Snapshot;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole-world reads that run no user code, and so cannot be caught in the middle by a test's callback, refuse a close
 * from another thread as {@code forEach} does: a close that ran under them would free the memory they read (before
 * they announced themselves, both crashed the JVM here). A world is used by one thread at a time: a walk begun on a
 * second thread while another walks is refused, naming both.
 */
final class ConcurrentCloseTest
{
    private static final int ENTITIES = 300_000;

    @Test
    void aViewCountRefusesACloseFromAnotherThread() throws Exception
    {
        closeWhileAnotherThreadRepeats(world ->
        {
            final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
            return () -> assertEquals(ENTITIES, view.count(), "a count that a close freed the memory of");
        });
    }

    @Test
    void aSnapshotSaveIntoABufferRefusesACloseFromAnotherThread() throws Exception
    {
        closeWhileAnotherThreadRepeats(world ->
        {
            final ByteBuffer buffer = ByteBuffer.allocateDirect((int)Snapshot.sizeOf(world));
            return () -> Snapshot.save(world, buffer.clear());
        });
    }

    @Test
    void aWalkBegunOnAThirdThreadWhileAnotherWalksIsRefusedAndRefusedClosesLeaveTheWorldWorking() throws Exception
    {
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        final World world = filledWorld();
        final CountDownLatch walking = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean stop = new AtomicBoolean();
        final String[] walker = new String[1];
        try
        {
            final Future<?> walk = threads.submit(() -> world.storage(ViewFixtures_PosStorage.TYPE).forEach(entity ->
            {
                walker[0] = Thread.currentThread().getName();
                walking.countDown();
                try
                {
                    release.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }));
            walking.await();
            final Future<Integer> closes = threads.submit(() ->
            {
                int refused = 0;
                while (!stop.get())
                {
                    try
                    {
                        world.close();
                    }
                    catch (final IllegalStateException ex)
                    {
                        refused++;
                    }
                }
                return refused;
            });
            final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
            final ByteBuffer buffer = ByteBuffer.allocateDirect((int)Snapshot.sizeOf(world));
            for (int read = 0; read < 200; read++)
            {
                final IllegalStateException save =
                    assertThrows(IllegalStateException.class, () -> Snapshot.save(world, buffer.clear()));
                final String names = "cannot begin Snapshot.save on " + Thread.currentThread().getName() +
                    " while ViewFixtures.Pos storage.forEach runs on " + walker[0];
                assertTrue(save.getMessage().startsWith(names) && save.getMessage().contains("one thread at a time"),
                    save.getMessage());
                assertThrows(IllegalStateException.class, () -> view.forEach((entity, pos, vel) -> { }));
            }
            stop.set(true);
            assertTrue(closes.get() > 0, "closes were attempted and refused meanwhile");
            assertFalse(world.isClosed());
            release.countDown();
            walk.get();

            for (int read = 0; read < 20; read++)
            {
                assertEquals(ENTITIES, view.count(), "a count once the other walk returned");
                Snapshot.save(world, buffer.clear());
            }
            world.close();
            assertTrue(world.isClosed(), "closing works once no walk runs");
        }
        finally
        {
            stop.set(true);
            release.countDown();
            threads.shutdownNow();
            // The walk may still be returning: close once it has, or the refused close hides what failed above.
            threads.awaitTermination(10, TimeUnit.SECONDS);
            world.close();
        }
    }

    /**
     * Has another thread run a read over a world of {@link #ENTITIES} entities again and again while this one closes
     * the world, starting once a read is under way: every close attempt either is refused, naming the walk, or
     * succeeds between two reads, after which the next read says the world is closed. Over three worlds, some attempt
     * must have met a read.
     *
     * @param reader makes the read for a world (on the reading thread).
     */
    private static void closeWhileAnotherThreadRepeats(final Function<World, Runnable> reader)
        throws Exception
    {
        final ExecutorService thread = Executors.newSingleThreadExecutor();
        int refused = 0;
        try
        {
            for (int attempt = 0; attempt < 3; attempt++)
            {
                final World world = filledWorld();
                final AtomicBoolean reading = new AtomicBoolean();
                final Future<?> reads = thread.submit(() ->
                {
                    final Runnable read = reader.apply(world);
                    try
                    {
                        // Once warm, a read announces itself within microseconds of its start.
                        read.run();
                        while (true)
                        {
                            reading.set(true);
                            read.run();
                        }
                    }
                    catch (final IllegalStateException closed)
                    {
                        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
                    }
                });
                while (!reading.get())
                {
                    Thread.onSpinWait();
                }
                // Into the read (each takes about a millisecond), past the checks it makes before it announces itself.
                LockSupport.parkNanos(200_000);
                while (!world.isClosed())
                {
                    try
                    {
                        world.close();
                    }
                    catch (final IllegalStateException ex)
                    {
                        // Names the walk, or says another thread walks the world.
                        assertTrue(ex.getMessage().startsWith("World cannot be closed while") &&
                            ex.getMessage().contains("close it after"), ex.getMessage());
                        refused++;
                    }
                }
                reads.get();
            }
        }
        finally
        {
            thread.shutdownNow();
        }
        assertTrue(refused > 0, "a close while a read ran was refused at least once");
    }

    private static World filledWorld()
    {
        final World world = new World();
        final ViewFixtures_PosStorage positions = world.storage(ViewFixtures_PosStorage.TYPE);
        final ViewFixtures_VelStorage velocities = world.storage(ViewFixtures_VelStorage.TYPE);
        final long[] entities = new long[ENTITIES];
        world.create(entities, ENTITIES);
        for (final long entity : entities)
        {
            positions.emplace(entity, 1f, 2f);
        }
        for (int i = ENTITIES; --i >= 0; )
        {
            velocities.emplace(entities[i], 3f, 4f);
        }
        return world;
    }
}
