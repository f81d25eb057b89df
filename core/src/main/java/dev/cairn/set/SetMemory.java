package dev.cairn.set;

import dev.cairn.Entity;
import dev.cairn.internal.OffHeap;

import java.util.Arrays;

/**
 * The memory of a set: its packed columns, grown geometrically up to {@link SparseSet#MAX_CAPACITY}, and its sparse
 * pages, each allocated (filled with -1, "absent") the first time an entity index of its page is inserted. Every
 * allocation is made before the set changes, so a failed one leaves the set as it was.
 */
final class SetMemory
{
    private SetMemory()
    {
    }

    static void reserve(final SparseSet set, final int capacity)
    {
        if (capacity < 0 || capacity > SparseSet.MAX_CAPACITY)
        {
            throw new IllegalArgumentException("cannot reserve " + capacity + " indices in " + set.name +
                ": allowed range is [0, " + SparseSet.MAX_CAPACITY + "]");
        }
        if (capacity > set.dense.capacity())
        {
            set.resizeDense(capacity);
        }
    }

    static void reserveFor(final SparseSet set, final long entity, final int members)
    {
        if (!Entity.isWellFormed(entity))
        {
            throw new IllegalArgumentException("cannot reserve room for " + Entity.toString(entity) + " in " +
                set.name + ": it is not an entity handle");
        }
        final int entityIndex = Entity.index(entity);
        final boolean newPage = set.sparseAddressOf(entityIndex) == 0;
        if (newPage)
        {
            allocatePage(set, entityIndex >>> SparseSet.PAGE_SHIFT);
        }
        if (members > set.dense.capacity())
        {
            try
            {
                ensureCapacity(set, members);
            }
            catch (final RuntimeException ex)
            {
                if (newPage)
                {
                    freePage(set, entityIndex >>> SparseSet.PAGE_SHIFT);
                }
                throw ex;
            }
        }
    }

    /** Releases the capacity beyond the size and the pages that map no entry. */
    static void shrinkToFit(final SparseSet set)
    {
        if (set.dense.capacity() > set.size)
        {
            set.layoutVersion++;
            set.resizeDense(set.size);
        }
        final long[] pages = set.pageAddresses;
        final boolean[] used = new boolean[pages.length];
        for (int i = 0; i < set.size; i++)
        {
            final long entity = set.packedGet(i);
            if (entity >= 0)
            {
                used[Entity.index(entity) >>> SparseSet.PAGE_SHIFT] = true;
            }
        }
        for (int p = 0; p < pages.length; p++)
        {
            if (!used[p] && pages[p] != 0)
            {
                freePage(set, p);
            }
        }
    }

    /** Grows the capacity to hold {@code needed} indices, geometrically. */
    static void ensureCapacity(final SparseSet set, final int needed)
    {
        if (needed > SparseSet.MAX_CAPACITY)
        {
            throw new IllegalStateException(needed == set.size + 1 ?
                set.name + " is full: it holds " + set.size + " indices, the most a set can hold is " +
                    SparseSet.MAX_CAPACITY :
                "cannot make room for " + needed + " indices in " + set.name + ": the most a set can hold is " +
                    SparseSet.MAX_CAPACITY + " (it holds " + set.size + ")");
        }
        set.resizeDense(OffHeap.grownCapacity(set.dense.capacity(), needed, 16, SparseSet.MAX_CAPACITY));
    }

    /**
     * Allocates a page of sparse entries, all absent.
     *
     * @return its address.
     */
    static long allocatePage(final SparseSet set, final int page)
    {
        if (page >= set.pageAddresses.length)
        {
            set.pageAddresses = Arrays.copyOf(set.pageAddresses, Math.max(page + 1, set.pageAddresses.length * 2));
        }
        final long address = set.offHeap.allocate(SparseSet.PAGE_BYTES, (byte)0xFF);
        set.pageAddresses[page] = address;
        return address;
    }

    static void freePage(final SparseSet set, final int page)
    {
        set.offHeap.free(set.pageAddresses[page]);
        set.pageAddresses[page] = 0;
    }

    /** Off-heap bytes the set holds: its columns and sparse pages. */
    static long bytes(final SparseSet set)
    {
        long bytes = set.dense.bytes();
        for (final long page : set.pageAddresses)
        {
            if (page != 0)
            {
                bytes += SparseSet.PAGE_BYTES;
            }
        }
        return bytes;
    }

    /** Frees the set's memory now, for a structure that lives shorter than its world; the set reads as closed. */
    static void free(final SparseSet set)
    {
        set.offHeap.unregister(set.holder);
        final long[] pages = set.pageAddresses;
        set.pageAddresses = SparseSet.NO_PAGES;
        for (final long page : pages)
        {
            set.offHeap.free(page);
        }
        set.dense.free();
        set.forgetMemory();
    }
}
