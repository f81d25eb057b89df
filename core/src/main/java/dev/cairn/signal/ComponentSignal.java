package dev.cairn.signal;

import dev.cairn.internal.Failures;

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
     * Sends an event to every connected listener, in connection order; each runs even if an earlier one throws. The
     * caller holds the world's structure meanwhile, so every listener gets the same index.
     *
     * @param entity  the entity.
     * @param index   its component's packed index.
     * @param failure what earlier parts of the operation collected, or null.
     * @return {@code failure} with whatever the listeners threw collected into it.
     */
    public Throwable send(final long entity, final int index, final Throwable failure)
    {
        Throwable collected = failure;
        for (final Connection connection : connections())
        {
            final ComponentListener listener = listenerOf(connection);
            if (listener != null)
            {
                try
                {
                    listener.accept(entity, index);
                }
                catch (final Throwable thrown)
                {
                    collected = Failures.collect(collected, thrown);
                }
            }
        }
        return collected;
    }
}
