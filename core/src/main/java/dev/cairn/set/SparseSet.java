package dev.cairn.set;

import dev.cairn.memory.OffHeapExhaustedException;
import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.entity.EntityPool;
import dev.cairn.memory.Columns;
import dev.cairn.memory.OffHeap;
import dev.cairn.parallel.ChunkAction;
import dev.cairn.parallel.Chunks;
import dev.cairn.signal.Signal;
import dev.cairn.snapshot.SnapshotInput;
import dev.cairn.snapshot.SnapshotOutput;
import org.agrona.UnsafeApi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongConsumer;

/**
 * An off-heap paged sparse set of entity handles, with EnTT's three {@link DeletionPolicy deletion policies}.
 * <p>
 * <b>Layout.</b> The <em>sparse</em> array maps an entity index to a packed index; it lives in pages of
 * {@value #PAGE_SIZE} {@code int}s, each allocated the first time an entity index of that page is inserted and filled
 * with -1 ("absent"). The <em>packed</em> array holds the {@code long} handles contiguously. It is column 0 of a
 * {@link Columns} block; a component storage adds its fields as further columns, which this class moves with their
 * handles but never reads. "Index" alone always means a packed index; an entity's own index is its "entity index".
 * <p>
 * <b>Invariants</b> (checked by the model-based tests after every operation):
 * <ul>
 *     <li>for every member {@code e}: {@code packed[sparse[index(e)]] == e};</li>
 *     <li>a sparse entry that is not -1 points at a packed index holding a handle with that entity index (under
 *     {@link DeletionPolicy#SWAP_ONLY} it may be in the released region);</li>
 *     <li>{@link DeletionPolicy#IN_PLACE} tombstones are negative (bit 63 set, which no handle has) and hold in their
 *     low 32 bits the packed index of the next tombstone (-1 ends the list); no sparse entry points at them;</li>
 *     <li>members and tombstones occupy {@code [0, extent())}; {@link DeletionPolicy#SWAP_ONLY} released entries
 *     occupy {@code [extent(), size())}, and for the other policies {@code extent() == size()}.</li>
 * </ul>
 * <b>Iteration</b> runs from the back of the packed array to the front, so erasing the current element during
 * {@link #forEach(LongConsumer)} is safe. Sorting arranges the packed array so that this iteration order follows the
 * comparator. While an iteration is in progress ({@link #beginIteration()}), operations that reorder members
 * ({@link #sort}, {@link #sortAs}, {@link #swapElements}, {@link #compact()}) throw instead of making the iteration
 * visit some members twice and others never, and closing the memory's owner throws instead of freeing memory the
 * iteration reads.
 * <p>
 * <b>Iteration protocol</b> for generated views: {@link #beginIteration()} and {@link #endIteration()} around a walk
 * of {@code i} from {@link #extent()} - 1 down to 0 that reads the member at {@code i} (a storage's {@code Ref}
 * positioned there, or {@link #entityAt(int)}; skipping {@link Entity#NULL}) and probes other sets with
 * {@link #indexOf(long, int)} at hint {@code i}; after each step the walk clamps {@code i} to the current
 * {@link #extent()}. An external cursor, which cannot bracket its iteration, compares {@link #reorderCount()}
 * instead.
 * <p>
 * <b>Memory.</b> A standalone set owns its memory and {@link #close()} frees it. A set built on a
 * {@link dev.cairn.World}'s memory lives as long as the world: {@link #close()} throws, and closing the world makes
 * every later use of the set throw {@link IllegalStateException}. Not thread-safe, except that iterations on other
 * threads are detected by close.
 */
public class SparseSet implements AutoCloseable
{
    /** Entries per sparse page. */
    public static final int PAGE_SIZE = 4096;

    /** Largest number of packed indices: keeps every 8-byte column's byte offsets within an {@code int}. */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE / Long.BYTES;

    static final int PAGE_SHIFT = 12;
    static final int PAGE_MASK = PAGE_SIZE - 1;
    private static final int PAGE_BYTES = PAGE_SIZE * Integer.BYTES;
    static final int ABSENT = -1;
    /** What {@link #indexOrInsertAlive} returns for an entity that is not alive: below every {@code -1 - index}. */
    protected static final int NOT_ALIVE = Integer.MIN_VALUE;
    private static final long[] NO_PAGES = new long[0];
    private static final long[] NO_ENTITIES = new long[0];
    private static final VarHandle ITERATIONS;

    static
    {
        try
        {
            ITERATIONS = MethodHandles.lookup().findVarHandle(SparseSet.class, "iterations", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final DeletionPolicy policy;
    private final OffHeap offHeap;
    private final boolean ownsMemory;
    /** Whether the memory's owner (a World), not this set alone, was closed: then messages name the owner. */
    private boolean closedWithOwner;
    /** Whether close() frees this set's blocks of memory it shares (a world's). */
    private final boolean closable;
    private final OffHeap.Holder holder;
    private final EntityPool pool;
    private final String name;
    /** Column 0: the packed handles; the columns after it: a storage's payload. */
    private final Columns dense;

    /*
     * Raw addresses, refreshed whenever memory moves: a page's address is 0 until the page exists. Hot reads go
     * through these with a null base object, which lets the JIT keep this set's fields in registers across off-heap
     * stores; every such read is guarded by a check against size() or the page table, and size() <= capacity().
     */
    private long[] pageAddresses = NO_PAGES;
    private long packedAddress;
    private int size;
    private int memberCount;
    /** SWAP_ONLY: the boundary in front of the released entries. The other policies: size. */
    private int extent;
    /** IN_PLACE: packed index of the most recent tombstone, or -1. */
    private int freeHead = ABSENT;
    /** Counts the operations that may have changed which member is at which index; see layoutVersion(). */
    private long layoutVersion;
    /** Counts the operations that reorder members on purpose (sort, sortAs, swapElements, compact). */
    private int reorderCount;
    /** The structure (a group) that orders this set's members, or null; see claimOrder(). */
    private OrderClaim claim;
    /** Whether a swapping set was cleared during the walks in progress: it refuses inserts until they return. */
    private boolean clearedUnderWalk;
    /** An in-place set cleared under a walk: it holds only holes, to be dropped when the walk returns if still empty. */
    private boolean punchedUnderWalk;
    /** The moves removals, inserts and an owner made while the set was walked, for walks that check none crossed. */
    private final MoveLog walkMoves = new MoveLog();
    /** {@code walkMoves.count()}, kept here so that a walk's check after each step is one load. */
    private long walkMoveCount;
    /** Why {@link #insert(long)} is refused, for sets whose members need payload and announcements; else null. */
    private String insertRefusal;
    /** Whether insert and remove call beforeInsert and beforeRemove: a subclass has listeners. */
    private boolean hooked;
    /** The members whose removal is being announced, innermost last: removing one again skips its listeners. */
    private long[] announced = NO_ENTITIES;
    private int announcedCount;
    /** Iterations in progress, from any thread; changed atomically through ITERATIONS. */
    @SuppressWarnings("unused")
    private volatile int iterations;
    private boolean closed;
    /** True while the memory's structure is locked (a parallel iteration runs): changes throw, reads go on. */
    private boolean locked;

    /**
     * Creates an empty standalone set that owns its off-heap memory and accepts any well-formed handle.
     *
     * @param policy what erase does.
     */
    public SparseSet(final DeletionPolicy policy)
    {
        this(policy, null, null, "sparse set");
    }

    /**
     * Creates an empty set with payload columns, for component storages.
     *
     * @param policy        what erase does.
     * @param offHeap       the owner of this set's memory (a world's), or null for a set that owns its memory and
     *                      frees it on {@link #close()}.
     * @param pool          if not null, only entities alive in this pool may be inserted.
     * @param name          what exception messages call this set, for example {@code "Position storage"}.
     * @param payloadWidths the byte width of each payload column: 1, 2, 4 or 8.
     */
    protected SparseSet(
        final DeletionPolicy policy,
        final OffHeap offHeap,
        final EntityPool pool,
        final String name,
        final int... payloadWidths)
    {
        this(policy, offHeap, pool, name, false, payloadWidths);
    }

    /**
     * Creates an empty set on memory it shares with others (a world's), which {@link #close()} nevertheless frees
     * early: for structures such as observers that live shorter than their world. Closing the memory's owner frees it
     * too.
     *
     * @param policy  what erase does.
     * @param offHeap the owner of the memory.
     * @param pool    if not null, only entities alive in this pool may be inserted.
     * @param name    what exception messages call this set.
     * @return the new set.
     */
    public static SparseSet onSharedMemory(
        final DeletionPolicy policy, final OffHeap offHeap, final EntityPool pool, final String name)
    {
        return new SparseSet(policy, Objects.requireNonNull(offHeap, "offHeap"), pool, name, true);
    }

    private SparseSet(
        final DeletionPolicy policy,
        final OffHeap offHeap,
        final EntityPool pool,
        final String name,
        final boolean closable,
        final int... payloadWidths)
    {
        if (policy == null)
        {
            throw new NullPointerException("policy");
        }
        this.policy = policy;
        this.ownsMemory = offHeap == null;
        this.offHeap = ownsMemory ? new OffHeap(name) : offHeap;
        this.pool = pool;
        this.name = name;
        final int[] widths = new int[payloadWidths.length + 1];
        widths[0] = Long.BYTES;
        System.arraycopy(payloadWidths, 0, widths, 1, payloadWidths.length);
        this.dense = new Columns(this.offHeap, widths);
        this.closable = closable;
        this.holder = new OffHeap.Holder()
        {
            @Override
            public boolean isIterating()
            {
                return SparseSet.this.isIterating();
            }

            @Override
            public void memoryFreed()
            {
                closedWithOwner = true;
                forgetMemory();
            }

            @Override
            public void structureLocked(final boolean locked)
            {
                SparseSet.this.locked = locked;
            }

            @Override
            public String toString()
            {
                return SparseSet.this.name;
            }
        };
        this.offHeap.register(holder);
    }

    /**
     * The deletion policy chosen at construction.
     *
     * @return this set's policy.
     */
    public final DeletionPolicy policy()
    {
        return policy;
    }

    /**
     * Number of packed indices in use: members, plus {@link DeletionPolicy#IN_PLACE} tombstones and
     * {@link DeletionPolicy#SWAP_ONLY} released entries.
     *
     * @return the extent of the packed array.
     */
    public final int size()
    {
        return size;
    }

    /**
     * Number of members: entities for which {@link #contains(long)} is true.
     *
     * @return the member count.
     */
    public final int memberCount()
    {
        return memberCount;
    }

    /**
     * End of the region iteration walks: members and tombstones live in {@code [0, extent())}. For
     * {@link DeletionPolicy#SWAP_ONLY} this is the boundary in front of the released entries; for the other policies
     * it equals {@link #size()}.
     *
     * @return the extent iteration walks; 0 once closed.
     */
    public final int extent()
    {
        return extent;
    }

    /**
     * Whether the set is empty of members.
     *
     * @return true if {@link #memberCount()} is 0.
     */
    public final boolean isEmpty()
    {
        return memberCount == 0;
    }

    /**
     * Packed indices allocated.
     *
     * @return the capacity of the packed array and every column.
     */
    public final int capacity()
    {
        return dense.capacity();
    }

    /**
     * Whether {@code entity} is a member. Stale versions, released entries, {@link Entity#NULL} and malformed values
     * are never members.
     *
     * @param entity any value.
     * @return true if {@code entity} is in the set.
     * @throws IllegalStateException if the set is closed.
     */
    public final boolean contains(final long entity)
    {
        ensureOpen();
        return indexOf(entity) >= 0;
    }

    /**
     * The packed index of a member; the lookup views use. Performs no open check: on a closed set it finds
     * nothing.
     *
     * @param entity any value.
     * @return its packed index if {@code entity} is a member, otherwise -1.
     */
    public final int indexOf(final long entity)
    {
        return indexOf(entity, sparseAddressOf(Entity.index(entity)));
    }

    /**
     * The packed index of a member, looking at {@code hint} first: a view passes the index at which it found the
     * entity in its leading set, and sets that were filled in step hold it there too, which saves the sparse lookup.
     * Performs no open check.
     *
     * @param entity any value.
     * @param hint   where {@code entity} may be; any value.
     * @return its packed index if {@code entity} is a member, otherwise -1.
     */
    public final int indexOf(final long entity, final int hint)
    {
        // A negative value is never a member, though it may equal a tombstone's bits.
        if (hint >= 0 && hint < extent() && packedGet(hint) == entity && entity >= 0)
        {
            return hint;
        }
        return indexOf(entity);
    }

    /**
     * The handle at a packed index.
     *
     * @param index from 0 to {@link #size()} - 1.
     * @return the handle there, or {@link Entity#NULL} for an {@link DeletionPolicy#IN_PLACE} tombstone (a
     * {@link DeletionPolicy#SWAP_ONLY} released entry is returned with its bumped version).
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, size())}.
     * @throws IllegalStateException     if the set is closed.
     */
    public final long entityAt(final int index)
    {
        final long packed = packedGet(checkIndex(index));
        return packed >= 0 ? packed : Entity.NULL;
    }

    /**
     * Adds {@code entity}. Under {@link DeletionPolicy#IN_PLACE} the most recently freed index is reused; under
     * {@link DeletionPolicy#SWAP_ONLY} a released entry of the same entity index is brought back in front of the
     * boundary. Payload columns at the returned index hold whatever was there; storages write them next. Any memory
     * the insert needs is allocated before anything changes, so a failed allocation leaves the set as it was.
     *
     * @param entity a well-formed handle that is not a member.
     * @return the packed index the entity now occupies.
     * @throws IllegalArgumentException if {@code entity} is NULL, malformed, already a member, shares its entity index
     *                                  with a member of another version, or (for a set bound to a pool) is not alive.
     * @throws IllegalStateException    if the set is closed.
     * @throws OffHeapExhaustedException         if memory for a sparse page or a larger packed array cannot be allocated.
     * @throws UnsupportedOperationException     on a component storage: it adds members with values ({@code emplace},
     *                                           {@code add}) and announces them; nothing changes.
     */
    public final int insert(final long entity)
    {
        if (insertRefusal != null)
        {
            ensureOpen();
            throw new UnsupportedOperationException(insertRefusal + " (" + Entity.toString(entity) + " was not added)");
        }
        return insertMember(entity);
    }

    /**
     * {@link #insert(long)} for subclasses that write the member's payload and announce it themselves, also where
     * {@link #refuseInsert} closed the public door.
     *
     * @param entity a well-formed handle that is not a member.
     * @return the packed index the entity now occupies.
     * @throws IllegalArgumentException  as {@link #insert(long)}.
     * @throws IllegalStateException     if the set is closed.
     * @throws OffHeapExhaustedException if memory cannot be allocated.
     */
    protected final int insertMember(final long entity)
    {
        ensureMutable("add to");
        if (clearedUnderWalk)
        {
            throw insertAfterClearUnderWalk(entity);
        }
        checkInsertable(entity);
        if (hooked)
        {
            beforeInsert(entity);
        }
        return insertAt(entity, sparseAddressOf(Entity.index(entity)));
    }

    /** Inserts an entity found insertable, whose sparse entry is at {@code sparseAddress} (0: its page is missing). */
    private int insertAt(final long entity, final long sparseAddress)
    {
        // The common case stays small enough for the JIT to inline: the page exists, the entity index is absent and a
        // packed index is free. Allocation, revival and refusal are out of line.
        if (sparseAddress != 0 && UnsafeApi.getInt(sparseAddress) < 0 && (size < dense.capacity() || hasHole()))
        {
            return place(entity, sparseAddress);
        }
        return insertSlowly(entity, sparseAddress);
    }

    /**
     * The packed index of {@code entity}, which is inserted first (as by {@link #insertMember}) if it is not a member:
     * one lookup serves both, for a write that adds or overwrites.
     *
     * @param entity a well-formed handle.
     * @return the index if it was a member; {@code -1 - index} if it was inserted at {@code index}.
     * @throws IllegalArgumentException  as {@link #insert(long)}, if it had to be inserted.
     * @throws IllegalStateException     if the set is closed, or it had to be inserted while the structure is locked.
     * @throws OffHeapExhaustedException if memory cannot be allocated.
     */
    protected final int indexOrInsertMember(final long entity)
    {
        return indexOrInsert(entity, false);
    }

    /**
     * As {@link #indexOrInsertMember}, except that an entity that could not be inserted because it is not alive (or
     * not a handle) is left alone: for a write that skips entities destroyed since it was asked for, without paying
     * for a separate liveness check. A set without an entity pool takes every well-formed handle as alive.
     *
     * @param entity any value.
     * @return as {@link #indexOrInsertMember}, or {@link #NOT_ALIVE} if the entity is not a member and not alive.
     * @throws IllegalArgumentException  as {@link #insert(long)} for an alive entity, if it had to be inserted.
     * @throws IllegalStateException     as {@link #indexOrInsertMember}.
     * @throws OffHeapExhaustedException if memory cannot be allocated.
     */
    protected final int indexOrInsertAlive(final long entity)
    {
        return indexOrInsert(entity, true);
    }

    /**
     * Whether {@link #insertIfQuick} may stand in for {@link #insertMember} now: the set is open and not locked, no
     * hook runs on inserts and no walk cleared it. A loop of quick inserts changes none of that.
     *
     * @return true if quick inserts are allowed.
     */
    protected final boolean insertsQuickly()
    {
        return !(closed | locked | hooked | clearedUnderWalk);
    }

    /**
     * The common case of {@link #insertMember} alone, for a loop that found {@link #insertsQuickly()} true: inserts an
     * alive entity that is not a member, if that allocates nothing and revives no released entry.
     *
     * @param entity any value.
     * @return the packed index the entity now occupies, or -1 if it was left alone for {@link #insertMember} or
     * {@link #indexOrInsertAlive} to decide: not alive (or not a handle), a member or its index taken, or an insert
     * that needs memory or a released entry.
     */
    protected final int insertIfQuick(final long entity)
    {
        if (!Entity.isWellFormed(entity) || pool != null && !pool.isAlive(entity))
        {
            return ABSENT;
        }
        final long sparseAddress = sparseAddressOf(Entity.index(entity));
        if (sparseAddress == 0 || UnsafeApi.getInt(sparseAddress) >= 0 || size >= dense.capacity() && !hasHole())
        {
            return ABSENT;
        }
        return place(entity, sparseAddress);
    }

    private int indexOrInsert(final long entity, final boolean onlyAlive)
    {
        if (closed)
        {
            ensureOpen();
        }
        final long sparseAddress = sparseAddressOf(Entity.index(entity));
        final int index = indexOf(entity, sparseAddress);
        if (index >= 0)
        {
            return index;
        }
        if (onlyAlive && !(Entity.isWellFormed(entity) && (pool == null || pool.isAlive(entity))))
        {
            return NOT_ALIVE;
        }
        if (locked || hooked || clearedUnderWalk)
        {
            // Refused, or the hooks may change the set before the insert: the way insertMember goes.
            return -1 - insertMember(entity);
        }
        checkInsertable(entity);
        return -1 - insertAt(entity, sparseAddress);
    }

    private int insertSlowly(final long entity, final long knownSparseAddress)
    {
        final int entityIndex = Entity.index(entity);
        final boolean newPage = knownSparseAddress == 0;
        final long sparseAddress = newPage ?
            allocatePage(entityIndex >>> PAGE_SHIFT) + ((long)(entityIndex & PAGE_MASK) << 2) : knownSparseAddress;
        final int existing = UnsafeApi.getInt(sparseAddress);
        if (existing >= 0)
        {
            if (policy == DeletionPolicy.SWAP_ONLY && existing >= extent)
            {
                packedPut(existing, entity);
                swapIndices(existing, extent);
                memberCount++;
                logJoinUnderWalk(extent);
                return extent++;
            }
            throw alreadyPresent(entity, packedGet(existing));
        }
        if (size == dense.capacity() && !hasHole())
        {
            try
            {
                ensureCapacity(size + 1);
            }
            catch (final RuntimeException ex)
            {
                if (newPage)
                {
                    freePage(entityIndex >>> PAGE_SHIFT);
                }
                throw ex;
            }
        }
        return place(entity, sparseAddress);
    }

    /**
     * Whether an IN_PLACE tombstone can take the next insert. Not while the set is iterated: a hole may lie ahead of
     * the walk, and a member inserted meanwhile must not be visited, so inserts append until the walk ends.
     */
    private boolean hasHole()
    {
        return freeHead != ABSENT && policy == DeletionPolicy.IN_PLACE && iterations == 0;
    }

    /** Puts an absent entity at a free packed index; its sparse entry is at {@code sparseAddress}. */
    private int place(final long entity, final long sparseAddress)
    {
        final int index;
        if (hasHole())
        {
            index = freeHead;
            freeHead = (int)packedGet(index);
            layoutVersion++;
        }
        else
        {
            index = size++;
        }
        packedPut(index, entity);
        UnsafeApi.putInt(sparseAddress, index);
        memberCount++;
        if (policy == DeletionPolicy.SWAP_ONLY)
        {
            swapIndices(index, extent);
            logJoinUnderWalk(extent);
            return extent++;
        }
        extent = size;
        logJoinUnderWalk(index);
        return index;
    }

    /**
     * Whether a walk of the set is in progress, read plainly: for the moves a change makes on the thread that walks it
     * (that thread made the count, and walks on other threads lock the structure against changes).
     */
    private boolean isWalkedHere()
    {
        return (int)ITERATIONS.get(this) != 0;
    }

    /**
     * Logs a member joining at {@code index} while the set is walked: behind the walk as a rule, but in its path when
     * removals from the end shrank the set below where the walk stands, which its check then reports.
     */
    private void logJoinUnderWalk(final int index)
    {
        if (isWalkedHere())
        {
            walkMoves.joined(index);
            walkMoveCount++;
        }
    }

    /** Logs two members changing places while the set is walked, for the walk's check. */
    private void logSwapUnderWalk(final int a, final int b)
    {
        if (isWalkedHere())
        {
            walkMoves.swapped(a, b);
            walkMoveCount++;
        }
    }

    /**
     * Erases a member, as this set's {@link #policy()} says.
     *
     * @param entity a member.
     * @throws IllegalArgumentException if {@code entity} is not a member (use {@link #remove(long)} when absence is
     *                                  expected).
     * @throws IllegalStateException    if the set is closed.
     */
    public final void erase(final long entity)
    {
        if (!remove(entity))
        {
            throw notMember(entity);
        }
    }

    /**
     * Erases {@code entity} if it is a member.
     *
     * @param entity any value.
     * @return true if it was a member and has been erased.
     * @throws IllegalStateException if the set is closed.
     */
    public final boolean remove(final long entity)
    {
        ensureMutable("remove from");
        return removeMember(entity);
    }

    /** {@link #remove(long)} once the set is known to be mutable. */
    private boolean removeMember(final long entity)
    {
        final long sparseAddress = sparseAddressOf(Entity.index(entity));
        final int index = indexOf(entity, sparseAddress);
        if (index < 0)
        {
            return false;
        }
        if (hooked)
        {
            return removeHooked(entity, index);
        }
        eraseAt(index, entity, sparseAddress);
        return true;
    }

    /**
     * Erases each of {@code entities[offset, offset + length)} that is a member, in order, exactly as
     * {@link #remove(long)} would one after the other: the faster way to remove many.
     *
     * @param entities any values.
     * @param offset   where the first is.
     * @param length   how many.
     * @return how many were members and have been erased.
     * @throws IndexOutOfBoundsException if the range does not fit {@code entities}; nothing is erased then.
     * @throws IllegalStateException     if the set is closed.
     */
    public final int removeAll(final long[] entities, final int offset, final int length)
    {
        ensureMutable("remove from");
        Objects.checkFromIndexSize(offset, length, entities.length);
        int removed = 0;
        // Listeners may close the set or add members back, so with hooks each removal is checked as remove() does.
        for (int i = offset; i < offset + length && (hooked || memberCount > 0); i++)
        {
            removed += (hooked ? remove(entities[i]) : removeMember(entities[i])) ? 1 : 0;
        }
        return removed;
    }

    /**
     * Removes a member after telling {@link #beforeRemove}, which may change this set: the member is looked up again
     * afterwards, and what the hook collected is rethrown once the removal is complete. Removing a member again while
     * its removal is being announced does nothing: it goes once the announcement is over.
     */
    private boolean removeHooked(final long entity, final int index)
    {
        if (isAnnounced(entity))
        {
            return true;
        }
        if (announcedCount == announced.length)
        {
            announced = Arrays.copyOf(announced, Math.max(4, announcedCount * 2));
        }
        announced[announcedCount++] = entity;
        final long layoutBefore = layoutVersion;
        final Throwable failure;
        try
        {
            failure = beforeRemove(entity, index);
        }
        finally
        {
            announcedCount--;
        }
        if (isClosed())
        {
            Signal.rethrow(Signal.closedMeanwhile(failure, name, entity));
        }
        final long sparseAddress = sparseAddressOf(Entity.index(entity));
        final int now = layoutVersion == layoutBefore ? index : indexOf(entity, sparseAddress);
        if (now >= 0)
        {
            eraseAt(now, entity, sparseAddress);
        }
        Signal.rethrow(failure);
        return true;
    }

    /**
     * Removes every member, tombstone and released entry. Memory stays allocated for reuse; see
     * {@link #shrinkToFit()}. Called from the removal listeners of a member, it leaves that member (and the tombstones
     * and released entries) in place: the member goes through the rest of its own removal, hooks included, once its
     * listeners return. While a {@code forEach} walks the set, an in-place set leaves a hole for each member instead
     * (so later inserts go behind the walk), and a swapping set refuses inserts until the walks returned.
     *
     * @throws IllegalStateException if the set is closed.
     */
    public final void clear()
    {
        ensureMutable("clear");
        if (hooked)
        {
            // Set before the removals: a clear called from a removal listener of the member a walk stands on returns
            // below with that member still in, and must refuse the refill all the same.
            if (isIterating())
            {
                clearedUnderWalk |= policy != DeletionPolicy.IN_PLACE;
                punchedUnderWalk |= policy == DeletionPolicy.IN_PLACE;
            }
            removeEachMember();
            if (memberCount > 0)
            {
                // Only members whose removal is being announced are left: dropping them here would skip the hooks
                // that run after their listeners, and the groups and observers following this set would go stale.
                return;
            }
        }
        clearSilently();
    }

    /**
     * Removes every member, tombstone and released entry without telling the hooks: for a load that failed half-way,
     * whose members were never announced either.
     *
     * @throws IllegalStateException if the set is closed.
     */
    protected final void clearSilently()
    {
        ensureMutable("clear");
        if (isIterating() && policy == DeletionPolicy.IN_PLACE)
        {
            punchEveryMember();
            punchedUnderWalk = true;
            return;
        }
        // A swapping set cleared under a walk would take inserts at its front, in the walk's path: it refuses them
        // until every walk of it returned.
        clearedUnderWalk = isIterating();
        for (int i = 0; i < size; i++)
        {
            final long entity = packedGet(i);
            if (entity >= 0)
            {
                sparsePut(Entity.index(entity), ABSENT);
            }
        }
        size = 0;
        extent = 0;
        freeHead = ABSENT;
        memberCount = 0;
        layoutVersion++;
    }

    /**
     * Makes room for {@code capacity} packed indices without further allocation.
     *
     * @param capacity indices wanted, up to {@link #MAX_CAPACITY}.
     * @throws IllegalArgumentException if {@code capacity} is negative or above {@link #MAX_CAPACITY}.
     * @throws IllegalStateException    if the set is closed.
     * @throws OffHeapExhaustedException         if the memory cannot be allocated; the set is unchanged.
     */
    public final void reserve(final int capacity)
    {
        ensureMutable("reserve memory for");
        if (capacity < 0 || capacity > MAX_CAPACITY)
        {
            throw new IllegalArgumentException(
                "cannot reserve " + capacity + " indices in " + name + ": allowed range is [0, " + MAX_CAPACITY + "]");
        }
        if (capacity > dense.capacity())
        {
            resizeDense(capacity);
        }
    }

    /**
     * Makes room so that inserting {@code entity} needs no memory as long as the set holds fewer than
     * {@code members} entries: the capacity (grown geometrically) and the sparse page of its entity index. Structures
     * that must follow another set exactly (observers) call it before that set changes, so that following the change
     * cannot fail.
     *
     * @param entity  a well-formed handle.
     * @param members how many entries the set must be able to hold.
     * @throws IllegalArgumentException  if {@code entity} is not a well-formed handle.
     * @throws IllegalStateException     if the set is closed, or {@code members} exceeds {@link #MAX_CAPACITY}.
     * @throws OffHeapExhaustedException if the memory cannot be allocated; the set is unchanged.
     */
    public final void reserveFor(final long entity, final int members)
    {
        ensureMutable("reserve memory for");
        if (!Entity.isWellFormed(entity))
        {
            throw new IllegalArgumentException(
                "cannot reserve room for " + Entity.toString(entity) + " in " + name + ": it is not an entity handle");
        }
        final int entityIndex = Entity.index(entity);
        final boolean newPage = sparseAddressOf(entityIndex) == 0;
        if (newPage)
        {
            allocatePage(entityIndex >>> PAGE_SHIFT);
        }
        if (members > dense.capacity())
        {
            try
            {
                ensureCapacity(members);
            }
            catch (final RuntimeException ex)
            {
                if (newPage)
                {
                    freePage(entityIndex >>> PAGE_SHIFT);
                }
                throw ex;
            }
        }
    }

    /**
     * Releases memory not needed by the current elements: packed and column capacity beyond {@link #size()}, and
     * sparse pages that map no element.
     *
     * @throws IllegalStateException if the set is closed.
     * @throws OffHeapExhaustedException      if the smaller packed array cannot be allocated; the set is unchanged.
     */
    public final void shrinkToFit()
    {
        ensureMutable("shrink");
        if (dense.capacity() > size)
        {
            layoutVersion++;
            resizeDense(size);
        }
        final boolean[] used = new boolean[pageAddresses.length];
        for (int i = 0; i < size; i++)
        {
            final long entity = packedGet(i);
            if (entity >= 0)
            {
                used[Entity.index(entity) >>> PAGE_SHIFT] = true;
            }
        }
        for (int p = 0; p < pageAddresses.length; p++)
        {
            if (!used[p] && pageAddresses[p] != 0)
            {
                offHeap.free(pageAddresses[p]);
                pageAddresses[p] = 0;
            }
        }
    }

    /**
     * Exchanges the packed indices (and payload) of two members.
     *
     * @param first  a member.
     * @param second a member.
     * @throws IllegalArgumentException if either is not a member.
     * @throws IllegalStateException    if the set is closed or being iterated.
     */
    public final void swapElements(final long first, final long second)
    {
        ensureReorderable("swapElements");
        final int a = indexOf(first);
        if (a < 0)
        {
            throw notMember(first);
        }
        final int b = indexOf(second);
        if (b < 0)
        {
            throw notMember(second);
        }
        reorderCount++;
        swapIndices(a, b);
    }

    /**
     * Removes holes. {@link DeletionPolicy#IN_PLACE}: moves members from the back into tombstones until none
     * remains, so {@code size() == memberCount()}; payload moves with its entity. {@link DeletionPolicy#SWAP_ONLY}:
     * drops the released region. {@link DeletionPolicy#SWAP_AND_POP}: nothing to do.
     *
     * @throws IllegalStateException if the set is closed or being iterated.
     */
    public final void compact()
    {
        ensureReorderable("compact");
        reorderCount++;
        layoutVersion++;
        if (policy == DeletionPolicy.IN_PLACE)
        {
            int to = 0;
            int from = size;
            while (true)
            {
                while (from > 0 && isTombstone(from - 1))
                {
                    from--;
                }
                while (to < from && !isTombstone(to))
                {
                    to++;
                }
                if (to >= from)
                {
                    break;
                }
                moveIndex(from - 1, to);
                from--;
                to++;
            }
            size = from;
            extent = from;
            freeHead = ABSENT;
        }
        else if (policy == DeletionPolicy.SWAP_ONLY)
        {
            for (int i = extent; i < size; i++)
            {
                sparsePut(Entity.index(packedGet(i)), ABSENT);
            }
            size = extent;
        }
    }

    /**
     * Sorts the members so that iteration (back to front) visits them in ascending {@code comparator} order; equal
     * elements keep their relative iteration order. Payload columns are permuted with their entities in O(n) swaps.
     * An {@link DeletionPolicy#IN_PLACE} set is {@link #compact() compacted} first, so sorting never sees a tombstone;
     * a {@link DeletionPolicy#SWAP_ONLY} set sorts its members and leaves the released region as it is.
     *
     * @param comparator orders packed indices as they are when the sort starts; it must not change the set.
     * @throws IllegalArgumentException if the comparator says it reads another set ({@link IndexComparator#set()}).
     * @throws IllegalStateException    if the set is closed or being iterated, or if the comparator changed or closed
     *                                  it (the sort is then not applied).
     */
    public final void sort(final IndexComparator comparator)
    {
        IndexComparator.requireReading(comparator, name, this);
        ensureReorderable("sort");
        compactTombstones();
        final int length = extent();
        final int[] order = new int[length];
        for (int i = 0; i < length; i++)
        {
            order[i] = i;
        }
        // Iteration runs from the back, so the packed array holds the comparator's order reversed.
        final int sizeBefore = size;
        final int membersBefore = memberCount;
        final long layoutBefore = layoutVersion;
        IndexSort.sort(order, length, (left, right) -> comparator.compare(right, left));
        // The permutation writes raw memory below length: refuse if the comparator changed or closed the set, or
        // built a group that owns it (whose order the sort would then break).
        if (closed || layoutVersion != layoutBefore || size != sizeBefore || memberCount != membersBefore ||
            claim != null)
        {
            throw new IllegalStateException(
                "the comparator passed to sort() changed " + name + " (" + (closed ? "closed it" :
                claim != null ? "made " + claim.owner() + " own it" :
                "members " + membersBefore + " -> " + memberCount + ", size " + sizeBefore + " -> " + size +
                ", members moved: " + (layoutVersion != layoutBefore)) +
                "); a comparator must only read the set, so the sort was not applied");
        }
        reorderCount++;
        applyPermutation(order, length);
    }

    /**
     * Arranges the members shared with {@code other} so that iteration visits them first, in the order iteration of
     * {@code other} visits them; the other members follow. Compacts an {@link DeletionPolicy#IN_PLACE} set first.
     *
     * @param other the set whose order to copy; it is not changed.
     * @throws IllegalStateException    if either set is closed, or this one is being iterated.
     * @throws IllegalArgumentException if the two sets belong to different worlds.
     */
    public final void sortAs(final SparseSet other)
    {
        Objects.requireNonNull(other, "other: pass the set whose order to follow");
        ensureReorderable("sortAs");
        other.ensureOpen();
        if (pool != null && other.pool != null && pool != other.pool)
        {
            throw new IllegalArgumentException("cannot sort " + name + " as " + other.name + ": it belongs to another " +
                "World, whose entity handles name other entities; follow a set of the same world");
        }
        compactTombstones();
        reorderCount++;
        int target = extent() - 1;
        for (int i = other.extent() - 1; i >= 0 && target > 0; i--)
        {
            final int index = indexOf(other.packedGet(i));
            if (index >= 0)
            {
                swapIndices(index, target--);
            }
        }
    }

    /**
     * Visits every member from the back of the packed array to the front. Erasing the member being visited is safe
     * under every policy, erasing any other member under {@link DeletionPolicy#IN_PLACE} (it leaves a hole). Members
     * inserted meanwhile go behind the walk, so they are not visited unless an erase under a swapping policy moves one
     * into its path. A {@link #clear()} from {@code action} ends the walk's members: an in-place set keeps holes and
     * takes later inserts behind the walk, a swapping set refuses inserts ({@link IllegalStateException}) until every
     * walk of it returned. Reordering this set or closing its memory's owner from {@code action} throws
     * {@link IllegalStateException}.
     *
     * @param action receives each member's handle.
     * @throws IllegalStateException if the set is closed.
     */
    public final void forEach(final LongConsumer action)
    {
        beginIteration();
        try
        {
            long moves = walkMoveCount;
            for (int i = extent(); (i = Math.min(i, extent()) - 1) >= 0; )
            {
                final long entity = packedGet(i);
                if (entity >= 0)
                {
                    action.accept(entity);
                    if (walkMoveCount != moves)
                    {
                        checkWalk(moves, i);
                        moves = walkMoveCount;
                    }
                }
            }
        }
        finally
        {
            endIteration();
        }
    }

    /**
     * Announces an iteration over this set, on any thread: until the matching {@link #endIteration()}, operations
     * that reorder members throw, and so does closing the memory's owner. Every call must be paired with
     * {@link #endIteration()} in a {@code finally} block. Costs one atomic update.
     *
     * @throws IllegalStateException if the set is closed or being closed.
     */
    public final void beginIteration()
    {
        final int walksBefore = (int)ITERATIONS.getAndAdd(this, 1);
        if (offHeap.isClosing() && !offHeap.awaitCloseDecision())
        {
            ITERATIONS.getAndAdd(this, -1);
            ensureOpen();
            throw new IllegalStateException(name + " is being closed by another thread; it cannot be iterated");
        }
        if (walksBefore == 0 && !locked)
        {
            // Only the outermost walk starts the log's span afresh: a nested one (or a count()) would otherwise make
            // the walk it runs in count the moves pushed out before as crossings.
            walkMoves.restart();
        }
    }

    /**
     * How many moves of members (by removals, inserts and the group that owns the set) were logged while the set was
     * walked: a walk reads it before a step and passes it to {@link #checkWalk} when it changed.
     *
     * @return the count.
     */
    public final long moveCount()
    {
        return walkMoveCount;
    }

    /**
     * Throws if a move since {@code mark} took a member across a walk standing at {@code at}: a swapping set fills
     * the index of a removed member with its last one, so removing a member the walk has still to reach brings one
     * from the part walked back into its path; an insert lands in its path once removals from the end shrank the set
     * below it; an owning group's swaps move members both ways. Removing the member at {@code at} itself never
     * crosses, nor does clearing the set. When more than
     * {@value MoveLog#KEPT} members moved in one step the check is conservative and may throw when nothing crossed.
     *
     * @param mark what {@link #moveCount()} returned before the step.
     * @param at   the index the walk visited in that step.
     * @throws IllegalStateException if a member crossed.
     */
    public final void checkWalk(final long mark, final int at)
    {
        if (clearedUnderWalk)
        {
            // A clear ended every member the walk had still to visit, and inserts wait until it returns.
            walkMoves.restart();
            return;
        }
        final String crossing = walkMoves.crossing(mark, at);
        if (crossing != null)
        {
            throw new IllegalStateException("while " + name + " was walked at index " + at + ", other members " +
                "moved in it (removed, added, or moved by a group that owns it): " + crossing + ", so the rest of " +
                "the walk could visit an entity twice or miss one, and it stops here. Make such changes after the " +
                "walk (collect the entities, or record into a dev.cairn.command.CommandBuffer)" +
                (claim != null ? "; " + claim.owner() + " owns this storage, so it keeps its policy" :
                    policy != DeletionPolicy.IN_PLACE ? ", or give the component DeletionPolicy.IN_PLACE" : ""));
        }
    }

    /**
     * Runs a parallel iteration led by this set, for generated views and groups: locks the structure of everything on
     * this set's memory (its world), announces an iteration of this set, walks {@code [0, length)} in chunks on
     * {@code pool} (see {@link Chunks}), and undoes both when every chunk has returned.
     *
     * @param length    how many packed indices from 0 to walk, at most {@link #extent()}.
     * @param pool      where the chunks run.
     * @param chunkSize indices per chunk, or {@link Chunks#AUTOMATIC}.
     * @param what      what runs, for the messages of refused changes, for example {@code "MovementView.parallelForEach"}.
     * @param action    walks one chunk.
     * @throws IllegalStateException    if the set is closed, or a parallel iteration of its world runs already.
     * @throws IllegalArgumentException if {@code chunkSize} is negative or {@code length} outside {@code [0, extent()]}.
     */
    public final void forEachChunk(
        final int length, final ForkJoinPool pool, final int chunkSize, final String what, final ChunkAction action)
    {
        Chunks.requireValid(pool, chunkSize, action);
        ensureOpen();
        if (length < 0 || length > extent)
        {
            throw new IllegalArgumentException(
                "cannot walk [0, " + length + ") of " + name + ", whose extent is " + extent);
        }
        offHeap.lockStructure(what);
        try
        {
            beginIteration();
            try
            {
                Chunks.run(pool, length, chunkSize, action);
            }
            finally
            {
                endIteration();
            }
        }
        finally
        {
            offHeap.unlockStructure();
        }
    }

    /**
     * Ends an iteration announced by {@link #beginIteration()}.
     *
     * @throws IllegalStateException if no iteration is announced: the count stays as it was, so that an unpaired call
     *                               cannot let the set be closed under a running iteration.
     */
    public final void endIteration()
    {
        final int before = (int)ITERATIONS.getAndAdd(this, -1);
        if (before <= 0)
        {
            ITERATIONS.getAndAdd(this, 1);
            throw new IllegalStateException("endIteration() on " + name + " without a beginIteration() to end; " +
                "call them in pairs, endIteration() in a finally block");
        }
        if (before == 1)
        {
            clearedUnderWalk = false;
            if (punchedUnderWalk)
            {
                punchedUnderWalk = false;
                if (memberCount == 0 && !locked && !isClosed())
                {
                    // Only the holes a clear under the walk left, and nothing since: dropped, as the clear would have.
                    size = 0;
                    extent = 0;
                    freeHead = ABSENT;
                    layoutVersion++;
                }
            }
        }
        Reference.reachabilityFence(this);
    }

    /**
     * Whether an iteration announced by {@link #beginIteration()} is in progress on any thread.
     *
     * @return true while one is.
     */
    public final boolean isIterating()
    {
        return iterations > 0;
    }

    /**
     * A number that changes whenever members are reordered on purpose ({@link #sort}, {@link #sortAs},
     * {@link #swapElements}, {@link #compact()}, and an {@link OrderClaim}'s sort, permute and count of a
     * reordering); a cursor compares it at each step to detect a reordering it could not prevent.
     *
     * @return the current reorder count.
     */
    public final int reorderCount()
    {
        return reorderCount;
    }

    /**
     * Off-heap bytes this set holds: sparse pages, packed array and columns.
     *
     * @return the byte count.
     */
    public final long offHeapBytes()
    {
        long bytes = dense.bytes();
        for (final long page : pageAddresses)
        {
            if (page != 0)
            {
                bytes += PAGE_BYTES;
            }
        }
        return bytes;
    }

    /**
     * Whether this set's memory has been freed, by {@link #close()} or by closing its world.
     *
     * @return true once closed.
     */
    public final boolean isClosed()
    {
        return closed;
    }

    /**
     * Frees all off-heap memory of a standalone set. Afterwards every operation on elements or memory (insert,
     * erase, remove, lookups such as {@link #contains(long)} and {@link #entityAt(int)}, iteration, sorting, clear,
     * compact, reserve, shrinkToFit) throws {@link IllegalStateException}; the counters ({@link #size()},
     * {@link #memberCount()}, {@link #extent()}, {@link #capacity()}, {@link #offHeapBytes()}) read 0 and
     * {@link #indexOf(long)} finds nothing, so a view over a closed set sees it empty. Idempotent.
     *
     * @throws IllegalStateException if the set belongs to a {@link dev.cairn.World} (close the world instead), or if
     *                               it is being iterated on any thread; nothing is closed then.
     */
    @Override
    public void close()
    {
        if (ownsMemory)
        {
            offHeap.close();
            return;
        }
        if (closed)
        {
            return;
        }
        if (closable)
        {
            if (isIterating())
            {
                throw new IllegalStateException(
                    name + " cannot be closed while it is being iterated (from this or another thread): it would " +
                    "free memory the iteration reads; close it after the iteration returns");
            }
            freeMemory();
            return;
        }
        throw new IllegalStateException(
                name + " belongs to a World and lives as long as it: close the World instead (closing one storage " +
                "would leave the world's entities half-removed)");
    }

    /**
     * Frees this set's memory and leaves its owner's list of structures: afterwards the set behaves as closed. For
     * a set that is no one's but its creator's, and is dropped: a closable set, or a storage its world made during a
     * snapshot load that failed.
     */
    protected final void freeMemory()
    {
        offHeap.unregister(holder);
        for (int page = 0; page < pageAddresses.length; page++)
        {
            if (pageAddresses[page] != 0)
            {
                freePage(page);
            }
        }
        forgetMemory();
    }

    /**
     * Checks that the set may change now: it is open, and no parallel iteration locks its world's structure.
     *
     * @param change what is attempted, for the message, for example {@code "add to"}.
     * @throws IllegalStateException if it is closed or locked.
     */
    protected final void ensureMutable(final String change)
    {
        if (closed | locked)
        {
            ensureOpen();
            throw offHeap.lockedStructure(change + " " + name);
        }
    }

    /**
     * Whether a parallel iteration of this set's world runs now: structural changes throw until it returns.
     *
     * @return true while the structure is locked.
     */
    public final boolean isStructureLocked()
    {
        return locked;
    }

    /**
     * Throws if this set is closed.
     *
     * @throws IllegalStateException naming this set if it is closed.
     */
    public final void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(ownsMemory || !closedWithOwner ?
                name + " is closed and its off-heap memory freed; create a new one to continue" :
                "this " + offHeap.ownerName() + " is closed and its off-heap memory freed, " + name + " with it; " +
                    "create a new " + offHeap.ownerName() + " to continue");
        }
    }

    /**
     * The name used in exception messages.
     *
     * @return for example {@code "Position storage"}.
     */
    public final String name()
    {
        return name;
    }

    @Override
    public String toString()
    {
        return name + "[policy=" + policy + ", size=" + size + ", members=" + memberCount + "]";
    }

    /**
     * Checks a packed index against {@link #size()}, which never exceeds the capacity of any column.
     *
     * @param index a packed index.
     * @return {@code index}.
     * @throws IndexOutOfBoundsException naming the index and the valid range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final int checkIndex(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw indexOutOfRange(index);
        }
        return index;
    }

    /**
     * Checks a range of packed indices, {@code [index, index + length)}, against {@link #size()}, for a bulk copy of
     * a column.
     *
     * @param index  the first packed index.
     * @param length how many indices; 0 is allowed anywhere in {@code [0, size()]}.
     * @throws IndexOutOfBoundsException naming the range and the valid one.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void checkRange(final int index, final int length)
    {
        ensureOpen();
        if (index < 0 || length < 0 || index > size - length)
        {
            throw new IndexOutOfBoundsException("packed indices [" + index + ", " + ((long)index + length) +
                ") are not inside [0, " + size + ") of " + name + (length < 0 ? " (the length is negative)" : ""));
        }
    }

    /**
     * The packed index of a member, or an exception that says why it is not one.
     *
     * @param entity the handle to look up.
     * @return its packed index.
     * @throws IllegalArgumentException if {@code entity} is not a member.
     * @throws IllegalStateException    if the set is closed.
     */
    protected final int requireIndex(final long entity)
    {
        final int index = indexOf(entity);
        if (index < 0)
        {
            throw notMember(entity);
        }
        return index;
    }

    /**
     * The address of element {@code index} of payload column {@code column} (counted from 0), after checking the
     * index against {@link #size()} (which never exceeds the capacity) and the element width against the column's.
     *
     * @param column a payload column.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param shift  log2 of the width the caller reads or writes.
     * @return the element's address.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final long payloadAddress(final int column, final int index, final int shift)
    {
        checkIndex(index);
        final int k = column + 1;
        if (dense.shift(k) != shift)
        {
            throw new IllegalArgumentException(
                "payload column " + column + " of " + name + " holds " + (1 << dense.shift(k)) +
                "-byte values, not " + (1 << shift) + "-byte ones");
        }
        return dense.address(k) + ((long)index << shift);
    }

    /**
     * The address of element 0 of payload column {@code column} (counted from 0), unchecked; it changes whenever
     * {@link #columnsMoved()} is called, and is 0 while the capacity is 0.
     *
     * @param column a payload column.
     * @return the column's address now.
     */
    protected final long columnAddress(final int column)
    {
        return dense.address(column + 1);
    }

    /**
     * Called after the columns moved (they grew, shrank or were freed), also after a failed growth: a subclass that
     * caches {@link #columnAddress(int)} refreshes it here. Does nothing by default.
     */
    protected void columnsMoved()
    {
    }

    /**
     * Gives one structure (a group) the say over the order of this set's members until it releases the returned
     * claim: from now on {@link #sort}, {@link #sortAs}, {@link #swapElements} and {@link #compact()} throw, naming
     * {@code owner}, and only the claim reorders the set.
     *
     * @param owner how messages name the structure, for example {@code "group Movement"}.
     * @return the claim.
     * @throws IllegalStateException if the set is closed or locked, or another structure owns it (the message names
     *                               both).
     */
    public final OrderClaim claimOrder(final String owner)
    {
        Objects.requireNonNull(owner, "owner");
        ensureMutable("let " + owner + " own");
        if (claim != null)
        {
            throw new IllegalStateException(
                name + " is owned by " + claim.owner() + ", so " + owner + " cannot own it too");
        }
        claim = new OrderClaim(this, owner);
        return claim;
    }

    /**
     * What owns this set's order, as its claim names it.
     *
     * @return the owner's description, or null if nothing owns the set.
     */
    public final String ownerName()
    {
        return claim == null ? null : claim.owner();
    }

    final void releaseClaim(final OrderClaim released)
    {
        if (claim == released)
        {
            claim = null;
        }
    }

    /** {@link OrderClaim#swap}, once the claim is known to be held. */
    final void swapClaimed(final int a, final int b)
    {
        final long entityA = a >= 0 && a < extent ? packedGet(a) : Entity.NULL;
        final long entityB = b >= 0 && b < extent ? packedGet(b) : Entity.NULL;
        if ((entityA | entityB) < 0)
        {
            throw new IndexOutOfBoundsException(
                "cannot swap indices " + a + " and " + b + " of " + name + ": both must hold members of [0, " +
                extent + ")");
        }
        if (a != b)
        {
            swapMembers(a, entityA, b, entityB);
            logSwapUnderWalk(a, b);
        }
    }

    final void countReordering()
    {
        reorderCount++;
    }

    /** Throws unless {@code [0, length)} lies within the extent and holds no tombstone. */
    final void requireMembersBelow(final int length)
    {
        if (length < 0 || length > extent)
        {
            throw new IndexOutOfBoundsException(
                "cannot rearrange the first " + length + " members of " + name + ": it has [0, " + extent + ")");
        }
        for (int k = 0; k < length; k++)
        {
            if (packedGet(k) < 0)
            {
                throw new IndexOutOfBoundsException("index " + k + " of " + name + " holds a tombstone");
            }
        }
    }

    /**
     * The bytes {@link #writeSetSnapshot} writes: four counts and the packed handles.
     *
     * @return the size of the set's part of a snapshot.
     */
    protected final long setSnapshotBytes()
    {
        return 4L * Integer.BYTES + (long)size * Long.BYTES;
    }

    /**
     * Writes the set's state as it is: size, extent, the head of the in-place free list, the member count and the
     * packed array with its tombstones and released entries, so that a loaded set has the same members at the same
     * indices. The sparse array is not written: a load rebuilds it.
     *
     * @param out the snapshot being written.
     * @throws IllegalStateException if the set is closed.
     */
    protected final void writeSetSnapshot(final SnapshotOutput out)
    {
        ensureOpen();
        out.putInt(size);
        out.putInt(extent);
        out.putInt(freeHead);
        out.putInt(memberCount);
        out.putMemory(packedAddress, (long)size * Long.BYTES);
    }

    /**
     * Reads a state written by {@link #writeSetSnapshot} into this set, which must be empty, checking everything the
     * set's invariants need: counts that fit the policy, well-formed members alive in the pool, every entity index
     * once, an in-place free list that links every tombstone once. Then the sparse array is rebuilt. On failure the set
     * is empty again and the exception says what was wrong.
     *
     * @param in          the snapshot being read.
     * @param savedPolicy the policy the set had when it was saved: another policy can load it only without
     *                    tombstones and released entries.
     * @param slotPayload the bytes that follow the packed array for each index (the caller's columns): checked to be
     *                    there before anything is allocated.
     * @return the size read.
     * @throws dev.cairn.snapshot.SnapshotFormatException if the state is truncated or inconsistent.
     * @throws IllegalStateException                      if the set is not empty, or closed.
     * @throws OffHeapExhaustedException                  if the memory cannot be allocated.
     */
    protected final int readSetSnapshot(
        final SnapshotInput in, final DeletionPolicy savedPolicy, final long slotPayload)
    {
        ensureMutable("load a snapshot into");
        if (size != 0)
        {
            throw new IllegalStateException("a snapshot loads into an empty " + name + "; this one has " + size +
                " indices in use");
        }
        return new SetLoader(this, in).read(savedPolicy, slotPayload);
    }

    /** The loader's last step: the packed array and sparse pages hold a checked state of these counts. */
    final void loaded(final int size, final int extent, final int freeHead, final int memberCount)
    {
        this.size = size;
        this.extent = extent;
        this.freeHead = freeHead;
        this.memberCount = memberCount;
        layoutVersion++;
        reorderCount++;
    }

    /**
     * Makes {@link #insert(long)} throw {@link UnsupportedOperationException} with {@code reason}: a component storage
     * adds members with values and tells its listeners, groups and observers, which a bare insert would skip.
     *
     * @param reason what the message says, naming what to call instead.
     */
    protected final void refuseInsert(final String reason)
    {
        insertRefusal = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Turns the insert and remove hooks on or off: while on, {@link #insert(long)} calls {@link #beforeInsert(long)},
     * and removal ({@link #remove(long)}, {@link #erase(long)}, {@link #clear()}) calls {@link #beforeRemove} for
     * each member it removes. While off, which is the default, they cost one test of a field.
     *
     * @param hooked whether the hooks run.
     */
    protected final void hook(final boolean hooked)
    {
        this.hooked = hooked;
    }

    /**
     * Called by {@link #insert(long)} once the entity is known to be insertable and before anything changes: a
     * subclass makes room in whatever it keeps beside the set. May throw; nothing has changed then.
     *
     * @param entity the entity about to be inserted.
     */
    protected void beforeInsert(final long entity)
    {
    }

    /**
     * Called before a member is removed, while it is still at {@code index}. It may change this set (removing the
     * member itself does nothing until it returns): removal looks the member up again afterwards. It should not
     * throw; it returns what it caught, which is rethrown once the removal is complete.
     *
     * @param entity the member about to be removed.
     * @param index  its packed index.
     * @return what the subclass's listeners threw, or null.
     */
    protected Throwable beforeRemove(final long entity, final int index)
    {
        return null;
    }

    /**
     * The member at packed index {@code index}, for flyweights that remember what they point at:
     * {@link Entity#NULL} when {@code index} is outside {@code [0, extent())} or holds a tombstone.
     *
     * @param index any value.
     * @return the member at that index, or {@link Entity#NULL}.
     */
    protected final long memberAt(final int index)
    {
        if (index >= 0 && index < extent)
        {
            final long packed = packedGet(index);
            if (packed >= 0)
            {
                return packed;
            }
        }
        return Entity.NULL;
    }

    /**
     * A number that changes whenever a handle may have changed index or {@link #size()} may have dropped: on every
     * erase, swap, sort, compaction, clear, shrink and close, and on inserts that reuse or swap an index (never on an
     * insert that appends). A flyweight that
     * saw the same number when it was positioned knows its index still holds its entity without reading the packed
     * array.
     *
     * @return the current layout version, never negative.
     */
    protected final long layoutVersion()
    {
        return layoutVersion;
    }

    /**
     * The index a flyweight positioned on {@code entity} at {@code index} may access: {@code index} itself while
     * {@link #layoutVersion()} is still {@code layoutVersion}, otherwise after checking that the index still holds
     * {@code entity}, so that after the entity was removed or moved the flyweight fails instead of reading or writing
     * the entity that took its place.
     *
     * @param index         the index the flyweight is at.
     * @param entity        the member it was positioned on, or {@link Entity#NULL}.
     * @param layoutVersion the {@link #layoutVersion()} when it was positioned, or -1 to force the check.
     * @return {@code index}, which then holds {@code entity} and is below {@link #size()}: a flyweight is positioned
     * on a member ({@link #memberAt(int)}, {@link #indexOf(long, int)}), and nothing lowers {@link #size()} or moves a
     * handle without changing the layout version.
     * @throws IllegalStateException if the index no longer holds {@code entity}, if {@code entity} is
     *                               {@link Entity#NULL} (the flyweight is on no entity), or if the set is closed.
     */
    protected final int refIndex(final int index, final long entity, final long layoutVersion)
    {
        if (layoutVersion != this.layoutVersion &&
            (entity == Entity.NULL || index >= size || packedGet(index) != entity))
        {
            throw refLeft(index, entity);
        }
        return index;
    }

    /*
     * Exceptions are built out of line: the hot methods above stay small enough for the JIT to inline them into
     * every loop that calls them.
     */
    private RuntimeException indexOutOfRange(final int index)
    {
        ensureOpen();
        return new IndexOutOfBoundsException("index " + index + " is outside [0, " + size + ") of " + name);
    }

    private RuntimeException refLeft(final int index, final long entity)
    {
        ensureOpen();
        if (entity == Entity.NULL)
        {
            return new IllegalStateException(
                "a Ref of " + name + " at index " + index + " is on no entity: it was never moved, was moved to " +
                "an index that held no member, or its iteration ended; move it to a member's index first (a " +
                "view's cursor moves its Refs in next())");
        }
        return new IllegalStateException(
            "a Ref of " + name + " at index " + index + " was positioned on " + Entity.toString(entity) +
            ", which is no longer at that index (removed, or moved by a swap, sort or compact since); " +
            "move the Ref again, or read the entity's fields through the storage by entity");
    }

    /**
     * Removes every member through {@link #remove(long)}, so that {@link #beforeRemove} sees each one; members its
     * listeners add meanwhile are removed too.
     */
    /**
     * Whether the removal of a member is being announced to its listeners right now: it is still a member, and goes
     * as soon as they return. Removing it again meanwhile does nothing.
     *
     * @param entity any value.
     * @return true while its removal is being announced.
     */
    public final boolean isRemoving(final long entity)
    {
        return announcedCount > 0 && isAnnounced(entity) && contains(entity);
    }

    /**
     * Whether the removal of some member is being announced to its listeners right now.
     *
     * @return true while a removal's listeners run.
     */
    public final boolean isAnnouncingRemoval()
    {
        return announcedCount > 0;
    }

    private boolean isAnnounced(final long entity)
    {
        for (int i = 0; i < announcedCount; i++)
        {
            if (announced[i] == entity)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Clears an in-place set that a walk is in by leaving a hole for each member, as erasing each would: inserts go
     * behind the walk, which does not meet them.
     */
    private void punchEveryMember()
    {
        for (int i = 0; i < size; i++)
        {
            final long entity = packedGet(i);
            if (entity >= 0)
            {
                eraseAt(i, entity, sparseAddressOf(Entity.index(entity)));
            }
        }
    }

    private void removeEachMember()
    {
        Throwable failure = null;
        // Members whose removal is being announced already (clear() called from their listeners) go afterwards.
        while (memberCount > announcedMembers())
        {
            final int before = memberCount;
            for (int i = extent; (i = Math.min(i, extent) - 1) >= 0; )
            {
                final long entity = packedGet(i);
                if (entity >= 0)
                {
                    try
                    {
                        remove(entity);
                    }
                    catch (final RuntimeException | Error thrown)
                    {
                        failure = Signal.collect(failure, thrown);
                    }
                }
            }
            if (memberCount >= before)
            {
                failure = Signal.collect(failure, new IllegalStateException(
                    "cannot clear " + name + ": its listeners add members as fast as clear() removes them"));
                break;
            }
        }
        Signal.rethrow(failure);
    }

    private int announcedMembers()
    {
        int members = 0;
        for (int i = 0; i < announcedCount; i++)
        {
            if (contains(announced[i]))
            {
                members++;
            }
        }
        return members;
    }

    /** Erases the member at {@code index}, whose sparse entry is at {@code sparseAddress}. */
    private void eraseAt(final int index, final long entity, final long sparseAddress)
    {
        if (policy == DeletionPolicy.SWAP_AND_POP)
        {
            final int last = size - 1;
            if (index != last)
            {
                moveIndex(last, index);
                logSwapUnderWalk(index, last);
            }
            UnsafeApi.putInt(sparseAddress, ABSENT);
            size = last;
            extent = last;
        }
        else if (policy == DeletionPolicy.IN_PLACE)
        {
            packedPut(index, Long.MIN_VALUE | (freeHead & 0xFFFF_FFFFL));
            freeHead = index;
            UnsafeApi.putInt(sparseAddress, ABSENT);
        }
        else
        {
            packedPut(index, Entity.next(entity));
            swapIndices(index, --extent);
            if (index != extent)
            {
                logSwapUnderWalk(index, extent);
            }
        }
        memberCount--;
        layoutVersion++;
    }

    private void compactTombstones()
    {
        if (policy == DeletionPolicy.IN_PLACE && size != memberCount)
        {
            compact();
        }
    }

    /**
     * Rearranges {@code [0, length)} so that index {@code k} receives the element that was at {@code order[k]},
     * following each permutation cycle once: O(length) swaps of every column.
     */
    final void applyPermutation(final int[] order, final int length)
    {
        layoutVersion++;
        for (int start = 0; start < length; start++)
        {
            int current = start;
            while (order[current] != start)
            {
                final int next = order[current];
                dense.swap(current, next);
                order[current] = current;
                current = next;
            }
            order[current] = current;
        }
        for (int i = 0; i < length; i++)
        {
            sparsePut(Entity.index(packedGet(i)), i);
        }
    }

    private boolean isTombstone(final int index)
    {
        return packedGet(index) < 0;
    }

    /** Moves the element at {@code from} (never a tombstone) to {@code to}, with its payload, and re-points sparse. */
    private void moveIndex(final int from, final int to)
    {
        layoutVersion++;
        final long entity = packedGet(from);
        packedPut(to, entity);
        movePayload(from, to);
        sparsePut(Entity.index(entity), to);
    }

    /**
     * Copies the payload of slot {@code from} to slot {@code to}, both below the capacity: what a removal that fills
     * the hole with the last member does. Generated storages override it with one load and store per field, which
     * beats this loop over the layout when the caller moves through many storages, one member each (a destroy). An
     * override moves every payload column.
     *
     * @param from the slot read.
     * @param to   the slot written.
     */
    protected void movePayload(final int from, final int to)
    {
        dense.moveFrom(1, from, to);
    }

    /**
     * Exchanges the payloads of slots {@code a} and {@code b}, both below the capacity: what a swap of two members
     * (a group gathering its members, a deletion policy that keeps order by swapping) does. Generated storages
     * override it with loads and stores per field, as {@link #movePayload}; an override swaps every payload column.
     *
     * @param a a slot.
     * @param b another slot.
     */
    protected void swapPayload(final int a, final int b)
    {
        dense.swapFrom(1, a, b);
    }

    /** Swaps two indices (packed, payload and their sparse entries); neither may be a tombstone. */
    private void swapIndices(final int a, final int b)
    {
        if (a != b)
        {
            swapMembers(a, packedGet(a), b, packedGet(b));
        }
    }

    /** Swaps two distinct indices whose packed entries the caller has read: packed, payload and sparse entries. */
    private void swapMembers(final int a, final long entityA, final int b, final long entityB)
    {
        layoutVersion++;
        packedPut(a, entityB);
        packedPut(b, entityA);
        swapPayload(a, b);
        sparsePut(Entity.index(entityB), a);
        sparsePut(Entity.index(entityA), b);
    }

    private void ensureReorderable(final String operation)
    {
        ensureMutable(operation);
        if (claim != null)
        {
            throw new IllegalStateException(
                "cannot " + operation + " " + name + ": " + claim.owner() + " owns it and keeps its members in the " +
                "group's order; sort through the group instead");
        }
        if (isIterating())
        {
            throw new IllegalStateException(
                "cannot " + operation + " " + name + " while it is being iterated: reordering it would make the " +
                "iteration visit some members twice and others never; do it after the iteration returns");
        }
    }

    /*
     * Unchecked access to the packed array. Every caller passes an index below size(), or the index being appended
     * after the capacity check in insert(); the model-based tests hold the set to these invariants.
     */
    long packedGet(final int index)
    {
        return UnsafeApi.getLong(packedAddress + ((long)index << 3));
    }

    private void packedPut(final int index, final long entity)
    {
        UnsafeApi.putLong(packedAddress + ((long)index << 3), entity);
    }

    long allocatePage(final int page)
    {
        if (page >= pageAddresses.length)
        {
            pageAddresses = Arrays.copyOf(pageAddresses, Math.max(page + 1, pageAddresses.length * 2));
        }
        final long address = offHeap.allocate(PAGE_BYTES, (byte)0xFF);
        pageAddresses[page] = address;
        return address;
    }

    private void freePage(final int page)
    {
        offHeap.free(pageAddresses[page]);
        pageAddresses[page] = 0;
    }

    /** The packed index of {@code entity} if it is a member, given its sparse entry's address (0: none), else -1. */
    private int indexOf(final long entity, final long sparseAddress)
    {
        if (sparseAddress == 0)
        {
            return ABSENT;
        }
        final int index = UnsafeApi.getInt(sparseAddress);
        return index >= 0 && index < extent() && packedGet(index) == entity ? index : ABSENT;
    }

    /** The address of the sparse entry of {@code entityIndex}, or 0 if its page does not exist (or it is negative). */
    long sparseAddressOf(final int entityIndex)
    {
        final int page = entityIndex >>> PAGE_SHIFT;
        final long[] pageAddresses = this.pageAddresses;
        if (page < pageAddresses.length)
        {
            final long address = pageAddresses[page];
            if (address != 0)
            {
                return address + ((long)(entityIndex & PAGE_MASK) << 2);
            }
        }
        return 0;
    }

    /** Writes a sparse entry whose page exists: every caller re-points an entity that is, or just was, in the set. */
    private void sparsePut(final int entityIndex, final int index)
    {
        UnsafeApi.putInt(pageAddresses[entityIndex >>> PAGE_SHIFT] + ((long)(entityIndex & PAGE_MASK) << 2), index);
    }

    private void ensureCapacity(final int needed)
    {
        if (needed > MAX_CAPACITY)
        {
            throw new IllegalStateException(needed == size + 1 ?
                name + " is full: it holds " + size + " indices, the most a set can hold is " + MAX_CAPACITY :
                "cannot make room for " + needed + " indices in " + name + ": the most a set can hold is " +
                    MAX_CAPACITY + " (it holds " + size + ")");
        }
        resizeDense(OffHeap.grownCapacity(dense.capacity(), needed, 16, MAX_CAPACITY));
    }

    /** Grows the columns to hold {@code size} indices, for a load: the packed array is then at packedAddress(). */
    final void ensureLoadCapacity(final int size)
    {
        if (size > dense.capacity())
        {
            resizeDense(size);
        }
    }

    final long packedAddress()
    {
        return packedAddress;
    }

    final EntityPool pool()
    {
        return pool;
    }

    private void resizeDense(final int newCapacity)
    {
        try
        {
            dense.grow(newCapacity);
        }
        finally
        {
            packedAddress = dense.address(0);
            columnsMoved();
        }
    }

    /** The world closed: its memory is about to be freed, so forget every address and read as empty. */
    private void forgetMemory()
    {
        closed = true;
        dense.free();
        columnsMoved();
        pageAddresses = NO_PAGES;
        packedAddress = 0;
        size = 0;
        extent = 0;
        freeHead = ABSENT;
        memberCount = 0;
        layoutVersion++;
        reorderCount++;
    }

    private void checkInsertable(final long entity)
    {
        if (!Entity.isWellFormed(entity))
        {
            throw new IllegalArgumentException(
                "cannot insert " + Entity.toString(entity) + " into " + name +
                ": it is not an entity handle (NULL or malformed); use a handle returned by World.create()");
        }
        if (pool != null)
        {
            pool.requireAlive(entity);
        }
    }

    private IllegalArgumentException alreadyPresent(final long entity, final long holder)
    {
        if (holder == entity)
        {
            return new IllegalArgumentException(
                "entity " + Entity.toString(entity) + " is already in " + name +
                "; check contains() (World.has) first, or write the existing value instead of inserting");
        }
        return new IllegalArgumentException(
            "cannot insert " + Entity.toString(entity) + " into " + name + ": entity index " + Entity.index(entity) +
            " is held by " + Entity.toString(holder) + "; erase that handle first");
    }

    private IllegalStateException insertAfterClearUnderWalk(final long entity)
    {
        return new IllegalStateException("cannot insert " + Entity.toString(entity) + " into " + name + ": it was " +
            "cleared while a forEach walks it, and a member inserted now would land in the part the walk has still to " +
            "visit; insert after the walk returns (collect the handles, or record into a CommandBuffer)");
    }

    private IllegalArgumentException notMember(final long entity)
    {
        ensureOpen();
        if (pool != null && !pool.isAlive(entity))
        {
            return new IllegalArgumentException(
                pool.describeDead(entity) + "; it cannot be used with " + name);
        }
        return new IllegalArgumentException(
            "entity " + Entity.toString(entity) + " is not in " + name +
            "; check contains() (World.has) first, or use remove() when absence is expected");
    }
}
