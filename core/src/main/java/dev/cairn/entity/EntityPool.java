package dev.cairn.entity;

import dev.cairn.Entity;
import dev.cairn.memory.OffHeap;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.LongConsumer;

/**
 * Creates, recycles and validates entity handles.
 * <p>
 * <b>Layout</b> (EnTT's entity storage): a packed array of {@code long} handles, one per index ever created, and a
 * flat sparse array mapping each index to its packed slot. The first {@link #aliveCount()} slots hold the alive
 * entities; the rest form the free list: destroyed handles already carrying their <em>next</em> version, the most
 * recently destroyed one first. So {@link #destroy(long)} bumps the version and swaps the handle to the front of the
 * free list, and {@link #create()} takes it back from there: index recycling is LIFO, and a recycled index comes back
 * with the next version.
 * <p>
 * Indices are handed out densely from 0, which is why the sparse array is flat rather than paged.
 * Not thread-safe.
 */
public final class EntityPool implements AutoCloseable
{
    /** The most entities a pool can hold: every index from 0 to {@link Entity#MAX_INDEX}. */
    public static final int MAX_ENTITIES = Entity.MAX_INDEX + 1;

    private final OffHeap offHeap;
    private final int maxEntities;
    private final UnsafeBuffer packed;
    private final UnsafeBuffer sparse;
    private int capacity;
    /* Raw addresses of the two buffers; every access is below created <= capacity (see isAlive). */
    private long packedAddress;
    private long sparseAddress;
    private int created;
    private int alive;
    private boolean closed;

    /**
     * Creates an empty pool that can hold up to {@link #MAX_ENTITIES} entities.
     *
     * @param offHeap owner of the pool's memory.
     */
    public EntityPool(final OffHeap offHeap)
    {
        this(offHeap, MAX_ENTITIES);
    }

    /**
     * Creates an empty pool with a smaller id space.
     *
     * @param offHeap     owner of the pool's memory.
     * @param maxEntities how many distinct indices may be handed out, from 1 to {@link #MAX_ENTITIES}.
     * @throws IllegalArgumentException if {@code maxEntities} is out of range.
     */
    public EntityPool(final OffHeap offHeap, final int maxEntities)
    {
        if (maxEntities < 1 || maxEntities > MAX_ENTITIES)
        {
            throw new IllegalArgumentException(
                "maxEntities " + maxEntities + " is outside [1, " + MAX_ENTITIES + "]");
        }
        this.offHeap = offHeap;
        this.maxEntities = maxEntities;
        this.packed = OffHeap.emptyBuffer();
        this.sparse = OffHeap.emptyBuffer();
    }

    /**
     * Creates an entity: the most recently freed index with its next version if there is one, else a new index with
     * version 0.
     *
     * @return the new handle; never {@link Entity#NULL}.
     * @throws IllegalStateException if every index is alive (the id space is exhausted) or the pool is closed.
     */
    public long create()
    {
        ensureOpen();
        if (alive < created)
        {
            return packedGet(alive++);
        }
        if (created == maxEntities)
        {
            throw new IllegalStateException(
                "entity id space exhausted: all " + maxEntities + " indices are alive; destroy entities you no " +
                "longer need, or create the World with a larger maxEntities (at most " + MAX_ENTITIES + ")");
        }
        ensureCapacity(created + 1);
        final int index = created++;
        final long entity = Entity.combine(index, 0);
        packedPut(index, entity);
        sparsePut(index, index);
        alive++;
        return entity;
    }

    /**
     * Creates {@code length} entities into {@code entities[offset, offset + length)}; all or none.
     *
     * @param entities receives the handles.
     * @param offset   first array slot to fill.
     * @param length   how many to create.
     * @throws IndexOutOfBoundsException if the range does not fit the array.
     * @throws IllegalStateException     if fewer than {@code length} indices are available, or the pool is closed.
     */
    public void create(final long[] entities, final int offset, final int length)
    {
        ensureOpen();
        if (offset < 0 || length < 0 || offset > entities.length - length)
        {
            throw new IndexOutOfBoundsException(
                "range [" + offset + ", " + offset + " + " + length + ") does not fit an array of " +
                entities.length);
        }
        final int available = maxEntities - alive;
        if (length > available)
        {
            throw new IllegalStateException(
                "cannot create " + length + " entities: only " + available + " of " + maxEntities +
                " indices are free; destroy entities or create the World with a larger maxEntities");
        }
        ensureCapacity(alive + length);
        for (int i = 0; i < length; i++)
        {
            entities[offset + i] = create();
        }
    }

    /**
     * Destroys an alive entity: its version is bumped and its index becomes the next one {@link #create()} reuses.
     *
     * @param entity an alive handle.
     * @throws IllegalArgumentException if {@code entity} is not alive (stale, never created, NULL), naming it.
     * @throws IllegalStateException    if the pool is closed.
     */
    public void destroy(final long entity)
    {
        ensureOpen();
        requireAlive(entity);
        final int index = Entity.index(entity);
        final int position = sparseGet(index);
        final int last = --alive;
        if (position != last)
        {
            final long moved = packedGet(last);
            packedPut(position, moved);
            sparsePut(Entity.index(moved), position);
            sparsePut(index, last);
        }
        packedPut(last, Entity.next(entity));
    }

    /**
     * Whether {@code entity} is alive in this pool.
     *
     * @param entity any value.
     * @return true if it was created here and not destroyed since.
     */
    public boolean isAlive(final long entity)
    {
        final int index = Entity.index(entity);
        if (index < 0 || index >= created)
        {
            return false;
        }
        final int position = sparseGet(index);
        return position < alive && packedGet(position) == entity;
    }

    /**
     * Throws unless {@code entity} is alive.
     *
     * @param entity any value.
     * @throws IllegalArgumentException saying why the handle is not alive (NULL, never created, or stale and which
     *                                  version the index holds now).
     * @throws IllegalStateException    if the pool is closed.
     */
    public void requireAlive(final long entity)
    {
        if (!isAlive(entity))
        {
            ensureOpen();
            throw new IllegalArgumentException(describeDead(entity));
        }
    }

    /**
     * Explains why {@code entity} is not alive, for exception messages.
     *
     * @param entity a handle that is not alive.
     * @return a sentence naming the handle and what to do.
     */
    public String describeDead(final long entity)
    {
        final String name = Entity.toString(entity);
        if (entity == Entity.NULL)
        {
            return "entity NULL is not an entity; use a handle returned by World.create()";
        }
        final int index = Entity.index(entity);
        if (!Entity.isWellFormed(entity) || index >= created)
        {
            return "entity " + name + " was never created by this World; use a handle returned by World.create()";
        }
        final long current = packedGet(sparseGet(index));
        final boolean indexAlive = sparseGet(index) < alive;
        return "entity " + name + " is stale: it was destroyed, and index " + index +
            (indexAlive ? " now belongs to " + Entity.toString(current) : " is free") +
            "; drop handles of destroyed entities (check World.valid() first)";
    }

    /**
     * The current version of an index: the alive entity's version, or for a free index the version the next
     * {@link #create()} reusing it will return.
     *
     * @param index an index handed out by this pool.
     * @return its version.
     * @throws IndexOutOfBoundsException if the index was never handed out.
     */
    public int currentVersion(final int index)
    {
        ensureOpen();
        if (index < 0 || index >= created)
        {
            throw new IndexOutOfBoundsException(
                "entity index " + index + " was never created: this pool has created indices [0, " + created + ")");
        }
        return Entity.version(packedGet(sparseGet(index)));
    }

    /**
     * Entities alive now.
     *
     * @return the alive count.
     */
    public int aliveCount()
    {
        return alive;
    }

    /**
     * Distinct indices handed out so far, alive or free.
     *
     * @return the number of indices ever created.
     */
    public int createdCount()
    {
        return created;
    }

    /**
     * The id space given at construction.
     *
     * @return the most entities this pool can hold at once.
     */
    public int maxEntities()
    {
        return maxEntities;
    }

    /**
     * Visits every alive entity from the back of the packed array: while nothing is destroyed, the most recently
     * created first. Destroying the visited entity is safe.
     *
     * @param action receives each alive handle.
     */
    public void forEach(final LongConsumer action)
    {
        ensureOpen();
        for (int i = alive; (i = Math.min(i, alive) - 1) >= 0; )
        {
            action.accept(packedGet(i));
        }
    }

    /**
     * Destroys every alive entity (each index comes back with its next version).
     */
    public void clear()
    {
        ensureOpen();
        for (int i = 0; i < alive; i++)
        {
            packedPut(i, Entity.next(packedGet(i)));
        }
        alive = 0;
    }

    /**
     * Off-heap bytes this pool holds.
     *
     * @return the byte count.
     */
    public long offHeapBytes()
    {
        return (long)packed.capacity() + sparse.capacity();
    }

    /**
     * Frees the pool's memory. Afterwards {@link #create()}, {@link #destroy(long)}, {@link #requireAlive(long)},
     * {@link #currentVersion(int)}, {@link #clear()} and {@link #forEach(LongConsumer)} throw
     * {@link IllegalStateException}; {@link #isAlive(long)} is false for every handle and the counters read 0.
     * Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            offHeap.free(packed);
            offHeap.free(sparse);
            capacity = 0;
            created = 0;
            alive = 0;
            packedAddress = 0;
            sparseAddress = 0;
        }
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(
                "this World is closed and its off-heap memory freed; create a new World to continue");
        }
    }

    private long packedGet(final int slot)
    {
        return UnsafeApi.getLong(packedAddress + ((long)slot << 3));
    }

    private void packedPut(final int slot, final long entity)
    {
        UnsafeApi.putLong(packedAddress + ((long)slot << 3), entity);
    }

    private int sparseGet(final int index)
    {
        return UnsafeApi.getInt(sparseAddress + ((long)index << 2));
    }

    private void sparsePut(final int index, final int slot)
    {
        UnsafeApi.putInt(sparseAddress + ((long)index << 2), slot);
    }

    private void ensureCapacity(final int needed)
    {
        if (needed > capacity)
        {
            final long grown = Math.max(64L, capacity + (capacity >> 1));
            final int newCapacity = (int)Math.min(maxEntities, Math.max(needed, grown));
            offHeap.resize(packed, newCapacity << 3, (byte)0);
            offHeap.resize(sparse, newCapacity << 2, (byte)0);
            capacity = newCapacity;
            packedAddress = packed.addressOffset();
            sparseAddress = sparse.addressOffset();
        }
    }
}
