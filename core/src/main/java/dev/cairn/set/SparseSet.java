package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.entity.EntityPool;
import dev.cairn.memory.OffHeap;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * An off-heap paged sparse set of entity handles, with optional dense payload columns that move in lockstep with the
 * packed array.
 * <p>
 * <b>Layout.</b> The <em>sparse</em> array maps an entity index to its packed index; it lives in pages of
 * {@value #PAGE_SIZE} {@code int}s, each an {@link UnsafeBuffer} allocated the first time an index of that page is
 * inserted and filled with -1 ("absent"). The <em>packed</em> array holds the {@code long} handles contiguously in
 * one buffer that grows geometrically. Each <em>column</em> holds one value of 1, 2, 4 or 8 bytes per packed slot.
 * <p>
 * <b>Invariants</b> (checked by the model-based tests after every operation):
 * <ul>
 *     <li>for every member {@code e}: {@code packed[sparse[index(e)]] == e};</li>
 *     <li>a sparse entry that is not -1 points at a packed slot holding a handle with that index (under
 *     {@link DeletionPolicy#SWAP_ONLY} the slot may be in the released region);</li>
 *     <li>{@link DeletionPolicy#IN_PLACE} tombstones carry {@link Entity#TOMBSTONE_VERSION} and, in their index bits,
 *     the packed index of the next free slot (-1 ends the list); no sparse entry points at them;</li>
 *     <li>{@link DeletionPolicy#SWAP_ONLY}: members occupy {@code [0, freeList())}, released entries
 *     {@code [freeList(), size())}.</li>
 * </ul>
 * <b>Iteration</b> runs from the back of the packed array to the front, so erasing the current element during
 * {@link #forEach(LongConsumer)} is safe. Sorting arranges the packed array so that this iteration order follows the
 * comparator.
 * <p>
 * <b>Memory.</b> All memory belongs to the {@link OffHeap} given at construction; {@link #close()} frees it and any
 * later use throws {@link IllegalStateException}. Not thread-safe.
 */
public class SparseSet implements AutoCloseable
{
    /** Entries per sparse page. */
    public static final int PAGE_SIZE = 4096;

    /** Largest number of packed slots: keeps every 8-byte column addressable by an {@code int} byte offset. */
    public static final int MAX_CAPACITY = Integer.MAX_VALUE / Long.BYTES;

    private static final int PAGE_SHIFT = 12;
    private static final int PAGE_MASK = PAGE_SIZE - 1;
    private static final int PAGE_BYTES = PAGE_SIZE * Integer.BYTES;
    private static final int ABSENT = -1;
    private static final UnsafeBuffer[] NO_PAGES = new UnsafeBuffer[0];
    private static final long[] NO_PAGE_ADDRESSES = new long[0];

    private final DeletionPolicy policy;
    private final OffHeap offHeap;
    private final EntityPool pool;
    private final String name;
    private final UnsafeBuffer packed;
    private final UnsafeBuffer[] columns;
    private final int[] columnShifts;

    private UnsafeBuffer[] pages = NO_PAGES;
    /*
     * Raw addresses of the buffers above, refreshed whenever memory moves. Hot reads go through these with a null
     * base object, which lets the JIT keep this set's fields in registers across off-heap stores; every such read is
     * guarded by a check against size() or the page table, and size() <= capacity() always holds.
     */
    private long[] pageAddresses = NO_PAGE_ADDRESSES;
    private long packedAddress;
    private final long[] columnAddresses;
    private int capacity;
    private int size;
    private int memberCount;
    /** IN_PLACE: packed index of the most recent tombstone or -1. SWAP_ONLY: the free-list boundary. Else: unused. */
    private int head;
    /** Counts the operations that may have changed which member sits in which slot; see layoutVersion(). */
    private long layoutVersion;
    private boolean closed;

    /**
     * Creates an empty standalone set that owns its off-heap memory and accepts any well-formed handle.
     *
     * @param policy what erase does.
     */
    public SparseSet(final DeletionPolicy policy)
    {
        this(policy, null, null, "sparse set", new int[0]);
    }

    /**
     * Creates an empty set with payload columns, for component storages.
     *
     * @param policy       what erase does.
     * @param offHeap      the owner of this set's memory, or null for a set that owns its memory (and frees it all on
     *                     {@link #close()}).
     * @param pool         if not null, only entities alive in this pool may be inserted.
     * @param name         what exception messages call this set, for example {@code "Position storage"}.
     * @param columnWidths the byte width of each payload column: 1, 2, 4 or 8.
     */
    protected SparseSet(
        final DeletionPolicy policy,
        final OffHeap offHeap,
        final EntityPool pool,
        final String name,
        final int[] columnWidths)
    {
        if (policy == null)
        {
            throw new NullPointerException("policy");
        }
        this.policy = policy;
        this.offHeap = offHeap == null ? new OffHeap() : offHeap;
        this.pool = pool;
        this.name = name;
        this.packed = OffHeap.emptyBuffer();
        this.columns = new UnsafeBuffer[columnWidths.length];
        this.columnShifts = new int[columnWidths.length];
        this.columnAddresses = new long[columnWidths.length];
        for (int k = 0; k < columnWidths.length; k++)
        {
            columns[k] = OffHeap.emptyBuffer();
            columnShifts[k] = shiftOf(columnWidths[k]);
        }
        this.head = initialHead(policy);
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
     * Number of packed slots in use: members, plus {@link DeletionPolicy#IN_PLACE} tombstones and
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
     * End of the region iteration walks: members and tombstones live in {@code [0, freeList())}. For
     * {@link DeletionPolicy#SWAP_ONLY} this is the boundary in front of the released region; for the other policies
     * it equals {@link #size()}.
     *
     * @return the free-list boundary.
     */
    public final int freeList()
    {
        return policy == DeletionPolicy.SWAP_ONLY ? head : size;
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
     * Packed slots allocated.
     *
     * @return the capacity of the packed array and every column.
     */
    public final int capacity()
    {
        return capacity;
    }

    /**
     * Whether {@code entity} is a member. Stale versions, released entries, {@link Entity#NULL} and malformed values
     * are never members.
     *
     * @param entity any value.
     * @return true if {@code entity} is in the set.
     */
    public final boolean contains(final long entity)
    {
        ensureOpen();
        return memberIndex(entity) >= 0;
    }

    /**
     * The packed index of a member, or -1; the lookup views use. Performs no open check: on a closed set it finds
     * nothing.
     *
     * @param entity any value.
     * @return its packed index if {@code entity} is a member, otherwise -1.
     */
    public final int memberIndex(final long entity)
    {
        return memberAt(entity, sparseAddressOf(Entity.index(entity)));
    }

    /**
     * Where {@code entity} sits in the packed array: for members their index, and under
     * {@link DeletionPolicy#SWAP_ONLY} also the index of a released entry (at or beyond {@link #freeList()}).
     *
     * @param entity any value.
     * @return its packed index, or -1 if no slot holds exactly this handle.
     */
    public final int indexOf(final long entity)
    {
        ensureOpen();
        final int position = sparseGet(Entity.index(entity));
        if (position >= 0 && packedGet(position) == entity)
        {
            return position;
        }
        return ABSENT;
    }

    /**
     * The handle in packed slot {@code index}.
     *
     * @param index from 0 to {@link #size()} - 1.
     * @return the handle there, or {@link Entity#NULL} for an {@link DeletionPolicy#IN_PLACE} tombstone (a
     * {@link DeletionPolicy#SWAP_ONLY} released entry is returned with its bumped version).
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code [0, size())}.
     */
    public final long entityAt(final int index)
    {
        checkIndex(index);
        final long entity = packedGet(index);
        return Entity.version(entity) == Entity.TOMBSTONE_VERSION ? Entity.NULL : entity;
    }

    /**
     * The raw handle in a packed slot for code that has already checked {@code index} against {@link #freeList()}:
     * tombstones come back with {@link Entity#TOMBSTONE_VERSION}. Agrona's bounds check still applies.
     *
     * @param index a packed index.
     * @return the raw packed value.
     */
    public final long packedAt(final int index)
    {
        checkIndex(index);
        return UnsafeApi.getLong(packedAddress + ((long)index << 3));
    }

    /**
     * The member in packed slot {@code index}, for flyweights that remember what they point at: {@link Entity#NULL}
     * when {@code index} is outside {@code [0, freeList())} or the slot holds a tombstone.
     *
     * @param index any value.
     * @return the member in that slot, or {@link Entity#NULL}.
     */
    public final long memberInSlot(final int index)
    {
        if (index < 0 || index >= freeList())
        {
            return Entity.NULL;
        }
        final long entity = packedGet(index);
        return Entity.version(entity) == Entity.TOMBSTONE_VERSION ? Entity.NULL : entity;
    }

    /**
     * Checks that packed slot {@code index} still holds {@code entity}: what a flyweight positioned on that entity
     * asks before an access, so that after the entity was removed, or moved by a swap, sort or compaction, the
     * flyweight fails instead of reading or writing the entity that took its slot.
     *
     * @param index  the slot the flyweight is at.
     * @param entity the member it was positioned on, as {@link #memberInSlot(int)} gave it.
     * @throws IllegalStateException if the slot no longer holds {@code entity}, if {@code entity} is
     *                               {@link Entity#NULL} (the flyweight is on no entity), or if the set is closed.
     */
    public final void checkSlot(final int index, final long entity)
    {
        ensureOpen();
        if (entity != Entity.NULL && index >= 0 && index < size && packedGet(index) == entity)
        {
            return;
        }
        if (entity == Entity.NULL)
        {
            throw new IllegalStateException(
                "a Ref of " + name + " at index " + index + " is on no entity: it was never moved, or was moved " +
                "to a slot that held no member; move it to a member's index first (a view's cursor moves its Refs " +
                "in next())");
        }
        throw new IllegalStateException(
            "a Ref of " + name + " at index " + index + " was positioned on " + Entity.toString(entity) +
            ", which is no longer in that slot (removed, or moved by a swap, sort or compact since); " +
            "move the Ref again, or read the entity's fields through the storage by entity");
    }

    /**
     * The index a flyweight may access: {@code index} itself while the set's {@link #layoutVersion()} is still
     * {@code layoutVersion} (no member can have moved since the flyweight was positioned), otherwise after
     * {@link #checkSlot(int, long)} confirmed that the slot still holds {@code entity}.
     *
     * @param index         the slot the flyweight is at.
     * @param entity        the member it was positioned on.
     * @param layoutVersion the {@link #layoutVersion()} when it was positioned, or -1 to force the check.
     * @return {@code index}.
     * @throws IllegalStateException as {@link #checkSlot(int, long)}.
     */
    public final int refIndex(final int index, final long entity, final long layoutVersion)
    {
        if (layoutVersion != this.layoutVersion)
        {
            checkSlot(index, entity);
        }
        return index;
    }

    /**
     * A number that changes whenever a member may have changed slot: on every erase, swap, sort, compaction,
     * clear and close, and on inserts that reuse or swap a slot (never on an insert that appends). A flyweight that
     * saw the same number when it was positioned knows its slot still holds its entity without reading the packed
     * array; only when the number changed does it ask {@link #checkSlot(int, long)}.
     *
     * @return the current layout version, never negative.
     */
    public final long layoutVersion()
    {
        return layoutVersion;
    }

    /**
     * Adds {@code entity}. Under {@link DeletionPolicy#IN_PLACE} the most recently freed slot is reused; under
     * {@link DeletionPolicy#SWAP_ONLY} a released entry of the same index is brought back in front of the boundary.
     * Payload columns at the returned index hold whatever was there; storages write them next.
     *
     * @param entity a well-formed handle that is not a member.
     * @return the packed index the entity now occupies.
     * @throws IllegalArgumentException if {@code entity} is NULL, malformed, already a member, shares its index with
     *                                  a member of another version, or (for a set bound to a pool) is not alive.
     * @throws IllegalStateException    if the set is closed.
     */
    public final int insert(final long entity)
    {
        ensureOpen();
        checkInsertable(entity);
        final int entityIndex = Entity.index(entity);
        final long sparseAddress = pageOf(entityIndex) + ((long)(entityIndex & PAGE_MASK) << 2);
        final int existing = UnsafeApi.getInt(sparseAddress);
        if (existing >= 0)
        {
            if (policy == DeletionPolicy.SWAP_ONLY && existing >= head)
            {
                packedPut(existing, entity);
                swapSlots(existing, head);
                memberCount++;
                return head++;
            }
            throw alreadyPresent(entity, packedGet(existing));
        }

        final int slot;
        if (policy == DeletionPolicy.IN_PLACE && head != ABSENT)
        {
            slot = head;
            head = Entity.index(packedGet(slot));
            layoutVersion++;
        }
        else
        {
            if (size == capacity)
            {
                ensureCapacity(size + 1);
            }
            slot = size++;
        }
        packedPut(slot, entity);
        UnsafeApi.putInt(sparseAddress, slot);
        memberCount++;
        if (policy == DeletionPolicy.SWAP_ONLY)
        {
            swapSlots(slot, head);
            return head++;
        }
        return slot;
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
        ensureOpen();
        final long sparseAddress = sparseAddressOf(Entity.index(entity));
        final int position = memberAt(entity, sparseAddress);
        if (position < 0)
        {
            return false;
        }
        eraseAt(position, entity, sparseAddress);
        return true;
    }

    /**
     * Removes every element, tombstone and released entry. Memory stays allocated for reuse; see
     * {@link #shrinkToFit()}.
     *
     * @throws IllegalStateException if the set is closed.
     */
    public final void clear()
    {
        ensureOpen();
        for (int i = 0; i < size; i++)
        {
            final long entity = packedGet(i);
            if (Entity.version(entity) != Entity.TOMBSTONE_VERSION)
            {
                sparsePut(Entity.index(entity), ABSENT);
            }
        }
        size = 0;
        memberCount = 0;
        head = initialHead(policy);
        layoutVersion++;
    }

    /**
     * Makes room for {@code capacity} packed slots without further allocation.
     *
     * @param capacity slots wanted, up to {@link #MAX_CAPACITY}.
     * @throws IllegalArgumentException if {@code capacity} is negative or above {@link #MAX_CAPACITY}.
     * @throws IllegalStateException    if the set is closed.
     */
    public final void reserve(final int capacity)
    {
        ensureOpen();
        if (capacity < 0 || capacity > MAX_CAPACITY)
        {
            throw new IllegalArgumentException(
                "cannot reserve " + capacity + " slots in " + name + ": allowed range is [0, " + MAX_CAPACITY + "]");
        }
        if (capacity > this.capacity)
        {
            resizeDense(capacity);
        }
    }

    /**
     * Releases memory not needed by the current elements: packed and column capacity beyond {@link #size()}, and
     * sparse pages that map no element.
     *
     * @throws IllegalStateException if the set is closed.
     */
    public final void shrinkToFit()
    {
        ensureOpen();
        if (capacity > size)
        {
            resizeDense(size);
        }
        final boolean[] used = new boolean[pages.length];
        for (int i = 0; i < size; i++)
        {
            final long entity = packedGet(i);
            if (Entity.version(entity) != Entity.TOMBSTONE_VERSION)
            {
                used[Entity.index(entity) >>> PAGE_SHIFT] = true;
            }
        }
        for (int p = 0; p < pages.length; p++)
        {
            if (!used[p] && pages[p] != null)
            {
                offHeap.free(pages[p]);
                pages[p] = null;
                pageAddresses[p] = 0;
            }
        }
    }

    /**
     * Exchanges the packed slots (and payload) of two members.
     *
     * @param first  a member.
     * @param second a member.
     * @throws IllegalArgumentException if either is not a member.
     * @throws IllegalStateException    if the set is closed.
     */
    public final void swapElements(final long first, final long second)
    {
        ensureOpen();
        final int a = memberIndex(first);
        if (a < 0)
        {
            throw notMember(first);
        }
        final int b = memberIndex(second);
        if (b < 0)
        {
            throw notMember(second);
        }
        swapSlots(a, b);
    }

    /**
     * Removes holes. {@link DeletionPolicy#IN_PLACE}: moves members from the back into tombstones until none
     * remains, so {@code size() == memberCount()}; payload moves with its entity. {@link DeletionPolicy#SWAP_ONLY}:
     * drops the released region. {@link DeletionPolicy#SWAP_AND_POP}: nothing to do.
     *
     * @throws IllegalStateException if the set is closed.
     */
    public final void compact()
    {
        ensureOpen();
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
                moveSlot(from - 1, to);
                from--;
                to++;
            }
            size = from;
            head = ABSENT;
        }
        else if (policy == DeletionPolicy.SWAP_ONLY)
        {
            for (int i = head; i < size; i++)
            {
                sparsePut(Entity.index(packedGet(i)), ABSENT);
            }
            size = head;
        }
    }

    /**
     * Sorts the members so that iteration (back to front) visits them in ascending {@code comparator} order; equal
     * elements keep their relative iteration order. Payload columns are permuted with their entities in O(n) swaps.
     * An {@link DeletionPolicy#IN_PLACE} set is {@link #compact() compacted} first, so sorting never sees a tombstone;
     * a {@link DeletionPolicy#SWAP_ONLY} set sorts its members and leaves the released region as it is.
     *
     * @param comparator orders packed indices as they are when the sort starts; it must not change the set.
     * @throws IllegalStateException if the set is closed, or if the comparator changed its size or closed it (the
     *                               sort is then not applied).
     */
    public final void sort(final IndexComparator comparator)
    {
        ensureOpen();
        compactTombstones();
        final int length = freeList();
        final int[] order = new int[length];
        for (int i = 0; i < length; i++)
        {
            order[i] = i;
        }
        // Iteration runs from the back, so the packed array holds the comparator's order reversed.
        final int sizeBefore = size;
        final int membersBefore = memberCount;
        PositionSort.sort(order, length, (left, right) -> comparator.compare(right, left));
        // The permutation writes raw memory below length: refuse if the comparator shrank or closed the set.
        if (closed || size != sizeBefore || memberCount != membersBefore || freeList() != length)
        {
            throw new IllegalStateException(
                "the comparator passed to sort() changed " + name + " (size " + sizeBefore + " -> " + size +
                (closed ? ", closed" : "") + "); a comparator must only read the set, so the sort was not applied");
        }
        applyPermutation(order, length);
    }

    /**
     * Arranges the members shared with {@code other} so that iteration visits them first, in the order iteration of
     * {@code other} visits them; the other members follow. Compacts an {@link DeletionPolicy#IN_PLACE} set first.
     *
     * @param other the set whose order to copy; it is not changed.
     * @throws IllegalStateException if either set is closed.
     */
    public final void sortAs(final SparseSet other)
    {
        ensureOpen();
        other.ensureOpen();
        compactTombstones();
        int target = freeList() - 1;
        for (int i = other.freeList() - 1; i >= 0 && target > 0; i--)
        {
            final int position = memberIndex(other.packedGet(i));
            if (position >= 0)
            {
                swapSlots(position, target--);
            }
        }
    }

    /**
     * Visits every member from the back of the packed array to the front. Erasing the member being visited is safe;
     * members inserted meanwhile may or may not be visited.
     *
     * @param action receives each member's handle.
     * @throws IllegalStateException if the set is closed.
     */
    public final void forEach(final LongConsumer action)
    {
        ensureOpen();
        for (int i = freeList(); (i = Math.min(i, freeList()) - 1) >= 0; )
        {
            final long entity = packedGet(i);
            if (Entity.version(entity) != Entity.TOMBSTONE_VERSION)
            {
                action.accept(entity);
            }
        }
    }

    /**
     * Off-heap bytes this set holds: sparse pages, packed array and columns.
     *
     * @return the byte count.
     */
    public final long offHeapBytes()
    {
        long bytes = packed.capacity();
        for (final UnsafeBuffer column : columns)
        {
            bytes += column.capacity();
        }
        for (final UnsafeBuffer page : pages)
        {
            if (page != null)
            {
                bytes += page.capacity();
            }
        }
        return bytes;
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed.
     */
    public final boolean isClosed()
    {
        return closed;
    }

    /**
     * Frees all off-heap memory of this set. Afterwards every operation on elements or memory (insert, erase,
     * remove, lookups such as {@link #contains(long)}, {@link #indexOf(long)} and {@link #entityAt(int)}, iteration,
     * sorting, clear, compact, reserve, shrinkToFit, {@link #checkIndex(int)}, {@link #requireIndex(long)}) throws
     * {@link IllegalStateException}; the counters ({@link #size()}, {@link #memberCount()}, {@link #freeList()},
     * {@link #capacity()}, {@link #offHeapBytes()}) read 0 and {@link #memberIndex(long)} finds nothing, so a view
     * over a closed set sees it empty. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        offHeap.free(packed);
        for (final UnsafeBuffer column : columns)
        {
            offHeap.free(column);
        }
        for (final UnsafeBuffer page : pages)
        {
            if (page != null)
            {
                offHeap.free(page);
            }
        }
        pages = NO_PAGES;
        pageAddresses = NO_PAGE_ADDRESSES;
        capacity = 0;
        refreshDenseAddresses();
        size = 0;
        memberCount = 0;
        head = initialHead(policy);
        layoutVersion++;
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
            throw new IllegalStateException(
                name + " is closed and its off-heap memory freed; create a new World (or set) to continue");
        }
    }

    /**
     * Checks a packed index against {@link #size()}.
     *
     * @param index a packed index.
     * @throws IndexOutOfBoundsException naming the index and the valid range.
     * @throws IllegalStateException     if the set is closed.
     */
    public final void checkIndex(final int index)
    {
        if (index < 0 || index >= size)
        {
            ensureOpen();
            throw new IndexOutOfBoundsException(
                "index " + index + " is outside [0, " + size + ") of " + name);
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
    public final int requireIndex(final long entity)
    {
        final int position = memberIndex(entity);
        if (position < 0)
        {
            ensureOpen();
            throw notMember(entity);
        }
        return position;
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
     * Payload column {@code k}: one value of the width given at construction per packed slot. The buffer object is
     * stable for the life of the set; the memory behind it moves when the set grows.
     *
     * @param k column number.
     * @return the column buffer.
     */
    protected final UnsafeBuffer column(final int k)
    {
        return columns[k];
    }

    /**
     * Reads a {@code byte} from a payload column.
     *
     * @param column a column of 1 byte.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final byte getByte(final int column, final int index)
    {
        return UnsafeApi.getByte(columnAddress(column, index, 0));
    }

    /**
     * Writes a {@code byte} into a payload column.
     *
     * @param column a column of 1 byte.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putByte(final int column, final int index, final byte value)
    {
        UnsafeApi.putByte(columnAddress(column, index, 0), value);
    }

    /**
     * Reads a {@code short} from a payload column.
     *
     * @param column a column of 2 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final short getShort(final int column, final int index)
    {
        return UnsafeApi.getShort(columnAddress(column, index, 1));
    }

    /**
     * Writes a {@code short} into a payload column.
     *
     * @param column a column of 2 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putShort(final int column, final int index, final short value)
    {
        UnsafeApi.putShort(columnAddress(column, index, 1), value);
    }

    /**
     * Reads a {@code char} from a payload column.
     *
     * @param column a column of 2 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final char getChar(final int column, final int index)
    {
        return UnsafeApi.getChar(columnAddress(column, index, 1));
    }

    /**
     * Writes a {@code char} into a payload column.
     *
     * @param column a column of 2 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putChar(final int column, final int index, final char value)
    {
        UnsafeApi.putChar(columnAddress(column, index, 1), value);
    }

    /**
     * Reads an {@code int} from a payload column.
     *
     * @param column a column of 4 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final int getInt(final int column, final int index)
    {
        return UnsafeApi.getInt(columnAddress(column, index, 2));
    }

    /**
     * Writes an {@code int} into a payload column.
     *
     * @param column a column of 4 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putInt(final int column, final int index, final int value)
    {
        UnsafeApi.putInt(columnAddress(column, index, 2), value);
    }

    /**
     * Reads a {@code float} from a payload column.
     *
     * @param column a column of 4 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final float getFloat(final int column, final int index)
    {
        return UnsafeApi.getFloat(columnAddress(column, index, 2));
    }

    /**
     * Writes a {@code float} into a payload column.
     *
     * @param column a column of 4 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putFloat(final int column, final int index, final float value)
    {
        UnsafeApi.putFloat(columnAddress(column, index, 2), value);
    }

    /**
     * Reads a {@code long} from a payload column.
     *
     * @param column a column of 8 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final long getLong(final int column, final int index)
    {
        return UnsafeApi.getLong(columnAddress(column, index, 3));
    }

    /**
     * Writes a {@code long} into a payload column.
     *
     * @param column a column of 8 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putLong(final int column, final int index, final long value)
    {
        UnsafeApi.putLong(columnAddress(column, index, 3), value);
    }

    /**
     * Reads a {@code double} from a payload column.
     *
     * @param column a column of 8 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final double getDouble(final int column, final int index)
    {
        return UnsafeApi.getDouble(columnAddress(column, index, 3));
    }

    /**
     * Writes a {@code double} into a payload column.
     *
     * @param column a column of 8 bytes.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the set is closed.
     */
    protected final void putDouble(final int column, final int index, final double value)
    {
        UnsafeApi.putDouble(columnAddress(column, index, 3), value);
    }

    /**
     * The address of element {@code index} of a column, after checking the index against {@link #size()} (which
     * never exceeds the columns' capacity) and the element width against the column's.
     */
    private long columnAddress(final int column, final int index, final int shift)
    {
        checkIndex(index);
        if (columnShifts[column] != shift)
        {
            throw new IllegalArgumentException(
                "column " + column + " of " + name + " holds " + (1 << columnShifts[column]) +
                "-byte values, not " + (1 << shift) + "-byte ones");
        }
        return columnAddresses[column] + ((long)index << shift);
    }

    /** Erases the member at {@code position}, whose sparse entry is at {@code sparseAddress}. */
    private void eraseAt(final int position, final long entity, final long sparseAddress)
    {
        if (policy == DeletionPolicy.SWAP_AND_POP)
        {
            final int last = size - 1;
            if (position != last)
            {
                moveSlot(last, position);
            }
            UnsafeApi.putInt(sparseAddress, ABSENT);
            size = last;
        }
        else if (policy == DeletionPolicy.IN_PLACE)
        {
            packedPut(position, Entity.combine(head, Entity.TOMBSTONE_VERSION));
            head = position;
            UnsafeApi.putInt(sparseAddress, ABSENT);
        }
        else
        {
            packedPut(position, Entity.next(entity));
            swapSlots(position, --head);
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
     * Rearranges {@code [0, length)} so that slot {@code k} receives the element that was at {@code order[k]},
     * following each permutation cycle once: O(length) swaps of the packed array and of every column.
     */
    private void applyPermutation(final int[] order, final int length)
    {
        layoutVersion++;
        for (int start = 0; start < length; start++)
        {
            int current = start;
            while (order[current] != start)
            {
                final int next = order[current];
                swapDense(current, next);
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

    private boolean isTombstone(final int position)
    {
        return Entity.version(packedGet(position)) == Entity.TOMBSTONE_VERSION;
    }

    /** Moves the element at {@code from} (never a tombstone) to {@code to}, with its payload, and re-points sparse. */
    private void moveSlot(final int from, final int to)
    {
        layoutVersion++;
        final long entity = packedGet(from);
        packedPut(to, entity);
        final long[] addresses = columnAddresses;
        for (int k = 0; k < addresses.length; k++)
        {
            final long base = addresses[k];
            switch (columnShifts[k])
            {
                case 0:
                    UnsafeApi.putByte(base + to, UnsafeApi.getByte(base + from));
                    break;
                case 1:
                    UnsafeApi.putShort(base + ((long)to << 1), UnsafeApi.getShort(base + ((long)from << 1)));
                    break;
                case 2:
                    UnsafeApi.putInt(base + ((long)to << 2), UnsafeApi.getInt(base + ((long)from << 2)));
                    break;
                default:
                    UnsafeApi.putLong(base + ((long)to << 3), UnsafeApi.getLong(base + ((long)from << 3)));
                    break;
            }
        }
        sparsePut(Entity.index(entity), to);
    }

    /** Swaps two slots (packed, payload and their sparse entries); neither may be a tombstone. */
    private void swapSlots(final int a, final int b)
    {
        if (a == b)
        {
            return;
        }
        layoutVersion++;
        swapDense(a, b);
        sparsePut(Entity.index(packedGet(a)), a);
        sparsePut(Entity.index(packedGet(b)), b);
    }

    /** Swaps two slots of the packed array and every column, leaving sparse alone. */
    private void swapDense(final int a, final int b)
    {
        final long entity = packedGet(a);
        packedPut(a, packedGet(b));
        packedPut(b, entity);
        final long[] addresses = columnAddresses;
        for (int k = 0; k < addresses.length; k++)
        {
            final int shift = columnShifts[k];
            final long addressA = addresses[k] + ((long)a << shift);
            final long addressB = addresses[k] + ((long)b << shift);
            switch (shift)
            {
                case 0:
                {
                    final byte value = UnsafeApi.getByte(addressA);
                    UnsafeApi.putByte(addressA, UnsafeApi.getByte(addressB));
                    UnsafeApi.putByte(addressB, value);
                    break;
                }
                case 1:
                {
                    final short value = UnsafeApi.getShort(addressA);
                    UnsafeApi.putShort(addressA, UnsafeApi.getShort(addressB));
                    UnsafeApi.putShort(addressB, value);
                    break;
                }
                case 2:
                {
                    final int value = UnsafeApi.getInt(addressA);
                    UnsafeApi.putInt(addressA, UnsafeApi.getInt(addressB));
                    UnsafeApi.putInt(addressB, value);
                    break;
                }
                default:
                {
                    final long value = UnsafeApi.getLong(addressA);
                    UnsafeApi.putLong(addressA, UnsafeApi.getLong(addressB));
                    UnsafeApi.putLong(addressB, value);
                    break;
                }
            }
        }
    }

    /*
     * Unchecked access to the packed array. Every caller passes a slot below size(), or the slot being appended
     * after the capacity check in insert(); the model-based tests hold the set to these invariants.
     */
    private long packedGet(final int slot)
    {
        return UnsafeApi.getLong(packedAddress + ((long)slot << 3));
    }

    private void packedPut(final int slot, final long entity)
    {
        UnsafeApi.putLong(packedAddress + ((long)slot << 3), entity);
    }

    /** The address of the sparse page holding {@code entityIndex}, allocated (all -1) if it does not exist yet. */
    private long pageOf(final int entityIndex)
    {
        final int page = entityIndex >>> PAGE_SHIFT;
        final long[] pageAddresses = this.pageAddresses;
        if (page < pageAddresses.length)
        {
            final long address = pageAddresses[page];
            if (address != 0)
            {
                return address;
            }
        }
        return allocatePage(page);
    }

    private long allocatePage(final int page)
    {
        if (page >= pages.length)
        {
            final int length = Math.max(page + 1, pages.length * 2);
            pages = Arrays.copyOf(pages, length);
            pageAddresses = Arrays.copyOf(pageAddresses, length);
        }
        final UnsafeBuffer buffer = offHeap.allocate(PAGE_BYTES, (byte)0xFF);
        pages[page] = buffer;
        pageAddresses[page] = buffer.addressOffset();
        return buffer.addressOffset();
    }

    private int sparseGet(final int entityIndex)
    {
        final long address = sparseAddressOf(entityIndex);
        return address == 0 ? ABSENT : UnsafeApi.getInt(address);
    }

    /** The packed index of {@code entity} if it is a member, given its sparse entry's address (0: none), else -1. */
    private int memberAt(final long entity, final long sparseAddress)
    {
        if (sparseAddress == 0)
        {
            return ABSENT;
        }
        final int position = UnsafeApi.getInt(sparseAddress);
        return position >= 0 && position < freeList() && packedGet(position) == entity ? position : ABSENT;
    }

    /** The address of the sparse entry of {@code entityIndex}, or 0 if its page does not exist (or it is negative). */
    private long sparseAddressOf(final int entityIndex)
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

    private void sparsePut(final int entityIndex, final int position)
    {
        final int page = entityIndex >>> PAGE_SHIFT;
        final long address = page < pageAddresses.length ? pageAddresses[page] : 0;
        if (address != 0)
        {
            UnsafeApi.putInt(address + ((long)(entityIndex & PAGE_MASK) << 2), position);
        }
        else if (position != ABSENT)
        {
            UnsafeApi.putInt(allocatePage(page) + ((long)(entityIndex & PAGE_MASK) << 2), position);
        }
    }

    private void ensureCapacity(final int needed)
    {
        if (needed > capacity)
        {
            if (needed > MAX_CAPACITY)
            {
                throw new IllegalStateException(
                    name + " is full: it holds " + size + " slots, the most a set can hold is " + MAX_CAPACITY);
            }
            final long grown = Math.max(16L, capacity + (capacity >> 1));
            resizeDense((int)Math.min(MAX_CAPACITY, Math.max(needed, grown)));
        }
    }

    private void resizeDense(final int newCapacity)
    {
        offHeap.resize(packed, newCapacity << 3, (byte)0);
        for (int k = 0; k < columns.length; k++)
        {
            offHeap.resize(columns[k], newCapacity << columnShifts[k], (byte)0);
        }
        capacity = newCapacity;
        refreshDenseAddresses();
    }

    private void refreshDenseAddresses()
    {
        packedAddress = addressOf(packed);
        for (int k = 0; k < columns.length; k++)
        {
            columnAddresses[k] = addressOf(columns[k]);
        }
    }

    private static long addressOf(final UnsafeBuffer buffer)
    {
        return buffer.capacity() == 0 ? 0 : buffer.addressOffset();
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
                "; check contains() first, or write the existing value instead of inserting");
        }
        return new IllegalArgumentException(
            "cannot insert " + Entity.toString(entity) + " into " + name + ": index " + Entity.index(entity) +
            " is held by " + Entity.toString(holder) + "; erase that handle first");
    }

    private IllegalArgumentException notMember(final long entity)
    {
        if (pool != null && !pool.isAlive(entity))
        {
            return new IllegalArgumentException(
                pool.describeDead(entity) + "; it cannot be used with " + name);
        }
        return new IllegalArgumentException(
            "entity " + Entity.toString(entity) + " is not in " + name +
            "; check contains() first, or use remove() when absence is expected");
    }

    private static int initialHead(final DeletionPolicy policy)
    {
        return policy == DeletionPolicy.IN_PLACE ? ABSENT : 0;
    }

    private static int shiftOf(final int width)
    {
        switch (width)
        {
            case 1:
                return 0;
            case 2:
                return 1;
            case 4:
                return 2;
            case 8:
                return 3;
            default:
                throw new IllegalArgumentException("column width " + width + " is not 1, 2, 4 or 8 bytes");
        }
    }
}
