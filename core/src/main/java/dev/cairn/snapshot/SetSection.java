package dev.cairn.snapshot;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.RawSet;
import dev.cairn.set.SparseSet;
import org.agrona.UnsafeApi;

/**
 * One set's part of a snapshot: its counts and its packed array, with tombstones and released entries, so that a
 * loaded set has the same members at the same indices. The sparse array is not saved: a load rebuilds it. Loading
 * trusts nothing from the input before it is checked: on failure the sparse array is as it was (empty) and the set's
 * counts untouched.
 */
final class SetSection
{
    /** Packed handles a load copies and checks at a time: 32 KiB, which stay in cache in between. */
    private static final int BLOCK = 4096;
    private static final int ABSENT = -1;
    private static final int PAGE_SHIFT = 12;
    private static final int PAGE_MASK = SparseSet.PAGE_SIZE - 1;

    private final RawSet set;
    private final SnapshotInput in;
    private final DeletionPolicy policy;
    /** Only members alive in it may be loaded; null for a standalone set. */
    private final EntityPool pool;

    private SetSection(final RawSet set, final SnapshotInput in)
    {
        this.set = set;
        this.in = in;
        this.policy = set.policy();
        this.pool = set.pool();
    }

    /**
     * The bytes {@link #write} writes: four counts and the packed handles.
     *
     * @param set the set.
     * @return the size of the set's part of a snapshot.
     */
    static long bytes(final RawSet set)
    {
        return 4L * Integer.BYTES + (long)set.size() * Long.BYTES;
    }

    /**
     * Writes the set's state as it is: size, extent, the head of the in-place free list, the member count and the
     * packed array.
     *
     * @param set the set.
     * @param out the snapshot being written.
     */
    static void write(final RawSet set, final SnapshotOutput out)
    {
        out.putInt(set.size());
        out.putInt(set.extent());
        out.putInt(set.freeHead());
        out.putInt(set.memberCount());
        out.putMemory(set.packedAddress(), (long)set.size() * Long.BYTES);
    }

    /**
     * Reads a state {@link #write} wrote into an empty set, checking everything the set's invariants need: counts that
     * fit the policy, well-formed members alive in the pool, every entity index once, an in-place free list that links
     * every tombstone once. Then the sparse array is rebuilt. On failure the set is empty again and the exception says
     * what was wrong.
     *
     * @param set         the set.
     * @param in          the snapshot being read.
     * @param savedPolicy the policy the set had when it was saved: another policy can load it only without
     *                    tombstones and released entries.
     * @param slotPayload the bytes that follow the packed array for each index (the caller's columns): checked to be
     *                    there before anything is allocated.
     * @return the size read.
     * @throws SnapshotFormatException if the state is truncated or inconsistent.
     * @throws IllegalStateException   if the set is not empty, or closed.
     */
    static int read(final RawSet set, final SnapshotInput in, final DeletionPolicy savedPolicy, final long slotPayload)
    {
        set.requireEmptyForLoad();
        return new SetSection(set, in).read(savedPolicy, slotPayload);
    }

    private int read(final DeletionPolicy savedPolicy, final long slotPayload)
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
            extent == size && memberCount == size && freeHead == ABSENT :
            policy == DeletionPolicy.IN_PLACE ? extent == size && freeHead >= ABSENT && freeHead < size :
            freeHead == ABSENT && memberCount == extent;
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
            if (pool != null && extent == size && memberCount == size && freeHead == ABSENT)
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
            final long entity = packedGet(i);
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
            if (UnsafeApi.getInt(address) != ABSENT)
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
        for (int at = freeHead; at != ABSENT; at = (int)packedGet(at))
        {
            if (at < 0 || at >= size || packedGet(at) >= 0 || ++linked > tombstones)
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
                rebuildSparse(size, size, ABSENT, size);
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
            final long entity = packedGet(i);
            if (!pool.isAlive(entity))
            {
                return i;
            }
            final int entityIndex = Entity.index(entity);
            if (entityIndex >>> PAGE_SHIFT != pageOf)
            {
                pageOf = entityIndex >>> PAGE_SHIFT;
                page = sparseEntry(entityIndex) - ((long)(entityIndex & PAGE_MASK) << 2);
            }
            final long address = page + ((long)(entityIndex & PAGE_MASK) << 2);
            if (UnsafeApi.getInt(address) != ABSENT)
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
        return set.sparseEntry(entityIndex);
    }

    private long packedGet(final int index)
    {
        return UnsafeApi.getLong(set.packedAddress() + ((long)index << 3));
    }

    /** Sets back to -1 every sparse entry that a handle in packed [0, size) may have set. */
    private void clearSparse(final int size)
    {
        for (int i = 0; i < size; i++)
        {
            final long entity = packedGet(i);
            if (Entity.isWellFormed(entity))
            {
                final long address = set.sparseEntryIfAny(Entity.index(entity));
                if (address != 0 && UnsafeApi.getInt(address) == i)
                {
                    UnsafeApi.putInt(address, ABSENT);
                }
            }
        }
    }
}
