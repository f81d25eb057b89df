package dev.cairn.model;

import dev.cairn.Entity;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reference model of an {@link dev.cairn.internal.EntityPool}: which indices exist, their current versions, which are
 * alive, and the order in which free indices come back.
 * <p>
 * Recycling is LIFO: the most recently destroyed index is the next one created, with its next version. After
 * {@code clear()} the order among the indices it freed is not specified, so they form one unordered group on the
 * free stack; indices destroyed later sit on top of it.
 */
public final class PoolModel
{
    private final int maxEntities;
    private final ArrayList<Integer> versions = new ArrayList<>();
    private final ArrayList<Boolean> alive = new ArrayList<>();
    private final ArrayDeque<Set<Integer>> free = new ArrayDeque<>();
    private int aliveCount;

    /**
     * Creates the model of an empty pool.
     *
     * @param maxEntities the pool's id space.
     */
    public PoolModel(final int maxEntities)
    {
        this.maxEntities = maxEntities;
    }

    /**
     * Entities alive.
     *
     * @return the expected {@code aliveCount()}.
     */
    public int aliveCount()
    {
        return aliveCount;
    }

    /**
     * Indices ever handed out.
     *
     * @return the expected {@code createdCount()}.
     */
    public int createdCount()
    {
        return versions.size();
    }

    /**
     * Whether every index is alive, so {@code create()} must throw.
     *
     * @return true if the id space is exhausted.
     */
    public boolean exhausted()
    {
        return aliveCount == maxEntities;
    }

    /**
     * Whether a handle is alive.
     *
     * @param entity any value.
     * @return the expected {@code isAlive(entity)}.
     */
    public boolean isAlive(final long entity)
    {
        if (!Entity.isWellFormed(entity))
        {
            return false;
        }
        final int index = Entity.index(entity);
        return index < versions.size() && alive.get(index) && versions.get(index) == Entity.version(entity);
    }

    /**
     * The current version of a created index.
     *
     * @param index an index below {@link #createdCount()}.
     * @return the expected {@code currentVersion(index)}.
     */
    public int currentVersion(final int index)
    {
        return versions.get(index);
    }

    /**
     * The indices {@code create()} may return next: exactly one unless the top of the free stack came from a clear.
     * Empty if a new index will be handed out.
     *
     * @return the candidates.
     */
    public Set<Integer> nextCandidates()
    {
        return free.isEmpty() ? Set.of() : free.peek();
    }

    /**
     * Records that {@code create()} returned {@code entity}, after the test has checked it was a candidate.
     *
     * @param entity the handle created.
     */
    public void created(final long entity)
    {
        final int index = Entity.index(entity);
        if (free.isEmpty())
        {
            versions.add(0);
            alive.add(true);
        }
        else
        {
            final Set<Integer> top = free.peek();
            top.remove(index);
            if (top.isEmpty())
            {
                free.pop();
            }
            alive.set(index, true);
        }
        aliveCount++;
    }

    /**
     * The handle a new index would get.
     *
     * @return index {@link #createdCount()} with version 0.
     */
    public long nextNewHandle()
    {
        return Entity.of(versions.size(), 0);
    }

    /**
     * Destroys an alive handle: its index gets the next version and goes on top of the free stack.
     *
     * @param entity an alive handle.
     */
    public void destroy(final long entity)
    {
        final int index = Entity.index(entity);
        versions.set(index, Entity.nextVersion(versions.get(index)));
        alive.set(index, false);
        final Set<Integer> single = new LinkedHashSet<>();
        single.add(index);
        free.push(single);
        aliveCount--;
    }

    /**
     * Destroys every alive entity; their indices become one unordered group on top of the free stack.
     */
    public void clear()
    {
        final Set<Integer> group = new LinkedHashSet<>();
        for (int index = 0; index < versions.size(); index++)
        {
            if (alive.get(index))
            {
                versions.set(index, Entity.nextVersion(versions.get(index)));
                alive.set(index, false);
                group.add(index);
            }
        }
        if (!group.isEmpty())
        {
            free.push(group);
        }
        aliveCount = 0;
    }

    /**
     * The alive handles.
     *
     * @return every alive entity, in index order.
     */
    public List<Long> aliveEntities()
    {
        final ArrayList<Long> out = new ArrayList<>(aliveCount);
        for (int index = 0; index < versions.size(); index++)
        {
            if (alive.get(index))
            {
                out.add(Entity.of(index, versions.get(index)));
            }
        }
        return out;
    }
}
