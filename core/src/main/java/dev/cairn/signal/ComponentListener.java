package dev.cairn.signal;

/**
 * Told that a component of an entity was added, updated, or is about to be removed. Connect one with
 * {@code storage.onAdded(listener)}, {@code onUpdated} or {@code onRemoving}; keep the returned {@link Connection} to
 * disconnect it.
 * <pre>{@code
 * Connection connection = positions.onAdded((entity, index) -> spatialIndex.insert(entity, positions.xAt(index)));
 * }</pre>
 * The packed index lets the listener read the component through the storage's index accessors without a lookup and
 * without allocating; it is valid until the listener changes that storage. Each listener of an event gets the index
 * as it is when that listener is called, or -1 (for an add or an update) if an earlier listener removed the component.
 * See {@code docs/signals.md} for what a listener may do.
 */
@FunctionalInterface
public interface ComponentListener
{
    /**
     * Receives one event.
     *
     * @param entity the entity whose component the event is about.
     * @param index  the component's packed index in the storage now; -1 if an earlier listener of an add or an update
     *               removed it.
     */
    void accept(long entity, int index);
}
