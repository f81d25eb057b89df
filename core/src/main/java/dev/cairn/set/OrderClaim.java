package dev.cairn.set;

/**
 * The say over the order of one set's members, held by one structure: what an owning group keeps for each storage it
 * owns. While a claim is held, the set's own reorderings ({@link SparseSet#sort}, {@link SparseSet#sortAs},
 * {@link SparseSet#swapElements}, {@link SparseSet#compact()}) throw, naming the {@link #owner()}, and only the
 * claim's methods reorder it. A set has at most one claim; {@link #release()} gives it up.
 * <p>
 * Not thread-safe, as its set.
 */
public final class OrderClaim
{
    private final SparseSet set;
    private final String owner;
    private boolean released;

    private OrderClaim(final SparseSet set, final String owner)
    {
        this.set = set;
        this.owner = owner;
    }

    /**
     * Lets one structure (a group) keep a set's members in its order: from now on the set's own reorderings throw,
     * and the claim's holder reorders it through the claim.
     *
     * @param set   the set.
     * @param owner what the messages call the owner, for example {@code "group owning Position+Velocity"}.
     * @return the claim.
     * @throws IllegalStateException if the set is closed, walked, or owned already.
     */
    public static OrderClaim claim(final SparseSet set, final String owner)
    {
        java.util.Objects.requireNonNull(owner, "owner");
        set.ensureUndeferred("let " + owner + " own");
        if (set.claim != null)
        {
            throw new IllegalStateException(
                set.name() + " is owned by " + set.claim.owner() + ", so " + owner + " cannot own it too");
        }
        set.claim = new OrderClaim(set, owner);
        return set.claim;
    }

    /**
     * The set this claim orders.
     *
     * @return the set.
     */
    public SparseSet set()
    {
        return set;
    }

    /**
     * How the claim's holder is named in messages, for example {@code "group Movement"}.
     *
     * @return the description given to {@link #claim}.
     */
    public String owner()
    {
        return owner;
    }

    /**
     * Exchanges the members at two packed indices (and their payload): what a group does when an entity joins or
     * leaves it, which happens only while no walk runs.
     *
     * @param a a packed index holding a member.
     * @param b a packed index holding a member.
     * @throws IllegalStateException     if the claim was released, or the set is closed.
     * @throws IndexOutOfBoundsException if an index is outside {@code [0, extent())} or holds no member.
     */
    public void swap(final int a, final int b)
    {
        set.ensureOpen();
        ensureHeld("reorder");
        SetOrder.swapClaimed(set, a, b);
    }

    /**
     * The order that sorts the first {@code length} members, so that a walk from index 0 follows the comparator
     * (equal members keep their order): nothing is reordered yet; {@link #permute} applies it,
     * to this set and to the sets aligned with it, once the holder has checked that the comparator changed none of
     * them.
     *
     * @param length     how many members, from index 0, to sort; at most {@link SparseSet#extent()}.
     * @param comparator orders packed indices as they are now; it must not change the set.
     * @return {@code order}: applied, index {@code k} receives what index {@code order[k]} holds.
     * @throws IllegalStateException     if the claim was released, the set is closed or walked, or the comparator
     *                                   changed it.
     * @throws IndexOutOfBoundsException if {@code length} is outside {@code [0, extent()]} or the range holds a
     *                                   tombstone.
     */
    public int[] sortedOrder(final int length, final IndexComparator comparator)
    {
        final int[] order = new int[length];
        for (int k = 0; k < length; k++)
        {
            order[k] = k;
        }
        IndexSort.sort(order, length, comparator);
        return order;
    }

    /**
     * A number that changes whenever a member of the set may have changed its index (an insert, a removal, a swap):
     * a holder that reorders several sets together compares it before and after calling code it does not control.
     *
     * @return the set's layout version.
     */
    public long layoutVersion()
    {
        return set.layoutVersion();
    }

    /**
     * Rearranges the first {@code length} members: index {@code k} receives what index {@code order[k]} held. Counts
     * as a reordering.
     *
     * @param order  a permutation of {@code [0, length)}; it is used up.
     * @param length how many members, from index 0, to rearrange.
     * @throws IllegalStateException     if the claim was released, or the set is closed or walked.
     * @throws IllegalArgumentException  if {@code order} is not a permutation of {@code [0, length)}.
     * @throws IndexOutOfBoundsException if {@code length} is outside {@code [0, extent()]} or the range holds a
     *                                   tombstone.
     */
    public void permute(final int[] order, final int length)
    {
        set.ensureOpen();
        ensureHeld("reorder");
        SetOrder.requireMembersBelow(set, length);
        if (order.length < length)
        {
            throw new IllegalArgumentException("an order of " + order.length + " cannot rearrange " + length +
                " members of " + set.name());
        }
        final boolean[] seen = new boolean[length];
        for (int k = 0; k < length; k++)
        {
            final int from = order[k];
            if (from < 0 || from >= length || seen[from])
            {
                throw new IllegalArgumentException(
                    "order[" + k + "] = " + from + " does not make a permutation of [0, " + length + ")");
            }
            seen[from] = true;
        }
        SetOrder.applyPermutation(set, order, length);
    }

    /**
     * Checks, changing nothing, that the first {@code length} members may be reordered now, as {@link #sortedOrder} and
     * {@link #permute} check: a structure that reorders several sets together checks them all before it reorders
     * any.
     *
     * @param length how many members, from index 0, it would reorder.
     * @throws IllegalStateException     if the claim was released, or the set is closed or walked.
     * @throws IndexOutOfBoundsException if {@code length} is outside {@code [0, extent()]} or the range holds a
     *                                   tombstone.
     */
    public void ensureReorderable(final int length)
    {
        set.ensureOpen();
        set.walks().refuseWhileDeferring("sort " + set.name() + " for " + owner, "sort it after the walk or " +
            "listener returns");
        ensureHeld("reorder");
        SetOrder.requireMembersBelow(set, length);
    }

    /**
     * Gives the set's order back: it can be sorted directly again, and another structure may claim it. Releasing
     * twice does nothing.
     */
    public void release()
    {
        if (!released)
        {
            released = true;
            if (set.claim == this)
            {
                set.claim = null;
            }
        }
    }

    /**
     * Whether this claim still holds the set's order.
     *
     * @return false once released.
     */
    public boolean isHeld()
    {
        return !released;
    }

    @Override
    public String toString()
    {
        return owner + "'s claim on " + set.name() + (released ? " (released)" : "");
    }

    private void ensureHeld(final String operation)
    {
        if (released)
        {
            throw new IllegalStateException(owner + " released its claim on " + set.name() + ", so it cannot " +
                operation + " it any more");
        }
    }
}
