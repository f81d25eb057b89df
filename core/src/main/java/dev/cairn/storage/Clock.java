package dev.cairn.storage;

import java.util.ArrayList;

/**
 * The change tick a {@link dev.cairn.world.World} and its storages share: a tracked component
 * ({@code @Component(tracked = true)}) records in two hidden columns the tick at which it was added and the tick at which it was last written, and
 * views can then visit only what was added or changed since a tick.
 * <p>
 * Ticks are {@code int}s that only grow; {@link #advance()} ends the current tick. Comparisons are made on the
 * difference of two ticks, so they stay right when the counter wraps, as long as the ticks compared are less than
 * {@value #MAX_AGE} apart: every {@value #CLAMP_PERIOD} advances the clock raises every recorded tick older than
 * that to the oldest one still told apart, and a query for changes since a tick older than every recorded one sees
 * every component as changed. Not thread-safe.
 */
public final class Clock
{
    /** How far back ticks are told apart. */
    public static final int MAX_AGE = 1 << 30;

    /** Every this many advances, older ticks are raised to {@code now - MAX_AGE}. */
    public static final int CLAMP_PERIOD = 1 << 28;

    private final ArrayList<ChangeTicks> tracked = new ArrayList<>();
    /** The tick a new clock starts at. */
    public static final int FIRST_TICK = 1;

    private final Runnable beforeChange;
    private int now = FIRST_TICK;

    /**
     * Creates a clock at tick 1: everything written from now on is newer than tick 0.
     */
    public Clock()
    {
        this(() -> {});
    }

    /**
     * Creates a clock at tick 1 whose owner may refuse changes of the tick: a world refuses them while a parallel walk
     * runs or a snapshot is saved or loaded.
     *
     * @param beforeChange runs before {@link #advance()} and {@link #restore(int)} change the tick; it throws to
     *                     refuse the change.
     */
    public Clock(final Runnable beforeChange)
    {
        this.beforeChange = java.util.Objects.requireNonNull(beforeChange, "beforeChange");
    }

    /**
     * The current tick: the one every write is stamped with until the next {@link #advance()}.
     *
     * @return the current tick.
     */
    public int now()
    {
        return now;
    }

    /**
     * Ends the current tick: every write made so far is stamped with it or an earlier one, every later write with a
     * later one. A system that wants each change once keeps the tick this returns and asks next time for what changed
     * since it.
     *
     * @return the tick that just ended.
     * @throws IllegalStateException if the clock's owner refuses the change now.
     */
    public int advance()
    {
        beforeChange.run();
        final int ended = now++;
        if ((now & (CLAMP_PERIOD - 1)) == 0)
        {
            final int oldest = now - MAX_AGE;
            // A closed storage (closed alone, or made for a snapshot load that failed) has no ticks left to raise.
            tracked.removeIf(ChangeTicks::isClosed);
            for (final ChangeTicks ticks : tracked)
            {
                ticks.raise(oldest);
            }
        }
        return ended;
    }

    /**
     * A tick to compare recorded ticks with: {@code since} itself, or, if {@code since} is more than
     * {@code MAX_AGE + CLAMP_PERIOD} old, a tick older than every recorded one (which the last raise, fewer than
     * {@code CLAMP_PERIOD} advances ago, brought to newer than {@code now - MAX_AGE - CLAMP_PERIOD}), so that every
     * component reads as changed.
     *
     * @param since a tick a caller asks about.
     * @return the tick to compare with.
     */
    public int comparable(final int since)
    {
        // Raised ticks are newer than now - MAX_AGE - CLAMP_PERIOD: the last raise was fewer than CLAMP_PERIOD ago.
        final int oldest = now - MAX_AGE - CLAMP_PERIOD;
        return now - since > MAX_AGE + CLAMP_PERIOD ? oldest : since;
    }

    /**
     * How old a recorded tick can be at tick {@code now}: the last raise, {@code now % CLAMP_PERIOD} advances ago,
     * brought every tick to at most {@code MAX_AGE} old. Every later advance keeps this true, which is what lets
     * {@link #comparable(int)} pick a tick older than every recorded one.
     *
     * @param now a tick of the clock.
     * @return the greatest age {@code now - tick} a recorded tick can have.
     */
    public static int oldestAge(final int now)
    {
        return MAX_AGE + (now & (CLAMP_PERIOD - 1));
    }

    /**
     * Sets the current tick, for a snapshot loader restoring a world whose components were stamped up to it.
     *
     * @param tick the tick the saved world had.
     * @throws IllegalStateException if the clock's owner refuses the change now.
     */
    public void restore(final int tick)
    {
        beforeChange.run();
        now = tick;
    }

    void track(final ChangeTicks ticks)
    {
        tracked.add(ticks);
    }

    @Override
    public String toString()
    {
        return "Clock[now=" + now + "]";
    }
}
