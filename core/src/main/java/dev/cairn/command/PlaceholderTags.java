package dev.cairn.command;

import java.lang.ref.Cleaner;
import java.util.BitSet;

/**
 * The tags that tell one command buffer's placeholders from another's: 15 bits of every placeholder. A tag is held
 * by one reachable buffer at a time and returns here when its buffer becomes unreachable, so two buffers a program
 * can still use never share one, however many buffers it creates over its life.
 */
final class PlaceholderTags
{
    /** How many buffers can be reachable at once. */
    static final int COUNT = 1 << 15;

    private static final Cleaner CLEANER = Cleaner.create();
    private static final BitSet TAKEN = new BitSet(COUNT);
    private static int next;

    private PlaceholderTags()
    {
    }

    /**
     * Takes a free tag for {@code buffer}, freed again when the buffer becomes unreachable. When every tag is taken,
     * asks the garbage collector to find unreachable buffers first, as direct byte buffers do with their memory.
     *
     * @param buffer the buffer that holds the tag.
     * @return the tag, from 0 to {@link #COUNT} - 1.
     * @throws IllegalStateException if {@link #COUNT} buffers stay reachable.
     */
    static int take(final Object buffer)
    {
        int tag = tryTake();
        for (int attempt = 0; tag < 0 && attempt < 8; attempt++)
        {
            System.gc();
            try
            {
                Thread.sleep(1L << attempt);
            }
            catch (final InterruptedException interrupted)
            {
                Thread.currentThread().interrupt();
                break;
            }
            tag = tryTake();
        }
        if (tag < 0)
        {
            throw new IllegalStateException(COUNT + " command buffers are reachable at once, the most there can be: " +
                "keep a buffer per system and apply() it each step rather than creating new ones");
        }
        final int taken = tag;
        CLEANER.register(buffer, () -> release(taken));
        return tag;
    }

    private static synchronized int tryTake()
    {
        int tag = TAKEN.nextClearBit(next);
        if (tag >= COUNT)
        {
            tag = TAKEN.nextClearBit(0);
            if (tag >= COUNT)
            {
                return -1;
            }
        }
        TAKEN.set(tag);
        next = tag + 1;
        return tag;
    }

    private static synchronized void release(final int tag)
    {
        TAKEN.clear(tag);
    }
}
