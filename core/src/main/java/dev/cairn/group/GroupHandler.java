package dev.cairn.group;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.StorageHook;
import dev.cairn.set.OrderClaim;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What keeps one group exact, as EnTT's {@code group_handler} does: the rule, the group's entities (a range at the
 * front of every owned storage, or a set of its own for a non-owning group) and the hooks that follow each storage of
 * the rule. Every add, removal, destroy and clear of those storages reaches the hooks; they run while no walk does
 * (a walk's changes are applied after it), so an entity joining or leaving an owning group may be swapped into or out
 * of the range at once.
 */
final class GroupHandler
{
    final GroupRegistry registry;
    final ComponentStorage<?>[] owned;
    final ComponentStorage<?>[] with;
    final ComponentStorage<?>[] without;
    final String description;
    /** A non-owning group's entities; null for an owning group. */
    final SparseSet entities;
    /** The family's claim on the order of each owned storage, aligned with {@code owned}. */
    final OrderClaim[] claims;
    /** The groups this one shares owned storages with; null for a non-owning group. */
    GroupFamily family;
    /** An owning group's entities sit at [0, length) of every owned storage. */
    int length;
    boolean closed;
    /** Scratch for each owned storage's index of an entity that joins. */
    private final int[] ownedIndices;
    private final List<Follower> followers = new ArrayList<>();

    GroupHandler(
        final GroupRegistry registry,
        final List<ComponentStorage<?>> owned,
        final List<ComponentStorage<?>> with,
        final List<ComponentStorage<?>> without,
        final String description)
    {
        this.registry = registry;
        this.owned = owned.toArray(new ComponentStorage<?>[0]);
        this.with = with.toArray(new ComponentStorage<?>[0]);
        this.without = without.toArray(new ComponentStorage<?>[0]);
        this.description = description;
        this.ownedIndices = new int[this.owned.length];
        this.claims = new OrderClaim[this.owned.length];
        this.entities = this.owned.length == 0 ? SparseSet.onSharedMemory(DeletionPolicy.SWAP_AND_POP,
            registry.offHeap, registry.walks, registry.pool, "group " + description) : null;
    }

    /** Starts following every storage of the rule. */
    void attach()
    {
        for (final ComponentStorage<?> storage : owned)
        {
            followers.add(new Follower(storage, false));
        }
        for (final ComponentStorage<?> storage : with)
        {
            followers.add(new Follower(storage, false));
        }
        for (final ComponentStorage<?> storage : without)
        {
            followers.add(new Follower(storage, true));
        }
        for (final Follower follower : followers)
        {
            Access.rawStorage(follower.storage).attach(follower);
        }
    }

    /** Stops following the storages, gives up the owned ones and frees a non-owning group's set. */
    void detach()
    {
        closed = true;
        for (final Follower follower : followers)
        {
            Access.rawStorage(follower.storage).detach(follower);
        }
        if (family != null)
        {
            family.remove(this);
        }
        else
        {
            entities.close();
        }
    }

    /** The set a walk leads with: a non-owning group's own, or the first owned storage. */
    SparseSet lead()
    {
        return entities != null ? entities : owned[0];
    }

    /** An owning group's length, 0 once it or its world is closed. */
    int openLength()
    {
        return closed || owned[0].isClosed() ? 0 : length;
    }

    boolean inGroup(final long entity)
    {
        if (entities != null)
        {
            return entities.indexOf(entity) >= 0;
        }
        final int index = owned[0].indexOf(entity);
        return index >= 0 && index < length;
    }

    boolean sameRule(final GroupHandler other)
    {
        return sameStorages(owned, other.owned) && sameStorages(with, other.with) &&
            sameStorages(without, other.without);
    }

    private static boolean sameStorages(final ComponentStorage<?>[] a, final ComponentStorage<?>[] b)
    {
        return a.length == b.length && Arrays.asList(a).containsAll(Arrays.asList(b));
    }

    /**
     * How restrictive the rule is: a group nested in another names at least as many components. Only orders the hooks
     * of one storage; a family orders its groups by the nesting relation itself.
     */
    private int restrictiveness()
    {
        return owned.length + with.length + without.length;
    }

    /** Whether the entity matches the rule, leaving out {@code ignored} (an excluded storage it is leaving). */
    private boolean matches(final long entity, final SparseSet ignored)
    {
        for (final ComponentStorage<?> storage : owned)
        {
            if (storage.indexOf(entity) < 0)
            {
                return false;
            }
        }
        return matchesOthers(entity, ignored);
    }

    /**
     * Whether the entity has every {@code with} component and no {@code without} component, leaving out
     * {@code ignored}.
     */
    private boolean matchesOthers(final long entity, final SparseSet ignored)
    {
        for (final ComponentStorage<?> storage : with)
        {
            if (storage.indexOf(entity) < 0)
            {
                return false;
            }
        }
        for (final ComponentStorage<?> storage : without)
        {
            if (storage != ignored && storage.indexOf(entity) >= 0)
            {
                return false;
            }
        }
        return true;
    }

    /** Takes in an entity that matches and is not in the group. */
    private void join(final long entity)
    {
        if (entities != null)
        {
            entities.insert(entity);
        }
        else if (family.groups.size() == 1)
        {
            moveIn(entity);
        }
        else
        {
            family.join(this, entity);
        }
    }

    /** Lets go of an entity in the group. */
    private void leave(final long entity)
    {
        if (entities != null)
        {
            entities.remove(entity);
        }
        else if (family.groups.size() == 1)
        {
            moveOut(owned[0].indexOf(entity));
        }
        else
        {
            family.leave(this, entity);
        }
    }

    /**
     * What an owning group alone in its family does when {@code added} (one of its owned storages) took the entity at
     * {@code index}: if the entity matches now, swap it into the range, with each owned storage's index looked up once
     * for both the match and the swap.
     */
    private void joinAlone(final long entity, final ComponentStorage<?> added, final int index)
    {
        if (index < length)
        {
            return;
        }
        final int[] from = ownedIndices;
        for (int k = 0; k < owned.length; k++)
        {
            from[k] = owned[k] == added ? index : owned[k].indexOf(entity);
            if (from[k] < 0)
            {
                return;
            }
        }
        if (!matchesOthers(entity, null))
        {
            return;
        }
        final int at = length++;
        for (int k = 0; k < owned.length; k++)
        {
            if (from[k] != at)
            {
                claims[k].swap(from[k], at);
            }
        }
    }

    /** Swaps an entity that matches into the owned range (its enclosing groups hold it already). */
    void moveIn(final long entity)
    {
        final int from = owned[0].indexOf(entity);
        final int at = length++;
        claims[0].swap(from, at);
        for (int k = 1; k < owned.length; k++)
        {
            claims[k].swap(owned[k].indexOf(entity), at);
        }
    }

    /**
     * Swaps the entity at {@code from} in the range out of it (its nested groups let it go already): it sits at that
     * index in every owned storage.
     */
    void moveOut(final int from)
    {
        final int at = --length;
        for (final OrderClaim claim : claims)
        {
            claim.swap(from, at);
        }
    }

    /**
     * Fills the group with the entities that match now. An owning group takes them in the order of its first owned
     * storage, front to back, so that a range already at the front (a snapshot of a world with the same group, loaded
     * without signals) keeps its order: every swap is then with itself.
     */
    void populate()
    {
        ComponentStorage<?> source = owned.length > 0 ? owned[0] : with[0];
        if (owned.length == 0)
        {
            for (final ComponentStorage<?> storage : with)
            {
                source = storage.memberCount() < source.memberCount() ? storage : source;
            }
        }
        final long[] candidates = new long[source.memberCount()];
        int count = 0;
        for (int i = 0; i < source.extent(); i++)
        {
            final long entity = source.entityAt(i);
            if (entity != Entity.NULL)
            {
                candidates[count++] = entity;
            }
        }
        if (entities != null)
        {
            for (int k = 0; k < count; k++)
            {
                entities.reserveFor(candidates[k], count);
            }
        }
        for (int k = 0; k < count; k++)
        {
            if (!inGroup(candidates[k]) && matches(candidates[k], null))
            {
                if (entities != null)
                {
                    entities.insert(candidates[k]);
                }
                else
                {
                    moveIn(candidates[k]);
                }
            }
        }
    }

    /** How the group follows one storage of its rule. */
    private final class Follower implements StorageHook
    {
        final ComponentStorage<?> storage;
        final boolean excluded;
        /** Whether the group owns the storage: then its packed index tells whether the entity is in the group. */
        final boolean isOwned;

        Follower(final ComponentStorage<?> storage, final boolean excluded)
        {
            this.storage = storage;
            this.excluded = excluded;
            this.isOwned = Arrays.asList(owned).contains(storage);
        }

        /** Whether the entity at {@code index} of the storage is in the group. */
        private boolean holds(final long entity, final int index)
        {
            return isOwned ? index < length : inGroup(entity);
        }

        @Override
        public int order()
        {
            return restrictiveness();
        }

        @Override
        public void reserve(final long entity)
        {
            if (entities != null && !excluded)
            {
                // Room for every member the required storage will have: the group never holds more.
                entities.reserveFor(entity, storage.memberCount() + 1);
            }
        }

        @Override
        public void added(final long entity, final int index)
        {
            if (excluded)
            {
                if (inGroup(entity))
                {
                    leave(entity);
                }
            }
            else if (isOwned && family.groups.size() == 1)
            {
                joinAlone(entity, storage, index);
            }
            else if (!holds(entity, index) && matches(entity, null))
            {
                join(entity);
            }
        }

        @Override
        public void removing(final long entity, final int index)
        {
            if (!excluded)
            {
                if (isOwned && family.groups.size() == 1)
                {
                    // The entity sits at the same index in every owned storage.
                    if (index < length)
                    {
                        moveOut(index);
                    }
                }
                else if (holds(entity, index))
                {
                    leave(entity);
                }
            }
            else if (!inGroup(entity) && matches(entity, storage))
            {
                join(entity);
            }
        }
    }
}
