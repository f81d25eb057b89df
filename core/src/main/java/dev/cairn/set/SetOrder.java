package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.Failures;

import java.util.Objects;

/**
 * The order of a set's packed array: EnTT's {@code swap_elements}, {@code compact}, {@code sort} and {@code sort_as},
 * and the permutations and swaps an {@link OrderClaim}'s holder (a group) makes. Every reordering moves the payload
 * with its handles, re-points the sparse entries and counts as a change of layout. None is made while the set's
 * world is walked or a listener runs, nor while a group owns the set (except through the group's claim).
 */
final class SetOrder
{
    private SetOrder()
    {
    }

    static void swapElements(final SparseSet set, final long first, final long second)
    {
        ensureReorderable(set, "swapElements");
        final int a = set.indexOf(first);
        if (a < 0)
        {
            throw set.notMember(first);
        }
        final int b = set.indexOf(second);
        if (b < 0)
        {
            throw set.notMember(second);
        }
        set.swapIndices(a, b);
    }

    static void compact(final SparseSet set)
    {
        ensureReorderable(set, "compact");
        set.layoutVersion++;
        if (set.policy == DeletionPolicy.IN_PLACE)
        {
            // EnTT's order: the most recently freed hole is filled first, by the last member.
            int from = set.size;
            while (from > 0 && set.isTombstone(from - 1))
            {
                from--;
            }
            int next = set.freeHead;
            set.freeHead = SparseSet.ABSENT;
            while (next != SparseSet.ABSENT)
            {
                final int to = next;
                next = (int)set.packedGet(to);
                if (to < from)
                {
                    from--;
                    set.moveIndex(from, to);
                    while (from > 0 && set.isTombstone(from - 1))
                    {
                        from--;
                    }
                }
            }
            set.size = from;
            set.extent = from;
        }
        else if (set.policy == DeletionPolicy.SWAP_ONLY)
        {
            for (int i = set.extent; i < set.size; i++)
            {
                set.sparsePut(Entity.index(set.packedGet(i)), SparseSet.ABSENT);
            }
            set.size = set.extent;
        }
    }

    static void sort(final SparseSet set, final IndexComparator comparator)
    {
        IndexComparator.requireReading(comparator, set.name, set);
        ensureReorderable(set, "sort");
        compactTombstones(set);
        final int length = set.extent;
        final int[] order = new int[length];
        for (int i = 0; i < length; i++)
        {
            order[i] = i;
        }
        final int hold = set.walks.hold("the comparator of " + set.name + ".sort");
        try
        {
            IndexSort.sort(order, length, comparator);
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(set.walks.end(hold, thrown));
        }
        applyPermutation(set, order, length);
        set.walks.end(hold);
    }

    static void sortAs(final SparseSet set, final SparseSet other)
    {
        Objects.requireNonNull(other, "other: pass the set whose order to follow");
        ensureReorderable(set, "sortAs");
        other.ensureOpen();
        if (set.pool != null && other.pool != null && set.pool != other.pool)
        {
            throw new IllegalArgumentException("cannot sort " + set.name + " as " + other.name + ": it belongs to " +
                "another World, whose entity handles name other entities; follow a set of the same world");
        }
        compactTombstones(set);
        int target = 0;
        final int length = set.extent;
        for (int i = 0; i < other.extent && target < length - 1; i++)
        {
            final int index = set.indexOf(other.packedGet(i));
            if (index >= 0)
            {
                set.swapIndices(index, target++);
            }
        }
    }

    /** Swaps two members for the holder of the set's claim: both below the extent. */
    static void swapClaimed(final SparseSet set, final int a, final int b)
    {
        final long entityA = a >= 0 && a < set.extent ? set.packedGet(a) : Entity.NULL;
        final long entityB = b >= 0 && b < set.extent ? set.packedGet(b) : Entity.NULL;
        if ((entityA | entityB) < 0)
        {
            throw new IndexOutOfBoundsException("cannot swap indices " + a + " and " + b + " of " + set.name +
                ": both must hold members of [0, " + set.extent + ")");
        }
        if (a != b)
        {
            set.swapMembers(a, entityA, b, entityB);
        }
    }

    /** Checks that the first {@code length} indices hold members, for a claim's permutation. */
    static void requireMembersBelow(final SparseSet set, final int length)
    {
        if (length < 0 || length > set.extent)
        {
            throw new IndexOutOfBoundsException("cannot rearrange the first " + length + " members of " + set.name +
                ": it has [0, " + set.extent + ")");
        }
        for (int k = 0; k < length; k++)
        {
            if (set.packedGet(k) < 0)
            {
                throw new IndexOutOfBoundsException("index " + k + " of " + set.name + " holds a tombstone");
            }
        }
    }

    /**
     * Rearranges {@code [0, length)} so that index {@code k} receives the element that was at {@code order[k]},
     * following each permutation cycle once: O(length) swaps of every column.
     */
    static void applyPermutation(final SparseSet set, final int[] order, final int length)
    {
        set.layoutVersion++;
        for (int start = 0; start < length; start++)
        {
            int current = start;
            while (order[current] != start)
            {
                final int next = order[current];
                set.dense.swap(current, next);
                order[current] = current;
                current = next;
            }
            order[current] = current;
        }
        for (int i = 0; i < length; i++)
        {
            set.sparsePut(Entity.index(set.packedGet(i)), i);
        }
    }

    private static void compactTombstones(final SparseSet set)
    {
        if (set.policy == DeletionPolicy.IN_PLACE && set.size != set.memberCount)
        {
            compact(set);
        }
    }

    private static void ensureReorderable(final SparseSet set, final String operation)
    {
        set.walks.refuseWhileDeferring(operation + " " + set.name, "reorder it after the walk or listener returns");
        set.ensureChangeable(operation);
        if (set.claim != null)
        {
            throw new IllegalStateException("cannot " + operation + " " + set.name + ": " + set.claim.owner() +
                " owns it and keeps its members in the group's order; sort through the group instead");
        }
    }
}
