package dev.cairn.storage;

import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.Failures;
import dev.cairn.internal.StorageHook;
import dev.cairn.internal.Walks;
import dev.cairn.signal.ComponentListener;
import dev.cairn.signal.ComponentSignal;
import dev.cairn.signal.Connection;

/**
 * What a storage tells of its changes, as EnTT's {@code sigh_mixin} does for its storages: the listeners of adds,
 * updates and removals, and the engine structures (observers, groups) that follow the storage through
 * {@link StorageHook}s. Hooks hear of an add before the listeners and of a removal after them; listeners run in a hold
 * of the world, so what they change waits for the end of the operation that announced it. With nothing connected, an
 * add or a removal costs the storage one test of a field.
 */
final class StorageSignals
{
    private static final StorageHook[] NO_HOOKS = new StorageHook[0];

    private final ComponentStorage<?> storage;
    /** The pool entities must be alive in, told when the storage becomes signalled or stops being; or null. */
    private final EntityPool pool;
    private final ComponentSignal added;
    private final ComponentSignal updated;
    private final ComponentSignal removing;
    private StorageHook[] hooks = NO_HOOKS;
    private boolean signalled;
    /** Whether an update listener or a hook that follows updates is there: what a patch must tell. */
    private boolean updateSignalled;

    StorageSignals(final ComponentStorage<?> storage, final EntityPool pool)
    {
        this.storage = storage;
        this.pool = pool;
        final String name = storage.name();
        this.added = new ComponentSignal("a listener of " + name + ": added", this::checkListenersMutable,
            this::listenersChanged);
        this.updated = new ComponentSignal("a listener of " + name + ": updated", this::checkListenersMutable,
            this::listenersChanged);
        this.removing = new ComponentSignal("a listener of " + name + ": removing", this::checkListenersMutable,
            this::listenersChanged);
    }

    Connection onAdded(final ComponentListener listener)
    {
        return added.connect(listener);
    }

    Connection onUpdated(final ComponentListener listener)
    {
        return updated.connect(listener);
    }

    Connection onRemoving(final ComponentListener listener)
    {
        return removing.connect(listener);
    }

    /** Attaches a hook, in ascending {@link StorageHook#order()}. */
    void attach(final StorageHook hook)
    {
        storage.ensureOpen();
        int at = hooks.length;
        while (at > 0 && hooks[at - 1].order() > hook.order())
        {
            at--;
        }
        final StorageHook[] grown = new StorageHook[hooks.length + 1];
        System.arraycopy(hooks, 0, grown, 0, at);
        grown[at] = hook;
        System.arraycopy(hooks, at, grown, at + 1, hooks.length - at);
        hooks = grown;
        listenersChanged();
    }

    /** Detaches a hook; a no-op if it is not attached. */
    void detach(final StorageHook hook)
    {
        for (int i = 0; i < hooks.length; i++)
        {
            if (hooks[i] == hook)
            {
                final StorageHook[] shrunk = new StorageHook[hooks.length - 1];
                System.arraycopy(hooks, 0, shrunk, 0, i);
                System.arraycopy(hooks, i + 1, shrunk, i, hooks.length - i - 1);
                hooks = shrunk.length == 0 ? NO_HOOKS : shrunk;
                listenersChanged();
                return;
            }
        }
    }

    /** Whether an add or a removal sends an event. */
    boolean isSignalled()
    {
        return signalled;
    }

    /** Whether a patch must tell someone. */
    boolean isUpdateSignalled()
    {
        return updateSignalled;
    }

    /** Whether a removal has listeners, which make it an operation of the world. */
    boolean hasRemovalListeners()
    {
        return !removing.isEmpty();
    }

    /** Has the hooks make room for an entity about to be inserted, so that an insert refused writes nothing. */
    void reserve(final long entity)
    {
        for (final StorageHook hook : hooks)
        {
            hook.reserve(entity);
        }
    }

    /** Has the hooks that follow updates make room for an entity about to be patched (an observer it may enter). */
    void reserveForUpdate(final long entity)
    {
        for (final StorageHook hook : hooks)
        {
            if (hook.followsUpdates())
            {
                hook.reserve(entity);
            }
        }
    }

    /**
     * Tells of an add: the hooks first (a group may move the component), then the listeners.
     *
     * @return where the component is once they ran (-1 if a listener removed it).
     */
    int sendAdded(final long entity, final int index)
    {
        // Every removal and reordering changes the layout version: while it stays, the component is where it was.
        long seen = storage.layout();
        Throwable failure = null;
        int now = index;
        for (final StorageHook hook : hooks)
        {
            try
            {
                hook.added(entity, now);
            }
            catch (final Throwable thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
            if (storage.layout() != seen)
            {
                now = storage.indexOf(entity);
                seen = storage.layout();
            }
        }
        if (!added.isEmpty())
        {
            failure = sendInHold(added, entity, now, failure);
        }
        Failures.rethrow(failure);
        return storage.layout() == seen ? now : storage.indexOf(entity);
    }

    /** Tells of an update: the hooks that follow updates, then the listeners. */
    void sendUpdated(final long entity, final int index)
    {
        Throwable failure = null;
        for (final StorageHook hook : hooks)
        {
            try
            {
                if (hook.followsUpdates())
                {
                    hook.updated(entity, index);
                }
            }
            catch (final Throwable thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
        }
        if (!updated.isEmpty())
        {
            failure = sendInHold(updated, entity, index, failure);
        }
        Failures.rethrow(failure);
    }

    /**
     * Tells of a removal about to be made: the listeners first, with the component and the groups as they were; then
     * the hooks, which may move it.
     *
     * @return what they threw, collected, or null.
     */
    Throwable sendRemoving(final long entity, final int index)
    {
        Throwable failure = null;
        if (!removing.isEmpty())
        {
            final Walks walks = storage.walksOf();
            final int hold = walks.hold(removing.toString());
            failure = removing.send(entity, index, null);
            if (failure == null)
            {
                walks.end(hold);
            }
            else
            {
                walks.end(hold, failure);
            }
        }
        final StorageHook[] hooks = this.hooks;
        long seen = storage.layout();
        int now = index;
        for (int k = hooks.length; --k >= 0; )
        {
            if (storage.layout() != seen)
            {
                now = storage.indexOf(entity);
                seen = storage.layout();
            }
            try
            {
                hooks[k].removing(entity, now);
            }
            catch (final Throwable thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
        }
        return failure;
    }

    /** Sends to listeners in a hold: once it ends, what they deferred is applied (if nothing else holds). */
    private Throwable sendInHold(
        final ComponentSignal signal, final long entity, final int index, final Throwable failure)
    {
        final Walks walks = storage.walksOf();
        final int hold = walks.hold(signal.toString());
        Throwable collected = failure;
        try
        {
            collected = signal.send(entity, index, failure);
        }
        finally
        {
            collected = collected == null ? endCollecting(walks, hold) : walks.end(hold, collected);
        }
        return collected;
    }

    private static Throwable endCollecting(final Walks walks, final int hold)
    {
        try
        {
            walks.end(hold);
            return null;
        }
        catch (final RuntimeException | Error thrown)
        {
            return thrown;
        }
    }

    /** Throws if a patch would tell listeners or observers from a parallel walk's threads, which would race. */
    void checkPatchable(final long entity)
    {
        final Walks walks = storage.walksOf();
        if (walks.isParallel())
        {
            throw walks.refusedChange("patch or markUpdated " + Entity.toString(entity) + "'s component of " +
                storage.name() + " (which tells listeners and observers)", "listeners and observers are not " +
                "thread-safe; record the patch with patch(commands, ...) of a dev.cairn.command.CommandBuffer, " +
                "or write the fields one by one (which tells no one)");
        }
    }

    private void checkListenersMutable()
    {
        storage.ensureOpen();
        final Walks walks = storage.walksOf();
        if (walks.isParallel())
        {
            throw walks.refusedChange("connect or disconnect a listener of " + storage.name(), "listeners are not " +
                "thread-safe; connect them before the parallel walk or after it");
        }
    }

    private void listenersChanged()
    {
        final boolean wasSignalled = signalled;
        signalled = hooks.length > 0 || !added.isEmpty() || !updated.isEmpty() || !removing.isEmpty();
        if (signalled != wasSignalled && pool != null)
        {
            pool.countSignalledStorage(signalled);
        }
        boolean followed = !updated.isEmpty();
        for (final StorageHook hook : hooks)
        {
            followed |= hook.followsUpdates();
        }
        updateSignalled = followed;
        storage.hookRemovals(hooks.length > 0 || !removing.isEmpty());
    }
}
