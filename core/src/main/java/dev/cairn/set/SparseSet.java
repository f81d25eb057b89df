package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.internal.Access;
import dev.cairn.internal.Columns;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.Failures;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.Walks;
import org.agrona.UnsafeApi;

import java.util.Objects;
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
 * <b>Walks</b> go from the front of the packed array to the back, and {@link #sort} arranges the packed array in the
 * comparator's order, so a walk visits the members sorted. While a walk runs, the set holds still: a set of a world
 * records the changes made meanwhile and makes them when the walk returns (see {@code World}); a set made on its own
 * refuses them with an {@link IllegalStateException}, as it refuses reordering and closing.
 * <p>
 * <b>Memory.</b> A standalone set owns its memory and {@link #close()} frees it. A set built on a world's memory lives
 * as long as the world: {@link #close()} throws, and closing the world makes every later use of the set throw
 * {@link IllegalStateException}. Not thread-safe.
 */
public class SparseSet implements AutoCloseable
{
    /** Entries per sparse page. */
    public static final int PAGE_SIZE = 4096;

    /** Largest number of packed indices: keeps every 8-byte column's byte offsets within an {@code int}. */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE / Long.BYTES;

    static final int PAGE_SHIFT = 12;
    static final int PAGE_MASK = PAGE_SIZE - 1;
    static final int PAGE_BYTES = PAGE_SIZE * Integer.BYTES;
    static final int ABSENT = -1;
    /** What {@link #indexOrInsertAlive} returns for an entity that is not alive: below every {@code -1 - index}. */
    protected static final int NOT_ALIVE = Integer.MIN_VALUE;
    static final long[] NO_PAGES = new long[0];

    static
    {
        Access.installWalks(SparseSet.class, set -> ((SparseSet)set).walks);
        Access.installRaw(SparseSet.class, set -> new SetRawState((SparseSet)set));
    }

    final DeletionPolicy policy;
    final OffHeap offHeap;
    final Walks walks;
    private final boolean ownsMemory;
    /** Whether the memory's owner (a World), not this set alone, was closed: then messages name the owner. */
    private boolean closedWithOwner;
    /** Whether close() frees this set's blocks of memory it shares (a world's). */
    private final boolean closable;
    final OffHeap.Holder holder;
    final EntityPool pool;
    final String name;
    /** Column 0: the packed handles; the columns after it: a storage's payload. */
    final Columns dense;

    /*
     * Raw addresses, refreshed whenever memory moves: a page's address is 0 until the page exists. Hot reads go
     * through these with a null base object, which lets the JIT keep this set's fields in registers across off-heap
     * stores; every such read is guarded by a check against size() or the page table, and size() <= capacity().
     */
    long[] pageAddresses = NO_PAGES;
    long packedAddress;
    int size;
    int memberCount;
    /** SWAP_ONLY: the boundary in front of the released entries. The other policies: size. */
    int extent;
    /** IN_PLACE: packed index of the most recent tombstone, or -1. */
    int freeHead = ABSENT;
    /** Counts the operations that may have changed which member is at which index; see layoutVersion(). */
    long layoutVersion;
    /** The structure (a group) that orders this set's members, or null; see OrderClaim. */
    OrderClaim claim;
    /** Whether insert and remove call beforeInsert and beforeRemove: a subclass has listeners. */
    private boolean hooked;
    private boolean closed;

    /**
     * Creates an empty standalone set that owns its off-heap memory and accepts any well-formed handle.
     *
     * @param policy what erase does.
     */
    public SparseSet(final DeletionPolicy policy)
    {
        this(policy, null, null, null, "sparse set");
    }

    /**
     * Creates an empty set with payload columns, for component storages.
     *
     * @param policy        what erase does.
     * @param offHeap       the owner of this set's memory (a world's), or null for a set that owns its memory and
     *                      frees it on {@link #close()}.
     * @param walks         the walks of the world whose memory it is; null with {@code offHeap}.
     * @param pool          if not null, only entities alive in this pool may be inserted.
     * @param name          what exception messages call this set, for example {@code "Position storage"}.
     * @param payloadWidths the byte width of each payload column: 1, 2, 4 or 8.
     */
    protected SparseSet(
        final DeletionPolicy policy,
        final OffHeap offHeap,
        final Walks walks,
        final EntityPool pool,
        final String name,
        final int... payloadWidths)
    {
        this(policy, offHeap, walks, pool, name, false, payloadWidths);
    }

    /**
     * Creates an empty set on memory it shares with others (a world's), which {@link #close()} nevertheless frees
     * early: for structures such as observers that live shorter than their world. Closing the memory's owner frees it
     * too.
     *
     * @param policy  what erase does.
     * @param offHeap the owner of the memory.
     * @param walks   the walks of the world whose memory it is.
     * @param pool    if not null, only entities alive in this pool may be inserted.
     * @param name    what exception messages call this set.
     * @return the new set.
     */
    public static SparseSet onSharedMemory(
        final DeletionPolicy policy, final OffHeap offHeap, final Walks walks, final EntityPool pool, final String name)
    {
        return new SparseSet(policy, Objects.requireNonNull(offHeap, "offHeap"), walks, pool, name, true);
    }

    private SparseSet(
        final DeletionPolicy policy,
        final OffHeap offHeap,
        final Walks walks,
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
        this.walks = ownsMemory ? new Walks(name, false) : Objects.requireNonNull(walks, "walks");
        this.pool = pool;
        this.name = name;
        final int[] widths = new int[payloadWidths.length + 1];
        widths[0] = Long.BYTES;
        System.arraycopy(payloadWidths, 0, widths, 1, payloadWidths.length);
        this.dense = new Columns(this.offHeap, widths);
        this.closable = closable;
        this.holder = () ->
        {
            closedWithOwner = true;
            forgetMemory();
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
     * End of the region walks cover: members and tombstones live in {@code [0, extent())}. For
     * {@link DeletionPolicy#SWAP_ONLY} this is the boundary in front of the released entries; for the other policies
     * it equals {@link #size()}.
     *
     * @return the extent walks cover; 0 once closed.
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
        if (hint >= 0 && hint < extent && packedGet(hint) == entity && entity >= 0)
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
     * @throws IllegalArgumentException      if {@code entity} is NULL, malformed, already a member, shares its entity
     *                                       index with a member of another version, or (for a set bound to a pool)
     *                                       is not alive.
     * @throws IllegalStateException         if the set is closed, or walked.
     * @throws OffHeapExhaustedException     if memory for a sparse page or a larger packed array cannot be allocated.
     * @throws UnsupportedOperationException on a component storage: it adds members with values ({@code emplace},
     *                                       {@code add}) and announces them; nothing changes.
     */
    public int insert(final long entity)
    {
        return insertMember(entity);
    }

    /**
     * {@link #insert(long)} for subclasses that write the member's payload and announce it themselves (a storage,
     * whose {@code insert} is refused).
     *
     * @param entity a well-formed handle that is not a member.
     * @return the packed index the entity now occupies.
     * @throws IllegalArgumentException  as {@link #insert(long)}.
     * @throws IllegalStateException     if the set is closed, or walked.
     * @throws OffHeapExhaustedException if memory cannot be allocated.
     */
    protected final int insertMember(final long entity)
    {
        if (closed || walks.isDeferring())
        {
            throw refusedChange("insert " + Entity.toString(entity) + " into");
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
     * @throws IllegalStateException     if the set is closed, or walked.
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
     * Whether {@link #insertIfQuick} may stand in for {@link #insertMember} now: the set is open and may change, and
     * no hook runs on inserts. A loop of quick inserts changes none of that.
     *
     * @return true if quick inserts are allowed.
     */
    protected final boolean insertsQuickly()
    {
        return !(closed | hooked) && !walks.isDeferring();
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
        if (hooked || walks.isDeferring())
        {
            // Refused, or the hooks make room first: the way insertMember goes.
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
            SetMemory.allocatePage(this, entityIndex >>> PAGE_SHIFT) + ((long)(entityIndex & PAGE_MASK) << 2) :
                knownSparseAddress;
        final int existing = UnsafeApi.getInt(sparseAddress);
        if (existing >= 0)
        {
            if (policy == DeletionPolicy.SWAP_ONLY && existing >= extent)
            {
                packedPut(existing, entity);
                swapIndices(existing, extent);
                memberCount++;
                return extent++;
            }
            throw alreadyPresent(entity, packedGet(existing));
        }
        if (size == dense.capacity() && !hasHole())
        {
            try
            {
                SetMemory.ensureCapacity(this, size + 1);
            }
            catch (final RuntimeException ex)
            {
                if (newPage)
                {
                    SetMemory.freePage(this, entityIndex >>> PAGE_SHIFT);
                }
                throw ex;
            }
        }
        return place(entity, sparseAddress);
    }

    /** Whether an IN_PLACE tombstone can take the next insert. */
    private boolean hasHole()
    {
        return freeHead != ABSENT && policy == DeletionPolicy.IN_PLACE;
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
            return extent++;
        }
        extent = size;
        return index;
    }

    /**
     * Erases a member, as this set's {@link #policy()} says.
     *
     * @param entity a member.
     * @throws IllegalArgumentException if {@code entity} is not a member (use {@link #remove(long)} when absence is
     *                                  expected).
     * @throws IllegalStateException    if the set is closed, or walked.
     */
    public void erase(final long entity)
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
     * @throws IllegalStateException if the set is closed, or walked.
     */
    public boolean remove(final long entity)
    {
        if (closed || walks.isDeferring())
        {
            throw refusedChange("remove " + Entity.toString(entity) + " from");
        }
        return removeMember(entity);
    }

    /** {@link #remove(long)} once the caller has made sure the set may change: the removal itself, with its hooks. */
    private boolean removeMember(final long entity)
    {
        final long sparseAddress = sparseAddressOf(Entity.index(entity));
        final int index = indexOf(entity, sparseAddress);
        if (index < 0)
        {
            return false;
        }
        if (!hooked)
        {
            eraseAt(index, entity, sparseAddress);
            return true;
        }
        // The hooks (a group letting the member leave) may move it: look again if the layout changed.
        final long layoutBefore = layoutVersion;
        final Throwable failure = beforeRemove(entity, index);
        final int now = layoutVersion == layoutBefore ? index : indexOf(entity, sparseAddress);
        if (now >= 0)
        {
            eraseAt(now, entity, sparseAddress);
        }
        Failures.rethrow(failure);
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
     * @throws IllegalStateException     if the set is closed, or walked.
     */
    public int removeAll(final long[] entities, final int offset, final int length)
    {
        ensureChangeable("remove entities from");
        Objects.checkFromIndexSize(offset, length, entities.length);
        int removed = 0;
        Throwable failure = null;
        for (int i = offset; i < offset + length && memberCount > 0; i++)
        {
            try
            {
                removed += removeMember(entities[i]) ? 1 : 0;
            }
            catch (final RuntimeException | Error thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
        }
        Failures.rethrow(failure);
        return removed;
    }

    /**
     * Removes every member, tombstone and released entry, telling the hooks of each member first. Memory stays
     * allocated for reuse; see {@link #shrinkToFit()}.
     *
     * @throws IllegalStateException if the set is closed, or walked.
     */
    public void clear()
    {
        ensureChangeable("clear");
        if (hooked)
        {
            // From the back, so that each removal takes the last member and moves no other, but the hooks' own moves
            // (a group letting members leave), which stay in front of the index reached.
            Throwable failure = null;
            for (int i = extent - 1; i >= 0; i = Math.min(i - 1, extent - 1))
            {
                final long entity = packedGet(i);
                if (entity >= 0)
                {
                    try
                    {
                        removeMember(entity);
                    }
                    catch (final RuntimeException | Error thrown)
                    {
                        failure = Failures.collect(failure, thrown);
                    }
                }
            }
            clearSilently();
            Failures.rethrow(failure);
            return;
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
        ensureOpen();
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
     * @throws IllegalArgumentException  if {@code capacity} is negative or above {@link #MAX_CAPACITY}.
     * @throws IllegalStateException     if the set is closed, or walked (the memory would move under the walk).
     * @throws OffHeapExhaustedException if the memory cannot be allocated; the set is unchanged.
     */
    public final void reserve(final int capacity)
    {
        ensureUndeferred("reserve memory for");
        SetMemory.reserve(this, capacity);
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
     * @throws IllegalStateException     if the set is closed, walked, or {@code members} exceeds
     *                                   {@link #MAX_CAPACITY}.
     * @throws OffHeapExhaustedException if the memory cannot be allocated; the set is unchanged.
     */
    public final void reserveFor(final long entity, final int members)
    {
        ensureUndeferred("reserve memory for");
        SetMemory.reserveFor(this, entity, members);
    }

    /**
     * Releases memory not needed by the current elements: packed and column capacity beyond {@link #size()}, and
     * sparse pages that map no element.
     *
     * @throws IllegalStateException     if the set is closed, or walked.
     * @throws OffHeapExhaustedException if the smaller packed array cannot be allocated; the set is unchanged.
     */
    public final void shrinkToFit()
    {
        ensureUndeferred("shrink");
        SetMemory.shrinkToFit(this);
    }

    /**
     * Exchanges the packed positions of two members (and their payload), as EnTT's {@code swap_elements}.
     *
     * @param first  a member.
     * @param second a member.
     * @throws IllegalArgumentException if either is not a member.
     * @throws IllegalStateException    if the set is closed, walked, or owned by a group.
     */
    public final void swapElements(final long first, final long second)
    {
        SetOrder.swapElements(this, first, second);
    }

    /**
     * Removes the holes a policy leaves, as EnTT's {@code compact}: under {@link DeletionPolicy#IN_PLACE} the members
     * at the back fill the tombstones, the most recently freed first; under {@link DeletionPolicy#SWAP_ONLY} the
     * released entries are dropped (their indices forget their versions here). A no-op under
     * {@link DeletionPolicy#SWAP_AND_POP}.
     *
     * @throws IllegalStateException if the set is closed, walked, or owned by a group.
     */
    public final void compact()
    {
        SetOrder.compact(this);
    }

    /**
     * Sorts the members so that walks visit them in ascending {@code comparator} order: the first at packed index 0.
     * The payload moves with each handle. Tombstones are compacted first. The comparator runs with the world's
     * structure held: changes it makes are deferred to the end of the sort, as in a listener.
     *
     * @param comparator compares packed indices of this set, for example a storage's {@code comparingX()}.
     * @throws IllegalArgumentException if the comparator reads another set than this one.
     * @throws IllegalStateException    if the set is closed, walked, or owned by a group (sort the group).
     */
    public final void sort(final IndexComparator comparator)
    {
        SetOrder.sort(this, comparator);
    }

    /**
     * Arranges this set so that its members that are also in {@code other} come first, in {@code other}'s walk order,
     * and the rest after them, as EnTT's {@code sort_as}: walks of the two then meet their common members in the same
     * order.
     *
     * @param other the set whose order to follow.
     * @throws IllegalArgumentException if {@code other} belongs to another world.
     * @throws IllegalStateException    if either set is closed, this one is walked or owned by a group.
     */
    public final void sortAs(final SparseSet other)
    {
        SetOrder.sortAs(this, other);
    }

    /**
     * Calls {@code action} with each member, from the front of the packed array to the back. While it runs the set
     * holds still: a world's set defers the changes made meanwhile to the end of the walk, a set of its own refuses
     * them.
     *
     * @param action receives each member.
     * @throws IllegalStateException if the set is closed.
     */
    public final void forEach(final LongConsumer action)
    {
        Objects.requireNonNull(action, "action is null: pass what to do with each entity");
        ensureOpen();
        final int walk = walks.beginWalk(name + ".forEach");
        try
        {
            final int end = extent;
            for (int i = 0; i < end; i++)
            {
                final long entity = packedGet(i);
                if (entity >= 0)
                {
                    action.accept(entity);
                }
            }
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(walks.end(walk, thrown));
        }
        walks.end(walk);
    }

    /**
     * Off-heap bytes this set holds: its columns and sparse pages.
     *
     * @return the byte count.
     */
    public final long offHeapBytes()
    {
        return SetMemory.bytes(this);
    }

    /**
     * Whether the set's memory has been freed.
     *
     * @return true once this set, or the world it belongs to, is closed.
     */
    public final boolean isClosed()
    {
        return closed;
    }

    /**
     * Frees a standalone set's memory. Idempotent.
     *
     * @throws IllegalStateException if the set belongs to a world (close the world), or is walked.
     */
    @Override
    public void close()
    {
        if (ownsMemory)
        {
            walks.close(offHeap::close);
            return;
        }
        if (closed)
        {
            return;
        }
        if (closable)
        {
            walks.refuseWhileDeferring("close " + name, "close it after the walk or listener returns");
            if (walks.isWalked())
            {
                throw new IllegalStateException(name + " cannot be closed while another thread walks its world: it " +
                    "would free memory the walk may read; close it after the walk returns");
            }
            freeMemory();
            return;
        }
        throw new IllegalStateException(
            name + " belongs to a World and lives as long as it: close the World instead (closing one storage " +
            "would leave the world's entities half-removed)");
    }

    /**
     * Frees this set's memory now and forgets it; for structures that live shorter than their world.
     */
    protected final void freeMemory()
    {
        SetMemory.free(this);
    }

    /**
     * Throws unless the set's membership may change now: it is open and no walk or listener holds its world's
     * structure (where a storage records the change instead, before calling this).
     *
     * @param change what is attempted, for the message: {@code "insert 3v0 into"}, followed by the set's name.
     * @throws IllegalStateException if closed, or held.
     */
    protected final void ensureChangeable(final String change)
    {
        if (closed || walks.isDeferring())
        {
            throw refusedChange(change);
        }
    }

    /** Why a change is refused: the set is closed, or walked (the message is built here, never on the hot path). */
    private RuntimeException refusedChange(final String change)
    {
        ensureOpen();
        return walks.refusedChange(change + " " + name, walks.canDefer() ?
            "a component storage records such changes and makes them when the walk returns" :
            "a set of its own cannot record the change: collect the entities and change the set after the walk");
    }

    /** Throws unless a change that has no deferred form (it moves memory or order) may be made now. */
    void ensureUndeferred(final String change)
    {
        ensureOpen();
        walks.refuseWhileDeferring(change + " " + name, "make the call after the walk or listener returns");
    }

    /**
     * The walks of this set's world (or its own): the mechanism that holds the structure still and defers changes.
     *
     * @return the walks.
     */
    protected final Walks walks()
    {
        return walks;
    }

    /**
     * Throws {@link IllegalStateException} if the set is closed.
     *
     * @throws IllegalStateException naming the set, and its world if that was closed.
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
     * What messages call this set.
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
     * Checks a packed index against {@link #size()}.
     *
     * @param index any value.
     * @return {@code index}, which is inside {@code [0, size())}.
     * @throws IndexOutOfBoundsException if it is not.
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
     * Checks that {@code [index, index + length)} lies inside {@code [0, size())}.
     *
     * @param index  the first packed index.
     * @param length how many.
     * @throws IndexOutOfBoundsException if it does not, or {@code length} is negative.
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
     * The packed index of a member.
     *
     * @param entity a member.
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
     * The address of a payload column's value at a checked packed index, for subclasses that read or write fields.
     *
     * @param column the payload column, 0 for the first.
     * @param index  a packed index below {@link #size()}.
     * @param shift  log2 of the width the caller will access.
     * @return the address.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalArgumentException  if the column's width is not {@code 1 << shift}.
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
     * The base address of a payload column: valid until {@link #columnsMoved()} is next called.
     *
     * @param column the payload column, 0 for the first.
     * @return its address, 0 once closed.
     */
    protected final long columnAddress(final int column)
    {
        return dense.address(column + 1);
    }

    /**
     * Called after the columns moved (grew, shrank, were freed): a subclass that keeps column addresses refreshes
     * them here.
     */
    protected void columnsMoved()
    {
    }

    /**
     * What owns this set's order.
     *
     * @return the owner's name, or null if nothing claimed it.
     */
    public final String ownerName()
    {
        return claim == null ? null : claim.owner();
    }

    /**
     * Turns the insert and remove hooks on or off: while on, an insert calls {@link #beforeInsert(long)}, and a
     * removal ({@link #remove(long)}, {@link #erase(long)}, {@link #clear()}) calls {@link #beforeRemove} for each
     * member it removes. While off, which is the default, they cost one test of a field.
     *
     * @param hooked whether the hooks run.
     */
    protected final void hook(final boolean hooked)
    {
        this.hooked = hooked;
    }

    /**
     * Called by an insert once the entity is known to be insertable and before anything changes: a subclass makes room
     * in whatever it keeps beside the set. May throw; nothing has changed then.
     *
     * @param entity the entity about to be inserted.
     */
    protected void beforeInsert(final long entity)
    {
    }

    /**
     * Called before a member is removed, while it is still at {@code index}: a subclass tells its listeners and the
     * structures that follow it (which may move the member: removal looks it up again afterwards). It should not
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
     * insert that appends). A flyweight that saw the same number when it was positioned knows its index still holds
     * its entity without reading the packed array.
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
     * the entity that took its place. Inside a walk the layout never changes, so the check is made once per walk.
     *
     * @param index         the index the flyweight is at.
     * @param entity        the member it was positioned on, or {@link Entity#NULL}.
     * @param layoutVersion the {@link #layoutVersion()} when it was positioned, or -1 to force the check.
     * @return {@code index}, which then holds {@code entity} and is below {@link #size()}: a flyweight is positioned
     * on a member, and nothing lowers {@link #size()} or moves a handle without changing the layout version.
     * @throws IllegalStateException if the index no longer holds {@code entity}, if {@code entity} is
     *                               {@link Entity#NULL} (the flyweight is on no entity), or if the set is closed.
     */
    protected final int refIndex(final int index, final long entity, final long layoutVersion)
    {
        if (layoutVersion != this.layoutVersion &&
            (entity == Entity.NULL || index < 0 || index >= size || packedGet(index) != entity))
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
                "a Ref of " + name + " is on no entity: it was never moved, was moved to an index that held no " +
                "member, or left (its cursor's walk ended); move it to a member first, or use the Ref a walk passes");
        }
        return new IllegalStateException(
            "a Ref of " + name + " at index " + index + " was positioned on " + Entity.toString(entity) +
            ", which is no longer at that index (removed, or moved by a swap, sort or compact since); " +
            "move the Ref again, or read the entity's fields through the storage by entity");
    }

    private void eraseAt(final int index, final long entity, final long sparseAddress)
    {
        if (policy == DeletionPolicy.SWAP_AND_POP)
        {
            final int last = size - 1;
            if (index != last)
            {
                moveIndex(last, index);
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
        }
        memberCount--;
        layoutVersion++;
    }

    boolean isTombstone(final int index)
    {
        return packedGet(index) < 0;
    }

    /** Moves the element at {@code from} (never a tombstone) to {@code to}, with its payload, and re-points sparse. */
    void moveIndex(final int from, final int to)
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
    void swapIndices(final int a, final int b)
    {
        if (a != b)
        {
            swapMembers(a, packedGet(a), b, packedGet(b));
        }
    }

    /** Swaps two distinct indices whose packed entries the caller has read: packed, payload and sparse entries. */
    void swapMembers(final int a, final long entityA, final int b, final long entityB)
    {
        layoutVersion++;
        packedPut(a, entityB);
        packedPut(b, entityA);
        swapPayload(a, b);
        sparsePut(Entity.index(entityB), a);
        sparsePut(Entity.index(entityA), b);
    }

    /*
     * Unchecked access to the packed array. Every caller passes an index below size(), or the index being appended
     * after the capacity check in insert(); the model-based tests hold the set to these invariants.
     */
    long packedGet(final int index)
    {
        return UnsafeApi.getLong(packedAddress + ((long)index << 3));
    }

    void packedPut(final int index, final long entity)
    {
        UnsafeApi.putLong(packedAddress + ((long)index << 3), entity);
    }

    /** The packed index of {@code entity} if it is a member, given its sparse entry's address (0: none), else -1. */
    private int indexOf(final long entity, final long sparseAddress)
    {
        if (sparseAddress == 0)
        {
            return ABSENT;
        }
        final int index = UnsafeApi.getInt(sparseAddress);
        return index >= 0 && index < extent && packedGet(index) == entity ? index : ABSENT;
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
    void sparsePut(final int entityIndex, final int index)
    {
        UnsafeApi.putInt(pageAddresses[entityIndex >>> PAGE_SHIFT] + ((long)(entityIndex & PAGE_MASK) << 2), index);
    }

    void resizeDense(final int newCapacity)
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

    /**
     * The memory is being freed: read as empty and forget every address, then read as closed. Stopped part-way (the
     * stack running out), the set is empty but open, and forgetting again finishes it.
     */
    void forgetMemory()
    {
        layoutVersion++;
        size = 0;
        extent = 0;
        freeHead = ABSENT;
        memberCount = 0;
        pageAddresses = NO_PAGES;
        packedAddress = 0;
        dense.forget();
        columnsMoved();
        closed = true;
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

    /**
     * The exception for an entity that is not a member, naming why: not alive in the pool, or simply absent.
     *
     * @param entity the entity.
     * @return the exception to throw.
     */
    protected final IllegalArgumentException notMember(final long entity)
    {
        ensureOpen();
        if (pool != null && !pool.isAlive(entity))
        {
            return new IllegalArgumentException(
                pool.describeDead(entity) + "; it cannot be used with " + name);
        }
        return new IllegalArgumentException(
            "entity " + Entity.toString(entity) + " is not in " + name +
            "; check contains() (World.has) first, or use remove() when absence is expected" +
            (walks.isDeferring() ? " (while " + walks.describeHold() + " runs, an add recorded in it is not made yet: " +
                "it is made when that returns)" : ""));
    }
}
