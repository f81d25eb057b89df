package dev.cairn.set;

/**
 * The moves of members between packed indices made while a walk goes from the back of a range to the front, so that
 * the walk can tell, after each step, whether the step moved an entity across it: from the part walked into the part
 * still to walk (which would visit it twice), or the other way (which would miss it). A set logs the swaps its removals
 * make while it is iterated; a group logs the swaps its joins and leaves make in its range.
 * <p>
 * A move is a pair {@code low < high} of indices whose members changed places; a join at {@code low} of an entity that
 * may be visited although it was not there when the walk started logs {@code (low, Integer.MAX_VALUE)}. The latest
 * {@value #KEPT} moves are kept one by one, earlier ones of the same step as one span, checked conservatively. Not
 * thread-safe.
 */
public final class MoveLog
{
    /** How many of the latest moves are checked one by one. */
    public static final int KEPT = 64;

    private long count;
    private final int[] low = new int[KEPT];
    private final int[] high = new int[KEPT];
    /** The span of the moves since {@code evictedFrom} that were pushed out of the log. */
    private int evictedLow = Integer.MAX_VALUE;
    private int evictedHigh = Integer.MIN_VALUE;
    private long evictedFrom;

    /**
     * How many moves were logged so far: a walk reads it before a step and passes it to {@link #crossing} when it
     * changed.
     *
     * @return the count.
     */
    public long count()
    {
        return count;
    }

    /**
     * Logs that the members at two indices changed places.
     *
     * @param a one index.
     * @param b the other.
     */
    public void swapped(final int a, final int b)
    {
        log(Math.min(a, b), Math.max(a, b));
    }

    /**
     * Logs that an entity joined at {@code at}, where a walk standing above it would still visit it.
     *
     * @param at its index.
     */
    public void joined(final int at)
    {
        log(at, Integer.MAX_VALUE);
    }

    /**
     * What moved an entity across a walk standing at {@code at} since {@code mark}, if anything did; starts the
     * conservative span afresh (as {@link #restart()}). Moves of the entity at {@code at} itself never cross.
     *
     * @param mark what {@link #count()} returned before the step.
     * @param at   the index the walk visited in that step.
     * @return null if nothing crossed, else what did, for a message.
     */
    public String crossing(final long mark, final int at)
    {
        // The span holds the moves pushed out since evictedFrom; a nested walk starts it afresh, and the moves pushed
        // out before that are then unknown: counted as crossing.
        final boolean overflowed = mark < count - KEPT &&
            (mark < evictedFrom || evictedLow < at && evictedHigh >= at);
        restart();
        if (overflowed)
        {
            return "more than " + KEPT + " moves in one step (a walk of the same set nested in the step counts " +
                "all of its own), some of which may have moved an entity across it";
        }
        for (long k = Math.max(mark, count - KEPT); k < count; k++)
        {
            final int slot = (int)(k & (KEPT - 1));
            if (low[slot] < at && high[slot] >= at)
            {
                return high[slot] == Integer.MAX_VALUE ?
                    "an entity joined at index " + low[slot] + ", where the walk has still to go" :
                    "the entities at index " + high[slot] + " (in the part walked) and at index " + low[slot] +
                        " (in the part still to walk) changed places";
            }
        }
        return null;
    }

    /**
     * Starts the conservative check of the moves pushed out of the log afresh: a walk calls it when it starts.
     */
    public void restart()
    {
        evictedLow = Integer.MAX_VALUE;
        evictedHigh = Integer.MIN_VALUE;
        evictedFrom = count;
    }

    private void log(final int low, final int high)
    {
        final int slot = (int)(count & (KEPT - 1));
        if (count - KEPT >= evictedFrom)
        {
            evictedLow = Math.min(evictedLow, this.low[slot]);
            evictedHigh = Math.max(evictedHigh, this.high[slot]);
        }
        this.low[slot] = low;
        this.high[slot] = high;
        count++;
    }
}
