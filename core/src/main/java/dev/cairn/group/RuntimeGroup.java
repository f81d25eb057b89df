package dev.cairn.group;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.entity.EntityPool;
import dev.cairn.memory.OffHeap;
import dev.cairn.parallel.ChunkAction;
import dev.cairn.set.IndexComparator;
import dev.cairn.set.MoveLog;
import dev.cairn.set.OrderClaim;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.StorageHook;
import dev.cairn.storage.Storages;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
    private static final VarHandle WALKS;

    static
    {
        try
        {
            WALKS = MethodHandles.lookup().findVarHandle(RuntimeGroup.class, "walks", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

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
    /**
     * The moves joins and leaves made in the group's range (its own or a nesting group's) while a walk ran, for walks
     * that check that their action moved no entity across them ({@link #checkWalk}).
     */
    private final MoveLog moves = new MoveLog();
    /**
     * The walks and cursor walks under way: moves are logged only while there is one. Changed atomically through
     * {@link #WALKS}, since a walk may be announced from any thread (the actions of a parallel iteration may walk the
     * group); read plainly where moves are logged, by the one thread that may change the structure.
     */
    private int walks;

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
            SparseSet.onSharedMemory(DeletionPolicy.SWAP_AND_POP, builder.offHeap, builder.pool, "group " +
                description) : null;
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
     * Visits every entity of the group, from the back of its range to the front; allocates nothing. The action may
     * remove the visited entity from the group (or destroy it); other entities leaving or joining the group in a way
     * that would make the rest of the walk visit one twice or miss one stop the walk with an exception.
     *
     * @param action receives each entity.
     * @throws IllegalStateException if the group or its world is closed, or the action moved another entity across
     *                               the walk (see {@link #checkWalk}).
     */
    public void forEach(final LongConsumer action)
    {
        Objects.requireNonNull(action, "action is null: pass what to do with each entity");
        beginIteration();
        try
        {
            int i = extent();
            long mark = moves.count();
            while (--i >= 0)
            {
                action.accept(entityAt(i));
                if (moves.count() != mark)
                {
                    checkWalk(mark, i);
                    mark = moves.count();
                }
                i = Math.min(i, extent());
            }
        }
        finally
        {
            endIteration();
        }
    }

    /**
     * Calls {@code action} with each index of an owning group's range, from the back to the front: at index
     * {@code i} every owned storage holds the group's {@code i}th entity, which the action reaches through the
     * storages' indexed accessors. The rules of a generated group's {@code forEachIndex} hold (see the groups guide):
     * an index names a place, not an entity, so once the action removed the entity at {@code i}, or one of its owned
     * components, the storages may hold other entities at {@code i}, or none; entities joining meanwhile are not
     * visited; a change that moves an entity not yet visited across the walk stops it. A generated group's own
     * {@code forEachIndex} does the same with a call site of its own, which the JIT inlines more readily.
     *
     * @param action receives each index.
     * @throws IllegalStateException if the group is closed or owns no storage (a non-owning group's range is its own
     *                               set: walk it with {@link #forEach}).
     * @throws NullPointerException  if {@code action} is null.
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
        beginIteration();
        try
        {
            // forEach's loop, kept apart: sharing it would allocate an action per walk and share one call site.
            int i = extent();
            long mark = moves.count();
            while (--i >= 0)
            {
                action.accept(i);
                if (moves.count() != mark)
                {
                    checkWalk(mark, i);
                    mark = moves.count();
                }
                i = Math.min(i, extent());
            }
        }
        finally
        {
            endIteration();
        }
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
     * Announces a walk of the group (on the first owned storage, or the group's own set): closing the world or the
     * group throws until {@link #endIteration()}, and so does sorting the group.
     *
     * @throws IllegalStateException if the group or its world is closed.
     */
    public void beginIteration()
    {
        ensureOpen();
        final SparseSet lead = lead();
        lead.beginIteration();
        WALKS.getAndAdd(this, 1);
        if (!lead.isStructureLocked())
        {
            // Under a parallel iteration nothing moves, and the actions' walks would race on the log.
            resetWalkCheck();
        }
    }

    /**
     * Runs a parallel walk of the group's range {@code [0, extent())} in chunks on {@code pool}, with the world's
     * structure locked, for generated groups; see {@link SparseSet#forEachChunk}.
     *
     * @param pool      where the chunks run.
     * @param chunkSize indices per chunk, or {@link dev.cairn.parallel.Chunks#AUTOMATIC}.
     * @param what      what runs, for the messages of refused changes.
     * @param action    walks one chunk.
     * @throws IllegalStateException    if the group or world is closed, or a parallel iteration of the world runs.
     * @throws IllegalArgumentException if {@code chunkSize} is negative.
     */
    public void forEachChunk(
        final ForkJoinPool pool, final int chunkSize, final String what, final ChunkAction action)
    {
        ensureOpen();
        lead().forEachChunk(extent(), pool, chunkSize, what, action);
    }

    /**
     * Starts a walk that copies the owned storages' columns to and from arrays between calls to an action, for a
     * generated group's {@code forEachBlock} (a {@code RuntimeGroup} has no block walk of its own: its columns' types
     * are only known to generated code): locks the world's structure, so that no change of members, order or
     * memory (nor a close) can move the columns under the copies, until {@link #endBlockWalk(String)}. The action may read
     * and write component values meanwhile; every structural change throws {@link IllegalStateException} naming
     * {@code what}.
     *
     * @param what the walk, for messages, for example {@code "MovementGroup.forEachBlock"}.
     * @return the group's extent when the walk starts: the walk covers {@code [0, extent)}.
     * @throws IllegalStateException if the group or the world is closed, or the structure is locked already (by a
     *                               parallel iteration, a snapshot written to a channel, or another block walk).
     */
    public int beginBlockWalk(final String what)
    {
        ensureOpen();
        world.offHeap.lockStructureForCopy(what);
        try
        {
            // Announced as an iteration too, so that a close from another thread is refused, not run under a copy.
            lead().beginIteration();
        }
        catch (final RuntimeException | Error ex)
        {
            world.offHeap.unlockStructure();
            throw ex;
        }
        return extent();
    }

    /**
     * Ends a walk started by {@link #beginBlockWalk(String)}: unlocks the world's structure if that walk locked it.
     * Call it in a {@code finally} block after a {@code beginBlockWalk} that returned; ending a walk whose start was
     * refused, or with another description, does nothing, so it cannot lift the lock of what refused it. Descriptions
     * are compared by identity: give each walker a string object of its own (a generated group makes one per
     * instance), so that an equal string of another walker, or a literal, ends nothing.
     *
     * @param what the very string object passed to {@code beginBlockWalk}.
     */
    public void endBlockWalk(final String what)
    {
        if (world.offHeap.structureLockedBy() != what)
        {
            return;
        }
        try
        {
            lead().endIteration();
        }
        finally
        {
            world.offHeap.unlockStructure();
        }
    }

    /**
     * Ends a walk announced by {@link #beginIteration()}.
     *
     * @throws IllegalStateException if no walk is announced; nothing changes then.
     */
    public void endIteration()
    {
        endWalk("endIteration()");
        lead().endIteration();
    }

    /**
     * Announces the walk of a cursor, which cannot announce itself as {@link #beginIteration()} does: until
     * {@link #endCursorWalk()}, joins and leaves log their moves for {@link #checkWalk}. A generated cursor calls it
     * when reset, unless its walk before was never ended (a loop left early keeps the logging on, which only costs
     * time, until that cursor reaches its end).
     */
    public void beginCursorWalk()
    {
        WALKS.getAndAdd(this, 1);
    }

    /**
     * Ends a walk announced by {@link #beginCursorWalk()}: a generated cursor calls it when it reaches its end.
     *
     * @throws IllegalStateException if no walk is announced; nothing changes then.
     */
    public void endCursorWalk()
    {
        endWalk("endCursorWalk()");
    }

    /** Counts a walk ended, refusing a call that ends none: a count below zero would turn a later walk's check off. */
    private void endWalk(final String call)
    {
        if ((int)WALKS.getAndAdd(this, -1) <= 0)
        {
            WALKS.getAndAdd(this, 1);
            throw new IllegalStateException(call + " on group " + description + " without a walk to end; " +
                "announce each walk once and end it once");
        }
    }

    /**
     * How many moves joins and leaves made in the group's range so far while a walk was announced
     * ({@link #beginIteration()}, {@link #beginCursorWalk()}): a walk reads it before a step and passes it to
     * {@link #checkWalk} when it changed.
     *
     * @return the count.
     */
    public long moveCount()
    {
        return moves.count();
    }

    /**
     * Throws if a swap since {@code mark} moved an entity across a walk standing at {@code at}: from the part walked
     * (at {@code at} or above) into the part not walked yet, or the other way, so that the rest of the walk would visit
     * one entity twice and miss another, or an entity joined below {@code at}. Leaving or joining of the entity at
     * {@code at} itself never does. The latest {@value MoveLog#KEPT} moves are checked one by one, earlier ones of the
     * step as one span, which may throw when nothing crossed. A group left empty by the step (a {@code clear()} or
     * {@code reset()} of its world, however the entities left) has nothing a walk could visit twice or miss: the walk
     * ends there.
     *
     * @param mark what {@link #moveCount()} returned before the step.
     * @param at   the index the walk visited in that step.
     * @throws IllegalStateException if an entity crossed.
     */
    public void checkWalk(final long mark, final int at)
    {
        if (extent() == 0)
        {
            moves.restart();
            return;
        }
        final String crossing = moves.crossing(mark, at);
        if (crossing != null)
        {
            throw crossed(at, crossing);
        }
    }

    /**
     * Starts the conservative check of the moves pushed out of the log afresh: a walk calls it when it starts, and
     * {@link #checkWalk} after each check.
     */
    public void resetWalkCheck()
    {
        moves.restart();
    }

    private IllegalStateException crossed(final int at, final String what)
    {
        return new IllegalStateException("while group " + description + " was walked at index " + at + ", other " +
            "entities left or joined it: " + what + ", so the rest of the walk could visit an entity twice or miss " +
            "one, and it stops here. Record such changes in a dev.cairn.command.CommandBuffer and apply it after the " +
            "walk, or collect the entities and change them afterwards (a clear() or reset() of the world or of an " +
            "owned storage, too, belongs after the walk)");
    }

    /** Logs a swap of two indices of the range. */
    private void moved(final int a, final int b)
    {
        if (walks != 0)
        {
            moves.swapped(a, b);
        }
    }

    /**
     * Logs an entity joining at {@code at}: from outside the range into it, which a walk that has still to reach
     * {@code at} would visit, though it joined after the walk started (or was visited already and left).
     */
    private void joined(final int at)
    {
        if (walks != 0)
        {
            moves.joined(at);
        }
    }

    /**
     * A number that changes whenever the group is sorted, or its range rebuilt because a group that nests with it was
     * built; a cursor compares it at each step.
     *
     * @return the current count.
     */
    public int reorderCount()
    {
        return lead().reorderCount();
    }

    /**
     * Sorts the group's entities so that iteration visits them in ascending {@code comparator} order, permuting every
     * owned storage together.
     *
     * @param comparator compares packed indices of the owned storages, which are aligned: the {@code comparingX()}
     *                   of any owned storage; it must only read.
     * @throws IllegalArgumentException if the comparator says it reads a storage the group does not own.
     * @throws IllegalStateException if the group is not owning, a more restrictive group nests in it (sorting would
     *                               break that group's range; sort the innermost group), any owned storage is
     *                               being iterated (for example by an enclosing group's walk), it or its world is
     *                               closed, or the comparator changed the group or its storages; nothing is
     *                               reordered then.
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
        world.offHeap.requireUnlocked("sort group " + description + " of the World");
        // Every owned storage must accept the permutation before the first one takes it: a storage being iterated
        // or locked would otherwise refuse half-way, leaving the others permuted and the group misaligned.
        for (final ComponentStorage<?> storage : owned)
        {
            if (storage.isIterating() && !storage.isClosed())
            {
                throw new IllegalStateException("cannot sort group " + description + " while it, or its storage " +
                    storage.name() + ", is being iterated; sort it after the iteration returns");
            }
        }
        final long[] layouts = new long[claims.length];
        for (int k = 0; k < claims.length; k++)
        {
            claims[k].ensureReorderable(length);
            layouts[k] = claims[k].layoutVersion();
        }
        final int lengthBefore = length;
        final int[] order = claims[0].sortedOrder(length, comparator);
        // A comparator that made an entity join or leave, or moved members of another owned storage, would leave the
        // storages misaligned once permuted: refused before any of them is.
        boolean changed = closed || length != lengthBefore || innermostOther() != null;
        for (int k = 0; k < claims.length; k++)
        {
            changed |= claims[k].set().isClosed() || claims[k].layoutVersion() != layouts[k];
        }
        if (changed)
        {
            throw new IllegalStateException("the comparator passed to the sort of group " + description +
                " changed or closed the group or its storages; a comparator must only read, so the sort was not " +
                "applied");
        }
        for (final OrderClaim claim : claims)
        {
            claim.permute(order.clone(), length);
        }
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
            world.offHeap.requireUnlocked("close group " + description + " of the World");
        }
        if (!owned0Closed() && lead().isIterating())
        {
            throw new IllegalStateException(
                "group " + description + " cannot be closed while it, or its storage " + lead().name() + ", is " +
                "being iterated (by this group, a group nested with it, a view or the storage's own forEach); close " +
                "it after the iteration returns");
        }
        closed = true;
        for (final Follower follower : followers)
        {
            follower.storage.detach(follower);
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
            joined(entities.extent());
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
            moved(entities.indexOf(entity), entities.extent() - 1);
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
        joined(at);
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
        family.movedIn(this, from, at);
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
        family.moved(from, at);
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
     * their storages' order ({@link SparseSet#claimOrder}).
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

        /** Logs a swap in the owned storages: it moves entities in the range of every group of the family. */
        void moved(final int a, final int b)
        {
            for (int k = 0; k < groups.size(); k++)
            {
                groups.get(k).moved(a, b);
            }
        }

        /**
         * Logs an entity joining {@code group}, swapped from {@code from} to {@code at}: for the groups it nests in
         * (before it), a swap inside their ranges; for it and the groups nested in it, an entity coming in at
         * {@code at}.
         */
        void movedIn(final RuntimeGroup group, final int from, final int at)
        {
            boolean enclosing = true;
            for (final RuntimeGroup each : groups)
            {
                enclosing &= each != group;
                if (enclosing)
                {
                    each.moved(from, at);
                }
                else
                {
                    each.joined(at);
                }
            }
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
                    group.owned[k], storage -> storage.claimOrder("group " + group.description));
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
            for (final OrderClaim claim : claims.values())
            {
                claim.countReordering();
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
        private final EntityPool pool;
        private final List<RuntimeGroup> groups = new ArrayList<>();

        /**
         * Creates the group registry of a world.
         *
         * @param storages the world's storages.
         * @param offHeap  the world's memory, which non-owning groups' sets share.
         * @param pool     the world's entities.
         */
        public Registry(final Storages storages, final OffHeap offHeap, final EntityPool pool)
        {
            this.storages = storages;
            this.offHeap = offHeap;
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
     * Collects a group's rule; {@link dev.cairn.World#group()} makes one.
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
         * @throws dev.cairn.memory.OffHeapExhaustedException if a non-owning group's memory cannot be allocated.
         */
        public RuntimeGroup build()
        {
            validate();
            if (offHeap.structureLockedBy() != null)
            {
                throw offHeap.lockedStructure("build group " + describe());
            }
            final RuntimeGroup group = new RuntimeGroup(this);
            if (!owned.isEmpty())
            {
                final Family family = familyFor(group);
                for (final ComponentStorage<?> storage : family.claims.keySet())
                {
                    refuseIfIterated(storage, group);
                }
                for (final ComponentStorage<?> storage : owned)
                {
                    refuseIfIterated(storage, group);
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
                follower.storage.attach(follower);
            }
            world.groups.add(group);
            return group;
        }

        private static void refuseIfIterated(final ComponentStorage<?> storage, final RuntimeGroup group)
        {
            if (storage.isIterating())
            {
                throw new IllegalStateException(
                    "cannot build group " + group.description + " while " + storage.name() + " is being iterated: " +
                    "the group reorders it; build it after the iteration returns");
            }
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
