package dev.cairn.internal;

import dev.cairn.Entity;
import dev.cairn.OffHeapExhaustedException;
import org.agrona.UnsafeApi;

import java.util.function.LongConsumer;

/**
 * Creates, recycles and validates entity handles.
 * <p>
 * <b>Layout.</b> One {@code int} per entity index ever created: the version of the alive entity at that index, or,
 * for a free index, the bitwise complement of the version it will be created with next (so free entries are
 * negative), or {@link #RETIRED} for an index whose versions are used up. A stack of free indices sits beside it,
 * the most recently destroyed on top: {@link #create()} pops it, so index recycling is LIFO and a recycled index comes
 * back with the next version. Indices are handed out densely from 0, which is why the version array is flat rather
 * than paged. Each index costs 4 bytes, and the free stack 4 bytes per index free at once at most: it grows when a
 * destroy finds it full, not with the version array, so a world that only creates holds no stack at all.
 * <p>
 * <b>Destroying never fails for want of memory.</b> If the stack cannot grow (the budget or the native allocator
 * refuses), the destroyed index is still freed, only left off the stack: its entry alone says it is free. Once the
 * stack is empty, {@link #create()} finds such indices by walking the version array from where it last stopped, and
 * puts as many back on the stack as the stack has room for. A world that ran out of its budget can therefore always
 * free entities and create them again in their place.
 * <p>
 * <b>Versions never wrap.</b> When an entity with version {@link Entity#MAX_VERSION} is destroyed its index is
 * retired, never handed out again, so a destroyed handle stays stale forever. Retired indices count against
 * {@link #maxEntities()}.
 * <p>
 * <b>Walks.</b> {@link #forEach} is a walk of the world: it visits the entities alive when it began, skipping those
 * created meanwhile (creating is the one change a walk does not defer: it hands out a handle at once). Not
 * thread-safe; during a parallel walk, creating is refused.
 */
public final class EntityPool
{
    /** The most entities a pool can hold: every index from 0 to {@link Entity#MAX_INDEX}. */
    public static final int MAX_ENTITIES = Entity.MAX_INDEX + 1;

    /** The version entry of a retired index. */
    public static final int RETIRED = Integer.MIN_VALUE;

    private final OffHeap offHeap;
    private final int maxEntities;
    /* Raw addresses: versions has room for versionCapacity entries, free for freeCapacity. */
    private long versions;
    private long free;
    private int versionCapacity;
    private int freeCapacity;
    private int created;
    private int freeCount;
    /** Free indices left off the stack because it could not grow; their version entries alone say they are free. */
    private int unlisted;
    /** Where the next walk for unlisted indices starts. */
    private int unlistedFrom;
    private int retired;
    private int alive;
    /** How many storages bound to this pool have listeners or hooks; see {@link #hasSignalledStorages()}. */
    private int signalledStorages;
    private final Walks walks;
    /**
     * While the world is walked or held: for each index handed out meanwhile, the number of that create among them
     * (from 1), made at the first such create and forgotten at the first create after; a walk of the pool skips the
     * indices born after it began.
     */
    private int[] births;
    private int birthCount;
    /** What copies the pool's memory now (a snapshot save or load), during which creating is refused; or null. */
    private String copiedBy;
    /** How many copies are under way: a save can run inside another's channel. */
    private int copies;
    private boolean closed;

    /**
     * Creates an empty pool that can hold up to {@link #MAX_ENTITIES} entities.
     *
     * @param offHeap owner of the pool's memory.
     * @param walks   the walks of the world it belongs to.
     */
    public EntityPool(final OffHeap offHeap, final Walks walks)
    {
        this(offHeap, walks, MAX_ENTITIES);
    }

    /**
     * Creates an empty pool with a smaller id space.
     *
     * @param offHeap     owner of the pool's memory.
     * @param walks       the walks of the world it belongs to.
     * @param maxEntities how many distinct indices may be handed out, from 1 to {@link #MAX_ENTITIES}.
     * @throws IllegalArgumentException if {@code maxEntities} is out of range.
     */
    public EntityPool(final OffHeap offHeap, final Walks walks, final int maxEntities)
    {
        if (maxEntities < 1 || maxEntities > MAX_ENTITIES)
        {
            throw new IllegalArgumentException(
                "maxEntities " + maxEntities + " is outside [1, " + MAX_ENTITIES + "]");
        }
        this.offHeap = offHeap;
        this.maxEntities = maxEntities;
        this.walks = walks;
        offHeap.register(this::forgetMemory);
    }

    /**
     * Creates an entity: recycles the most recently destroyed index with its next version, or hands out a new index
     * with version 0.
     *
     * @return its handle.
     * @throws IllegalStateException if every index is alive or retired, or the pool is closed.
     * @throws OffHeapExhaustedException      if the version array cannot grow; the pool is unchanged.
     */
    public long create()
    {
        ensureCreatable("create an entity in");
        if (walks.isHeld())
        {
            return bornDuringWalk(createIndex());
        }
        if (births != null)
        {
            births = null;
            birthCount = 0;
        }
        return createIndex();
    }

    private long createIndex()
    {
        if (freeCount > 0)
        {
            return recycle();
        }
        if (unlisted > 0)
        {
            return recycleUnlisted();
        }
        if (created == maxEntities)
        {
            throw exhausted(1);
        }
        if (created == versionCapacity)
        {
            growVersions(created + 1);
        }
        final int index = created++;
        UnsafeApi.putInt(versions + ((long)index << 2), 0);
        alive++;
        return Entity.combine(index, 0);
    }

    /**
     * Creates {@code length} entities into {@code entities[offset, offset + length)}; either all of them or, if the
     * id space or the memory is short, none.
     *
     * @param entities receives the handles.
     * @param offset   where the first handle goes.
     * @param length   how many to create.
     * @throws IndexOutOfBoundsException if the range does not fit {@code entities}.
     * @throws IllegalStateException     if fewer than {@code length} indices are available, or the pool is closed.
     * @throws OffHeapExhaustedException          if the version array cannot grow; the pool is unchanged.
     */
    public void create(final long[] entities, final int offset, final int length)
    {
        ensureCreatable("create entities in");
        if (offset < 0 || length < 0 || offset > entities.length - length)
        {
            throw new IndexOutOfBoundsException(
                "range [" + offset + ", " + offset + " + " + length + ") does not fit an array of " +
                entities.length);
        }
        final int fresh = Math.max(0, length - freeCount - unlisted);
        if (fresh > maxEntities - created)
        {
            throw exhausted(length);
        }
        if (created + fresh > versionCapacity)
        {
            growVersions(created + fresh);
        }
        for (int i = 0; i < length; i++)
        {
            entities[offset + i] = create();
        }
    }

    /**
     * Destroys an alive entity: its index becomes free with the next version, or is retired if the version was
     * {@link Entity#MAX_VERSION}.
     *
     * @param entity an alive entity.
     * @throws IllegalArgumentException if it is not alive (stale, destroyed, never created, NULL).
     * @throws IllegalStateException    if the pool is closed.
     */
    public void destroy(final long entity)
    {
        ensureMutable("destroy an entity of");
        requireAlive(entity);
        release(Entity.index(entity), Entity.version(entity));
        alive--;
    }

    /**
     * Destroys {@code length} alive entities, {@code entities[offset, offset + length)}, in order, as
     * {@link #destroy(long)} does each; either all of them or, if one is not alive or appears twice, none.
     *
     * @param entities the handles.
     * @param offset   where the first is.
     * @param length   how many to destroy.
     * @throws IndexOutOfBoundsException if the range does not fit {@code entities}.
     * @throws IllegalArgumentException  naming the first handle that is not alive, or is there twice; nothing is
     *                                   destroyed then.
     * @throws IllegalStateException     if the pool is closed.
     */
    public void destroy(final long[] entities, final int offset, final int length)
    {
        ensureMutable("destroy entities of");
        java.util.Objects.checkFromIndexSize(offset, length, entities.length);
        final int capacityBefore = freeCapacity;
        tryGrowFreeStack(freeCount + Math.min(length, alive));
        for (int i = 0; i < length; i++)
        {
            final long entity = entities[offset + i];
            if (!isAlive(entity))
            {
                restore(entities, offset, i);
                shrinkFreeStack(capacityBefore);
                throw notAliveOnce(entities, offset, length, i);
            }
            release(Entity.index(entity), Entity.version(entity));
        }
        alive -= length;
    }

    /**
     * Throws unless {@code entities[offset, offset + length)} are alive and each there once; changes nothing.
     *
     * @param entities the handles.
     * @param offset   where the first is.
     * @param length   how many.
     * @throws IndexOutOfBoundsException if the range does not fit {@code entities}.
     * @throws IllegalArgumentException  naming the first handle that is not alive, or is there twice.
     * @throws IllegalStateException     if the pool is closed.
     */
    public void requireAliveOnce(final long[] entities, final int offset, final int length)
    {
        ensureMutable("destroy entities of");
        java.util.Objects.checkFromIndexSize(offset, length, entities.length);
        // Reads only: the threads of a parallel walk may check their arrays at once.
        for (int i = 0; i < length; i++)
        {
            if (!isAlive(entities[offset + i]))
            {
                throw notAliveOnce(entities, offset, length, i);
            }
        }
        final long[] sorted = java.util.Arrays.copyOfRange(entities, offset, offset + length);
        java.util.Arrays.sort(sorted);
        for (int k = 1; k < length; k++)
        {
            if (sorted[k] == sorted[k - 1])
            {
                int second = firstAt(entities, offset, sorted[k]) + 1;
                while (entities[second] != sorted[k])
                {
                    second++;
                }
                throw notAliveOnce(entities, offset, length, second - offset);
            }
        }
    }

    /**
     * Checks that {@code entities[offset, offset + length)} are alive and each there once, marking each as it goes
     * (its version entry negated, so that a second occurrence is not alive); on the first that fails, unmarks the
     * ones before it and throws. Needs no memory and changes no count.
     */
    private void mark(final long[] entities, final int offset, final int length)
    {
        java.util.Objects.checkFromIndexSize(offset, length, entities.length);
        for (int i = 0; i < length; i++)
        {
            final long entity = entities[offset + i];
            if (!isAlive(entity))
            {
                unmark(entities, offset, i);
                throw notAliveOnce(entities, offset, length, i);
            }
            // Never RETIRED: ~MAX_VERSION is one above it.
            UnsafeApi.putInt(versions + ((long)Entity.index(entity) << 2), ~Entity.version(entity));
        }
    }

    /** Says why {@code entities[offset + i]} failed, once the entries before it are as they were. */
    private IllegalArgumentException notAliveOnce(
        final long[] entities, final int offset, final int length, final int i)
    {
        final long entity = entities[offset + i];
        return new IllegalArgumentException("cannot destroy entities[" + (offset + i) + "]: " +
            (isAlive(entity) ? "entity " + Entity.toString(entity) + " is there twice, the first time at " +
            "entities[" + firstAt(entities, offset, entity) + "]" : describeDead(entity)) + "; none of the " +
            length + " entities was destroyed");
    }

    /** Undoes the releases of {@code entities[offset, offset + count)}, last first, as if they had not happened. */
    private void restore(final long[] entities, final int offset, final int count)
    {
        for (int i = offset + count; --i >= offset; )
        {
            final long entity = entities[i];
            if (Entity.version(entity) == Entity.MAX_VERSION)
            {
                retired--;
            }
            else if (freeCount > 0 && UnsafeApi.getInt(free + ((long)(freeCount - 1) << 2)) == Entity.index(entity))
            {
                freeCount--;
            }
            else
            {
                unlisted--;
            }
            UnsafeApi.putInt(versions + ((long)Entity.index(entity) << 2), Entity.version(entity));
        }
    }

    /** Gives the marked {@code entities[offset, offset + count)} their version entries back. */
    private void unmark(final long[] entities, final int offset, final int count)
    {
        for (int i = offset; i < offset + count; i++)
        {
            final long entity = entities[i];
            UnsafeApi.putInt(versions + ((long)Entity.index(entity) << 2), Entity.version(entity));
        }
    }

    private static int firstAt(final long[] entities, final int offset, final long entity)
    {
        int at = offset;
        while (entities[at] != entity)
        {
            at++;
        }
        return at;
    }

    /**
     * Refuses creating from now until {@link #endCopy()}: a snapshot save or load copies the pool's memory, which a
     * create would grow or free under it (its user code, a channel or an executor, runs meanwhile).
     *
     * @param copier what copies, for messages: {@code "Snapshot.save"}.
     */
    public void beginCopy(final String copier)
    {
        if (copies++ == 0)
        {
            copiedBy = copier;
        }
    }

    /** Ends what {@link #beginCopy} began; creating is allowed again once every copy under way has ended. */
    public void endCopy()
    {
        if (--copies == 0)
        {
            copiedBy = null;
        }
    }

    /**
     * What copies the pool now.
     *
     * @return what {@link #beginCopy} was given, or null.
     */
    public String copiedBy()
    {
        return copiedBy;
    }

    /**
     * Counts a storage bound to this pool that starts or stops having listeners or hooks, so that the world learns
     * whether a destroy must announce itself without asking every storage.
     *
     * @param signalled true when the storage has just become signalled, false when it no longer is.
     */
    public void countSignalledStorage(final boolean signalled)
    {
        signalledStorages += signalled ? 1 : -1;
    }

    /**
     * Whether any storage bound to this pool has listeners or hooks: then destroying an entity tells them, one entity
     * at a time.
     *
     * @return true if one has.
     */
    public boolean hasSignalledStorages()
    {
        return signalledStorages > 0;
    }

    /**
     * Whether an entity is alive.
     *
     * @param entity any value.
     * @return true if it was created by this pool and not destroyed since; false once closed.
     */
    public boolean isAlive(final long entity)
    {
        final int index = Entity.index(entity);
        final int version = Entity.version(entity);
        return index >= 0 && index < created && version >= 0 && versionAt(index) == version;
    }

    /**
     * Throws unless an entity is alive.
     *
     * @param entity any value.
     * @throws IllegalArgumentException naming the handle and why it is not alive.
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
     * Why a handle is not alive, for exception messages.
     *
     * @param entity a handle that is not alive.
     * @return a sentence naming the handle, why it is not alive and what to do.
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
        final int stored = versionAt(index);
        final int next = stored >= 0 ? stored + 1 : stored == RETIRED ? Entity.MAX_VERSION + 1 : ~stored;
        if (Entity.version(entity) >= next)
        {
            return "entity " + name + " was never handed out by this World: index " + index + (stored >= 0 ?
                " now belongs to " + Entity.toString(Entity.combine(index, stored)) :
                " is free and will next be created with version " + next) + ", so the handle comes from another " +
                "World, from before a reset(), or was forged; use a handle returned by World.create()";
        }
        final String now;
        if (stored >= 0)
        {
            now = " now belongs to " + Entity.toString(Entity.combine(index, stored));
        }
        else if (stored == RETIRED)
        {
            now = " is retired (its versions are used up, so it is never handed out again)";
        }
        else
        {
            now = " is free";
        }
        return "entity " + name + " is stale: it was destroyed, and index " + index + now +
            "; drop handles of destroyed entities (check World.valid() first)";
    }

    /**
     * The version an index carries now: the alive entity's, for a free index the version it will be created with
     * next, for a retired index {@link Entity#MAX_VERSION}.
     *
     * @param index an index below {@link #createdCount()}.
     * @return the version.
     * @throws IndexOutOfBoundsException if the index was never created.
     * @throws IllegalStateException     if the pool is closed.
     */
    public int currentVersion(final int index)
    {
        ensureOpen();
        if (index < 0 || index >= created)
        {
            throw new IndexOutOfBoundsException(
                "entity index " + index + " was never created: this pool has created indices [0, " + created + ")");
        }
        final int stored = versionAt(index);
        return stored >= 0 ? stored : stored == RETIRED ? Entity.MAX_VERSION : ~stored;
    }

    /**
     * The alive entity at an index.
     *
     * @param index an entity index below {@link #createdCount()}.
     * @return its handle, or {@link Entity#NULL} if the index is free or retired.
     * @throws IndexOutOfBoundsException if the index was never created.
     * @throws IllegalStateException     if the pool is closed.
     */
    public long aliveAt(final int index)
    {
        ensureOpen();
        if (index < 0 || index >= created)
        {
            throw new IndexOutOfBoundsException(
                "entity index " + index + " was never created: this pool has created indices [0, " + created + ")");
        }
        final int version = versionAt(index);
        return version >= 0 ? Entity.combine(index, version) : Entity.NULL;
    }

    /**
     * Entities alive now.
     *
     * @return the count; 0 once closed.
     */
    public int aliveCount()
    {
        return alive;
    }

    /**
     * How many entities {@link #create()} can still make before the id space is exhausted: free indices and indices
     * never handed out.
     *
     * @return the count; 0 once closed.
     */
    public int remainingCapacity()
    {
        return isClosed() ? 0 : freeCount + unlisted + (maxEntities - created);
    }

    /**
     * Distinct indices handed out so far: alive, free and retired.
     *
     * @return the count; 0 once closed.
     */
    public int createdCount()
    {
        return created;
    }

    /**
     * Indices retired because their versions were used up.
     *
     * @return the count.
     */
    public int retiredCount()
    {
        return retired;
    }

    /**
     * The most distinct indices this pool hands out.
     *
     * @return the limit given at construction.
     */
    public int maxEntities()
    {
        return maxEntities;
    }

    /**
     * Visits every entity alive when the walk began, from the lowest index to the highest: a walk of the world, during
     * which destroys are deferred. Entities created meanwhile are not visited. Walks every index ever created, alive
     * or not.
     *
     * @param action receives each alive handle.
     * @throws IllegalStateException if the pool is closed.
     */
    public void forEach(final LongConsumer action)
    {
        ensureOpen();
        final int walk = walks.beginWalk("World.forEachEntity");
        final int bornBefore = birthCount;
        try
        {
            final int end = created;
            for (int index = 0; index < end; index++)
            {
                final int version = versionAt(index);
                if (version >= 0 && !isBornAfter(index, bornBefore))
                {
                    action.accept(Entity.combine(index, version));
                }
            }
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(walks.end(walk, thrown));
        }
        walks.end(walk);
    }

    private long bornDuringWalk(final long entity)
    {
        final int index = Entity.index(entity);
        if (births == null || index >= births.length)
        {
            final int length = births == null ? 0 : births.length;
            births = java.util.Arrays.copyOf(births == null ? new int[0] : births,
                Math.max(Math.max(created, index + 1), 2 * length));
        }
        births[index] = ++birthCount;
        return entity;
    }

    /** Whether the entity at {@code index} was created after the walk that saw {@code bornBefore} creates began. */
    private boolean isBornAfter(final int index, final int bornBefore)
    {
        final int[] born = births;
        return born != null && index < born.length && born[index] > bornBefore;
    }

    /**
     * Destroys every alive entity: each index becomes free with its next version, or retired.
     *
     * @throws IllegalStateException if the pool is closed.
     */
    public void clear()
    {
        ensureMutable("clear");
        tryGrowFreeStack(freeCount + alive);
        // From the highest index down, as EnTT's clear: the next creates then take the lowest index first.
        for (int index = created; --index >= 0 && alive > 0; )
        {
            final int version = versionAt(index);
            if (version >= 0)
            {
                release(index, version);
                alive--;
            }
        }
    }

    /**
     * Off-heap bytes the pool holds.
     *
     * @return the byte count.
     */
    public long offHeapBytes()
    {
        return ((long)versionCapacity + freeCapacity) << 2;
    }

    /**
     * Whether the pool's memory has been freed.
     *
     * @return true once its owner is closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    private long recycle()
    {
        return recycle(UnsafeApi.getInt(free + ((long)--freeCount << 2)));
    }

    /** Hands out a free index with the version its entry holds for it. */
    private long recycle(final int index)
    {
        final int version = ~versionAt(index);
        UnsafeApi.putInt(versions + ((long)index << 2), version);
        alive++;
        return Entity.combine(index, version);
    }

    /**
     * Hands out an index left off the stack, which is empty: first puts as many such indices back on it as it has or
     * can get room for, so that the walk for them is not repeated per create.
     */
    private long recycleUnlisted()
    {
        tryGrowFreeStack(unlisted);
        final int refill = Math.min(unlisted, freeCapacity);
        // Stacked first found on top: they come back in the order the walk finds them, however many refills it takes.
        for (int k = refill; --k >= 0; )
        {
            UnsafeApi.putInt(free + ((long)k << 2), nextUnlisted());
        }
        freeCount = refill;
        unlisted -= refill;
        if (freeCount > 0)
        {
            return recycle();
        }
        unlisted--;
        return recycle(nextUnlisted());
    }

    /**
     * The next free index from {@link #unlistedFrom} on, wrapping around. {@link #recycleUnlisted()} starts with an
     * empty stack, when every free index is unlisted, and takes at most {@link #unlisted} of them, so none twice.
     */
    private int nextUnlisted()
    {
        int index = unlistedFrom;
        while (true)
        {
            if (index >= created)
            {
                index = 0;
            }
            final int entry = versionAt(index);
            if (entry < 0 && entry != RETIRED)
            {
                unlistedFrom = index + 1;
                return index;
            }
            index++;
        }
    }

    /** Frees or retires an alive index. */
    private void release(final int index, final int version)
    {
        if (version == Entity.MAX_VERSION)
        {
            UnsafeApi.putInt(versions + ((long)index << 2), RETIRED);
            retired++;
        }
        else
        {
            UnsafeApi.putInt(versions + ((long)index << 2), ~(version + 1));
            if (freeCount < freeCapacity || tryGrowFreeStack(freeCount + 1))
            {
                UnsafeApi.putInt(free + ((long)freeCount++ << 2), index);
            }
            else
            {
                unlisted++;
            }
        }
    }

    private int versionAt(final int index)
    {
        return UnsafeApi.getInt(versions + ((long)index << 2));
    }

    private IllegalStateException exhausted(final int wanted)
    {
        return new IllegalStateException(
            "entity id space exhausted: cannot create " + wanted + " entit" + (wanted == 1 ? "y" : "ies") + ": " +
            alive + " of the " + maxEntities + " indices are alive, " + (freeCount + unlisted) + " free and " +
            retired + " retired (used up all their versions); " +
            (alive > 0 ? "destroy entities you no longer need, or " : "") +
            "create the World with a larger maxEntities (at most " + MAX_ENTITIES + ")");
    }

    private void growVersions(final int needed)
    {
        final int newCapacity = grownCapacity(versionCapacity, needed);
        versions = offHeap.reallocate(versions, (long)newCapacity << 2);
        versionCapacity = newCapacity;
    }

    private void growFreeStack(final int needed)
    {
        final int newCapacity = grownCapacity(freeCapacity, needed);
        free = offHeap.reallocate(free, (long)newCapacity << 2);
        freeCapacity = newCapacity;
    }

    /** Gives back what a refused batch grew the free stack by; keeps the room if the allocator will not shrink it. */
    private void shrinkFreeStack(final int capacity)
    {
        if (freeCapacity > capacity)
        {
            try
            {
                free = offHeap.reallocate(free, (long)capacity << 2);
                freeCapacity = capacity;
            }
            catch (final OffHeapExhaustedException ex)
            {
                // The larger block stays, unchanged and counted: the pool is as consistent as before.
            }
        }
    }

    /**
     * Makes room for {@code needed} entries on the free stack if it can.
     *
     * @return whether the stack has the room now; if not, it is unchanged.
     */
    private boolean tryGrowFreeStack(final int needed)
    {
        if (needed <= freeCapacity)
        {
            return true;
        }
        try
        {
            growFreeStack(needed);
            return true;
        }
        catch (final OffHeapExhaustedException ex)
        {
            return false;
        }
    }

    private int grownCapacity(final int capacity, final int needed)
    {
        return OffHeap.grownCapacity(capacity, needed, 64, maxEntities);
    }

    /**
     * The raw state a snapshot saves: the version entries, one {@code int} per index created.
     *
     * @return the address of the version array; valid until the pool grows.
     */
    public long versionsAddress()
    {
        return versions;
    }

    /**
     * The raw state a snapshot saves: the free stack, bottom first.
     *
     * @return the address of the stack; valid until the pool grows.
     */
    public long freeStackAddress()
    {
        return free;
    }

    /**
     * Free indices on the stack.
     *
     * @return how many.
     */
    public int stackedCount()
    {
        return freeCount;
    }

    /**
     * Free indices left off the stack because it could not grow.
     *
     * @return how many.
     */
    public int unlistedCount()
    {
        return unlisted;
    }

    /**
     * Where the next search for unlisted indices starts.
     *
     * @return an index below {@link #createdCount()}, or 0.
     */
    public int unlistedFrom()
    {
        return unlistedFrom;
    }

    /**
     * The version entry of an index created: the alive version, the complement of the next version of a free index,
     * or {@link #RETIRED}.
     *
     * @param index an index below {@link #createdCount()}.
     * @return the entry.
     */
    public int versionEntry(final int index)
    {
        return versionAt(index);
    }

    /**
     * Room in the version array, in entries.
     *
     * @return the capacity.
     */
    public int versionCapacity()
    {
        return versionCapacity;
    }

    /**
     * Room in the free stack, in entries.
     *
     * @return the capacity.
     */
    public int freeStackCapacity()
    {
        return freeCapacity;
    }

    /**
     * Makes room for a snapshot load of {@code created} indices, {@code free} of them free, into this pool, which
     * must never have created an entity: the version array grows to hold them all, the free stack to hold as many as
     * the memory allows (a world at its budget saves more free indices than it stacks).
     *
     * @param created the indices the load writes.
     * @param free    the free indices among them.
     * @return how many free indices the stack has room for.
     * @throws IllegalStateException     if the pool created entities already, or is closed.
     * @throws OffHeapExhaustedException if the version array cannot grow; the pool is unchanged.
     */
    public int prepareLoad(final int created, final int free)
    {
        ensureMutable("load a snapshot into");
        if (this.created != 0)
        {
            throw new IllegalStateException("a snapshot loads into a pool that never created an entity; this one " +
                "created " + this.created);
        }
        if (created > versionCapacity)
        {
            growVersions(created);
        }
        int wanted = free;
        while (wanted > freeCapacity && !tryGrowFreeStack(wanted))
        {
            wanted >>>= 1;
        }
        return Math.min(free, freeCapacity);
    }

    /**
     * Takes the counts of a load that wrote and checked the version entries and the free stack.
     *
     * @param created  the indices created.
     * @param alive    the alive ones.
     * @param retired  the retired ones.
     * @param stacked  the free ones on the stack.
     * @param unlisted the free ones left off it.
     */
    public void loaded(final int created, final int alive, final int retired, final int stacked, final int unlisted)
    {
        this.created = created;
        this.alive = alive;
        this.retired = retired;
        this.freeCount = stacked;
        this.unlisted = unlisted;
        this.unlistedFrom = 0;
    }

    /**
     * Forgets every entity, as if the pool had never created one, keeping its memory: what a failed snapshot load
     * leaves.
     */
    public void reset()
    {
        ensureMutable("reset");
        created = 0;
        alive = 0;
        freeCount = 0;
        unlisted = 0;
        unlistedFrom = 0;
        retired = 0;
    }

    /**
     * Empties the pool as {@link #reset()} does and gives back the memory beyond the given capacities: what a failed
     * snapshot load leaves, the pool as big as it was before the load.
     *
     * @param versionCapacity   the version array's capacity to keep at most.
     * @param freeStackCapacity the free stack's capacity to keep at most.
     */
    public void resetTo(final int versionCapacity, final int freeStackCapacity)
    {
        reset();
        if (this.versionCapacity > versionCapacity)
        {
            versions = offHeap.reallocate(versions, (long)versionCapacity << 2);
            this.versionCapacity = versionCapacity;
        }
        if (freeCapacity > freeStackCapacity)
        {
            free = offHeap.reallocate(free, (long)freeStackCapacity << 2);
            freeCapacity = freeStackCapacity;
        }
    }

    /** The memory is being freed: forget it, then read as closed (stopped part-way, forgetting again finishes). */
    private void forgetMemory()
    {
        created = 0;
        freeCount = 0;
        unlisted = 0;
        alive = 0;
        versionCapacity = 0;
        freeCapacity = 0;
        versions = 0;
        free = 0;
        closed = true;
    }

    private void ensureMutable(final String change)
    {
        if (closed)
        {
            ensureOpen();
        }
    }

    /** Creating is made at once, even in a walk, but not from a parallel walk's threads, which would race. */
    private void ensureCreatable(final String change)
    {
        ensureMutable(change);
        if (copiedBy != null)
        {
            final String held = walks.describeHold();
            throw new IllegalStateException("cannot " + change + " the World while " +
                (held != null ? held : copiedBy) + " runs: " + copiedBy + " copies the World's entities, which a create would change under it; create " +
                "after it returns");
        }
        if (walks.isParallel())
        {
            throw walks.refusedChange(change + " the World", "the threads of a parallel walk would race for the " +
                "indices; record creates with a dev.cairn.command.CommandBuffer (whose placeholders resolve in a " +
                "deterministic order), or create after the walk");
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(
                "this World is closed and its off-heap memory freed; create a new World to continue");
        }
    }
}
