package dev.cairn.internal;

/**
 * The address and size of every block an {@link OffHeap} holds: an open-addressing table that stays exact even when an
 * error (a call made where the stack runs out) interrupts it. Every change is made without a call once something has
 * changed, and growing builds the new table aside and then swaps it in, so an interrupted change leaves the table as
 * it was. Address 0 is never a block: {@link #record} and {@link #move} ignore it, so an owner can make the very call
 * it will make after a native allocation, as a rehearsal, before that allocation.
 */
final class BlockTable
{
    /** What {@link #sizeOf} and {@link #remove} return for an address that is not a block. */
    static final long MISSING = -1;

    /** An empty slot. */
    private static final long EMPTY = 0;
    /** A slot whose block was removed: probing goes on past it. Blocks have positive addresses. */
    private static final long REMOVED = -1;
    /**
     * Spreads addresses (multiples of 16) over the slots: an address's first slot is its product with this, shifted
     * right by {@link #SHIFT}, masked. {@link #record} and {@link #move} write that out rather than call a method, so
     * that they make no call at all: an owner makes each once for nothing, before a native allocation, and the real
     * call after it then cannot run out of stack.
     */
    private static final long SPREAD = 0x9E37_79B9_7F4A_7C15L;
    private static final int SHIFT = 40;

    private long[] addresses = new long[64];
    private long[] sizes = new long[64];
    /** Blocks held. */
    private int count;
    /** Slots not empty: blocks and removed ones. */
    private int used;

    /**
     * How many blocks the table holds.
     *
     * @return the count.
     */
    int count()
    {
        return count;
    }

    /**
     * The size of a block.
     *
     * @param address any value.
     * @return its size, or {@link #MISSING} if it is not a block.
     */
    long sizeOf(final long address)
    {
        final int slot = find(addresses, address);
        return slot < 0 ? MISSING : sizes[slot];
    }

    /**
     * Makes room for one more block, so that the next {@link #record} or {@link #move} need not grow the table; an
     * error on the way leaves the table as it was.
     */
    void ensureRoom()
    {
        if ((used + 1) * 2 <= addresses.length)
        {
            return;
        }
        final int capacity = count * 4 < addresses.length ? addresses.length : addresses.length * 2;
        final long[] newAddresses = new long[capacity];
        final long[] newSizes = new long[capacity];
        for (int i = 0; i < addresses.length; i++)
        {
            if (addresses[i] > 0)
            {
                final int slot = freeSlot(newAddresses, addresses[i]);
                newAddresses[slot] = addresses[i];
                newSizes[slot] = sizes[i];
            }
        }
        addresses = newAddresses;
        sizes = newSizes;
        used = count;
    }

    /**
     * Records a new block, after {@link #ensureRoom()}; address 0 changes nothing.
     *
     * @param address the block, not held already.
     * @param bytes   its size.
     */
    void record(final long address, final long bytes)
    {
        if (address == EMPTY)
        {
            return;
        }
        final long[] addresses = this.addresses;
        final int mask = addresses.length - 1;
        int slot = (int)((address * SPREAD) >>> SHIFT) & mask;
        while (addresses[slot] > 0)
        {
            slot = (slot + 1) & mask;
        }
        used += addresses[slot] == EMPTY ? 1 : 0;
        sizes[slot] = bytes;
        addresses[slot] = address;
        count++;
    }

    /**
     * Moves a block's record to the address and size it has after a reallocation, after {@link #ensureRoom()};
     * address 0 changes nothing.
     *
     * @param from  the block's address before.
     * @param to    its address now (perhaps {@code from}).
     * @param bytes its size now.
     * @return false if {@code from} is not a block (nothing changed).
     */
    boolean move(final long from, final long to, final long bytes)
    {
        final long[] addresses = this.addresses;
        final int mask = addresses.length - 1;
        if (from <= 0)
        {
            return false;
        }
        int at = (int)((from * SPREAD) >>> SHIFT) & mask;
        while (addresses[at] != from)
        {
            if (addresses[at] == EMPTY)
            {
                return false;
            }
            at = (at + 1) & mask;
        }
        if (to == from)
        {
            sizes[at] = bytes;
            return true;
        }
        int slot = (int)((to * SPREAD) >>> SHIFT) & mask;
        while (addresses[slot] > 0 && slot != at)
        {
            slot = (slot + 1) & mask;
        }
        used += addresses[slot] == EMPTY ? 1 : 0;
        addresses[at] = REMOVED;
        sizes[slot] = bytes;
        addresses[slot] = to;
        return true;
    }

    /**
     * Forgets a block.
     *
     * @param address any value.
     * @return its size, or {@link #MISSING} if it is not a block (nothing changed).
     */
    long remove(final long address)
    {
        final int slot = find(addresses, address);
        if (slot < 0)
        {
            return MISSING;
        }
        addresses[slot] = REMOVED;
        count--;
        return sizes[slot];
    }

    /**
     * Every block's address.
     *
     * @return a new array.
     */
    long[] addresses()
    {
        final long[] all = new long[count];
        int n = 0;
        for (final long address : addresses)
        {
            if (address > 0)
            {
                all[n++] = address;
            }
        }
        return all;
    }

    /** Forgets every block. */
    void clear()
    {
        addresses = new long[64];
        sizes = new long[64];
        count = 0;
        used = 0;
    }

    private static int find(final long[] addresses, final long address)
    {
        if (address <= 0)
        {
            return -1;
        }
        final int mask = addresses.length - 1;
        int slot = (int)((address * SPREAD) >>> SHIFT) & mask;
        while (addresses[slot] != address)
        {
            if (addresses[slot] == EMPTY)
            {
                return -1;
            }
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private static int freeSlot(final long[] addresses, final long address)
    {
        final int mask = addresses.length - 1;
        int slot = (int)((address * SPREAD) >>> SHIFT) & mask;
        while (addresses[slot] != EMPTY)
        {
            slot = (slot + 1) & mask;
        }
        return slot;
    }
}
