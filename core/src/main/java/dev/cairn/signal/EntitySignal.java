package dev.cairn.signal;

import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * A {@link Signal} of entity listeners: a {@link dev.cairn.World}'s "created" or "destroying" event.
 */
public final class EntitySignal extends Signal<LongConsumer>
{
    private final BooleanSupplier closed;

    /**
     * Creates a signal without listeners.
     *
     * @param name     what debug messages call it, for example {@code "World: destroying"}.
     * @param guard    called before every connect and disconnect, which it refuses by throwing; may be null.
     * @param onChange called after every connect and disconnect; may be null.
     * @param closed   whether the owner was closed, asked before each listener after the first: once it is, the
     *                 listeners after are not called (the sender says why).
     */
    public EntitySignal(
        final String name, final Runnable guard, final Runnable onChange, final BooleanSupplier closed)
    {
        super(name, guard, onChange);
        this.closed = java.util.Objects.requireNonNull(closed, "closed");
    }

    /**
     * Sends an event to every connected listener, in connection order; each runs even if an earlier one throws,
     * unless a listener closed the owner: then the rest are not called.
     *
     * @param entity  the entity.
     * @param failure what earlier parts of the operation collected, or null.
     * @return {@code failure} with whatever the listeners threw collected into it.
     */
    public Throwable send(final long entity, final Throwable failure)
    {
        Throwable collected = failure;
        boolean first = true;
        for (final Connection connection : connections())
        {
            final LongConsumer listener = listenerOf(connection);
            if (listener != null)
            {
                if (!first && closed.getAsBoolean())
                {
                    return collected;
                }
                first = false;
                try
                {
                    listener.accept(entity);
                }
                catch (final Throwable thrown)
                {
                    collected = collect(collected, thrown);
                }
            }
        }
        return collected;
    }
}
