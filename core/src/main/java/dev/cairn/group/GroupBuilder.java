package dev.cairn.group;

import dev.cairn.DeletionPolicy;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.RuleBuilder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects a group's rule; {@link dev.cairn.world.World#group()} makes one. The components a group owns come first
 * ({@link #owning}); {@link #with} and {@link #without} add what it requires without owning, and what it excludes.
 */
public final class GroupBuilder extends RuleBuilder<GroupBuilder>
{
    private final GroupRegistry registry;
    private final List<ComponentStorage<?>> owned = new ArrayList<>();

    GroupBuilder(final GroupRegistry registry)
    {
        super(registry.storages, "group");
        this.registry = registry;
    }

    /**
     * Components the group owns: their storages keep the group's entities at the front, aligned.
     *
     * @param components component records whose storages are not {@link DeletionPolicy#IN_PLACE}.
     * @return this builder.
     */
    @SafeVarargs
    public final GroupBuilder owning(final Class<? extends Record>... components)
    {
        return add(owned, components);
    }

    /**
     * As {@link #owning(Class[])}, with storages of this world.
     *
     * @param storages storages of this world.
     * @return this builder.
     * @throws IllegalArgumentException if a storage is not this world's.
     */
    public GroupBuilder owning(final ComponentStorage<?>... storages)
    {
        return add(owned, storages);
    }

    /**
     * Creates the group, registers it with its world and fills it with the entities that match now; an owning group
     * reorders its owned storages to do so.
     *
     * @return the group.
     * @throws IllegalArgumentException  if the rule requires nothing, names a component twice, or owns an
     *                                   {@link DeletionPolicy#IN_PLACE} storage.
     * @throws IllegalStateException     if an owned storage is owned by a group this one does not nest with (the
     *                                   message names both), the owned storages belong to groups that do not nest in
     *                                   each other (the message names two), it is built inside a walk or a
     *                                   listener, a parallel walk runs, or the world is closed; nothing is registered
     *                                   or changed then.
     * @throws dev.cairn.OffHeapExhaustedException if a non-owning group's memory cannot be allocated.
     */
    public RuntimeGroup build()
    {
        validate();
        if (registry.walks.isParallel())
        {
            throw registry.walks.refusedChange("build group " + describe(), "build it before the parallel walk or " +
                "after it");
        }
        registry.walks.refuseWhileDeferring("build group " + describe(), "it takes in the entities that match as " +
            "it is built (an owning group reorders its storages); build it before the walk or after it returns");
        final GroupHandler handler = new GroupHandler(registry, owned, with, without, describe());
        if (!owned.isEmpty())
        {
            final GroupFamily family = familyFor(handler);
            for (final ComponentStorage<?> storage : owned)
            {
                if (!family.claims.containsKey(storage) && storage.ownerName() != null)
                {
                    throw new IllegalStateException(storage.name() + " is owned by " + storage.ownerName() +
                        ", so group " + handler.description + " cannot own it too; close that group first");
                }
            }
            // Everything is checked: from here on the group is registered whole or not at all.
            family.add(handler);
        }
        else
        {
            try
            {
                handler.populate();
            }
            catch (final RuntimeException ex)
            {
                handler.entities.close();
                throw ex;
            }
        }
        handler.attach();
        final RuntimeGroup group = new RuntimeGroup(handler);
        registry.groups.add(group);
        return group;
    }

    @Override
    protected void describeLists(final StringBuilder text)
    {
        append(text, "owning", owned);
    }

    @Override
    protected GroupBuilder self()
    {
        return this;
    }

    private void validate()
    {
        if (owned.isEmpty() && with.isEmpty())
        {
            throw new IllegalArgumentException(
                "a group needs at least one required component: call owning(...) or with(...)");
        }
        requireEachOnce(owned, with, without);
        for (final ComponentStorage<?> storage : owned)
        {
            if (storage.policy() == DeletionPolicy.IN_PLACE)
            {
                throw new IllegalArgumentException(storage.name() + " uses DeletionPolicy.IN_PLACE, whose " +
                    "tombstones would break the packed range an owning group keeps at the front of its storages; a " +
                    "group can own SWAP_AND_POP and SWAP_ONLY storages: require it with with(...) instead, or change " +
                    "its policy");
            }
        }
    }

    /** The family the new owning group joins, after checking it nests with every group it shares storages with. */
    private GroupFamily familyFor(final GroupHandler group)
    {
        GroupFamily family = null;
        GroupHandler familyMember = null;
        for (final RuntimeGroup built : registry.groups)
        {
            final GroupHandler other = built.handler;
            if (other.family == null || !sharesOwned(other, group))
            {
                continue;
            }
            if (!GroupFamily.nests(group, other) && !GroupFamily.nests(other, group))
            {
                throw new IllegalStateException("group " + group.description + " cannot own what group " +
                    other.description + " owns: groups may share owned storages only if one nests in the other " +
                    "(owns all the other owns, and requires and excludes all the other does); make them nest, or " +
                    "own different storages");
            }
            if (family != null && other.family != family)
            {
                throw new IllegalStateException("group " + group.description + " cannot own what group " +
                    familyMember.description + " and group " + other.description + " own: neither of those nests " +
                    "in the other, so their storages cannot keep one nested order; own the storages of only one of " +
                    "them, or make them nest");
            }
            family = other.family;
            familyMember = other;
        }
        if (family != null)
        {
            for (final GroupHandler member : family.groups)
            {
                if (!GroupFamily.nests(group, member) && !GroupFamily.nests(member, group))
                {
                    throw new IllegalStateException("group " + group.description + " cannot join the groups that " +
                        "own " + member.description + "'s storages: it does not nest with group " +
                        member.description);
                }
            }
        }
        return family != null ? family : new GroupFamily();
    }

    private static boolean sharesOwned(final GroupHandler a, final GroupHandler b)
    {
        for (final ComponentStorage<?> storage : a.owned)
        {
            if (Arrays.asList(b.owned).contains(storage))
            {
                return true;
            }
        }
        return false;
    }
}
