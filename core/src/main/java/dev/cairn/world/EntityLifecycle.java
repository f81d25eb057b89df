package dev.cairn.world;

import dev.cairn.Entity;
import dev.cairn.internal.Deferred;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.Failures;
import dev.cairn.internal.Walks;
import dev.cairn.signal.EntitySignal;
import dev.cairn.storage.ComponentStorage;

/**
 * How a world creates and destroys entities, with their listeners: a create is made at once and announced (when the
 * walk or listener under way returns, inside one); a destroy while nothing listens releases the handle and removes
 * the entity from every storage; while something listens (the world's destroying listeners, a storage's removal
 * listeners, groups and observers), a destroy is one operation of the world: the destroying listeners with the entity
 * whole, then each component's removal, then the release, and what the listeners change is applied once it is done.
 * Inside a walk or a listener, destroys are recorded and made when it returns.
 */
final class EntityLifecycle implements Deferred.Target
{
    private final World world;
    private final EntityPool entities;
    private final Walks walks;
    final EntitySignal createdSignal;
    final EntitySignal destroyingSignal;

    EntityLifecycle(final World world, final EntityPool entities, final Walks walks, final Runnable listenersGuard)
    {
        this.world = world;
        this.entities = entities;
        this.walks = walks;
        this.createdSignal = new EntitySignal("a listener of World: created", listenersGuard, null);
        this.destroyingSignal = new EntitySignal("a listener of World: destroying", listenersGuard, null);
    }

    long create()
    {
        final long entity = entities.create();
        if (!createdSignal.isEmpty())
        {
            announceCreated(entity);
        }
        return entity;
    }

    void create(final long[] created, final int count)
    {
        entities.create(created, 0, count);
        if (createdSignal.isEmpty())
        {
            return;
        }
        if (walks.isDeferring())
        {
            for (int i = 0; i < count; i++)
            {
                walks.deferred().task(new Created(created[i]));
            }
            return;
        }
        final int operation = walks.beginOperation("World.create(entities, " + count + ")");
        Throwable failure = null;
        for (int i = 0; i < count; i++)
        {
            if (entities.isAlive(created[i]))
            {
                final int hold = walks.hold(createdSignal.toString());
                failure = createdSignal.send(created[i], failure);
                walks.end(hold);
            }
        }
        endHold(operation, failure);
    }

    void destroy(final long entity)
    {
        if (walks.isDeferring())
        {
            entities.requireAlive(entity);
            walks.deferred().destroy(this, entity);
            return;
        }
        if (isSignalled())
        {
            destroyAnnounced(entity, true);
            return;
        }
        entities.destroy(entity);
        // Storages match exact handles, so the destroyed handle still finds its components; removal never allocates.
        for (final ComponentStorage<?> storage : world.created())
        {
            if (storage.size() > 0)
            {
                storage.remove(entity);
            }
        }
    }

    void destroy(final long[] destroyed, final int count)
    {
        if (walks.isDeferring())
        {
            entities.requireAliveOnce(destroyed, 0, count);
            for (int i = 0; i < count; i++)
            {
                walks.deferred().destroy(this, destroyed[i]);
            }
            return;
        }
        if (isSignalled())
        {
            entities.requireAliveOnce(destroyed, 0, count);
            final int operation = walks.beginOperation("World.destroy(entities, " + count + ")");
            Throwable failure = null;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    destroyAnnounced(destroyed[i], false);
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = Failures.collect(failure, thrown);
                }
            }
            endHold(operation, failure);
            return;
        }
        entities.destroy(destroyed, 0, count);
        for (final ComponentStorage<?> storage : world.created())
        {
            if (storage.size() > 0)
            {
                storage.removeAll(destroyed, 0, count);
            }
        }
    }

    /** Destroys every entity: the next creates take the freed indices from the lowest up, listened to or not. */
    void clear()
    {
        if (walks.isDeferring())
        {
            final long[] alive = new long[entities.aliveCount()];
            final int[] count = new int[1];
            entities.forEach(entity -> alive[count[0]++] = entity);
            walks.deferred().task(new Clear(java.util.Arrays.copyOf(alive, count[0])));
            return;
        }
        if (isSignalled())
        {
            // The entities alive now, each destroyed as destroy() does it; entities listeners create meanwhile stay.
            final Throwable failure = destroyEach(aliveNow(), "World.clear()", false);
            Failures.rethrow(failure);
            return;
        }
        entities.clear();
        clearStorages();
    }

    /** Forgets every entity, after telling the listeners of each destroy. */
    void reset()
    {
        if (isSignalled())
        {
            Failures.rethrow(destroyEach(aliveNow(), "World.reset()", true));
            return;
        }
        // Not entities.clear(): the pool forgets its entities, so putting them on its free stack first is wasted.
        clearStorages();
        entities.reset();
    }

    /** The entities alive now, the lowest index first. */
    private long[] aliveNow()
    {
        final long[] alive = new long[entities.aliveCount()];
        int count = 0;
        for (int index = 0; index < entities.createdCount() && count < alive.length; index++)
        {
            final long entity = entities.aliveAt(index);
            if (entity != Entity.NULL)
            {
                alive[count++] = entity;
            }
        }
        return count == alive.length ? alive : java.util.Arrays.copyOf(alive, count);
    }

    /**
     * Destroys each of {@code alive} still alive, as destroy() does it, the highest index first, in one operation whose
     * listeners' changes are applied once it is done; then empties what the storages keep of the destroyed (holes,
     * released entries), and for a reset forgets every entity. Every step runs whatever a listener throws.
     *
     * @return what was thrown, the first with the others suppressed in it, or null.
     */
    private Throwable destroyEach(final long[] alive, final String operation, final boolean reset)
    {
        final int token = walks.beginOperation(operation);
        Throwable failure = null;
        for (int k = alive.length - 1; k >= 0; k--)
        {
            if (entities.isAlive(alive[k]))
            {
                try
                {
                    destroyAnnounced(alive[k], false);
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = Failures.collect(failure, thrown);
                }
            }
        }
        try
        {
            clearStorages();
            if (reset)
            {
                entities.reset();
            }
        }
        catch (final RuntimeException | Error thrown)
        {
            failure = Failures.collect(failure, thrown);
        }
        return failure == null ? endCollecting(token) : walks.end(token, failure);
    }

    private Throwable endCollecting(final int token)
    {
        try
        {
            walks.end(token);
            return null;
        }
        catch (final RuntimeException | Error thrown)
        {
            return thrown;
        }
    }

    @Override
    public boolean isAlive(final long entity)
    {
        return entities.isAlive(entity);
    }

    @Override
    public String toString()
    {
        return "World";
    }

    @Override
    public void applyDestroy(final long entity)
    {
        destroy(entity);
    }

    private void clearStorages()
    {
        for (final ComponentStorage<?> storage : world.created())
        {
            storage.clear();
        }
    }

    /** Whether anything listens for an entity or a component leaving. */
    private boolean isSignalled()
    {
        return !destroyingSignal.isEmpty() || entities.hasSignalledStorages();
    }

    /**
     * A destroy while listeners watch, as one operation.
     *
     * @param operation whether it is an operation of its own, or a step of the caller's.
     */
    private void destroyAnnounced(final long entity, final boolean operation)
    {
        entities.requireAlive(entity);
        final int token = operation ? walks.beginOperation("World.destroy({})", entity) : -1;
        Throwable failure = null;
        if (!destroyingSignal.isEmpty())
        {
            final int hold = walks.hold(destroyingSignal.toString());
            failure = destroyingSignal.send(entity, null);
            walks.end(hold);
        }
        for (final ComponentStorage<?> storage : world.created())
        {
            try
            {
                storage.remove(entity);
            }
            catch (final RuntimeException | Error thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
        }
        entities.destroy(entity);
        if (token == -1)
        {
            Failures.rethrow(failure);
        }
        else
        {
            endHold(token, failure);
        }
    }

    private void announceCreated(final long entity)
    {
        if (walks.isDeferring())
        {
            walks.deferred().task(new Created(entity));
            return;
        }
        final int hold = walks.hold(createdSignal.toString());
        final Throwable failure = createdSignal.send(entity, null);
        endHold(hold, failure);
    }

    /** Ends a hold or operation around listeners, applying what they deferred, and throws what they and that threw. */
    private void endHold(final int hold, final Throwable failure)
    {
        if (failure != null)
        {
            Failures.rethrow(walks.end(hold, failure));
        }
        walks.end(hold);
    }

    /**
     * A clear made inside a walk, applied in order: it destroys the entities alive when it was called, and no entity
     * created after it. If those are the entities alive when it is applied, it is a clear made then (its layout, the
     * order of the indices created next); otherwise each still alive is destroyed, the highest index first.
     */
    private final class Clear implements Runnable
    {
        private final long[] alive;

        Clear(final long[] alive)
        {
            this.alive = alive;
        }

        @Override
        public void run()
        {
            int stillAlive = 0;
            for (final long entity : alive)
            {
                stillAlive += entities.isAlive(entity) ? 1 : 0;
            }
            if (stillAlive == entities.aliveCount())
            {
                clear();
                return;
            }
            Failures.rethrow(destroyEach(alive, "World.clear()", false));
        }

        @Override
        public String toString()
        {
            return "World.clear()";
        }
    }

    /** A creation announced when deferred changes are applied; dropped if the entity died meanwhile. */
    private final class Created implements Runnable
    {
        private final long entity;

        Created(final long entity)
        {
            this.entity = entity;
        }

        @Override
        public void run()
        {
            if (entities.isAlive(entity))
            {
                announceCreated(entity);
            }
        }

        @Override
        public String toString()
        {
            return "the created listeners of " + Entity.toString(entity);
        }
    }
}
