package dev.cairn.world;

import dev.cairn.Entity;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.group.GroupBuilder;
import dev.cairn.group.GroupRegistry;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.internal.Access;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.RawSet;
import dev.cairn.internal.RawWorld;
import dev.cairn.internal.Walks;
import dev.cairn.observer.ObserverBuilder;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.signal.Connection;
import dev.cairn.storage.Clock;
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
 * the world and cannot be closed on their own. {@link #close()} frees it all; it refuses while any walk of the world
 * (a view's, group's, observer's or storage's {@code forEach}, a cursor's loop, a view's {@code count()},
 * {@link #forEachEntity}, a snapshot save or load) runs on any thread. A world that
 * becomes unreachable without being closed is freed by the garbage collector's Cleaner and reported once through the
 * {@link System.Logger} {@code dev.cairn} (with {@code -Dcairn.leakTracking=true} the report says where it was
 * created); close worlds explicitly, as the Cleaner may run late or never. An optional budget caps the off-heap
 * memory: an operation that would exceed it throws {@link OffHeapExhaustedException} and changes nothing.
 * <p>
 * <b>Signals and change ticks.</b> {@link #onCreated} and {@link #onDestroying} connect listeners to entities coming
 * and going; each storage has its own ({@link ComponentStorage#onAdded} and the like). While anything listens for
 * removals, {@link #destroy(long)} runs in the order listeners expect: the destroying listeners first, with the entity
 * whole, then each component's removal, then the release of the handle. The world's {@link Clock} ({@link #tick()},
 * {@link #advanceTick()}) stamps the components declared {@code @Component(tracked = true)}.
 * <p>
 * Not thread-safe: use a world from one thread at a time (a walk begun on a second thread while one thread walks it
 * is refused); the guard of {@link #close()} against walks works across threads.
 */
public final class World implements AutoCloseable, Storages
{
    private final OffHeap offHeap;
    private final Walks walks;
    private final EntityPool entities;
    private final Clock clock = new Clock(this::checkTickChangeable);
    private final EntityLifecycle lifecycle;
    private final GroupRegistry groups;
    /** How many times {@link #reset()} forgot every handle. */
    private long resets;
    /** Indexed by {@link ComponentType#id()}; null where this world has no storage of that type. */
    private ComponentStorage<?>[] storages = new ComponentStorage<?>[8];
    /** The same storages without the gaps, for operations that visit all of them. */
    private ComponentStorage<?>[] created = new ComponentStorage<?>[0];

    /**
     * The engine's classes that have a static initialiser, initialised by the first world rather than by whichever call
     * first needs one: a class whose initialisation fails (as it does in a call made where the stack runs out) stays
     * unusable for the life of the JVM. {@code EngineClassesTest} checks that this names every such class. A method,
     * not a constant: a constant would give this class an initialiser of its own.
     */
    static String[] engineClasses()
    {
        return new String[] {
            "dev.cairn.DeletionPolicy",
            "dev.cairn.command.CommandBuffer",
            "dev.cairn.command.PlaceholderTags",
            "dev.cairn.internal.Access",
            "dev.cairn.internal.ArrayBases",
            "dev.cairn.internal.OffHeap",
            "dev.cairn.internal.Walks",
            "dev.cairn.parallel.Chunk",
            "dev.cairn.parallel.Chunks",
            "dev.cairn.set.SparseSet",
            "dev.cairn.signal.Signal",
            "dev.cairn.snapshot.SourceMap",
            "dev.cairn.storage.ComponentStorage",
            "dev.cairn.storage.ComponentType",
            "dev.cairn.storage.FieldType",
            "dev.cairn.storage.StorageSignals",
            "dev.cairn.snapshot.SnapshotMapping$1",
            "dev.cairn.view.RuntimeView",
            "dev.cairn.world.World",
        };
    }

    static
    {
        Access.installWalks(World.class, world -> ((World)world).walks);
        Access.installRawWorld(world -> ((World)world).new Raw());
    }

    /** Set once every class of {@link #engineClasses()} is initialised. */
    private static volatile boolean engineClassesInitialised;

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
        OffHeap.requireUnsafeAccess();
        initialiseEngineClasses();
        this.offHeap = new OffHeap("World", maxOffHeapBytes);
        this.walks = new Walks("World", true);
        this.entities = new EntityPool(offHeap, walks, maxEntities);
        this.groups = new GroupRegistry(this, offHeap, walks, entities);
        this.lifecycle = new EntityLifecycle(this, entities, walks, this::checkListenersChangeable);
    }

    /**
     * Creates an entity with no components. Even inside a walk or a listener the handle is handed out at once (the
     * entity is alive and its components can be added, deferred as every add there); its created listeners are told
     * when the deferred changes are applied. A created listener that throws does not undo the creation: the entity is
     * alive, and the exception reaches the caller without its handle (listeners that may throw should record the
     * entities they are handed).
     *
     * @return its handle.
     * @throws IllegalStateException if the id space is exhausted, the world is closed, or a parallel walk runs (record
     *                               creates with a command buffer there).
     */
    public long create()
    {
        return lifecycle.create();
    }

    /**
     * Creates {@code count} entities into {@code entities[0, count)}, then announces them to the created listeners in
     * that order; one that a listener destroyed before its turn is not announced (its destroying was).
     *
     * @param entities receives the handles; at least {@code count} long.
     * @param count    how many to create.
     * @throws IllegalStateException if fewer than {@code count} indices are free, the world is closed, or a parallel
     *                               walk runs.
     */
    public void create(final long[] entities, final int count)
    {
        lifecycle.create(entities, count);
    }
    /**
     * Destroys an entity and removes it from every storage that holds it. Inside a walk or a listener the destroy is
     * recorded (the entity stays alive, with its components, until the walk returns) and made then.
     *
     * @param entity an alive entity.
     * @throws IllegalArgumentException if it is not alive (stale, destroyed, never created, NULL).
     * @throws IllegalStateException    if the world is closed.
     */
    public void destroy(final long entity)
    {
        lifecycle.destroy(entity);
    }
    /**
     * Destroys {@code entities[0, count)}, with the result of {@link #destroy(long)} called on each in order, but
     * visiting each storage once for all of them rather than once per entity: the faster way to destroy many. Either
     * every one is destroyed or, if one is not alive or is there twice, none. While listeners watch, each entity is
     * destroyed in turn as {@link #destroy(long)} does it, and what the listeners throw is collected and thrown at the
     * end. Inside a walk or a listener the destroys are recorded, as {@link #destroy(long)} records them.
     *
     * @param entities the handles; at least {@code count} long.
     * @param count    how many to destroy.
     * @throws NullPointerException      if {@code entities} is null; nothing is destroyed.
     * @throws IndexOutOfBoundsException if {@code count} is negative or larger than the array; nothing is destroyed.
     * @throws IllegalArgumentException  naming the first that is not alive or is there twice; nothing is destroyed.
     * @throws IllegalStateException     if the world is closed.
     */
    public void destroy(final long[] entities, final int count)
    {
        ensureOpen();
        lifecycle.destroy(entities, count);
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
     * How many more entities can be created now before the id space is exhausted.
     *
     * @return free indices plus indices never handed out; 0 once closed.
     */
    public int remainingCapacity()
    {
        return entities.remainingCapacity();
    }

    /**
     * Destroys every entity and empties every storage; memory stays allocated for reuse. The next entities created
     * take the freed indices from the lowest up, as in EnTT, whether or not anything listens. Inside a walk or a
     * listener, the entities alive now are destroyed when the walk returns; those created after this call stay.
     *
     * @throws IllegalStateException if the world is closed.
     */
    public void clear()
    {
        ensureOpen();
        lifecycle.clear();
    }

    /**
     * Forgets every entity, as if the world had never created one: every storage is emptied, and the next entity
     * created gets index 0, version 0. Listeners are told of each destroy first, as {@link #clear()} tells them. Handles
     * kept from before name nothing, or entities created since: {@link #resets()} counts the resets, so that code
     * holding handles (a command buffer) can tell.
     *
     * @throws IllegalStateException if the world is closed, or a walk or listener holds its structure.
     */
    public void reset()
    {
        ensureOpen();
        walks.refuseWhileDeferring("reset() the World", "a reset forgets every handle, which the walk or listener " +
            "would go on using; call it after the walk or listener returns, or clear() the world, which waits for " +
            "their end");
        lifecycle.reset();
        resets++;
    }

    /**
     * How many times {@link #reset()} ran: handles kept from before this number changed may name entities created or
     * loaded since. A {@link dev.cairn.command.CommandBuffer} compares it to refuse commands recorded before a reset.
     *
     * @return the count, 0 for a world never reset.
     */
    public long resets()
    {
        return resets;
    }

    /**
     * Connects a listener to every entity created, called once it is alive.
     *
     * @param listener receives each new entity.
     * @return its connection: close it to disconnect.
     * @throws IllegalStateException if the world is closed.
     */
    public Connection onCreated(final LongConsumer listener)
    {
        return lifecycle.createdSignal.connect(listener);
    }

    /**
     * Connects a listener to every entity destroyed ({@link #destroy(long)}, {@link #clear()}), called before anything
     * is removed: the entity is alive and has all its components. Its components' removing listeners run next, then
     * the handle is released.
     *
     * @param listener receives each entity about to be destroyed.
     * @return its connection: close it to disconnect.
     * @throws IllegalStateException if the world is closed.
     */
    public Connection onDestroying(final LongConsumer listener)
    {
        return lifecycle.destroyingSignal.connect(listener);
    }

    /**
     * The current change tick: every write of a tracked component is stamped with it until {@link #advanceTick()}.
     *
     * @return the current tick; it starts at 1.
     */
    public int tick()
    {
        return clock.now();
    }

    /**
     * Ends the current change tick. Every write made so far is stamped with the tick returned or an earlier one;
     * every later write with a later one. A system that wants each change once keeps what this returns and, next
     * time, asks for what changed since then:
     * <pre>{@code
     * int upTo = world.advanceTick();
     * view.forEach(seen, (entity, position) -> ...);   // changed after 'seen'
     * seen = upTo;
     * }</pre>
     *
     * @return the tick that just ended.
     */
    public int advanceTick()
    {
        return clock.advance();
    }

    /**
     * Visits every entity alive when it begins, from the lowest index to the highest: a walk, so destroys and other
     * structural changes made by {@code action} are deferred until it returns, and entities created meanwhile are not
     * visited. Walks every index ever created, alive or not.
     *
     * @param action receives each alive entity.
     * @throws IllegalStateException if the world is closed.
     */
    public void forEachEntity(final LongConsumer action)
    {
        java.util.Objects.requireNonNull(action, "action is null: pass what to do with each entity");
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
     * @param recordClass a {@link dev.cairn.Component} record.
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
        java.util.Objects.requireNonNull(component, "component: pass the record to add");
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
        final ComponentStorage<R> storage = existingStorage(recordClass);
        if (storage == null)
        {
            entities.requireAlive(entity);
            throw new IllegalArgumentException("entity " + Entity.toString(entity) + " has no " +
                recordClass.getSimpleName() + ": no entity of this world has had one; check has() first");
        }
        return storage.get(entity);
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
        final ComponentStorage<?> storage = existingStorage(recordClass);
        return storage != null && storage.contains(entity);
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
        final ComponentStorage<?> storage = existingStorage(recordClass);
        return storage != null && storage.remove(entity);
    }

    /**
     * The storage of a record class if this world made one already: questions about a component nobody added answer
     * without creating its storage, which would be a structural change (refused in parallel walks) and would show
     * in snapshots.
     */
    @SuppressWarnings("unchecked")
    private <R extends Record> ComponentStorage<R> existingStorage(final Class<R> recordClass)
    {
        ensureOpen();
        final int id = ComponentType.of(recordClass).id();
        return id < storages.length ? (ComponentStorage<R>)storages[id] : null;
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
     * Starts the rule of an observer: the entities that matched it when one of its trigger components was added or
     * updated, since the observer was last cleared.
     * <pre>{@code
     * RuntimeObserver moved = world.observer().onUpdated(Position.class).with(Velocity.class).build();
     * }</pre>
     *
     * @return a builder; {@link ObserverBuilder#build()} creates the observer.
     * @throws IllegalStateException if the world is closed.
     */
    public ObserverBuilder observer()
    {
        ensureOpen();
        return new ObserverBuilder(this, offHeap, walks, entities);
    }

    /**
     * Starts the rule of a group: the entities that have every owned and {@code with} component and no
     * {@code without} one, kept up to date. An owning group keeps its entities at the front of its owned storages,
     * aligned, so iterating it needs no lookup.
     * <pre>{@code
     * RuntimeGroup movement = world.group().owning(Position.class, Velocity.class).without(Frozen.class).build();
     * }</pre>
     *
     * @return a builder; {@link GroupBuilder#build()} creates the group.
     * @throws IllegalStateException if the world is closed.
     */
    public GroupBuilder group()
    {
        ensureOpen();
        return groups.builder();
    }

    /**
     * The groups of this world that are open, in the order they were built.
     *
     * @return a new list.
     */
    public List<RuntimeGroup> groups()
    {
        return groups.groups();
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
     * @throws IllegalStateException if a walk of the world runs, on this or another thread (a cursor's walk included),
     *                               or a listener runs; nothing is closed then.
     */
    @Override
    public void close()
    {
        walks.close(offHeap::close);
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

    /** The storages this world made, in the order it made them: what a destroy or a clear visits. */
    ComponentStorage<?>[] created()
    {
        return created;
    }

    private <R extends Record, S extends ComponentStorage<R>> S createStorage(final ComponentType<R, S> type)
    {
        ensureOpen();
        if (walks.isParallel())
        {
            throw walks.refusedChange("create the storage of " + type.recordClass().getSimpleName(), "a world " +
                "creates a component's storage the first time it is asked for, which the threads of a parallel walk " +
                "would race for; ask for it before (world.storage(" + type.recordClass().getSimpleName() +
                ".class) or the generated storage's TYPE)");
        }
        final int id = type.id();
        if (id >= storages.length)
        {
            storages = Arrays.copyOf(storages, Math.max(id + 1, storages.length * 2));
        }
        final S storage = type.newStorage(offHeap, walks, entities, clock);
        storages[id] = storage;
        created = Arrays.copyOf(created, created.length + 1);
        created[created.length - 1] = storage;
        return storage;
    }

    /**
     * Whether a structural change made now is deferred: a walk ({@code forEach} of a view, group or observer, a cursor
     * loop, a block or parallel walk, {@link #forEachEntity}, a snapshot save) or a listener of this world runs, on
     * this thread or, for a parallel walk, on its workers. Creating, destroying, adding, removing and clearing are then
     * recorded and made when the outermost of them returns; closing, resetting, loading, sorting and compacting are
     * refused.
     *
     * @return true while one runs; false once closed.
     */
    public boolean isDeferring()
    {
        return !offHeap.isClosed() && walks.isDeferring();
    }

    /**
     * What holds this world's structure now (see {@link #isDeferring()}), innermost first, as the messages of refused
     * changes name it.
     *
     * @return for example {@code "a listener of Position storage: removing in MoversView.forEach"}; null while
     * nothing does, and once closed.
     */
    public String heldBy()
    {
        return offHeap.isClosed() ? null : walks.describeHold();
    }
    private void checkListenersChangeable()
    {
        ensureOpen();
        if (walks.isParallel())
        {
            throw walks.refusedChange("connect or disconnect a listener of the World", "listeners are not " +
                "thread-safe; connect them before the parallel walk or after it");
        }
    }

    private void checkTickChangeable()
    {
        ensureOpen();
        if (walks.isParallel())
        {
            throw walks.refusedChange("change the tick of the World", "the actions of the walk stamp their writes " +
                "with the tick; change it after the walk");
        }
        if (entities.copiedBy() != null)
        {
            final String held = walks.describeHold();
            throw new IllegalStateException("cannot change the tick of the World while " +
                (held != null ? held : entities.copiedBy()) + " runs: the snapshot of " + entities.copiedBy() +
                " holds the tick; change it after that returns");
        }
    }

    private void ensureOpen()
    {
        if (offHeap.isClosed())
        {
            throw new IllegalStateException(
                "this World is closed and its off-heap memory freed; create a new World to continue");
        }
    }

    private static void initialiseEngineClasses()
    {
        if (engineClassesInitialised)
        {
            return;
        }
        for (final String name : engineClasses())
        {
            try
            {
                Class.forName(name, true, World.class.getClassLoader());
            }
            catch (final ClassNotFoundException ex)
            {
                throw new IllegalStateException("Cairn's class " + name + " is missing: its jar is incomplete", ex);
            }
        }
        engineClassesInitialised = true;
    }

    /** What snapshot code reaches of a world: see {@link RawWorld}. */
    private final class Raw implements RawWorld
    {
        @Override
        public void ensureOpen()
        {
            World.this.ensureOpen();
        }

        @Override
        public EntityPool pool()
        {
            return entities;
        }

        @Override
        public void restoreTick(final int tick)
        {
            // The loader, not the program's code it runs, sets the tick while the pool is being loaded.
            final String copier = entities.copiedBy();
            entities.endCopy();
            try
            {
                clock.restore(tick);
            }
            finally
            {
                if (copier != null)
                {
                    entities.beginCopy(copier);
                }
            }
        }

        @Override
        public int storageCount()
        {
            return created.length;
        }

        @Override
        public void unloadStorages()
        {
            for (final ComponentStorage<?> storage : created)
            {
                final RawSet raw = Access.raw(storage);
                raw.clearSilently();
                raw.shrinkToFit();
            }
        }

        @Override
        public void forgetStoragesFrom(final int count)
        {
            for (int k = count; k < created.length; k++)
            {
                final ComponentStorage<?> storage = created[k];
                storages[storage.type().id()] = null;
                Access.raw(storage).freeMemory();
            }
            created = Arrays.copyOf(created, Math.min(count, created.length));
        }

        @Override
        public void rebuildGroups()
        {
            groups.rebuild();
        }
    }
}
