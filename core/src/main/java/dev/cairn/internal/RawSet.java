package dev.cairn.internal;

import dev.cairn.DeletionPolicy;

/**
 * The raw state of a sparse set or storage, as snapshot code saves and loads it: counts, the packed array, the sparse
 * entries and the payload columns, with no check beyond what each method says. Reached with {@link Access#raw}; what
 * users call are the set's own methods.
 */
public interface RawSet
{
    /**
     * What messages call the set.
     *
     * @return for example {@code "Position storage"}.
     */
    String name();

    /**
     * The set's deletion policy.
     *
     * @return the policy.
     */
    DeletionPolicy policy();

    /**
     * The pool members must be alive in.
     *
     * @return the pool, or null for a set of its own.
     */
    EntityPool pool();

    /**
     * Packed indices in use.
     *
     * @return the size.
     */
    int size();

    /**
     * The end of the walked region.
     *
     * @return the extent.
     */
    int extent();

    /**
     * The head of the in-place free list.
     *
     * @return the packed index of the most recent tombstone, or -1.
     */
    int freeHead();

    /**
     * Members.
     *
     * @return the member count.
     */
    int memberCount();

    /**
     * Where the packed handles start.
     *
     * @return the address; valid until the columns move.
     */
    long packedAddress();

    /**
     * Where a payload column starts.
     *
     * @param column the payload column, 0 for the first (a tracked storage's tick columns follow its fields).
     * @return the address; valid until the columns move.
     */
    long columnAddress(int column);

    /**
     * Throws unless the set may be loaded into now: open, empty, and no walk or listener holds its world.
     *
     * @throws IllegalStateException naming why not.
     */
    void requireEmptyForLoad();

    /**
     * Grows the columns to hold {@code size} indices, for a load.
     *
     * @param size the indices the load writes.
     * @throws dev.cairn.OffHeapExhaustedException if the memory cannot be allocated; nothing changed then.
     */
    void ensureLoadCapacity(int size);

    /**
     * The address of the sparse entry of an entity index, allocating its page (filled with -1) if it has none.
     *
     * @param entityIndex an entity index.
     * @return the entry's address.
     */
    long sparseEntry(int entityIndex);

    /**
     * The address of the sparse entry of an entity index if its page exists.
     *
     * @param entityIndex an entity index.
     * @return the entry's address, or 0.
     */
    long sparseEntryIfAny(int entityIndex);

    /**
     * Takes counts for a packed array and sparse entries a load wrote and checked.
     *
     * @param size        the size.
     * @param extent      the extent.
     * @param freeHead    the head of the in-place free list.
     * @param memberCount the members.
     */
    void loaded(int size, int extent, int freeHead, int memberCount);

    /**
     * Empties the set without telling anyone: what a failed load leaves.
     */
    void clearSilently();

    /**
     * Gives back the memory an empty set does not need.
     */
    void shrinkToFit();

    /**
     * Frees the set's memory now, for a storage a failed load made and its world forgets.
     */
    void freeMemory();
}
