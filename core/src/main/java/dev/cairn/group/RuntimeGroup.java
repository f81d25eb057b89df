package dev.cairn.group;

import dev.cairn.DeletionPolicy;
import dev.cairn.internal.Failures;
import dev.cairn.internal.Walks;
import dev.cairn.parallel.ChunkAction;
import dev.cairn.parallel.Chunks;
import dev.cairn.set.IndexComparator;
import dev.cairn.set.OrderClaim;
import dev.cairn.storage.ComponentStorage;

import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * The entities that have every owned and {@code with} component and no {@code without} component, kept up to date
 * as components come and go: EnTT's group.
 * <pre>{@code
 * RuntimeGroup movement = world.group().owning(Position.class, Velocity.class).without(Frozen.class).build();
 * }</pre>
 * <b>Owning groups</b> own storages: every owned storage keeps the group's entities at packed indices
 * {@code [0, extent())}, in the same order, so a walk is a straight pass over aligned columns with no lookup (a
 * full-owning group owns every component it requires; a partial-owning one also requires {@code with} components it
 * probes through their sparse arrays). An owned storage's order belongs to the group: sorting it directly throws,
 * {@link #sort(IndexComparator)} permutes all owned storages together. A storage is owned by at most one group, unless
 * groups nest: a group may own storages another owns if it owns all of them and requires and excludes all the other
 * does, so that its entities are a subset kept at the front of the other's range. Owned storages must not use
 * {@link DeletionPolicy#IN_PLACE}, whose tombstones would break the range.
 * <p>
 * <b>Non-owning groups</b> own nothing and keep their own sparse set of matching entities, on the world's memory; they
 * spare a view the probing of every candidate, not the lookups of the components.
 * <p>
 * <b>Keeping up.</b> A group follows each storage of its rule, so every add, removal, destroy and clear keeps it
 * exact. Its walks follow the rule of every walk (see {@link dev.cairn.View}): while one runs, the structure holds
 * still, and the changes the action makes, joins and leaves included, are applied when it returns.
 * <p>
 * {@link #close()} detaches the group and gives up its storages (and frees a non-owning group's memory); closing the
 * world does too. Not thread-safe.
 */
public final class RuntimeGroup implements AutoCloseable
{
    final GroupHandler handler;
    private final Walks walks;

    RuntimeGroup(final GroupHandler handler)
    {
        this.handler = handler;
        this.walks = handler.registry.walks;
    }

    /**
     * How many entities the group holds.
     *
     * @return the count; 0 once closed.
     */
    public int size()
    {
        return handler.entities != null ? handler.entities.memberCount() : handler.openLength();
    }

    /**
     * Whether the group holds no entity.
     *
     * @return true if empty.
     */
    public boolean isEmpty()
    {
        return size() == 0;
    }

    /**
     * Whether an entity is in the group.
     *
     * @param entity any value.
     * @return true if it is.
     * @throws IllegalStateException if the group or its world is closed.
     */
    public boolean contains(final long entity)
    {
        ensureOpen();
        return handler.inGroup(entity);
    }

    /**
     * Whether the group owns storages: its entities sit at the front of them.
     *
     * @return true for an owning group.
     */
    public boolean isOwning()
    {
        return handler.entities == null;
    }

    /**
     * The owned storage at position {@code k} of the list given when the group was built.
     *
     * @param k from 0 to {@link #ownedCount()} - 1.
     * @return the storage.
     * @throws IndexOutOfBoundsException if {@code k} is out of range.
     * @throws IllegalStateException     if the group or its world is closed.
     */
    public ComponentStorage<?> owned(final int k)
    {
        ensureOpen();
        final ComponentStorage<?>[] owned = handler.owned;
        if (k < 0 || k >= owned.length)
        {
            throw new IndexOutOfBoundsException("group " + handler.description + " owns " + owned.length +
                " storages, at 0 to " + (owned.length - 1) + "; there is none at " + k);
        }
        return owned[k];
    }

    /**
     * How many storages the group owns.
     *
     * @return 0 for a non-owning group.
     */
    public int ownedCount()
    {
        return handler.owned.length;
    }

    /**
     * Calls {@code action} with each entity of the group, from the front of its range to the back. A walk: the
     * structure holds still, and changes the action makes are applied when it returns.
     *
     * @param action receives each entity.
     * @throws IllegalStateException if the group or its world is closed.
     */
    public void forEach(final LongConsumer action)
    {
        Objects.requireNonNull(action, "action is null: pass what to do with each entity");
        ensureOpen();
        walks.run(walks.beginWalk("group " + handler.description + ".forEach"), () ->
        {
            final int end = extent();
            for (int i = 0; i < end; i++)
            {
                action.accept(entityAt(i));
            }
        });
    }

    /**
     * Calls {@code action} with each index of an owning group's range, from the front to the back: at index {@code i}
     * every owned storage holds the group's {@code i}th entity. A walk, as {@link #forEach}.
     *
     * @param action receives each index.
     * @throws IllegalStateException if the group owns no storage, or it or its world is closed.
     */
    public void forEachIndex(final IntConsumer action)
    {
        Objects.requireNonNull(action, "action is null: pass what to do with each index");
        ensureOpen();
        if (handler.entities != null)
        {
            throw new IllegalStateException("group " + handler.description + " owns no storage, so its indices are " +
                "not an index of any storage: walk it with forEach");
        }
        walks.run(walks.beginWalk("group " + handler.description + ".forEachIndex"), () ->
        {
            final int end = handler.length;
            for (int i = 0; i < end; i++)
            {
                action.accept(i);
            }
        });
    }

    /**
     * The end of the range a walk covers: the group's entities are at indices {@code [0, extent())} of every owned
     * storage (or of a non-owning group's own set).
     *
     * @return the extent; 0 once closed.
     */
    public int extent()
    {
        return handler.entities != null ? handler.entities.extent() : handler.openLength();
    }

    /**
     * The entity at an index of the group's range, for generated groups.
     *
     * @param index from 0 to {@link #extent()} - 1.
     * @return its handle.
     * @throws IndexOutOfBoundsException if the index is out of range.
     * @throws IllegalStateException     if the group is closed.
     */
    public long entityAt(final int index)
    {
        if (handler.entities != null)
        {
            return handler.entities.entityAt(index);
        }
        if (index < 0 || index >= handler.openLength())
        {
            ensureOpen();
            throw new IndexOutOfBoundsException("index " + index + " is outside the group's range [0, " +
                handler.length + ") of group " + handler.description);
        }
        return handler.owned[0].entityAt(index);
    }

    /**
     * Splits the group's range into chunks that run {@code action} on {@code pool}, as a parallel walk of the world:
     * the engine of generated groups' {@code parallelForEach}.
     *
     * @param pool      where the chunks run; the calling thread waits.
     * @param chunkSize indices per chunk, 1 or more, or {@link Chunks#AUTOMATIC}.
     * @param what      the walk, for messages.
     * @param action    walks one chunk.
     * @throws IllegalStateException if the group or its world is closed, or a parallel walk of it runs already.
     */
    public void forEachChunk(final ForkJoinPool pool, final int chunkSize, final String what, final ChunkAction action)
    {
        Chunks.requireValid(pool, chunkSize, action);
        ensureOpen();
        walks.runParallel(what, pool, extent(), chunkSize, action);
    }

    /**
     * Sorts the group so that walks visit its entities in ascending {@code comparator} order, permuting every owned
     * storage together; sorting an owned storage directly throws. The comparator runs with the structure held, as a
     * listener: changes it makes are applied after the sort.
     *
     * @param comparator compares packed indices of the first owned storage.
     * @throws IllegalArgumentException if the comparator reads another storage than the first owned one.
     * @throws IllegalStateException    if the group owns nothing, a more restrictive group nests in it, or a walk or
     *                                  listener holds the world's structure; nothing is reordered then.
     */
    public void sort(final IndexComparator comparator)
    {
        ensureOpen();
        final String description = handler.description;
        if (handler.entities != null)
        {
            throw new IllegalStateException("group " + description + " owns no storage, so it has no order of its " +
                "own to sort; sort a storage and walk a view, or own the storages");
        }
        IndexComparator.requireReading(comparator, "group " + description, handler.owned);
        // A group built twice with one rule holds the same range as its twin, so either twin may be sorted.
        final GroupHandler inner = handler.family.innermost();
        if (inner != handler && !inner.sameRule(handler))
        {
            throw new IllegalStateException("cannot sort group " + description + ": group " + inner.description +
                " nests in it and keeps its entities at the front of the same storages; sort the innermost group");
        }
        walks.refuseWhileDeferring("sort group " + description, "sort it after the walk or listener returns");
        final int length = handler.length;
        final OrderClaim[] claims = handler.claims;
        for (final OrderClaim claim : claims)
        {
            claim.ensureReorderable(length);
        }
        final int hold = walks.hold("the comparator of group " + description + ".sort");
        final int[] order;
        try
        {
            order = claims[0].sortedOrder(length, comparator);
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(walks.end(hold, thrown));
        }
        for (final OrderClaim claim : claims)
        {
            claim.permute(order.clone(), length);
        }
        walks.end(hold);
    }

    /**
     * Whether the group is still open.
     *
     * @return false once it or its world is closed.
     */
    public boolean isOpen()
    {
        return !handler.closed && !handler.lead().isClosed();
    }

    /**
     * Throws if the group or its world is closed.
     *
     * @throws IllegalStateException naming the group.
     */
    public void ensureOpen()
    {
        if (handler.closed)
        {
            throw new IllegalStateException("group " + handler.description + " is closed; build a new one to continue");
        }
        handler.lead().ensureOpen();
    }

    /**
     * Stops following the storages, gives up the owned ones (they can be sorted again) and frees a non-owning group's
     * memory. Idempotent.
     *
     * @throws IllegalStateException inside a walk or a listener, or while another thread walks the world; nothing is
     *                               closed then.
     */
    @Override
    public void close()
    {
        if (handler.closed)
        {
            return;
        }
        if (!handler.lead().isClosed())
        {
            walks.refuseWhileDeferring("close group " + handler.description, "close it after the walk or listener " +
                "returns");
            if (walks.isWalked())
            {
                throw new IllegalStateException("group " + handler.description + " cannot be closed while another " +
                    "thread walks its world; close it after the walk returns");
            }
        }
        handler.detach();
        handler.registry.groups.remove(this);
    }

    @Override
    public String toString()
    {
        return "RuntimeGroup[" + handler.description + ", " + (isOpen() ? size() + " entities" : "closed") + "]";
    }
}
