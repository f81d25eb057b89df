package dev.cairn;

/**
 * What erasing an element does to a sparse set's packed array.
 * <p>
 * The three policies trade packed-ness against stability, as EnTT's {@code deletion_policy} does.
 */
public enum DeletionPolicy
{
    /**
     * The last element moves into the hole and the packed array shrinks by one: no holes ever, iteration touches
     * only members, but erasing moves another element.
     */
    SWAP_AND_POP,

    /**
     * The slot becomes a tombstone and nothing else moves: every other element keeps its index for as long as it
     * is a member. Tombstones form a LIFO free list reused by the next single insert; {@code compact()} removes them.
     */
    IN_PLACE,

    /**
     * The element stays in the packed array with its version bumped and is swapped behind the {@code freeList}
     * boundary into the released region; the size does not change. Inserting the same index again brings it back
     * in front of the boundary.
     */
    SWAP_ONLY
}
