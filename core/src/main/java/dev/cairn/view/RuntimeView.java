package dev.cairn.view;

import dev.cairn.Entity;
import dev.cairn.set.SparseSet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A view whose component set is chosen at run time: it visits the entities that are members of every included set
 * and of no excluded one. For code that is not hot; generated views ({@link dev.cairn.View}) are the fast path.
 * <p>
 * Iteration walks the smallest included set (chosen when iteration starts) from back to front and probes the
 * others, so in-place tombstones and swap-only released entries are never visited. Removing the entity being visited,
 * or any of its components, is safe: the rest of the iteration visits exactly the remaining matching entities once.
 * Entities that gain components during iteration may or may not be visited, never twice.
 */
public final class RuntimeView
{
    private final SparseSet[] included;
    private final SparseSet[] excluded;

    /**
     * Creates a view.
     *
     * @param included sets an entity must be a member of; at least one.
     * @param excluded sets an entity must not be a member of.
     * @throws IllegalArgumentException if {@code included} is empty.
     */
    public RuntimeView(final List<? extends SparseSet> included, final List<? extends SparseSet> excluded)
    {
        if (included.isEmpty())
        {
            throw new IllegalArgumentException("a view needs at least one included component");
        }
        this.included = included.toArray(new SparseSet[0]);
        this.excluded = excluded.toArray(new SparseSet[0]);
    }

    /**
     * A view with the same included sets and these sets excluded as well.
     *
     * @param more sets an entity must not be a member of.
     * @return a new view.
     */
    public RuntimeView without(final SparseSet... more)
    {
        final List<SparseSet> all = new ArrayList<>(List.of(excluded));
        all.addAll(List.of(more));
        return new RuntimeView(List.of(included), all);
    }

    /**
     * The included set at position {@code k} of the list given at construction, for reading components.
     *
     * @param k position in the included list.
     * @return that set (a {@link dev.cairn.storage.ComponentStorage} when the view came from a World).
     */
    public SparseSet included(final int k)
    {
        return included[k];
    }

    /**
     * Whether an entity is visited by this view.
     *
     * @param entity any value.
     * @return true if it is in every included set and no excluded one.
     */
    public boolean contains(final long entity)
    {
        for (final SparseSet set : included)
        {
            if (!set.contains(entity))
            {
                return false;
            }
        }
        for (final SparseSet set : excluded)
        {
            if (set.contains(entity))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * An upper bound of the entities visited: the size of the smallest included set.
     *
     * @return the bound.
     */
    public int sizeHint()
    {
        return lead().freeList();
    }

    /**
     * Visits every matching entity once.
     *
     * @param action receives each entity's handle.
     * @throws IllegalStateException if a set is closed.
     */
    public void forEach(final LongConsumer action)
    {
        for (final SparseSet set : included)
        {
            set.ensureOpen();
        }
        for (final SparseSet set : excluded)
        {
            set.ensureOpen();
        }
        final SparseSet lead = lead();
        for (int i = lead.freeList(); (i = Math.min(i, lead.freeList()) - 1) >= 0; )
        {
            final long entity = lead.packedAt(i);
            if (Entity.version(entity) != Entity.TOMBSTONE_VERSION && matchesOthers(lead, entity))
            {
                action.accept(entity);
            }
        }
    }

    /**
     * Counts the matching entities by iterating.
     *
     * @return how many entities {@link #forEach(LongConsumer)} would visit now.
     */
    public int count()
    {
        final int[] count = new int[1];
        forEach(entity -> count[0]++);
        return count[0];
    }

    private boolean matchesOthers(final SparseSet lead, final long entity)
    {
        for (final SparseSet set : included)
        {
            if (set != lead && set.memberIndex(entity) < 0)
            {
                return false;
            }
        }
        for (final SparseSet set : excluded)
        {
            if (set.memberIndex(entity) >= 0)
            {
                return false;
            }
        }
        return true;
    }

    private SparseSet lead()
    {
        SparseSet lead = included[0];
        for (final SparseSet set : included)
        {
            if (set.freeList() < lead.freeList())
            {
                lead = set;
            }
        }
        return lead;
    }
}
