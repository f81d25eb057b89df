package dev.cairn.signal;

import java.util.Arrays;

/**
 * The listeners of one kind of event, called in the order they were connected. The list is copied on connect and
 * disconnect, so an event is sent to the listeners connected when it started (minus those disconnected meanwhile),
 * whatever its listeners connect or disconnect while it is being sent, and sending it allocates nothing.
 * <p>
 * <b>Exceptions.</b> A listener that throws does not stop the event: every other listener still runs, and then the
 * first exception is rethrown with the later ones {@linkplain Throwable#addSuppressed suppressed}. The operation that
 * sent the event is complete by then, so the structures it changed are consistent.
 * <p>
 * Not thread-safe; a signal belongs to one storage or world.
 *
 * @param <L> the listener type.
 */
public abstract class Signal<L>
{
    private static final Connection[] NONE = new Connection[0];

    private final String name;
    private final Runnable guard;
    private final Runnable onChange;
    private Connection[] connections = NONE;

    /**
     * Creates a signal without listeners.
     *
     * @param name     what {@link #toString()} says, for example {@code "Position storage: added"}.
     * @param guard    called before every connect and disconnect, which it refuses by throwing (an owner whose
     *                 listeners must not change now); may be null.
     * @param onChange called after every connect and disconnect, for owners that keep a flag of whether anyone
     *                 listens; may be null.
     */
    protected Signal(final String name, final Runnable guard, final Runnable onChange)
    {
        this.name = name;
        this.guard = guard;
        this.onChange = onChange;
    }

    /**
     * Connects a listener; it is called after the listeners connected before it.
     *
     * @param listener the listener.
     * @return its connection: close it to disconnect.
     * @throws NullPointerException if {@code listener} is null.
     * @throws RuntimeException     what the guard throws when listeners may not change now.
     */
    public final Connection connect(final L listener)
    {
        if (listener == null)
        {
            throw new NullPointerException("listener");
        }
        checkChange();
        final Connection connection = new Connection(this, listener);
        final Connection[] grown = Arrays.copyOf(connections, connections.length + 1);
        grown[connections.length] = connection;
        connections = grown;
        changed();
        return connection;
    }

    /**
     * Whether no listener is connected.
     *
     * @return true if sending an event would call nobody.
     */
    public final boolean isEmpty()
    {
        return connections.length == 0;
    }

    /**
     * How many listeners are connected.
     *
     * @return the count.
     */
    public final int size()
    {
        return connections.length;
    }

    /**
     * Disconnects every listener.
     */
    public final void clear()
    {
        for (final Connection connection : connections)
        {
            connection.close();
        }
    }

    @Override
    public String toString()
    {
        return name;
    }

    /**
     * The connections an event goes to: the array in place when the event starts, which connect and disconnect
     * replace rather than change.
     *
     * @return the current connections; do not modify.
     */
    protected final Connection[] connections()
    {
        return connections;
    }

    /**
     * The listener of a connection, if it is still connected.
     *
     * @param connection one of {@link #connections()}.
     * @return its listener, or null once disconnected.
     */
    @SuppressWarnings("unchecked")
    protected final L listenerOf(final Connection connection)
    {
        return connection.isConnected() ? (L)connection.listener() : null;
    }

    final void disconnect(final Connection connection)
    {
        final Connection[] current = connections;
        for (int i = 0; i < current.length; i++)
        {
            if (current[i] == connection)
            {
                final Connection[] shrunk = new Connection[current.length - 1];
                System.arraycopy(current, 0, shrunk, 0, i);
                System.arraycopy(current, i + 1, shrunk, i, current.length - i - 1);
                connections = shrunk.length == 0 ? NONE : shrunk;
                changed();
                return;
            }
        }
    }

    /** Runs the guard: throws if listeners may not connect or disconnect now. */
    final void checkChange()
    {
        if (guard != null)
        {
            guard.run();
        }
    }

    private void changed()
    {
        if (onChange != null)
        {
            onChange.run();
        }
    }
}
