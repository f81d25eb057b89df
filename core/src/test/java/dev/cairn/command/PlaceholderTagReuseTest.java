package dev.cairn.command;

import dev.cairn.world.World;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.lang.reflect.Field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A placeholder kept after its buffer was dropped: the buffer's tag goes to a later buffer once the first is
 * unreachable, and that later buffer must not take the kept value for one of its own creates.
 */
final class PlaceholderTagReuseTest
{
    /** Buffers made while waiting for a tag to come round: the tags are handed out in turn, so two rounds and more. */
    private static final int BUFFERS_TRIED = 3 * PlaceholderTags.COUNT;

    @Test
    void aPlaceholderOfADroppedBufferNamesNothingInTheBufferThatGetsItsTag() throws Exception
    {
        try (World world = new World())
        {
            final long[] kept = placeholdersOfADroppedBuffer(world, 3, 0);

            final CommandBuffer heir = bufferWithTagOf(world, kept[0]);

            assertNotNull(heir, "the dropped buffer's tag came round to a new buffer");
            final long own = heir.create();
            for (final long old : kept)
            {
                assertTrue(own != old, "a new placeholder is never the value of a kept one");
            }
            for (final long old : kept)
            {
                heir.destroy(old);
            }
            assertEquals(kept.length, heir.apply(), "the kept placeholders name nothing: their destroys are skipped");
            assertEquals(1, world.aliveCount(), "the heir's own create stands");
        }
    }

    @Test
    void aTagWhoseNumbersReachedHalfTheirRangeIsRetired() throws Exception
    {
        try (World world = new World())
        {
            final long[] kept = placeholdersOfADroppedBuffer(world, 1, PlaceholderTags.RETIRED_AFTER);

            assertNull(bufferWithTagOf(world, kept[0]), "no buffer gets the tag again");
        }
    }

    @Test
    void aLaneWhoseBuildFailedAfterItsNumberingWasTakenIsBuiltOnTheNextTry() throws Exception
    {
        try (World world = new World())
        {
            final CommandBuffer commands = new CommandBuffer(world);
            final Field leaseField = CommandBuffer.class.getDeclaredField("lease");
            leaseField.setAccessible(true);
            // What newLane() leaves when the memory runs out while the Lane is built, after its numbering was taken.
            ((PlaceholderTags.Lease)leaseField.get(commands)).addLane(0);

            final long first = commands.create();
            final long[] other = new long[1];
            final Thread thread = new Thread(() -> other[0] = commands.create());
            thread.start();
            thread.join();

            assertTrue(first != other[0], "two lanes, two placeholders");
            assertEquals(2, commands.size());
            assertEquals(0, commands.apply());
            assertEquals(2, world.aliveCount());
        }
    }

    @Test
    void aBufferItsOwnWorldRecordsIntoIsFreedOnceBothAreDropped() throws Exception
    {
        final WeakReference<CommandBuffer> buffer = bufferOfADroppedWorld(null);

        assertCollected(buffer, "nothing but the dropped world refers to the buffer: the tag's Cleaner must not");
    }

    @Test
    void aThreadThatRecordedIntoSuchABufferDoesNotKeepItOnceDropped() throws Exception
    {
        final CountDownLatch end = new CountDownLatch(1);
        try
        {
            final WeakReference<CommandBuffer> buffer = bufferOfADroppedWorld(end);

            assertCollected(buffer, "the recording thread, still alive, must not hold the buffer through its lane");
        }
        finally
        {
            end.countDown();
        }
    }

    private static void assertCollected(final WeakReference<?> reference, final String message)
        throws InterruptedException
    {
        for (int attempt = 0; attempt < 50 && reference.get() != null; attempt++)
        {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(reference.get(), message);
    }

    /**
     * A buffer that a listener of its world records into, with a create recorded from another thread, which ends at
     * once or, if {@code end} is given, waits for it; the world is closed and both are dropped on return.
     */
    private static WeakReference<CommandBuffer> bufferOfADroppedWorld(final CountDownLatch end)
        throws InterruptedException
    {
        final World world = new World(16);
        final CommandBuffer commands = new CommandBuffer(world);
        world.onDestroying(commands::destroy);
        final CountDownLatch recorded = new CountDownLatch(1);
        // Handed over and let go of, so that the thread's own code does not hold the buffer while it waits.
        final AtomicReference<CommandBuffer> handedOver = new AtomicReference<>(commands);
        final Thread recorder = new Thread(() ->
        {
            handedOver.getAndSet(null).create();
            recorded.countDown();
            if (end != null)
            {
                try
                {
                    end.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        });
        recorder.setDaemon(true);
        recorder.start();
        recorded.await();
        if (end == null)
        {
            recorder.join();
        }
        world.close();
        return new WeakReference<>(commands);
    }

    /**
     * The first placeholders of a buffer whose lane then moves {@code firstNumber} on and takes one more; the buffer is
     * dropped on return.
     */
    private static long[] placeholdersOfADroppedBuffer(final World world, final int count, final long firstNumber)
        throws ReflectiveOperationException
    {
        final CommandBuffer dropped = new CommandBuffer(world);
        final long[] placeholders = new long[count];
        for (int i = 0; i < count; i++)
        {
            placeholders[i] = dropped.create();
        }
        if (firstNumber > 0)
        {
            lane(dropped).base += firstNumber; // as after that many creates applied before
            dropped.create();
        }
        return placeholders;
    }

    /** Makes and drops buffers until one has the tag of {@code placeholder}; null if none did. */
    private static CommandBuffer bufferWithTagOf(final World world, final long placeholder)
        throws ReflectiveOperationException, InterruptedException
    {
        final long tag = placeholder & 0x7FFF_0000_0000_0000L;
        final Field tagField = CommandBuffer.class.getDeclaredField("tag");
        tagField.setAccessible(true);
        for (int i = 0; i < BUFFERS_TRIED; i++)
        {
            if (i % 4096 == 0)
            {
                System.gc();
                Thread.sleep(10);
            }
            final CommandBuffer buffer = new CommandBuffer(world);
            if (tagField.getLong(buffer) == tag)
            {
                return buffer;
            }
        }
        return null;
    }

    private static CommandBuffer.Lane lane(final CommandBuffer commands) throws ReflectiveOperationException
    {
        final Field lanes = CommandBuffer.class.getDeclaredField("lanes");
        lanes.setAccessible(true);
        final CommandBuffer.Lane lane = ((CommandBuffer.Lane[])lanes.get(commands))[0];
        assertFalse(lane == null, "the buffer has a lane");
        return lane;
    }
}
