package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import dev.cairn.snapshot.SnapshotInput;
import org.agrona.UnsafeApi;

/**
 * Loads one set's part of a snapshot into an empty set: reads the counts and the packed array, checks everything the
 * set's invariants need, and rebuilds the sparse array, which a snapshot does not hold. Nothing from the input is
 * trusted before it is checked: on failure the sparse array is as it was (empty) and the set's counts untouched.
 */
final class SetLoader
{
    /** Packed handles a load copies and checks at a time: 32 KiB, which stay in cache in between. */
    private static final int BLOCK = 4096;

    private final SparseSet set;
    private final SnapshotInput in;
    private final DeletionPolicy policy;
    /** Only members alive in it may be loaded; null for a standalone set. */
    private final EntityPool pool;

    SetLoader(final SparseSet set, final SnapshotInput in)
    {
        this.set = set;
        this.in = in;
        this.policy = set.policy();
        this.pool = set.pool();
    }

    /**
     * Reads the state, as {@link SparseSet#readSetSnapshot} describes.
     *
     * @return the size read.
     */
    int read(final DeletionPolicy savedPolicy, final long slotPayload)
    {
        final int size = in.getInt();
        final int extent = in.getInt();
        final int freeHead = in.getInt();
        final int memberCount = in.getInt();
        if (size < 0 || size > SparseSet.MAX_CAPACITY || extent < 0 || extent > size || memberCount < 0 ||
            memberCount > extent)
        {
            throw in.error("its counts size " + size + ", extent " + extent + " and members " + memberCount +
                " are not 0 <= members <= extent <= size <= " + SparseSet.MAX_CAPACITY);
        }
        if (savedPolicy != policy && (memberCount != size || extent != size))
        {
            throw in.error(set.name() + " was saved with policy " + savedPolicy + " and holds tombstones or " +
                "released entries, which its policy now, " + policy + ", cannot keep; compact() it before saving, " +
                "or keep its policy");
        }
        final boolean fits = policy == DeletionPolicy.SWAP_AND_POP ?
            extent == size && memberCount == size && freeHead == SparseSet.ABSENT :
            policy == DeletionPolicy.IN_PLACE ? extent == size && freeHead >= SparseSet.ABSENT && freeHead < size :
            freeHead == SparseSet.ABSENT && memberCount == extent;
        if (!fits)
        {
            throw in.error("its counts (size " + size + ", extent " + extent + ", members " + memberCount +
                ", free list head " + freeHead + ") do not fit " + policy);
        }
        in.require(Math.multiplyExact((long)size, Long.BYTES + slotPayload), size + " indices");
        // Before the try: a failed growth leaves nothing to clear, and no packed array of this size to read.
        set.ensureLoadCapacity(size);
        try
        {
            if (pool != null && extent == size && memberCount == size && freeHead == SparseSet.ABSENT)
            {
                readMembers(size);
            }
            else
            {
                in.getMemory(set.packedAddress(), (long)size * Long.BYTES);
                rebuildSparse(size, extent, freeHead, memberCount);
            }
        }
        catch (final RuntimeException ex)
        {
            clearSparse(size);
            throw ex;
        }
        set.loaded(size, extent, freeHead, memberCount);
        return size;
    }

    /** The checked rebuild, for any state: says exactly what is wrong with the first handle or count that is. */
    private void rebuildSparse(final int size, final int extent, final int freeHead, final int memberCount)
    {
        int members = 0;
        int tombstones = 0;
        for (int i = 0; i < size; i++)
        {
            final long entity = set.packedGet(i);
            if (entity < 0)
            {
                if (i >= extent || policy != DeletionPolicy.IN_PLACE)
                {
                    throw in.error("index " + i + " holds a tombstone, which " + policy + " has none of there");
                }
                tombstones++;
                continue;
            }
            if (!Entity.isWellFormed(entity))
            {
                throw in.error("index " + i + " holds " + Entity.toString(entity) + ", not an entity handle");
            }
            if (i < extent)
            {
                if (pool != null && !pool.isAlive(entity))
                {
                    throw in.error("index " + i + " holds " + Entity.toString(entity) + ", which is not alive");
                }
                members++;
            }
            final int entityIndex = Entity.index(entity);
            // A released entry past every created index would allocate a sparse page no entity can need: 4096 such
            // entries, 8 bytes each in the snapshot, would take 64 MiB.
            if (pool != null && entityIndex >= pool.createdCount())
            {
                throw in.error("index " + i + " holds " + Entity.toString(entity) + ", whose entity index " +
                    entityIndex + " the world never created (it created " + pool.createdCount() + ")");
            }
            final long address = sparseEntry(entityIndex);
            if (UnsafeApi.getInt(address) != SparseSet.ABSENT)
            {
                throw in.error("entity index " + entityIndex + " is held at index " + UnsafeApi.getInt(address) +
                    " and again at " + i);
            }
            UnsafeApi.putInt(address, i);
        }
        if (members != memberCount)
        {
            throw in.error("it holds " + members + " members where its count says " + memberCount);
        }
        int linked = 0;
        for (int at = freeHead; at != SparseSet.ABSENT; at = (int)set.packedGet(at))
        {
            if (at < 0 || at >= size || set.packedGet(at) >= 0 || ++linked > tombstones)
            {
                throw in.error("its in-place free list does not link each of its " + tombstones +
                    " tombstones once (it reaches " + at + ")");
            }
        }
        if (linked != tombstones)
        {
            throw in.error("its in-place free list links " + linked + " of its " + tombstones + " tombstones");
        }
    }

    /**
     * Reads the packed array of a set holding members only (no tombstone, nothing released) and rebuilds the sparse
     * array, a block at a time so that each block is checked while the copy has it in cache. If a handle is not as
     * {@link #rebuildMembers} wants it, the checked loop of {@link #rebuildSparse} says what is wrong.
     */
    private void readMembers(final int size)
    {
        final long packedAddress = set.packedAddress();
        for (int from = 0; from < size; from += BLOCK)
        {
            final int to = Math.min(size, from + BLOCK);
            in.getMemory(packedAddress + ((long)from << 3), (long)(to - from) << 3);
            final int rebuilt = rebuildMembers(from, to);
            if (rebuilt != to)
            {
                in.getMemory(packedAddress + ((long)to << 3), (long)(size - to) << 3);
                clearSparse(rebuilt);
                rebuildSparse(size, size, SparseSet.ABSENT, size);
                throw new IllegalStateException("the checked rebuild of " + set.name() + " passed where the quick " +
                    "one stopped at index " + rebuilt);
            }
        }
    }

    /**
     * The sparse array rebuilt for packed [from, to) of members, as the checked loop of {@link #rebuildSparse} would,
     * in one tight pass: each handle must be alive in the pool and its entity index appear once. The sparse page is
     * looked up once per run of handles on the same page.
     *
     * @return {@code to} if every handle passed; else the packed index of the first that did not, whose sparse entry
     * and those after it are not set.
     */
    private int rebuildMembers(final int from, final int to)
    {
        final EntityPool pool = this.pool;
        int pageOf = -1;
        long page = 0;
        for (int i = from; i < to; i++)
        {
            final long entity = set.packedGet(i);
            if (!pool.isAlive(entity))
            {
                return i;
            }
            final int entityIndex = Entity.index(entity);
            if (entityIndex >>> SparseSet.PAGE_SHIFT != pageOf)
            {
                pageOf = entityIndex >>> SparseSet.PAGE_SHIFT;
                page = sparseEntry(entityIndex) - ((long)(entityIndex & SparseSet.PAGE_MASK) << 2);
            }
            final long address = page + ((long)(entityIndex & SparseSet.PAGE_MASK) << 2);
            if (UnsafeApi.getInt(address) != SparseSet.ABSENT)
            {
                return i;
            }
            UnsafeApi.putInt(address, i);
        }
        return to;
    }

    /** The address of the sparse entry of {@code entityIndex}, allocating its page if it has none yet. */
    private long sparseEntry(final int entityIndex)
    {
        final long address = set.sparseAddressOf(entityIndex);
        return address != 0 ? address : set.allocatePage(entityIndex >>> SparseSet.PAGE_SHIFT) +
            ((long)(entityIndex & SparseSet.PAGE_MASK) << 2);
    }

    /** Sets back to -1 every sparse entry that a handle in packed [0, size) may have set. */
    private void clearSparse(final int size)
    {
        for (int i = 0; i < size; i++)
        {
            final long entity = set.packedGet(i);
            if (Entity.isWellFormed(entity))
            {
                final long address = set.sparseAddressOf(Entity.index(entity));
                if (address != 0 && UnsafeApi.getInt(address) == i)
                {
                    UnsafeApi.putInt(address, SparseSet.ABSENT);
                }
            }
        }
    }
}
