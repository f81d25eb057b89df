package dev.cairn.group;

import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.Walks;
import dev.cairn.storage.Storages;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The groups of one world, and where they find its storages and memory; the world keeps one.
 */
public final class GroupRegistry
{
    final Storages storages;
    final OffHeap offHeap;
    final Walks walks;
    final EntityPool pool;
    final List<RuntimeGroup> groups = new ArrayList<>();

    /**
     * Creates the group registry of a world.
     *
     * @param storages the world's storages.
     * @param offHeap  the world's memory, which non-owning groups' sets share.
     * @param walks    the world's walks.
     * @param pool     the world's entities.
     */
    public GroupRegistry(final Storages storages, final OffHeap offHeap, final Walks walks, final EntityPool pool)
    {
        this.storages = storages;
        this.offHeap = offHeap;
        this.walks = walks;
        this.pool = pool;
    }

    /**
     * Starts the rule of a new group of this world.
     *
     * @return a builder.
     */
    public GroupBuilder builder()
    {
        return new GroupBuilder(this);
    }

    /**
     * Rebuilds every group from the storages as they are, for a snapshot loader that filled them without signals:
     * owning groups reorder their owned storages, non-owning groups refill their sets.
     */
    public void rebuild()
    {
        final Set<GroupFamily> families = new LinkedHashSet<>();
        for (final RuntimeGroup group : groups)
        {
            final GroupHandler handler = group.handler;
            if (handler.family != null)
            {
                families.add(handler.family);
            }
            else
            {
                handler.entities.clear();
                handler.populate();
            }
        }
        for (final GroupFamily family : families)
        {
            family.rebuild();
        }
    }

    /**
     * The groups of this world, in the order they were built.
     *
     * @return a new list.
     */
    public List<RuntimeGroup> groups()
    {
        return new ArrayList<>(groups);
    }
}
