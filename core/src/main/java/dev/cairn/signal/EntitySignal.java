package dev.cairn.signal;

import dev.cairn.internal.Failures;

import java.util.function.LongConsumer;

/**
 * A {@link Signal} of entity listeners: a {@link dev.cairn.world.World}'s "created" or "destroying" event.
 */
public final class EntitySignal extends Signal<LongConsumer>
{

    /**
     * Creates a signal without listeners.
     *
     * @param name     what debug messages call it, for example {@code "World: destroying"}.
     * @param guard    called before every connect and disconnect, which it refuses by throwing; may be null.
     * @param onChange called after every connect and disconnect; may be null.
     */
    public EntitySignal(
        final String name, final Runnable guard, final Runnable onChange)
    {
        super(name, guard, onChange);
    }

    /**
     * Sends an event to every connected listener, in connection order; each runs even if an earlier one throws.
     *
     * @param entity  the entity.
     * @param failure what earlier parts of the operation collected, or null.
     * @return {@code failure} with whatever the listeners threw collected into it.
     */
    public Throwable send(final long entity, final Throwable failure)
    {
        Throwable collected = failure;
        for (final Connection connection : connections())
        {
            final LongConsumer listener = listenerOf(connection);
            if (listener != null)
            {
                try
                {
                    listener.accept(entity);
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
