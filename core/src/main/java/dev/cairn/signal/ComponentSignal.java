package dev.cairn.signal;

import dev.cairn.set.SparseSet;

/**
 * A {@link Signal} of {@link ComponentListener}s: one kind of event of one component storage.
 */
public final class ComponentSignal extends Signal<ComponentListener>
{
    /**
     * Creates a signal without listeners.
     *
     * @param name     what exception and debug messages call it, for example {@code "Position storage: added"}.
     * @param guard    called before every connect and disconnect, which it refuses by throwing; may be null.
     * @param onChange called after every connect and disconnect; may be null.
     */
    public ComponentSignal(final String name, final Runnable guard, final Runnable onChange)
    {
        super(name, guard, onChange);
    }

    /**
     * Sends an event to every connected listener, in connection order; each runs even if an earlier one throws, and
     * each gets the component's index as it is when that listener is called (a listener may move it by changing the
     * storage), or -1 if an earlier listener removed the component.
     *
     * @param storage the storage the component is in.
     * @param entity  the entity.
     * @param index   its component's packed index when the event starts.
     * @param failure what earlier parts of the operation collected, or null.
     * @return {@code failure} with whatever the listeners threw collected into it (see {@link #collect}).
     */
    public Throwable send(final SparseSet storage, final long entity, final int index, final Throwable failure)
    {
        Throwable collected = failure;
        boolean first = true;
        for (final Connection connection : connections())
        {
            final ComponentListener listener = listenerOf(connection);
            if (listener != null)
            {
                // Only the first listener may be handed the index the event started with: any listener, even one
                // that throws, may have moved the component before the next runs.
                if (storage.isClosed())
                {
                    // A listener closed the world: the others are not called, and what they threw still reaches
                    // the caller, with the reason the event stopped.
                    return collect(collected, closedMeanwhile(null, storage.name(), entity));
                }
                final int at = first ? index : storage.indexOf(entity);
                first = false;
                try
                {
                    listener.accept(entity, at);
                }
                catch (final Throwable thrown)
                {
                    collected = collect(collected, thrown);
                }
            }
        }
        if (!first && storage.isClosed())
        {
            // The last listener closed it: the operation stops all the same.
            return collect(collected, closedMeanwhile(null, storage.name(), entity));
        }
        return collected;
    }
}
