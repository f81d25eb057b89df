package dev.cairn.storage;

import org.agrona.UnsafeApi;

/**
 * The change ticks of a tracked component, as Bevy's tick module keeps them: two hidden {@code int} columns beside
 * the fields, the {@link Clock} tick at which each component was added and the tick at which it was last written.
 * The storage's moves and swaps carry them with the fields; generated writers stamp them. Untracked storages have
 * none, and pay nothing.
 */
final class ChangeTicks
{
    private final ComponentStorage<?> storage;
    private final Clock clock;
    /** The column of the added ticks; the changed ticks are the next. */
    private final int column;
    private long addedTicks;
    private long changedTicks;

    ChangeTicks(final ComponentStorage<?> storage, final Clock clock, final int column)
    {
        this.storage = storage;
        this.clock = clock;
        this.column = column;
    }

    Clock clock()
    {
        return clock;
    }

    /** Reads the column addresses again: the columns moved. */
    void columnsMoved()
    {
        addedTicks = storage.columnAddressOf(column);
        changedTicks = storage.columnAddressOf(column + 1);
    }

    int addedAt(final int index)
    {
        return UnsafeApi.getInt(addedTicks + ((long)index << 2));
    }

    int changedAt(final int index)
    {
        return UnsafeApi.getInt(changedTicks + ((long)index << 2));
    }

    /** Whether a tick recorded is after {@code since}, comparing as the clock does across wrap-arounds. */
    boolean isAfter(final int tick, final int since)
    {
        return tick - clock.comparable(since) > 0;
    }

    /** Stamps both ticks of a component just added at a checked index with the current tick. */
    void stampAdded(final int index)
    {
        final int now = clock.now();
        UnsafeApi.putInt(addedTicks + ((long)index << 2), now);
        UnsafeApi.putInt(changedTicks + ((long)index << 2), now);
    }

    /** Stamps the change tick of a component at a checked index with the current tick. */
    void stampChanged(final int index)
    {
        UnsafeApi.putInt(changedTicks + ((long)index << 2), clock.now());
    }

    /** Stamps the change ticks of the components at checked indices {@code [index, index + length)}. */
    void stampChanged(final int index, final int length)
    {
        final int now = clock.now();
        for (int i = index; i < index + length; i++)
        {
            UnsafeApi.putInt(changedTicks + ((long)i << 2), now);
        }
    }

    void move(final int from, final int to)
    {
        UnsafeApi.putInt(addedTicks + ((long)to << 2), UnsafeApi.getInt(addedTicks + ((long)from << 2)));
        UnsafeApi.putInt(changedTicks + ((long)to << 2), UnsafeApi.getInt(changedTicks + ((long)from << 2)));
    }

    void swap(final int a, final int b)
    {
        final long addedA = addedTicks + ((long)a << 2);
        final long addedB = addedTicks + ((long)b << 2);
        final int added = UnsafeApi.getInt(addedA);
        UnsafeApi.putInt(addedA, UnsafeApi.getInt(addedB));
        UnsafeApi.putInt(addedB, added);
        final long changedA = changedTicks + ((long)a << 2);
        final long changedB = changedTicks + ((long)b << 2);
        final int changed = UnsafeApi.getInt(changedA);
        UnsafeApi.putInt(changedA, UnsafeApi.getInt(changedB));
        UnsafeApi.putInt(changedB, changed);
    }

    /** Whether the storage's memory is gone: a closed storage has no ticks left to raise. */
    boolean isClosed()
    {
        return storage.isClosed();
    }

    /** Raises every recorded tick older than {@code oldest} to it; see {@link Clock}. */
    void raise(final int oldest)
    {
        for (int i = 0; i < storage.size(); i++)
        {
            final long offset = (long)i << 2;
            if (UnsafeApi.getInt(addedTicks + offset) - oldest < 0)
            {
                UnsafeApi.putInt(addedTicks + offset, oldest);
            }
            if (UnsafeApi.getInt(changedTicks + offset) - oldest < 0)
            {
                UnsafeApi.putInt(changedTicks + offset, oldest);
            }
        }
    }
}
