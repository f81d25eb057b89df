package dev.cairn.group;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.Failures;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.Walks;
import dev.cairn.parallel.ChunkAction;
import dev.cairn.parallel.Chunks;
import dev.cairn.set.IndexComparator;
import dev.cairn.set.OrderClaim;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.internal.StorageHook;
import dev.cairn.storage.Storages;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * {@code [0, length())}, in the same order, so iterating is a straight walk over aligned columns with no lookup
 * (a full-owning group owns every component it requires; a partial-owning one also requires {@code with} components
 * it probes through their sparse arrays). An owned storage's order belongs to the group: sorting it directly throws,
 * {@link #sort(IndexComparator)} permutes all owned storages together. A storage is owned by at most one group, unless
 * groups nest: a group may own storages another owns if it owns all of them and requires and excludes all the other
 * does, so that its entities are a subset kept at the front of the other's range. Owned storages must not use
 * {@link DeletionPolicy#IN_PLACE}, whose tombstones would break the range.
 * <p>
 * <b>Non-owning groups</b> own nothing and keep their own sparse set of matching entities, on the world's memory; they
 * spare a view the probing of every candidate, not the lookups of the components.
 * <p>
 * <b>Keeping up.</b> A group follows each storage of its rule through a {@link StorageHook}: every add, removal,
 * {@code destroy} and {@code clear}, also from inside iterations and listeners, keeps it exact. Joining or leaving an
 * owning group swaps the entity into or out of the range in every owned storage, so it reorders them: a cursor walking
 * an owned storage throws at its next step, and a view that walks an owned storage while its action makes
 * <em>other</em> entities join or leave the group may visit some twice or miss some, as when it removes other
 * entities. Iterating the group itself is safe: removing the current entity, or any of its components, is fine.
 * <p>
 * {@link #close()} detaches the group and gives up its storages (and frees a non-owning group's memory); closing the
 * world does too. Not thread-safe.
 */
public final class RuntimeGroup implements AutoCloseable
{
    private final Registry world;
    private final ComponentStorage<?>[] owned;
    private final ComponentStorage<?>[] with;
    private final ComponentStorage<?>[] without;
    private final String description;
    /** Scratch for each owned storage's index of an entity that joins. */
    private final int[] ownedIndices;
    /** A non-owning group's entities; null for an owning group. */
    private final SparseSet entities;
    /** The groups this one shares owned storages with, outermost first; null for a non-owning group. */
    private Family family;
    /** The family's claim on the order of each owned storage, aligned with {@code owned}. */
    private final OrderClaim[] claims;
    private final List<Follower> followers = new ArrayList<>();
    /** An owning group's entities sit at [0, length) of every owned storage. */
    private int length;
    private boolean closed;

    private RuntimeGroup(final Builder builder)
    {
        this.world = builder.world;
        this.owned = builder.owned.toArray(new ComponentStorage<?>[0]);
        this.with = builder.with.toArray(new ComponentStorage<?>[0]);
        this.without = builder.without.toArray(new ComponentStorage<?>[0]);
        this.ownedIndices = new int[owned.length];
        this.claims = new OrderClaim[owned.length];
        this.description = builder.describe();
        this.entities = owned.length == 0 ?
            SparseSet.onSharedMemory(DeletionPolicy.SWAP_AND_POP, builder.offHeap, builder.world.walks, builder.pool,
                "group " + description) : null;
    }

    /**
     * How many entities the group holds.
     *
     * @return the count; 0 once closed.
     */
    public int size()
    {
        return entities != null ? entities.memberCount() : openLength();
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
        if (entities != null)
        {
            return entities.contains(entity);
        }
        final int index = owned[0].indexOf(entity);
        return index >= 0 && index < length;
    }

    /**
     * Whether the group owns storages: its entities sit at the front of them.
     *
     * @return true for an owning group.
     */
    public boolean isOwning()
    {
        return entities == null;
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
        if (k < 0 || k >= owned.length)
        {
            throw new IndexOutOfBoundsException("group " + description + " owns " + owned.length + " storages, at 0 " +
                "to " + (owned.length - 1) + "; there is none at " + k);
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
        return owned.length;
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
        final int walk = world.walks.beginWalk("group " + description + ".forEach");
        try
        {
            final int end = extent();
            for (int i = 0; i < end; i++)
            {
                action.accept(entityAt(i));
            }
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(world.walks.end(walk, thrown));
        }
        world.walks.end(walk);
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
        if (entities != null)
        {
            throw new IllegalStateException("group " + description + " owns no storage, so its indices are not an " +
                "index of any storage: walk it with forEach");
        }
        final int walk = world.walks.beginWalk("group " + description + ".forEachIndex");
        try
        {
            final int end = length;
            for (int i = 0; i < end; i++)
            {
                action.accept(i);
            }
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(world.walks.end(walk, thrown));
        }
        world.walks.end(walk);
    }
    /**
     * The end of the range an iteration walks: the group's entities are at indices {@code [0, extent())} of every
     * owned storage (or of a non-owning group's own set).
     *
     * @return the extent; 0 once closed.
     */
    public int extent()
    {
        return entities != null ? entities.extent() : openLength();
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
        if (entities != null)
        {
            return entities.entityAt(index);
        }
        if (index < 0 || index >= openLength())
        {
            ensureOpen();
            throw new IndexOutOfBoundsException("index " + index + " is outside the group's range [0, " + length +
                ") of group " + description);
        }
        return owned[0].entityAt(index);
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
    public void forEachChunk(
        final ForkJoinPool pool, final int chunkSize, final String what, final ChunkAction action)
    {
        Chunks.requireValid(pool, chunkSize, action);
        ensureOpen();
        world.walks.runParallel(what, pool, extent(), chunkSize, action);
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
        if (entities != null)
        {
            throw new IllegalStateException(
                "group " + description + " owns no storage, so it has no order of its own to sort; sort a storage " +
                "and iterate a view, or own the storages");
        }
        IndexComparator.requireReading(comparator, "group " + description, owned);
        final RuntimeGroup inner = innermostOther();
        if (inner != null)
        {
            throw new IllegalStateException(
                "cannot sort group " + description + ": group " + inner.description + " nests in it and keeps its " +
                "entities at the front of the same storages; sort the innermost group");
        }
        world.walks.refuseWhileDeferring("sort group " + description, "sort it after the walk or listener returns");
        for (final OrderClaim claim : claims)
        {
            claim.ensureReorderable(length);
        }
        final int hold = world.walks.hold("the comparator of group " + description + ".sort");
        final int[] order;
        try
        {
            order = claims[0].sortedOrder(length, comparator);
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(world.walks.end(hold, thrown));
        }
        for (final OrderClaim claim : claims)
        {
            claim.permute(order.clone(), length);
        }
        world.walks.end(hold);
    }

    /**
     * The innermost group of the family if it nests in this one with a rule of its own, else null: sorting this group
     * would break that group's range. A group built twice with one rule (each thread its own generated group) holds
     * the same entities in the same range as its twin, so either twin may be sorted.
     */
    private RuntimeGroup innermostOther()
    {
        final RuntimeGroup inner = family.innermost();
        return inner == this || sameRule(inner) ? null : inner;
    }

    private boolean sameRule(final RuntimeGroup other)
    {
        return sameStorages(owned, other.owned) && sameStorages(with, other.with) &&
            sameStorages(without, other.without);
    }

    private static boolean sameStorages(final ComponentStorage<?>[] a, final ComponentStorage<?>[] b)
    {
        return a.length == b.length && Arrays.asList(a).containsAll(Arrays.asList(b));
    }

    /**
     * Whether the group is still open.
     *
     * @return false once it or its world is closed.
     */
    public boolean isOpen()
    {
        return !closed && !owned0Closed();
    }

    /**
     * Stops following the storages, gives up the owned ones (they can be sorted again) and frees a non-owning group's
     * memory. Idempotent.
     *
     * @throws IllegalStateException if the group is being iterated; nothing is closed then.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        if (!owned0Closed())
        {
            world.walks.refuseWhileDeferring("close group " + description, "close it after the walk or listener " +
                "returns");
            if (world.walks.isWalked())
            {
                throw new IllegalStateException("group " + description + " cannot be closed while another thread " +
                    "walks its world; close it after the walk returns");
            }
        }
        closed = true;
        for (final Follower follower : followers)
        {
            Access.rawStorage(follower.storage).detach(follower);
        }
        world.groups.remove(this);
        if (family != null)
        {
            family.remove(this);
        }
        else
        {
            entities.close();
        }
    }

    @Override
    public String toString()
    {
        return "RuntimeGroup[" + description + ", " + (isOpen() ? size() + " entities" : "closed") + "]";
    }

    // -------------------------------------------------------------------------------------------------------------
    // Keeping the group exact.
    // -------------------------------------------------------------------------------------------------------------

    /** An owning group's length, 0 once it or its world is closed (a closed non-owning group's set reads 0 too). */
    private int openLength()
    {
        return closed || owned[0].isClosed() ? 0 : length;
    }

    private SparseSet lead()
    {
        return entities != null ? entities : owned[0];
    }

    private boolean owned0Closed()
    {
        return lead().isClosed();
    }

    /**
     * Throws if the group or its world is closed.
     *
     * @throws IllegalStateException naming the group.
     */
    public void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("group " + description + " is closed; build a new one to continue");
        }
        lead().ensureOpen();
    }

    /**
     * How restrictive the rule is: a group nested in another names at least as many components. Only orders the hooks
     * of one storage; a family orders its groups by the nesting relation itself.
     */
    private int restrictiveness()
    {
        return owned.length + with.length + without.length;
    }

    private boolean inGroup(final long entity)
    {
        if (entities != null)
        {
            return entities.indexOf(entity) >= 0;
        }
        final int index = owned[0].indexOf(entity);
        return index >= 0 && index < length;
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

    /** Swaps an entity that matches into the owned range (its enclosing groups hold it already). */
    private void moveIn(final long entity)
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
    private void moveOut(final int from)
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
    private void populate()
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

    /**
     * Owning groups that share owned storages, each nested in the one before it; the object that owns
     * their storages' order ({@link OrderClaim#claim}).
     */
    private static final class Family
    {
        /** Outermost first: each group's entities are a prefix of the range of every group before it. */
        final List<RuntimeGroup> groups = new ArrayList<>();
        /** Every storage some group of the family owns. */
        final Map<ComponentStorage<?>, OrderClaim> claims = new LinkedHashMap<>();

        RuntimeGroup innermost()
        {
            return groups.get(groups.size() - 1);
        }

        /** Moves an entity into {@code group} and every group enclosing it, outermost first. */
        void join(final RuntimeGroup group, final long entity)
        {
            for (final RuntimeGroup each : groups)
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
        void leave(final RuntimeGroup group, final long entity)
        {
            for (int k = groups.size() - 1; k >= 0; k--)
            {
                final RuntimeGroup each = groups.get(k);
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
        void add(final RuntimeGroup group)
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
        private static boolean strictlyNests(final RuntimeGroup inner, final RuntimeGroup outer)
        {
            return Builder.nests(inner, outer) && !Builder.nests(outer, inner);
        }

        /**
         * Rebuilds every range of the family from scratch, outermost first. It reorders the storages as a sort does,
         * so it counts as one: a cursor walking a group of the family throws at its next step instead of visiting
         * some entities twice.
         */
        void rebuild()
        {
            for (final RuntimeGroup each : groups)
            {
                each.length = 0;
            }
            for (final RuntimeGroup each : groups)
            {
                each.populate();
            }
        }

        void remove(final RuntimeGroup group)
        {
            groups.remove(group);
            final Set<ComponentStorage<?>> stillOwned = new LinkedHashSet<>();
            for (final RuntimeGroup each : groups)
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

    /**
     * The groups of one world, and where they find its storages and memory; the world keeps one.
     */
    public static final class Registry
    {
        private final Storages storages;
        private final OffHeap offHeap;
        private final Walks walks;
        private final EntityPool pool;
        private final List<RuntimeGroup> groups = new ArrayList<>();

        /**
         * Creates the group registry of a world.
         *
         * @param storages the world's storages.
         * @param offHeap  the world's memory, which non-owning groups' sets share.
         * @param pool     the world's entities.
         */
        public Registry(final Storages storages, final OffHeap offHeap, final Walks walks, final EntityPool pool)
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
        public Builder builder()
        {
            return new Builder(this);
        }

        /**
         * Rebuilds every group from the storages as they are, for a snapshot loader that filled them without
         * signals: owning groups reorder their owned storages, non-owning groups refill their sets.
         */
        public void rebuild()
        {
            final java.util.Set<Family> families = new java.util.LinkedHashSet<>();
            for (final RuntimeGroup group : groups)
            {
                if (group.family != null)
                {
                    families.add(group.family);
                }
                else
                {
                    group.entities.clear();
                    group.populate();
                }
            }
            for (final Family family : families)
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

    /**
     * Collects a group's rule; {@link dev.cairn.world.World#group()} makes one.
     */
    public static final class Builder
    {
        private final Registry world;
        private final OffHeap offHeap;
        private final EntityPool pool;
        private final List<ComponentStorage<?>> owned = new ArrayList<>();
        private final List<ComponentStorage<?>> with = new ArrayList<>();
        private final List<ComponentStorage<?>> without = new ArrayList<>();
        private String name;

        private Builder(final Registry world)
        {
            this.world = world;
            this.offHeap = world.offHeap;
            this.pool = world.pool;
        }

        /**
         * Components the group owns: their storages keep the group's entities at the front, aligned.
         *
         * @param components component records whose storages are not {@link DeletionPolicy#IN_PLACE}.
         * @return this builder.
         */
        @SafeVarargs
        public final Builder owning(final Class<? extends Record>... components)
        {
            return addTo(owned, components);
        }

        /**
         * Components the group requires without owning them.
         *
         * @param components component records.
         * @return this builder.
         */
        @SafeVarargs
        public final Builder with(final Class<? extends Record>... components)
        {
            return addTo(with, components);
        }

        /**
         * Components an entity must not have to be in the group.
         *
         * @param components component records.
         * @return this builder.
         */
        @SafeVarargs
        public final Builder without(final Class<? extends Record>... components)
        {
            return addTo(without, components);
        }

        /**
         * As {@link #owning(Class[])}, with storages of this world.
         *
         * @param storages storages of this world.
         * @return this builder.
         */
        public Builder owning(final ComponentStorage<?>... storages)
        {
            return addTo(owned, storages);
        }

        /**
         * As {@link #with(Class[])}, with storages of this world.
         *
         * @param storages storages of this world.
         * @return this builder.
         */
        public Builder with(final ComponentStorage<?>... storages)
        {
            return addTo(with, storages);
        }

        /**
         * As {@link #without(Class[])}, with storages of this world.
         *
         * @param storages storages of this world.
         * @return this builder.
         */
        public Builder without(final ComponentStorage<?>... storages)
        {
            return addTo(without, storages);
        }

        /**
         * Names the group in messages, before its rule: a generated group passes its class name, for example
         * {@code MovementGroup}, so that messages read "group MovementGroup (owning Position+Velocity)". Without a
         * name, messages give the rule alone.
         *
         * @param name the group's name.
         * @return this builder.
         */
        public Builder named(final String name)
        {
            this.name = java.util.Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Creates the group, registers it with its world and fills it with the entities that match now; an owning
         * group reorders its owned storages to do so.
         *
         * @return the group.
         * @throws IllegalArgumentException  if the rule requires nothing, names a component twice or on both sides, or
         *                                   owns an {@link DeletionPolicy#IN_PLACE} storage.
         * @throws IllegalStateException     if an owned storage is owned by a group this one does not nest with (the
         *                                   message names both), the owned storages belong to groups that do not nest
         *                                   in each other (the message names two), a storage it would reorder is being
         *                                   iterated, a parallel iteration runs, or the world is closed; nothing is
         *                                   registered or changed then.
         * @throws dev.cairn.OffHeapExhaustedException if a non-owning group's memory cannot be allocated.
         */
        public RuntimeGroup build()
        {
            validate();
            if (world.walks.isParallel())
            {
                throw world.walks.refusedChange("build group " + describe(), "build it before the parallel walk or " +
                    "after it");
            }
            if (!owned.isEmpty())
            {
                world.walks.refuseWhileDeferring("build group " + describe(), "an owning group reorders the " +
                    "storages it owns as it is built; build it after the walk or listener returns");
            }
            final RuntimeGroup group = new RuntimeGroup(this);
            if (!owned.isEmpty())
            {
                final Family family = familyFor(group);
                for (final ComponentStorage<?> storage : owned)
                {
                    if (!family.claims.containsKey(storage) && storage.ownerName() != null)
                    {
                        throw new IllegalStateException(
                            storage.name() + " is owned by " + storage.ownerName() + ", so group " +
                            group.description + " cannot own it too; close that group first");
                    }
                }
                // Everything is checked: from here on the group is registered whole or not at all.
                family.add(group);
            }
            else
            {
                try
                {
                    group.populate();
                }
                catch (final RuntimeException ex)
                {
                    group.entities.close();
                    throw ex;
                }
            }
            for (final ComponentStorage<?> storage : owned)
            {
                group.followers.add(group.new Follower(storage, false));
            }
            for (final ComponentStorage<?> storage : with)
            {
                group.followers.add(group.new Follower(storage, false));
            }
            for (final ComponentStorage<?> storage : without)
            {
                group.followers.add(group.new Follower(storage, true));
            }
            for (final Follower follower : group.followers)
            {
                Access.rawStorage(follower.storage).attach(follower);
            }
            world.groups.add(group);
            return group;
        }

        private void validate()
        {
            if (owned.isEmpty() && with.isEmpty())
            {
                throw new IllegalArgumentException(
                    "a group needs at least one required component: call owning(...) or with(...)");
            }
            final Set<ComponentStorage<?>> seen = new LinkedHashSet<>();
            for (final List<ComponentStorage<?>> list : List.of(owned, with, without))
            {
                for (final ComponentStorage<?> storage : list)
                {
                    storage.ensureOpen();
                    if (!seen.add(storage))
                    {
                        throw new IllegalArgumentException(
                            storage.type().recordClass().getSimpleName() + " appears twice in the rule of group " +
                            describe() + "; name each component once, in owning, with or without");
                    }
                }
            }
            for (final ComponentStorage<?> storage : owned)
            {
                if (storage.policy() == DeletionPolicy.IN_PLACE)
                {
                    throw new IllegalArgumentException(
                        storage.name() + " uses DeletionPolicy.IN_PLACE, whose tombstones would break the packed " +
                        "range an owning group keeps at the front of its storages; a group can own SWAP_AND_POP and " +
                        "SWAP_ONLY storages: require it with with(...) instead, or change its policy");
                }
            }
        }

        /** The family the new owning group joins, after checking it nests with every group it shares storages with. */
        private Family familyFor(final RuntimeGroup group)
        {
            Family family = null;
            RuntimeGroup familyMember = null;
            for (final RuntimeGroup other : world.groups)
            {
                if (other.family == null || !sharesOwned(other, group))
                {
                    continue;
                }
                if (!nests(group, other) && !nests(other, group))
                {
                    throw new IllegalStateException(
                        "group " + group.description + " cannot own what group " + other.description + " owns: " +
                        "groups may share owned storages only if one nests in the other (owns all the other owns, " +
                        "and requires and excludes all the other does); make them nest, or own different storages");
                }
                if (family != null && other.family != family)
                {
                    throw new IllegalStateException(
                        "group " + group.description + " cannot own what group " + familyMember.description + " and group " +
                        other.description + " own: neither of those nests in the other, so their storages cannot " +
                        "keep one nested order; own the storages of only one of them, or make them nest");
                }
                family = other.family;
                familyMember = other;
            }
            if (family != null)
            {
                for (final RuntimeGroup member : family.groups)
                {
                    if (!nests(group, member) && !nests(member, group))
                    {
                        throw new IllegalStateException(
                            "group " + group.description + " cannot join the groups that own " + member.description +
                            "'s storages: it does not nest with group " + member.description);
                    }
                }
            }
            return family != null ? family : new Family();
        }

        private static boolean sharesOwned(final RuntimeGroup a, final RuntimeGroup b)
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

        /** Whether {@code inner} nests in {@code outer}: every entity of inner matches outer. */
        private static boolean nests(final RuntimeGroup inner, final RuntimeGroup outer)
        {
            final List<ComponentStorage<?>> innerOwned = Arrays.asList(inner.owned);
            final List<ComponentStorage<?>> innerRequired = new ArrayList<>(innerOwned);
            innerRequired.addAll(Arrays.asList(inner.with));
            final List<ComponentStorage<?>> outerRequired = new ArrayList<>(Arrays.asList(outer.owned));
            outerRequired.addAll(Arrays.asList(outer.with));
            return innerOwned.containsAll(Arrays.asList(outer.owned)) && innerRequired.containsAll(outerRequired) &&
                Arrays.asList(inner.without).containsAll(Arrays.asList(outer.without));
        }

        private String describe()
        {
            final StringBuilder text = new StringBuilder();
            describe(text, "owning", owned);
            describe(text, "with", with);
            describe(text, "without", without);
            return name == null ? text.toString() : name + " (" + text + ")";
        }

        private static void describe(final StringBuilder text, final String label, final List<ComponentStorage<?>> list)
        {
            if (list.isEmpty())
            {
                return;
            }
            text.append(text.length() == 0 ? "" : " ").append(label).append(' ');
            for (int k = 0; k < list.size(); k++)
            {
                text.append(k == 0 ? "" : "+").append(list.get(k).type().recordClass().getSimpleName());
            }
        }

        @SafeVarargs
        private Builder addTo(final List<ComponentStorage<?>> list, final Class<? extends Record>... components)
        {
            for (final Class<? extends Record> component : components)
            {
                list.add(world.storages.storage(
                    java.util.Objects.requireNonNull(component, "a component class is null")));
            }
            return this;
        }

        private Builder addTo(final List<ComponentStorage<?>> list, final ComponentStorage<?>... storages)
        {
            for (final ComponentStorage<?> storage : storages)
            {
                list.add(world.storages.requireOwn(storage, "group"));
            }
            return this;
        }
    }
}
