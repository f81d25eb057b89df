package dev.cairn.internal;

/**
 * An engine structure that must follow a storage exactly, such as an observer or a group, attached with
 * {@link RawStorage#attach(StorageHook)}. It hears of an add before the storage's listeners (so they see it
 * up to date) and of a removal after them (so they still see the entity in it), and it may reserve room before an
 * insert so that following the add cannot fail for lack of memory.
 * <p>
 * Hooks run in ascending {@link #order()} on adds and updates and in descending order on removals, so that nested
 * structures (a group inside a less restrictive one) are built from the outside in and taken apart from the inside out.
 */
public interface StorageHook
{
    /**
     * Where this hook runs among the storage's hooks: lower first on adds, last on removals.
     *
     * @return the order; 0 unless a structure nests in others (a group returns how restrictive it is).
     */
    default int order()
    {
        return 0;
    }

    /**
     * Called before an entity is inserted, and before a component is overwritten if this hook
     * {@link #followsUpdates()}, when nothing has changed yet: make room for what {@link #added} or {@link #updated}
     * will need. Throwing here (for example {@link dev.cairn.OffHeapExhaustedException}) refuses the insert or
     * the patch with nothing changed.
     *
     * @param entity the entity about to be inserted or updated.
     */
    default void reserve(final long entity)
    {
    }

    /**
     * The entity's component was added, its values written.
     *
     * @param entity the entity.
     * @param index  the component's packed index.
     */
    default void added(final long entity, final int index)
    {
    }

    /**
     * Whether this hook wants {@link #updated}: a storage sends updates (and refuses a patch from a parallel walk's
     * actions) only if a listener or a hook does.
     *
     * @return false unless overridden.
     */
    default boolean followsUpdates()
    {
        return false;
    }

    /**
     * The entity's component was overwritten as a whole, or marked updated; called only if {@link #followsUpdates()}.
     *
     * @param entity the entity.
     * @param index  the component's packed index.
     */
    default void updated(final long entity, final int index)
    {
    }

    /**
     * The entity's component is about to be removed; it is still at {@code index}.
     *
     * @param entity the entity.
     * @param index  the component's packed index.
     */
    default void removing(final long entity, final int index)
    {
    }
}
