package dev.cairn;

import dev.cairn.entity.EntityPool;
import dev.cairn.memory.OffHeap;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.view.RuntimeView;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 * pool: a stale, destroyed or never-created handle raises an {@link IllegalArgumentException} naming it.
 * <p>
 * Not thread-safe: use a world from one thread at a time.
 */
public final class World implements AutoCloseable
{
    private final OffHeap offHeap;
    private final EntityPool entities;
    /** Indexed by {@link ComponentType#id()}; null where this world has no storage of that type. */
    private ComponentStorage<?>[] storages = new ComponentStorage<?>[8];
    /** The same storages without the gaps, for operations that visit all of them. */
    private ComponentStorage<?>[] created = new ComponentStorage<?>[0];
    private boolean closed;

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
        this.offHeap = new OffHeap();
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
     */
    public void destroy(final long entity)
    {
        entities.destroy(entity);
        // Storages match exact handles, so the destroyed handle still finds its components.
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
        for (final ComponentStorage<?> storage : storages)
        {
            if (storage != null)
            {
                storage.clear();
            }
        }
        entities.clear();
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
     */
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
     * The entity pool, for statistics and tests.
     *
     * @return the pool.
     */
    public EntityPool entities()
    {
        return entities;
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
        return closed;
    }

    /**
     * Frees all off-heap memory of the pool and every storage. Every later use of the world, its storages or views
     * over them throws {@link IllegalStateException}. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final ComponentStorage<?> storage : storages)
        {
            if (storage != null)
            {
                storage.close();
            }
        }
        entities.close();
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
        if (closed)
        {
            throw new IllegalStateException(
                "this World is closed and its off-heap memory freed; create a new World to continue");
        }
    }
}
