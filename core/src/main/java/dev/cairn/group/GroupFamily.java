package dev.cairn.group;

import dev.cairn.set.OrderClaim;
import dev.cairn.storage.ComponentStorage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Owning groups that share owned storages, each nested in the one before it, and the claims on their storages' order
 * ({@link OrderClaim#claim}): a nested group's entities are a prefix of the range of every group enclosing it.
 */
final class GroupFamily
{
    /** Outermost first: each group's entities are a prefix of the range of every group before it. */
    final List<GroupHandler> groups = new ArrayList<>();
    /** Every storage some group of the family owns. */
    final Map<ComponentStorage<?>, OrderClaim> claims = new LinkedHashMap<>();

    GroupHandler innermost()
    {
        return groups.get(groups.size() - 1);
    }

    /** Moves an entity into {@code group} and every group enclosing it, outermost first. */
    void join(final GroupHandler group, final long entity)
    {
        for (final GroupHandler each : groups)
        {
            if (!each.inGroup(entity))
            {
                each.moveIn(entity);
            }
            if (each == group)
            {
                return;
            }
        }
    }

    /** Moves an entity out of {@code group} and every group nested in it, innermost first. */
    void leave(final GroupHandler group, final long entity)
    {
        for (int k = groups.size() - 1; k >= 0; k--)
        {
            final GroupHandler each = groups.get(k);
            if (each.inGroup(entity))
            {
                each.moveOut(each.owned[0].indexOf(entity));
            }
            if (each == group)
            {
                return;
            }
        }
    }

    /**
     * Adds a group in its place, in front of the first member that nests in it, and rebuilds every range,
     * outermost first. The place follows from the nesting relation, not from how many components the rules name:
     * a group owning Pos and Vel nests in one owning Pos with Vel, though both name two.
     */
    void add(final GroupHandler group)
    {
        int at = 0;
        while (at < groups.size() && !strictlyNests(groups.get(at), group))
        {
            at++;
        }
        groups.add(at, group);
        group.family = this;
        for (int k = 0; k < group.owned.length; k++)
        {
            group.claims[k] = claims.computeIfAbsent(
                group.owned[k], storage -> OrderClaim.claim(storage, "group " + group.description));
        }
        rebuild();
    }

    /** Whether {@code inner} nests in {@code outer} and the two rules differ (identical rules nest both ways). */
    private static boolean strictlyNests(final GroupHandler inner, final GroupHandler outer)
    {
        return nests(inner, outer) && !nests(outer, inner);
    }

    /** Whether {@code inner} nests in {@code outer}: every entity of inner matches outer. */
    static boolean nests(final GroupHandler inner, final GroupHandler outer)
    {
        final List<ComponentStorage<?>> innerOwned = Arrays.asList(inner.owned);
        final List<ComponentStorage<?>> innerRequired = new ArrayList<>(innerOwned);
        innerRequired.addAll(Arrays.asList(inner.with));
        final List<ComponentStorage<?>> outerRequired = new ArrayList<>(Arrays.asList(outer.owned));
        outerRequired.addAll(Arrays.asList(outer.with));
        return innerOwned.containsAll(Arrays.asList(outer.owned)) && innerRequired.containsAll(outerRequired) &&
            Arrays.asList(inner.without).containsAll(Arrays.asList(outer.without));
    }

    /** Rebuilds every range of the family from scratch, outermost first; it reorders the storages as a sort does. */
    void rebuild()
    {
        for (final GroupHandler each : groups)
        {
            each.length = 0;
        }
        for (final GroupHandler each : groups)
        {
            each.populate();
        }
    }

    /** Takes a closed group out, releasing the claims on the storages no other group of the family owns. */
    void remove(final GroupHandler group)
    {
        groups.remove(group);
        final Set<ComponentStorage<?>> stillOwned = new LinkedHashSet<>();
        for (final GroupHandler each : groups)
        {
            stillOwned.addAll(Arrays.asList(each.owned));
        }
        for (final ComponentStorage<?> storage : group.owned)
        {
            if (!stillOwned.contains(storage))
            {
                claims.remove(storage).release();
            }
        }
    }
}
