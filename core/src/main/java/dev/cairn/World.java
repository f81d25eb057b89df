package dev.cairn;

import dev.cairn.memory.OffHeapExhaustedException;
import dev.cairn.entity.EntityPool;
import dev.cairn.memory.OffHeap;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.Storages;
import dev.cairn.view.RuntimeView;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Owns the entities and every component storage; {@link #close()} frees all of their off-heap memory.
 * <pre>{@code
 * try (World world = new World()) {
 *     PositionStorage positions = world.storage(PositionStorage.TYPE);
 *     long entity = world.create();
 *     positions.emplace(entity, 1f, 2f);
 *     float x = positions.x(entity);
 * }
 * }</pre>
 * Storages are created on first use and kept in an array indexed by {@link ComponentType#id()}, so
 * {@link #storage(ComponentType)} is an array load. Every entity argument is checked against the world's entity
 * pool: a stale, destroyed or never-created handle raises an {@link IllegalArgumentException} naming it. A destroyed
 * handle stays stale forever: an index whose 2<sup>31</sup> - 1 versions are used up is retired, never recycled.
 * <p>
 * <b>Memory.</b> The world owns the off-heap memory of its entities and of every storage: storages live as long as
 * the world and cannot be closed on their own. {@link #close()} frees it all; it refuses while any iteration over the
 * world (a view's or storage's {@code forEach}, {@link #forEachEntity}) is in progress on any thread. A world that
 * becomes unreachable without being closed is freed by the garbage collector's Cleaner and reported once through the
 * {@link System.Logger} {@code dev.cairn} (with {@code -Dcairn.leakTracking=true} the report says where it was
 * created); close worlds explicitly, as the Cleaner may run late or never. An optional budget caps the off-heap
 * memory: an operation that would exceed it throws {@link OffHeapExhaustedException} and changes nothing.
 * <p>
 * Not thread-safe: use a world from one thread at a time; only the guard of {@link #close()} against iterations works
 * across threads.
 */
public final class World implements AutoCloseable, Storages
{
    private final OffHeap offHeap;
    private final EntityPool entities;
    /** Indexed by {@link ComponentType#id()}; null where this world has no storage of that type. */
    private ComponentStorage<?>[] storages = new ComponentStorage<?>[8];
    /** The same storages without the gaps, for operations that visit all of them. */
    private ComponentStorage<?>[] created = new ComponentStorage<?>[0];

    /**
     * Creates an empty world that can hold up to {@link EntityPool#MAX_ENTITIES} entities at once.
     *
     * @throws IllegalStateException if the JVM lacks {@link OffHeap#REQUIRED_FLAG}.
     */
    public World()
    {
        this(EntityPool.MAX_ENTITIES);
    }

    /**
     * Creates an empty world with a smaller entity id space.
     *
     * @param maxEntities the most entities alive at once, from 1 to {@link EntityPool#MAX_ENTITIES}.
     * @throws IllegalArgumentException if {@code maxEntities} is out of range.
     * @throws IllegalStateException    if the JVM lacks {@link OffHeap#REQUIRED_FLAG}.
     */
    public World(final int maxEntities)
    {
        this(maxEntities, OffHeap.UNLIMITED);
    }

    /**
     * Creates an empty world with a smaller entity id space and a cap on its off-heap memory.
     *
     * @param maxEntities     the most entity indices handed out, from 1 to {@link EntityPool#MAX_ENTITIES}.
     * @param maxOffHeapBytes the most off-heap bytes the world may hold at once; {@link OffHeap#UNLIMITED} for no cap.
     * @throws IllegalArgumentException if {@code maxEntities} is out of range or {@code maxOffHeapBytes} negative.
     * @throws IllegalStateException    if the JVM lacks the flag {@link OffHeap#requiredFlag()} names.
     */
    public World(final int maxEntities, final long maxOffHeapBytes)
    {
        this.offHeap = new OffHeap("World", maxOffHeapBytes);
        this.entities = new EntityPool(offHeap, maxEntities);
    }

    /**
     * Creates an entity with no components.
     *
     * @return its handle.
     * @throws IllegalStateException if the id space is exhausted or the world is closed.
     */
    public long create()
    {
        return entities.create();
    }

    /**
     * Creates {@code count} entities into {@code entities[0, count)}.
     *
     * @param entities receives the handles; at least {@code count} long.
     * @param count    how many to create.
     * @throws IllegalStateException if fewer than {@code count} indices are free or the world is closed.
     */
    public void create(final long[] entities, final int count)
    {
        this.entities.create(entities, 0, count);
    }

    /**
     * Destroys an entity and removes it from every storage that holds it.
     *
     * @param entity an alive entity.
     * @throws IllegalArgumentException if it is not alive (stale, destroyed, never created, NULL).
     * @throws IllegalStateException    if the world is closed.
     * @throws OffHeapExhaustedException         if the pool's free list cannot grow; the entity is then left untouched.
     */
    public void destroy(final long entity)
    {
        entities.destroy(entity);
        // Storages match exact handles, so the destroyed handle still finds its components; removal never allocates.
        for (final ComponentStorage<?> storage : created)
        {
            storage.remove(entity);
        }
    }

    /**
     * Whether an entity is alive in this world.
     *
     * @param entity any value.
     * @return true if created here and not destroyed since; false after {@link #close()}.
     */
    public boolean valid(final long entity)
    {
        return entities.isAlive(entity);
    }

    /**
     * Entities alive now.
     *
     * @return the count.
     */
    public int aliveCount()
    {
        return entities.aliveCount();
    }

    /**
     * Destroys every entity and empties every storage; memory stays allocated for reuse.
     *
     * @throws IllegalStateException if the world is closed.
     */
    public void clear()
    {
        ensureOpen();
        entities.clear();
        for (final ComponentStorage<?> storage : created)
        {
            storage.clear();
        }
    }

    /**
     * Visits every alive entity, from the highest index to the lowest. Destroying the entity being visited is safe;
     * entities created meanwhile may or may not be visited. Walks every index ever created, alive or not.
     *
     * @param action receives each alive entity.
     * @throws IllegalStateException if the world is closed, or closed from {@code action}.
     */
    public void forEachEntity(final LongConsumer action)
    {
        entities.forEach(action);
    }

    /**
     * The world's storage for a component type, created empty on first use.
     *
     * @param type the storage's {@code TYPE} constant, for example {@code PositionStorage.TYPE}.
     * @param <R>  the component record.
     * @param <S>  its storage class.
     * @return the storage; the same object for the life of the world.
     * @throws IllegalStateException if the world is closed.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <R extends Record, S extends ComponentStorage<R>> S storage(final ComponentType<R, S> type)
    {
        ensureOpen();
        final int id = type.id();
        final ComponentStorage<?>[] storages = this.storages;
        if (id < storages.length)
        {
            final ComponentStorage<?> storage = storages[id];
            if (storage != null)
            {
                return (S)storage;
            }
        }
        return createStorage(type);
    }

    /**
     * The world's storage for a component record class; for code that is not hot (it looks the type up first).
     *
     * @param recordClass a {@link Component} record.
     * @param <R>         the record.
     * @return its storage.
     * @throws IllegalArgumentException if no storage was generated for the record.
     * @throws IllegalStateException    if the world is closed.
     */
    @Override
    public <R extends Record> ComponentStorage<R> storage(final Class<R> recordClass)
    {
        return storage(ComponentType.of(recordClass));
    }

    /**
     * Adds a component to an entity; allocates nothing beyond the record you pass.
     *
     * @param entity    an alive entity without this component.
     * @param component the value.
     * @param <R>       the record.
     * @throws IllegalArgumentException if the entity is not alive or already has the component.
     */
    @SuppressWarnings("unchecked")
    public <R extends Record> void add(final long entity, final R component)
    {
        storage((Class<R>)component.getClass()).add(entity, component);
    }

    /**
     * Reads a copy of an entity's component.
     *
     * @param entity      an alive entity with the component.
     * @param recordClass the component record.
     * @param <R>         the record.
     * @return a new record holding the component's values.
     * @throws IllegalArgumentException if the entity is not alive or lacks the component.
     */
    public <R extends Record> R get(final long entity, final Class<R> recordClass)
    {
        return storage(recordClass).get(entity);
    }

    /**
     * Whether an entity has a component.
     *
     * @param entity      an alive entity.
     * @param recordClass the component record.
     * @return true if it has one.
     * @throws IllegalArgumentException if the entity is not alive.
     */
    public boolean has(final long entity, final Class<? extends Record> recordClass)
    {
        entities.requireAlive(entity);
        return storage(recordClass).contains(entity);
    }

    /**
     * Removes a component from an entity if it has one.
     *
     * @param entity      an alive entity.
     * @param recordClass the component record.
     * @return true if the entity had the component.
     * @throws IllegalArgumentException if the entity is not alive.
     */
    public boolean remove(final long entity, final Class<? extends Record> recordClass)
    {
        entities.requireAlive(entity);
        return storage(recordClass).remove(entity);
    }

    /**
     * Throws unless an entity is alive; the check every world operation applies.
     *
     * @param entity any value.
     * @throws IllegalArgumentException naming the handle and why it is not alive.
     * @throws IllegalStateException    if the world is closed.
     */
    public void requireAlive(final long entity)
    {
        entities.requireAlive(entity);
    }

    /**
     * A view over the entities that have every listed component, chosen at run time. Add exclusions with
     * {@link RuntimeView#without(Class[])}.
     *
     * @param with the component records an entity must have; at least one.
     * @return a new runtime view; keep it and iterate it as often as you like.
     * @throws IllegalArgumentException if no component is given, or one has no generated storage.
     * @throws IllegalStateException    if the world is closed.
     */
    @SafeVarargs
    public final RuntimeView view(final Class<? extends Record>... with)
    {
        ensureOpen();
        final List<ComponentStorage<?>> included = new ArrayList<>(with.length);
        for (final Class<? extends Record> recordClass : with)
        {
            included.add(storage(recordClass));
        }
        return new RuntimeView(this, included, List.of());
    }

    /**
     * Every storage this world has created so far, in {@link ComponentType#id()} order.
     *
     * @return a new list.
     */
    public List<ComponentStorage<?>> storages()
    {
        final List<ComponentStorage<?>> list = new ArrayList<>();
        for (final ComponentStorage<?> storage : storages)
        {
            if (storage != null)
            {
                list.add(storage);
            }
        }
        return list;
    }

    /**
     * Off-heap bytes held by the entity pool and every storage.
     *
     * @return the total; 0 after {@link #close()}.
     */
    public long offHeapBytes()
    {
        return offHeap.allocatedBytes();
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return offHeap.isClosed();
    }

    /**
     * Frees all off-heap memory of the pool and every storage. Every later use of the world, its storages or views
     * over them throws {@link IllegalStateException}. Idempotent.
     *
     * @throws IllegalStateException if an iteration over the world is in progress, on this or another thread (for
     *                               example when called from a view's action); nothing is closed then.
     */
    @Override
    public void close()
    {
        offHeap.close();
    }

    /**
     * The most off-heap bytes this world may hold at once.
     *
     * @return the budget given at construction, or {@link OffHeap#UNLIMITED}.
     */
    public long offHeapBudget()
    {
        return offHeap.budget();
    }

    private <R extends Record, S extends ComponentStorage<R>> S createStorage(final ComponentType<R, S> type)
    {
        ensureOpen();
        final int id = type.id();
        if (id >= storages.length)
        {
            storages = Arrays.copyOf(storages, Math.max(id + 1, storages.length * 2));
        }
        final S storage = type.newStorage(offHeap, entities);
        storages[id] = storage;
        created = Arrays.copyOf(created, created.length + 1);
        created[created.length - 1] = storage;
        return storage;
    }

    private void ensureOpen()
    {
        if (offHeap.isClosed())
        {
            throw new IllegalStateException(
                "this World is closed and its off-heap memory freed; create a new World to continue");
        }
    }
}
