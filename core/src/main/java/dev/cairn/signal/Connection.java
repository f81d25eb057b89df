package dev.cairn.signal;

/**
 * A listener's membership of a {@link Signal}: {@link #close()} disconnects it. Connections are cheap objects made once
 * per connect; closing one is idempotent and may happen at any time, also while the signal is sending an event (a
 * listener disconnected then is not called for the rest of that event, nor after).
 */
public final class Connection implements AutoCloseable
{
    private final Signal<?> signal;
    private final Object listener;
    private boolean connected = true;

    Connection(final Signal<?> signal, final Object listener)
    {
        this.signal = signal;
        this.listener = listener;
    }

    /**
     * Whether the listener is still connected.
     *
     * @return false once {@link #close()} ran.
     */
    public boolean isConnected()
    {
        return connected;
    }

    /**
     * Disconnects the listener; it is not called again. Idempotent.
     *
     * @throws IllegalStateException if its owner's listeners may not change now (a parallel walk of the world
     *                               runs); the listener stays connected then.
     */
    @Override
    public void close()
    {
        if (connected)
        {
            signal.checkChange();
            connected = false;
            signal.disconnect(this);
        }
    }

    Object listener()
    {
        return listener;
    }

    @Override
    public String toString()
    {
        return "Connection[" + (connected ? "connected" : "closed") + " to " + signal + "]";
    }
}
