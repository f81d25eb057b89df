package dev.cairn.command;

import java.lang.ref.Cleaner;
import java.util.BitSet;

/**
 * The tags that tell one command buffer's placeholders from another's: 15 bits of every placeholder. A tag is held
 * by one reachable buffer at a time and returns here when its buffer becomes unreachable, so two buffers a program
 * can still use never share one, however many buffers it creates over its life.
 * <p>
 * A placeholder kept after its buffer was dropped still carries the tag, so the tag's next buffer must not hand out
 * the same value: every lane of the next buffer numbers its placeholders on from the highest number any lane of the
 * tag's earlier buffers reached. A placeholder of a dropped buffer is then unknown to every later one, as an earlier
 * round's is after {@code apply()}. A tag that has reached half its numbers is retired rather than handed out again,
 * so a buffer always has at least that half to use.
 */
final class PlaceholderTags
{
    /** How many buffers can be reachable at once. */
    static final int COUNT = 1 << 15;
    /** A released tag whose placeholder numbers have reached this one is not handed out again. */
    static final long RETIRED_AFTER = CommandBuffer.PLACEHOLDERS / 2;

    private static final Cleaner CLEANER = Cleaner.create();
    private static final BitSet TAKEN = new BitSet(COUNT);
    /** Per tag, the first placeholder number of every lane of its next buffer. */
    private static final long[] NEXT_NUMBERS = new long[COUNT];
    private static int next;
    private static int retired;

    private PlaceholderTags()
    {
    }

    /**
     * The number of the next placeholder of one lane, which the lane keeps up to date. It is all the {@link Lease}
     * keeps of a lane: the Cleaner holds the lease until the buffer is unreachable, and a lease that held the lane would
     * hold the lane's world, which may hold the buffer (a listener that records into it), so the buffer would never be.
     */
    static final class Numbering
    {
        long next;

        Numbering(final long next)
        {
            this.next = next;
        }
    }

    /** A buffer's hold on its tag: where its lanes' numbers stand, for the tag's next buffer to go on from. */
    static final class Lease implements Runnable
    {
        final int tag;
        private final long firstNumber;
        private Numbering[] numberings = new Numbering[4];
        private int laneCount;

        private Lease(final int tag, final long firstNumber)
        {
            this.tag = tag;
            this.firstNumber = firstNumber;
        }

        /**
         * The numbering of the buffer's lane {@code id}, the next one (it starts where the tag's earlier buffers
         * stopped) or one asked for before, whose lane then failed to be built (the memory ran out): the same again.
         */
        synchronized Numbering addLane(final int id)
        {
            if (id < laneCount)
            {
                return numberings[id];
            }
            if (id != laneCount)
            {
                throw new IllegalStateException("lane " + id + " added after " + laneCount + " lanes");
            }
            if (laneCount == numberings.length)
            {
                numberings = java.util.Arrays.copyOf(numberings, laneCount * 2);
            }
            final Numbering numbering = new Numbering(firstNumber);
            numberings[laneCount++] = numbering;
            return numbering;
        }

        /** Runs once the buffer is unreachable: its lanes are no longer written. */
        @Override
        public synchronized void run()
        {
            long reached = firstNumber;
            for (int id = 0; id < laneCount; id++)
            {
                reached = Math.max(reached, numberings[id].next);
            }
            release(tag, reached);
        }
    }

    /**
     * Takes a free tag for {@code buffer}, freed again when the buffer becomes unreachable. When every tag is taken,
     * asks the garbage collector to find unreachable buffers first, as direct byte buffers do with their memory.
     *
     * @param buffer the buffer that holds the tag.
     * @return the lease of a tag from 0 to {@link #COUNT} - 1, which numbers the buffer's lanes.
     * @throws IllegalStateException if {@link #COUNT} buffers stay reachable.
     */
    static Lease take(final Object buffer)
    {
        Lease lease = tryTake();
        for (int attempt = 0; lease == null && attempt < 8; attempt++)
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
            lease = tryTake();
        }
        if (lease == null)
        {
            throw new IllegalStateException(COUNT + " command buffers are reachable at once, the most there can be" +
                (retiredCount() > 0 ? " (" + retiredCount() + " of the tags that tell them apart are retired, their " +
                    "buffers having numbered " + RETIRED_AFTER + " placeholders)" : "") +
                ": keep a buffer per system and apply() it each step rather than creating new ones");
        }
        CLEANER.register(buffer, lease);
        return lease;
    }

    private static synchronized Lease tryTake()
    {
        int tag = TAKEN.nextClearBit(next);
        if (tag >= COUNT)
        {
            tag = TAKEN.nextClearBit(0);
            if (tag >= COUNT)
            {
                return null;
            }
        }
        TAKEN.set(tag);
        next = tag + 1;
        return new Lease(tag, NEXT_NUMBERS[tag]);
    }

    private static synchronized void release(final int tag, final long reached)
    {
        if (reached >= RETIRED_AFTER)
        {
            retired++;
            return;
        }
        NEXT_NUMBERS[tag] = reached;
        TAKEN.clear(tag);
    }

    private static synchronized int retiredCount()
    {
        return retired;
    }
}
