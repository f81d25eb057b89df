package dev.cairn.observer;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.StorageHook;
import dev.cairn.internal.Walks;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The entities that matched a rule when one of its trigger components was added or updated, since the observer was
 * last {@linkplain #clear() cleared}: EnTT's observer. For example "Position added or updated, and has Velocity, and
 * not Frozen":
 * <pre>{@code
 * RuntimeObserver moved = world.observer()
 *     .onAdded(Position.class).onUpdated(Position.class)
 *     .with(Velocity.class).without(Frozen.class)
 *     .build();
 * ...
 * moved.forEach(entity -> index.update(entity, positions.x(entity), positions.y(entity)));
 * moved.clear();
 * }</pre>
 * <b>The rule.</b> Every entity in the observer has every trigger component and every {@code with} component, and no
 * {@code without} component, at all times. An entity enters when a trigger fires for it (the component is added,
 * or updated: a {@code patch} or {@code markUpdated}) and it matches then; it appears once however often it changed;
 * it leaves when it stops matching (a trigger or {@code with} component removed, a {@code without} component added,
 * the entity destroyed) or when the observer is cleared. Entities that match without a trigger firing never enter.
 * <p>
 * <b>How.</b> The observer keeps its own sparse set of entities on the world's memory and follows each storage of its
 * rule through a {@link StorageHook}, so it is up to date before any listener of those storages runs and can never
 * miss an event: it reserves room before each insert into a trigger storage, so following a change cannot fail for
 * lack of memory.
 * <p>
 * <b>Walking.</b> {@link #forEach(LongConsumer)} walks the observed entities in the order they entered (an entity
 * that leaves is replaced by the last to have entered), and follows the rule of every walk (see
 * {@link dev.cairn.View}): while it runs, the structure holds still, and what the action changes (components added or
 * removed, entities destroyed, {@link #clear()}) is applied when it returns. Generated observers
 * ({@link dev.cairn.Observer}) walk it with positioned component accessors through {@link #extent()} and
 * {@link #entityAt(int)}.
 * <p>
 * {@link #close()} detaches the observer and frees its memory; closing the world does too. Not thread-safe.
 */
public final class RuntimeObserver implements AutoCloseable
{
    private final SparseSet entities;
    private final Walks walks;
    private final ComponentStorage<?>[] required;
    private final ComponentStorage<?>[] excluded;
    private final Map<ComponentStorage<?>, Follower> followers;
    private final String description;

    RuntimeObserver(
        final List<ComponentStorage<?>> onAdded,
        final List<ComponentStorage<?>> onUpdated,
        final List<ComponentStorage<?>> required,
        final List<ComponentStorage<?>> without,
        final String description,
        final OffHeap offHeap,
        final Walks walks,
        final EntityPool pool)
    {
        this.required = required.toArray(new ComponentStorage<?>[0]);
        this.excluded = without.toArray(new ComponentStorage<?>[0]);
        this.description = description;
        this.walks = walks;
        this.entities = SparseSet.onSharedMemory(
            DeletionPolicy.SWAP_AND_POP, offHeap, walks, pool, "observer of " + description);
        this.followers = new LinkedHashMap<>();
        for (final ComponentStorage<?> storage : required)
        {
            followers.put(storage, new Follower(
                storage, onAdded.contains(storage), onUpdated.contains(storage), true, false));
        }
        for (final ComponentStorage<?> storage : without)
        {
            followers.put(storage, new Follower(storage, false, false, false, true));
        }
        try
        {
            for (final Follower follower : followers.values())
            {
                if (follower.onAdded || follower.onUpdated)
                {
                    final ComponentStorage<?> storage = follower.storage;
                    for (int i = storage.extent(); --i >= 0; )
                    {
                        final long entity = storage.entityAt(i);
                        if (entity != Entity.NULL)
                        {
                            entities.reserveFor(entity, storage.memberCount());
                        }
                    }
                }
            }
            for (final Follower follower : followers.values())
            {
                Access.rawStorage(follower.storage).attach(follower);
            }
        }
        catch (final RuntimeException ex)
        {
            for (final Follower follower : followers.values())
            {
                Access.rawStorage(follower.storage).detach(follower);
            }
            entities.close();
            throw ex;
        }
    }

    /**
     * How many entities the observer holds.
     *
     * @return the count.
     */
    public int size()
    {
        return entities.memberCount();
    }

    /**
     * Whether the observer holds no entity.
     *
     * @return true if empty.
     */
    public boolean isEmpty()
    {
        return entities.isEmpty();
    }

    /**
     * Whether the observer holds an entity.
     *
     * @param entity any value.
     * @return true if it does.
     * @throws IllegalStateException if the observer or its world is closed.
     */
    public boolean contains(final long entity)
    {
        return entities.contains(entity);
    }

    /**
     * Visits every entity the observer holds, each once; see the class comment for changes made meanwhile.
     *
     * @param action receives each entity.
     * @throws IllegalStateException if the observer or its world is closed.
     */
    public void forEach(final LongConsumer action)
    {
        entities.forEach(action);
    }

    /**
     * Empties the observer: the entities collected so far are forgotten, and it collects anew. Inside a walk or a
     * listener (the usual place: after handling each entity of a walk of this observer), the clear is recorded and
     * made when the walk returns.
     *
     * @throws IllegalStateException if the observer is closed.
     */
    public void clear()
    {
        entities.ensureOpen();
        if (walks.isDeferring())
        {
            walks.deferred().task(new Runnable()
            {
                @Override
                public void run()
                {
                    if (!entities.isClosed())
                    {
                        entities.clear();
                    }
                }

                @Override
                public String toString()
                {
                    return "the clear() of the observer of " + description;
                }
            });
            return;
        }
        entities.clear();
    }

    /**
     * The end of the range a generated observer walks: entities sit at indices {@code [0, extent())}.
     *
     * @return the extent; 0 once closed.
     */
    public int extent()
    {
        return entities.extent();
    }

    /**
     * The entity at an index, for generated observers.
     *
     * @param index from 0 to {@link #extent()} - 1.
     * @return its handle, or {@link Entity#NULL} where an entity left (skip it).
     * @throws IndexOutOfBoundsException if the index is out of range.
     * @throws IllegalStateException     if the observer is closed.
     */
    public long entityAt(final int index)
    {
        return entities.entityAt(index);
    }

    /**
     * Whether the observer is still open.
     *
     * @return false once it or its world is closed.
     */
    public boolean isOpen()
    {
        return !entities.isClosed();
    }

    /**
     * Throws {@link IllegalStateException} if the observer, or its world, is closed.
     *
     * @throws IllegalStateException naming what was closed.
     */
    public void ensureOpen()
    {
        entities.ensureOpen();
    }

    /**
     * Stops observing and frees the observer's memory. Idempotent.
     *
     * @throws IllegalStateException inside a walk or listener of the world, or during a parallel walk; nothing is
     *                               closed then.
     */
    @Override
    public void close()
    {
        if (entities.isClosed())
        {
            return;
        }
        walks.refuseWhileDeferring("close the observer of " + description, "close it after the walk or listener " +
            "returns");
        if (walks.isParallel())
        {
            throw walks.refusedChange("close the observer of " + description, "close it after the parallel walk");
        }
        for (final Follower follower : followers.values())
        {
            Access.rawStorage(follower.storage).detach(follower);
        }
        entities.close();
    }

    @Override
    public String toString()
    {
        return "RuntimeObserver[" + description + ", " + (isOpen() ? size() + " entities" : "closed") + "]";
    }

    /** Enters {@code entity} if it matches the rule now. */
    private void enterIfMatching(final long entity)
    {
        if (entities.indexOf(entity) >= 0)
        {
            return;
        }
        for (final ComponentStorage<?> storage : required)
        {
            if (storage.indexOf(entity) < 0)
            {
                return;
            }
        }
        for (final ComponentStorage<?> storage : excluded)
        {
            if (storage.indexOf(entity) >= 0)
            {
                return;
            }
        }
        entities.insert(entity);
    }

    /** How the observer follows one storage of its rule. */
    private final class Follower implements StorageHook
    {
        final ComponentStorage<?> storage;
        final boolean onAdded;
        final boolean onUpdated;
        final boolean isRequired;
        final boolean isExcluded;

        Follower(
            final ComponentStorage<?> storage,
            final boolean onAdded,
            final boolean onUpdated,
            final boolean isRequired,
            final boolean isExcluded)
        {
            this.storage = storage;
            this.onAdded = onAdded;
            this.onUpdated = onUpdated;
            this.isRequired = isRequired;
            this.isExcluded = isExcluded;
        }

        @Override
        public void reserve(final long entity)
        {
            if ((onAdded || onUpdated) && !entities.contains(entity))
            {
                // Room for every member the trigger storage will have (an insert adds one, an update none), and for
                // the entry itself behind the holes when the observer cannot refill one: while it is walked.
                final int members = storage.memberCount() + (storage.indexOf(entity) < 0 ? 1 : 0);
                entities.reserveFor(entity, Math.max(members, entities.size() + 1));
            }
        }

        @Override
        public void added(final long entity, final int index)
        {
            if (isExcluded)
            {
                entities.remove(entity);
            }
            else if (onAdded)
            {
                enterIfMatching(entity);
            }
        }

        @Override
        public boolean followsUpdates()
        {
            return onUpdated;
        }

        @Override
        public void updated(final long entity, final int index)
        {
            if (onUpdated)
            {
                enterIfMatching(entity);
            }
        }

        @Override
        public void removing(final long entity, final int index)
        {
            if (isRequired)
            {
                entities.remove(entity);
            }
        }
    }
}
