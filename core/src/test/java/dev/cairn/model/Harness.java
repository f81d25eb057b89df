package dev.cairn.model;

import dev.cairn.internal.Walks;
import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.set.SparseSet;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The operation interpreter: applies each {@link Op} to the real structures and to their models, compares results,
 * exceptions and the per-operation guarantees of each deletion policy, and checks every invariant afterwards.
 * <p>
 * It drives three structures:
 * <ul>
 *     <li>{@code set}: the {@link PayloadSet} under test, with the policy under test, standalone (any well-formed
 *     handle, including far indices up to {@link Entity#MAX_INDEX});</li>
 *     <li>{@code other}: a second set bound to the pool, the argument of {@code sortAs};</li>
 *     <li>{@code pool}: an {@link EntityPool} with a small id space, so exhaustion happens.</li>
 * </ul>
 * Each structure has its own {@link OffHeap}, so its byte count can be compared with the allocator's.
 * Every failure is an {@link InvariantViolation} naming the invariant.
 */
public final class Harness implements AutoCloseable
{
    /** Id space of the pool: small, so that {@code create()} runs out. */
    public static final int POOL_MAX_ENTITIES = 40;

    private static final int PAGE_BYTES = SparseSet.PAGE_SIZE * Integer.BYTES;

    /**
     * Operations after which the memory invariants are always checked; after the others they are checked every
     * 64th step and at the end of a sequence (a wrong byte count persists, so it is still caught), because
     * {@code offHeapBytes()} walks the whole sparse page table: 65,536 entries once an index near
     * {@link Entity#MAX_INDEX} was inserted.
     */
    private static final Set<Op.Kind> MEMORY_OPS = EnumSet.of(
        Op.Kind.RESERVE, Op.Kind.SHRINK_TO_FIT, Op.Kind.CLOSE_AND_REOPEN);

    /**
     * Operations that use the second set; after the others its invariants are checked every 16th step only, since
     * nothing else can change it (the structures share no memory, and Agrona bounds-checks every access).
     */
    private static final Set<Op.Kind> OTHER_OPS = EnumSet.of(
        Op.Kind.OTHER_INSERT, Op.Kind.OTHER_REMOVE, Op.Kind.SORT_AS, Op.Kind.CLOSE_AND_REOPEN);

    /** Operations that use the pool; the same reasoning as {@link #OTHER_OPS}. */
    private static final Set<Op.Kind> POOL_OPS = EnumSet.of(
        Op.Kind.CREATE, Op.Kind.CREATE_BATCH, Op.Kind.DESTROY, Op.Kind.IS_ALIVE, Op.Kind.CURRENT_VERSION,
        Op.Kind.POOL_CLEAR, Op.Kind.OTHER_INSERT);

    private final DeletionPolicy policy;
    private final DeletionPolicy otherPolicy;
    private final OffHeap otherHeap = new OffHeap("harness");
    private final OffHeap poolHeap = new OffHeap("harness");
    private final EntityPool pool = new EntityPool(poolHeap, new Walks("harness", true), POOL_MAX_ENTITIES);
    private final PoolModel poolModel = new PoolModel(POOL_MAX_ENTITIES);
    private final PayloadSet other;
    private final SetModel otherModel;
    private OffHeap setHeap;
    private PayloadSet set;
    private SetModel model;
    private long nextStamp;
    private long steps;
    private boolean memoryCheckDue;
    private boolean otherCheckDue;
    private boolean poolCheckDue;

    /**
     * Creates empty structures.
     *
     * @param policy      the policy of the set under test.
     * @param otherPolicy the policy of the second set.
     */
    public Harness(final DeletionPolicy policy, final DeletionPolicy otherPolicy)
    {
        this.policy = policy;
        this.otherPolicy = otherPolicy;
        this.other = new PayloadSet(otherPolicy, otherHeap, pool, "other set");
        this.otherModel = new SetModel(otherPolicy);
        openSet();
    }

    /**
     * The policy under test.
     *
     * @return the set's policy.
     */
    public DeletionPolicy policy()
    {
        return policy;
    }

    /**
     * The second set's policy.
     *
     * @return its policy.
     */
    public DeletionPolicy otherPolicy()
    {
        return otherPolicy;
    }

    /**
     * The model of the set under test, for the generator to pick handles from.
     *
     * @return the model.
     */
    public SetModel model()
    {
        return model;
    }

    /**
     * The model of the second set.
     *
     * @return the model.
     */
    public SetModel otherModel()
    {
        return otherModel;
    }

    /**
     * The model of the pool.
     *
     * @return the model.
     */
    public PoolModel poolModel()
    {
        return poolModel;
    }

    /**
     * Applies one operation to the real structures and the models and checks its result.
     *
     * @param op the operation.
     * @throws InvariantViolation if the implementation disagrees with the model.
     */
    public void apply(final Op op)
    {
        try
        {
            final PayloadSet before = set;
            final long layoutBefore = set.layout();
            final long[] slotsBefore = slotsOf(set);
            dispatch(op);
            if (set == before)
            {
                checkLayoutVersion(op, layoutBefore, slotsBefore);
            }
            memoryCheckDue = ++steps % 64 == 0 || MEMORY_OPS.contains(op.kind());
            otherCheckDue = steps % 16 == 0 || OTHER_OPS.contains(op.kind());
            poolCheckDue = steps % 16 == 0 || POOL_OPS.contains(op.kind());
        }
        catch (final InvariantViolation ex)
        {
            throw ex;
        }
        catch (final RuntimeException | Error ex)
        {
            throw new InvariantViolation("no unexpected exception (" + ex.getClass().getSimpleName() + ")",
                op + " threw " + ex + " where the model expects success", ex);
        }
    }

    private void dispatch(final Op op)
    {
        final long a = op.a();
        switch (op.kind())
        {
            case INSERT:
                insert(a);
                break;
            case INSERT_MANY:
                for (long i = 0; i < op.b() && Entity.index(a) + i <= Entity.MAX_INDEX; i++)
                {
                    if (model.insertRejection(a + i) == null)
                    {
                        insert(a + i);
                    }
                }
                break;
            case ERASE:
                erase(a, true);
                break;
            case REMOVE:
                erase(a, false);
                break;
            case CONTAINS:
                expectEqual("contains(e) iff the model holds e", model.contains(a), set.contains(a), op);
                break;
            case INDEX_OF:
                expectEqual("indexOf(e) is the slot of member e, or -1", model.contains(a) ? model.indexOf(a) : -1,
                    set.indexOf(a), op);
                expectEqual("the slot holding exactly e (released entries too)", model.indexOf(a), slotOf(set, a), op);
                break;
            case ENTITY_AT:
                entityAt((int)a);
                break;
            case SWAP:
                swap(a, op.b());
                break;
            case SORT:
                sort(SortKey.values()[(int)a]);
                break;
            case SORT_AS:
                sortAs();
                break;
            case COMPACT:
                compact();
                break;
            case CLEAR:
                clear();
                break;
            case RESERVE:
                reserve((int)a);
                break;
            case SHRINK_TO_FIT:
                shrinkToFit();
                break;
            case ERASE_WHILE_ITERATING:
                eraseWhileIterating((int)a);
                break;
            case CLOSE_AND_REOPEN:
                closeAndReopen();
                break;
            case OTHER_INSERT:
                otherInsert(a);
                break;
            case OTHER_REMOVE:
                otherRemove(a);
                break;
            case CREATE:
                create();
                break;
            case CREATE_BATCH:
                createBatch((int)a);
                break;
            case DESTROY:
                destroy(a);
                break;
            case IS_ALIVE:
                expectEqual("pool.isAlive(e) matches the model", poolModel.isAlive(a), pool.isAlive(a), op);
                break;
            case CURRENT_VERSION:
                currentVersion((int)a);
                break;
            case POOL_CLEAR:
                pool.clear();
                poolModel.clear();
                break;
            default:
                throw new IllegalStateException("unknown operation " + op);
        }
    }

    private void insert(final long entity)
    {
        final String rejection = model.insertRejection(entity);
        if (rejection != null)
        {
            expectThrows(IllegalArgumentException.class, "insert rejects a handle because " + rejection,
                Entity.toString(entity), () -> set.insert(entity));
            return;
        }
        final int hole = model.mostRecentHole();
        final int boundary = model.freeList();
        final long stamp = nextStamp++;
        final int expected = model.insert(entity, stamp);
        final int actual = set.emplace(entity, stamp);
        if (actual != expected)
        {
            final String invariant;
            if (policy == DeletionPolicy.IN_PLACE && hole >= 0)
            {
                invariant = "in_place: insert reuses the most recently freed slot (LIFO)";
            }
            else if (policy == DeletionPolicy.SWAP_ONLY)
            {
                invariant = "swap_only: insert lands at the freeList boundary " + boundary;
            }
            else
            {
                invariant = "insert appends at the end";
            }
            throw violation(invariant, "insert(" + Entity.toString(entity) + ") returned " + actual +
                ", expected " + expected);
        }
    }

    private void erase(final long entity, final boolean throwing)
    {
        if (!model.contains(entity))
        {
            if (throwing)
            {
                expectThrows(IllegalArgumentException.class, "erase of a non-member throws",
                    Entity.toString(entity), () -> set.erase(entity));
            }
            else if (set.remove(entity))
            {
                throw violation("remove of a non-member returns false",
                    "remove(" + Entity.toString(entity) + ") returned true");
            }
            return;
        }
        final List<Long> before = layout();
        final int boundary = set.extent();
        final int slot = model.indexOf(entity);
        model.erase(entity);
        if (throwing)
        {
            set.erase(entity);
        }
        else if (!set.remove(entity))
        {
            throw violation("remove of a member returns true", "remove(" + Entity.toString(entity) +
                ") returned false");
        }
        if (set.contains(entity))
        {
            throw violation("an erased handle is not contained", Entity.toString(entity));
        }
        switch (policy)
        {
            case SWAP_AND_POP:
                checkSwapAndPopErase(before, slot);
                break;
            case IN_PLACE:
                checkInPlaceErase(before, slot);
                break;
            default:
                checkSwapOnlyErase(entity, before, slot, boundary);
                break;
        }
    }

    private void checkSwapAndPopErase(final List<Long> before, final int slot)
    {
        final int last = before.size() - 1;
        expectEqual("swap_and_pop: erase shrinks the size by one", last, set.size(), null);
        if (slot != last && set.entityAt(slot) != before.get(last))
        {
            throw violation("swap_and_pop: the former last element fills the hole",
                "slot " + slot + " holds " + Entity.toString(set.entityAt(slot)) + ", expected " +
                Entity.toString(before.get(last)));
        }
        for (int i = 0; i < last; i++)
        {
            if (i != slot && set.entityAt(i) != before.get(i))
            {
                throw violation("swap_and_pop: every other element keeps its index",
                    "slot " + i + " changed from " + Entity.toString(before.get(i)) + " to " +
                    Entity.toString(set.entityAt(i)));
            }
        }
    }

    private void checkInPlaceErase(final List<Long> before, final int slot)
    {
        expectEqual("in_place: erase keeps the size", before.size(), set.size(), null);
        if (set.entityAt(slot) != Entity.NULL)
        {
            throw violation("in_place: the erased slot becomes a tombstone",
                "slot " + slot + " holds " + Entity.toString(set.entityAt(slot)));
        }
        for (int i = 0; i < before.size(); i++)
        {
            if (i != slot && set.entityAt(i) != before.get(i))
            {
                throw violation("in_place: every other element keeps its index",
                    "slot " + i + " changed from " + Entity.toString(before.get(i)) + " to " +
                    Entity.toString(set.entityAt(i)));
            }
        }
    }

    private void checkSwapOnlyErase(final long entity, final List<Long> before, final int slot, final int boundary)
    {
        expectEqual("swap_only: erase keeps the size", before.size(), set.size(), null);
        expectEqual("swap_only: erase moves the freeList boundary down by one", boundary - 1, set.extent(), null);
        final long released = Entity.next(entity);
        final int releasedAt = slotOf(set, released);
        if (releasedAt != boundary - 1 || set.contains(released))
        {
            throw violation("swap_only: the erased handle is released with its next version just behind freeList",
                "indexOf(" + Entity.toString(released) + ") = " + releasedAt + ", freeList() = " + set.extent() +
                ", contains = " + set.contains(released));
        }
        for (int i = 0; i < before.size(); i++)
        {
            final long expected = i == slot ? before.get(boundary - 1) : before.get(i);
            if (i != boundary - 1 && set.entityAt(i) != expected)
            {
                throw violation("swap_only: erase only swaps the erased slot with the last member",
                    "slot " + i + " holds " + Entity.toString(set.entityAt(i)) + ", expected " +
                    Entity.toString(expected));
            }
        }
    }

    private void entityAt(final int index)
    {
        if (index < 0 || index >= model.size())
        {
            expectThrows(IndexOutOfBoundsException.class, "entityAt outside [0, size()) throws",
                "index " + index, () -> set.entityAt(index));
            return;
        }
        expectEqual("entityAt(i) matches the model's slot i", model.slot(index), set.entityAt(index), null);
    }

    private void swap(final long first, final long second)
    {
        if (!model.contains(first) || !model.contains(second))
        {
            final long absent = model.contains(first) ? second : first;
            expectThrows(IllegalArgumentException.class, "swapElements of a non-member throws",
                Entity.toString(absent), () -> set.swapElements(first, second));
            return;
        }
        model.swap(model.indexOf(first), model.indexOf(second));
        set.swapElements(first, second);
    }

    private void sort(final SortKey key)
    {
        final List<Long> before = model.iteration();
        final List<Long> released = model.released();
        final boolean exact = key.distinct() || !model.hasTombstones();
        final List<Long> expected = new ArrayList<>(before);
        expected.sort((left, right) -> key.compareStamps(model.stamp(left), model.stamp(right)));

        set.sort(key.comparator(set));

        final List<Long> actual = iterate(set);
        if (exact ? !actual.equals(expected) : !new HashSet<>(actual).equals(new HashSet<>(expected)))
        {
            throw violation("sort: iteration follows the comparator, ties keep their iteration order",
                "sort(" + key + ") iterates " + names(actual) + ", expected " + names(expected));
        }
        for (int i = 1; i < actual.size(); i++)
        {
            if (key.compareStamps(model.stamp(actual.get(i - 1)), model.stamp(actual.get(i))) > 0)
            {
                throw violation("sort: iteration follows the comparator", "sort(" + key + ") visits " +
                    Entity.toString(actual.get(i - 1)) + " before " + Entity.toString(actual.get(i)));
            }
        }
        afterReorder("sort", released);
    }

    private void sortAs()
    {
        final List<Long> released = model.released();
        final List<Long> shared = new ArrayList<>();
        for (final long entity : otherModel.iteration())
        {
            if (model.contains(entity))
            {
                shared.add(entity);
            }
        }
        final Set<Long> members = new HashSet<>(model.iteration());

        set.sortAs(other);

        final List<Long> actual = iterate(set);
        if (!actual.subList(0, Math.min(shared.size(), actual.size())).equals(shared) ||
            !new HashSet<>(actual).equals(members) || actual.size() != members.size())
        {
            throw violation("sortAs: shared entities come first, in the other set's iteration order",
                "iteration " + names(actual) + ", shared in other's order " + names(shared));
        }
        afterReorder("sortAs", released);
    }

    /** After a sort: no tombstones left, released region untouched; then the model takes the real layout. */
    private void afterReorder(final String what, final List<Long> released)
    {
        if (policy == DeletionPolicy.IN_PLACE && set.size() != set.memberCount())
        {
            throw violation(what + ": an in_place set is compacted first",
                "size() = " + set.size() + ", memberCount() = " + set.memberCount());
        }
        final List<Long> layout = layout();
        if (!layout.subList(Math.min(set.extent(), layout.size()), layout.size()).equals(released))
        {
            throw violation(what + ": the swap_only released region is left as it is",
                "released region is " + names(layout.subList(set.extent(), layout.size())) + ", was " +
                names(released));
        }
        model.adopt(layout, set.extent());
    }

    private void compact()
    {
        if (policy == DeletionPolicy.IN_PLACE && model.hasTombstones())
        {
            final List<Long> expected = model.compactInPlace();
            set.compact();
            final List<Long> layout = layout();
            if (!layout.equals(expected))
            {
                throw violation("in_place: compact fills the most recently freed hole first, as EnTT's does",
                    "layout after compact " + names(layout) + ", expected " + names(expected));
            }
            return;
        }
        model.dropReleased();
        set.compact();
    }

    private void clear()
    {
        final long bytes = set.offHeapBytes();
        final int capacity = set.capacity();
        model.clear();
        set.clear();
        expectEqual("clear keeps the memory for reuse", bytes, set.offHeapBytes(), null);
        expectEqual("clear keeps the capacity", capacity, set.capacity(), null);
    }

    private void reserve(final int capacity)
    {
        if (capacity < 0 || capacity > SparseSet.MAX_CAPACITY)
        {
            expectThrows(IllegalArgumentException.class, "reserve outside [0, MAX_CAPACITY] throws",
                String.valueOf(capacity), () -> set.reserve(capacity));
            return;
        }
        final int before = set.capacity();
        set.reserve(capacity);
        expectEqual("reserve(n) makes the capacity at least n and never shrinks it",
            Math.max(before, capacity), set.capacity(), null);
    }

    private void shrinkToFit()
    {
        set.shrinkToFit();
        expectEqual("shrinkToFit makes the capacity equal the size", set.size(), set.capacity(), null);
        final Set<Integer> pages = new HashSet<>();
        for (int i = 0; i < model.size(); i++)
        {
            if (model.slot(i) != SetModel.TOMBSTONE)
            {
                pages.add(Entity.index(model.slot(i)) / SparseSet.PAGE_SIZE);
            }
        }
        expectEqual("shrinkToFit keeps only the packed slots and the sparse pages in use",
            (long)set.size() * PayloadSet.SLOT_BYTES + (long)pages.size() * PAGE_BYTES, set.offHeapBytes(), null);
    }

    /** A set of its own cannot record changes: erasing from inside its walk is refused, and the walk goes on. */
    private void eraseWhileIterating(final int residue)
    {
        final List<Long> expected = model.iteration();
        final Set<Long> members = new HashSet<>(expected);
        final List<Long> visited = new ArrayList<>();
        final List<String> refusals = new ArrayList<>();
        set.forEach(entity ->
        {
            visited.add(entity);
            if (members.contains(entity) && Entity.index(entity) % 3 == residue)
            {
                try
                {
                    set.erase(entity);
                    refusals.add("erased " + Entity.toString(entity));
                }
                catch (final IllegalStateException refused)
                {
                    if (!refused.getMessage().contains(".forEach runs"))
                    {
                        refusals.add(refused.getMessage());
                    }
                }
            }
        });
        if (!visited.equals(expected))
        {
            throw violation("forEach visits every member once, front to back, and holds still when erasing is tried",
                "visited " + names(visited) + ", expected " + names(expected));
        }
        if (!refusals.isEmpty())
        {
            throw violation("erasing from inside a walk of a set of its own is refused, naming the walk",
                String.join("; ", refusals));
        }
    }

    private void closeAndReopen()
    {
        final long member = model.memberCount() > 0 ? model.iteration().get(0) : Entity.of(1, 0);
        expectThrows(IllegalStateException.class, "a set on shared memory cannot be closed on its own",
            "close the World instead", set::close);
        setHeap.close();
        if (!set.isClosed())
        {
            throw violation("close() closes", "isClosed() is false after close()");
        }
        expectEqual("close() frees every byte the set allocated", 0L, setHeap.allocatedBytes(), null);
        expectEqual("a closed set holds no memory", 0L, set.offHeapBytes(), null);
        final String name = set.name();
        final PayloadSet closed = set;
        closedThrows("insert", name, () -> closed.insert(Entity.of(2, 0)));
        closedThrows("emplace", name, () -> closed.emplace(Entity.of(2, 0), 0));
        closedThrows("erase", name, () -> closed.erase(member));
        closedThrows("remove", name, () -> closed.remove(member));
        closedThrows("contains", name, () -> closed.contains(member));
        closedThrows("entityAt", name, () -> closed.entityAt(0));
        closedThrows("checkIndex", name, () -> closed.checkIndexOf(0));
        closedThrows("requireIndex", name, () -> closed.requireIndexOf(member));
        closedThrows("clear", name, closed::clear);
        closedThrows("reserve", name, () -> closed.reserve(8));
        closedThrows("shrinkToFit", name, closed::shrinkToFit);
        closedThrows("swapElements", name, () -> closed.swapElements(member, member));
        closedThrows("compact", name, closed::compact);
        closedThrows("sort", name, () -> closed.sort((left, right) -> 0));
        closedThrows("sortAs", name, () -> closed.sortAs(other));
        closedThrows("other.sortAs(closed)", name, () -> other.sortAs(closed));
        closedThrows("forEach", name, () -> closed.forEach(entity -> { }));
        closedThrows("ensureOpen", name, closed::ensureOpen);
        expectEqual("a closed set finds no member (memberIndex has no open check)", -1, closed.indexOf(member),
            null);
        closed.close();
        setHeap.close();
        expectEqual("close() is idempotent", 0L, setHeap.allocatedBytes(), null);
        openSet();
    }

    private void closedThrows(final String call, final String name, final Runnable action)
    {
        expectThrows(IllegalStateException.class, "every operation on a closed set throws (" + call + ")",
            name, action);
    }

    private void otherInsert(final long entity)
    {
        String rejection = null;
        if (!Entity.isWellFormed(entity))
        {
            rejection = "it is NULL or malformed";
        }
        else if (!poolModel.isAlive(entity))
        {
            rejection = "it is not alive in the pool the set is bound to";
        }
        else
        {
            rejection = otherModel.insertRejection(entity);
        }
        if (rejection != null)
        {
            expectThrows(IllegalArgumentException.class, "a pool-bound set rejects a handle because " + rejection,
                Entity.toString(entity), () -> other.insert(entity));
            return;
        }
        final long stamp = nextStamp++;
        expectEqual("other: insert returns the model's slot", otherModel.insert(entity, stamp),
            other.emplace(entity, stamp), null);
    }

    private void otherRemove(final long entity)
    {
        final boolean expected = otherModel.contains(entity);
        if (expected)
        {
            otherModel.erase(entity);
        }
        expectEqual("other: remove(e) returns whether e was a member", expected, other.remove(entity), null);
    }

    private void create()
    {
        if (poolModel.exhausted())
        {
            expectThrows(IllegalStateException.class, "create() on an exhausted id space throws",
                POOL_MAX_ENTITIES + " of the " + POOL_MAX_ENTITIES + " indices are alive", pool::create);
            return;
        }
        checkCreated(pool.create());
    }

    private void checkCreated(final long entity)
    {
        final Set<Integer> candidates = poolModel.nextCandidates();
        if (candidates.isEmpty())
        {
            expectEqual("the pool hands out new indices densely from 0, version 0", poolModel.nextNewHandle(),
                entity, null);
        }
        else
        {
            final int index = Entity.index(entity);
            if (!candidates.contains(index))
            {
                throw violation("create() reuses the most recently destroyed index (LIFO)",
                    "created " + Entity.toString(entity) + ", expected an index in " + candidates);
            }
            if (Entity.version(entity) != poolModel.currentVersion(index))
            {
                throw violation("create() returns a recycled index with its next version",
                    "created " + Entity.toString(entity) + ", expected version " + poolModel.currentVersion(index));
            }
        }
        poolModel.created(entity);
        if (!pool.isAlive(entity))
        {
            throw violation("a created entity is alive", Entity.toString(entity));
        }
    }

    private void createBatch(final int length)
    {
        final long[] out = new long[Math.max(length, 0) + 2];
        if (length < 0)
        {
            expectThrows(IndexOutOfBoundsException.class, "create(long[], off, len) rejects a bad range",
                String.valueOf(length), () -> pool.create(out, 1, length));
            return;
        }
        if (length > POOL_MAX_ENTITIES - poolModel.aliveCount())
        {
            final int alive = pool.aliveCount();
            expectThrows(IllegalStateException.class, "create(long[], off, len) beyond the id space throws",
                "cannot create " + length, () -> pool.create(out, 1, length));
            expectEqual("create(long[], off, len) creates all or none", alive, pool.aliveCount(), null);
            return;
        }
        pool.create(out, 1, length);
        if (out[0] != 0 || out[length + 1] != 0)
        {
            throw violation("create(long[], off, len) writes only its range", "wrote outside [1, " + length + "]");
        }
        for (int i = 1; i <= length; i++)
        {
            checkCreated(out[i]);
        }
    }

    private void destroy(final long entity)
    {
        if (!poolModel.isAlive(entity))
        {
            expectThrows(IllegalArgumentException.class, "destroy of a dead handle throws",
                Entity.toString(entity), () -> pool.destroy(entity));
            return;
        }
        pool.destroy(entity);
        poolModel.destroy(entity);
        if (pool.isAlive(entity))
        {
            throw violation("a destroyed entity is not alive", Entity.toString(entity));
        }
        expectEqual("destroy bumps the index's version", Entity.nextVersion(Entity.version(entity)),
            pool.currentVersion(Entity.index(entity)), null);
    }

    private void currentVersion(final int index)
    {
        if (index < 0 || index >= poolModel.createdCount())
        {
            expectThrows(IndexOutOfBoundsException.class, "currentVersion of an index never created throws",
                "entity index " + index, () -> pool.currentVersion(index));
            return;
        }
        expectEqual("currentVersion matches the model", poolModel.currentVersion(index),
            pool.currentVersion(index), null);
    }

    /**
     * Checks the invariants the last operation could affect: all of the set under test's (its memory accounting
     * every 64th step and after reserve, shrinkToFit and close), and those of the second set and the pool when the
     * operation used them, or every 16th step.
     *
     * @throws InvariantViolation naming the first invariant that does not hold.
     */
    public void checkInvariants()
    {
        checkSet();
        if (otherCheckDue)
        {
            checkOther();
        }
        if (poolCheckDue)
        {
            checkPool();
        }
    }

    /**
     * Checks every invariant of every structure, whatever the last operation was; run at the end of a sequence.
     *
     * @throws InvariantViolation naming the first invariant that does not hold.
     */
    public void checkEverything()
    {
        memoryCheckDue = true;
        checkSet();
        checkOther();
        checkPool();
    }

    private void checkSet()
    {
        expectEqual("size() matches the model", model.size(), set.size(), null);
        expectEqual("memberCount() matches the model", model.memberCount(), set.memberCount(), null);
        expectEqual("freeList() is the swap_only boundary, else the size", model.freeList(), set.extent(), null);
        expectEqual("isEmpty() iff no member", model.memberCount() == 0, set.isEmpty(), null);
        if (set.capacity() < set.size())
        {
            throw violation("capacity() is at least size()", set.capacity() + " < " + set.size());
        }
        final int freeList = model.freeList();
        for (int i = 0; i < model.size(); i++)
        {
            final long expected = model.slot(i);
            final long actual = set.entityAt(i);
            if (actual != expected)
            {
                throw violation("the packed layout matches the model",
                    "slot " + i + " holds " + Entity.toString(actual) + ", the model says " +
                    Entity.toString(expected) + "; layout " + names(layout()));
            }
            if (expected == SetModel.TOMBSTONE)
            {
                if (set.memberAtIndex(i) != Entity.NULL)
                {
                    throw violation("an in_place tombstone is no member",
                        "slot " + i + " holds " + Entity.toString(set.memberAtIndex(i)));
                }
            }
            else if (i < freeList)
            {
                checkMember(expected, i);
            }
            else
            {
                if (set.contains(expected) || set.indexOf(expected) != -1 || slotOf(set, expected) != i)
                {
                    throw violation("a swap_only released entry stays in its slot but is not a member",
                        Entity.toString(expected) + " at slot " + i + ": contains = " + set.contains(expected) +
                        ", indexOf = " + slotOf(set, expected));
                }
            }
        }
        checkIteration(set, model, "forEach yields exactly the members, front to back");
        if (set.contains(Entity.NULL) || set.indexOf(Entity.NULL) != -1)
        {
            throw violation("NULL is never contained", "contains(NULL) = " + set.contains(Entity.NULL));
        }
        if (memoryCheckDue)
        {
            final long bytes = set.offHeapBytes();
            expectEqual("offHeapBytes() equals what its OffHeap allocated", setHeap.allocatedBytes(), bytes, null);
            if (bytes < (long)set.capacity() * PayloadSet.SLOT_BYTES)
            {
                throw violation("offHeapBytes() covers the packed array and every column",
                    bytes + " bytes for capacity " + set.capacity());
            }
        }
    }

    private void checkMember(final long entity, final int slot)
    {
        if (slotOf(set, entity) != slot || !set.contains(entity) || set.indexOf(entity) != slot)
        {
            throw violation("packed[indexOf(e)] == e for every member",
                Entity.toString(entity) + " at slot " + slot + ": indexOf = " + slotOf(set, entity) +
                ", contains = " + set.contains(entity) + ", memberIndex = " + set.indexOf(entity));
        }
        final long stamp = model.stamp(entity);
        if (set.longAt(slot) != PayloadSet.longOf(stamp))
        {
            throw violation("payload follows its entity", Entity.toString(entity) + " at slot " + slot + ": " +
                set.payloadMismatch(slot, stamp));
        }
        final long next = Entity.next(entity);
        if (set.contains(next))
        {
            throw violation("other versions of a member's index are never contained",
                "member " + Entity.toString(entity) + ", contains(" + Entity.toString(next) + ") = true");
        }
        if ((slot + steps) % 16 == 0)
        {
            checkLookupsRarely(entity, slot, stamp);
        }
    }

    /**
     * Checks that follow from {@code packed[indexOf(e)] == e} and the long payload column unless a lookup method or
     * the code moving a narrower column has its own bug; run for a rotating sixteenth of the members after each
     * operation, so every member is covered within 16 operations.
     */
    private void checkLookupsRarely(final long entity, final int slot, final long stamp)
    {
        final String mismatch = set.payloadMismatch(slot, stamp);
        if (mismatch != null)
        {
            throw violation("payload follows its entity", Entity.toString(entity) + " at slot " + slot + ": " +
                mismatch);
        }
        if (set.requireIndexOf(entity) != slot)
        {
            throw violation("requireIndex(e) is the member's slot", Entity.toString(entity) + " at slot " + slot +
                ": requireIndex = " + set.requireIndexOf(entity));
        }
        final int version = Entity.version(entity);
        final long previous = Entity.combine(Entity.index(entity), version == 0 ? Entity.MAX_VERSION : version - 1);
        if (set.contains(previous) || set.indexOf(previous) != -1)
        {
            throw violation("other versions of a member's index are never contained",
                "member " + Entity.toString(entity) + ", contains(" + Entity.toString(previous) + ") = " +
                set.contains(previous) + ", indexOf = " + set.indexOf(previous));
        }
        final long tombstoneLike = Entity.combine(Entity.index(entity), Entity.TOMBSTONE_VERSION);
        if (set.contains(tombstoneLike) || set.indexOf(tombstoneLike) != -1)
        {
            throw violation("a handle carrying TOMBSTONE_VERSION is never contained",
                Long.toHexString(tombstoneLike));
        }
    }

    private void checkOther()
    {
        expectEqual("other: size() matches the model", otherModel.size(), other.size(), null);
        expectEqual("other: memberCount() matches the model", otherModel.memberCount(), other.memberCount(), null);
        expectEqual("other: freeList() matches the model", otherModel.freeList(), other.extent(), null);
        for (int i = 0; i < otherModel.size(); i++)
        {
            if (other.entityAt(i) != otherModel.slot(i))
            {
                throw violation("other: the packed layout matches the model",
                    "slot " + i + " holds " + Entity.toString(other.entityAt(i)) + ", the model says " +
                    Entity.toString(otherModel.slot(i)));
            }
        }
        checkIteration(other, otherModel, "other: forEach yields exactly the members, front to back");
        expectEqual("other: offHeapBytes() equals what its OffHeap allocated", otherHeap.allocatedBytes(),
            other.offHeapBytes(), null);
    }

    private void checkPool()
    {
        expectEqual("pool: aliveCount() matches the model", poolModel.aliveCount(), pool.aliveCount(), null);
        expectEqual("pool: createdCount() matches the model", poolModel.createdCount(), pool.createdCount(), null);
        final Set<Long> visited = new HashSet<>();
        pool.forEach(visited::add);
        final List<Long> alive = poolModel.aliveEntities();
        if (!visited.equals(new HashSet<>(alive)) || visited.size() != pool.aliveCount())
        {
            throw violation("pool: forEach yields exactly the alive entities",
                "visited " + visited + ", expected " + names(alive));
        }
        for (int index = 0; index < poolModel.createdCount(); index++)
        {
            if (pool.currentVersion(index) != poolModel.currentVersion(index))
            {
                throw violation("pool: currentVersion matches the model", "index " + index + ": " +
                    pool.currentVersion(index) + ", expected " + poolModel.currentVersion(index));
            }
        }
        expectEqual("pool: offHeapBytes() equals what its OffHeap allocated", poolHeap.allocatedBytes(),
            pool.offHeapBytes(), null);
    }

    /**
     * Closes every structure; afterwards every allocator must be back to 0 bytes.
     */
    @Override
    public void close()
    {
        setHeap.close();
        otherHeap.close();
        poolHeap.close();
    }

    /**
     * Bytes still held by the three allocators; 0 after {@link #close()}.
     *
     * @return the sum of their byte counts.
     */
    public long allocatedBytes()
    {
        return setHeap.allocatedBytes() + otherHeap.allocatedBytes() + poolHeap.allocatedBytes();
    }

    private void openSet()
    {
        setHeap = new OffHeap("harness");
        set = new PayloadSet(policy, setHeap, null, "set under test");
        model = new SetModel(policy);
    }

    private List<Long> layout()
    {
        final List<Long> out = new ArrayList<>(set.size());
        for (int i = 0; i < set.size(); i++)
        {
            out.add(set.entityAt(i));
        }
        return out;
    }

    /** Compares {@code forEach} with the model's iteration order without building lists unless they differ. */
    private static void checkIteration(final SparseSet target, final SetModel expected, final String invariant)
    {
        final int[] visited = {0};
        final boolean[] same = {true};
        final int freeList = expected.freeList();
        final int[] slot = {0};
        target.forEach(entity ->
        {
            while (slot[0] < freeList && expected.slot(slot[0]) == SetModel.TOMBSTONE)
            {
                slot[0]++;
            }
            if (slot[0] >= freeList || expected.slot(slot[0]) != entity)
            {
                same[0] = false;
            }
            slot[0]++;
            visited[0]++;
        });
        if (!same[0] || visited[0] != expected.memberCount())
        {
            throw violation(invariant, "visited " + names(iterate(target)) + ", expected " +
                names(expected.iteration()));
        }
    }

    private static List<Long> iterate(final SparseSet target)
    {
        final List<Long> out = new ArrayList<>(target.memberCount());
        target.forEach(out::add);
        return out;
    }

    private static String names(final List<Long> entities)
    {
        final StringBuilder out = new StringBuilder("[");
        final int shown = Math.min(entities.size(), 40);
        for (int i = 0; i < shown; i++)
        {
            out.append(i == 0 ? "" : ", ").append(Entity.toString(entities.get(i)));
        }
        if (shown < entities.size())
        {
            out.append(", ... ").append(entities.size() - shown).append(" more");
        }
        return out.append(']').toString();
    }

    private static void expectEqual(final String invariant, final long expected, final long actual, final Op op)
    {
        if (expected != actual)
        {
            throw violation(invariant, (op == null ? "" : op + ": ") + "got " + actual + ", expected " + expected);
        }
    }

    private static void expectEqual(
        final String invariant, final boolean expected, final boolean actual, final Op op)
    {
        if (expected != actual)
        {
            throw violation(invariant, (op == null ? "" : op + ": ") + "got " + actual + ", expected " + expected);
        }
    }

    private static void expectThrows(
        final Class<? extends RuntimeException> type, final String invariant, final String mention,
        final Runnable action)
    {
        try
        {
            action.run();
        }
        catch (final RuntimeException ex)
        {
            if (!type.isInstance(ex))
            {
                throw new InvariantViolation(invariant, "expected " + type.getSimpleName() + ", got " + ex, ex);
            }
            if (ex.getMessage() == null || !ex.getMessage().contains(mention))
            {
                throw new InvariantViolation("exception messages name the offending value",
                    "message of " + type.getSimpleName() + " does not contain '" + mention + "': " +
                    ex.getMessage(), ex);
            }
            return;
        }
        throw violation(invariant, "expected " + type.getSimpleName() + ", but the call returned normally");
    }

    /** What {@link PayloadSet#memberAtIndex(int)} says of every slot below the free-list boundary. */
    private static long[] slotsOf(final SparseSet target)
    {
        final long[] slots = new long[target.extent()];
        for (int i = 0; i < slots.length; i++)
        {
            slots[i] = ((PayloadSet)target).memberAtIndex(i);
        }
        return slots;
    }

    /**
     * Refs trust an unchanged layout version: if it did not change, every member is still in the slot it had, and
     * the Ref check agrees.
     */
    private void checkLayoutVersion(final Op op, final long layoutBefore, final long[] slotsBefore)
    {
        final long layoutAfter = set.layout();
        if (layoutAfter < layoutBefore)
        {
            throw violation("layoutVersion() never goes back", op + ": " + layoutBefore + " -> " + layoutAfter);
        }
        if (layoutAfter != layoutBefore)
        {
            return;
        }
        for (int i = 0; i < slotsBefore.length; i++)
        {
            final long entity = slotsBefore[i];
            if (entity != Entity.NULL && set.memberAtIndex(i) != entity)
            {
                throw violation("an unchanged layoutVersion() means every member kept its slot",
                    op + " moved " + Entity.toString(entity) + " out of slot " + i + " without changing it");
            }
            if (entity != Entity.NULL)
            {
                set.checkRef(i, entity);
            }
        }
    }

    /** The slot holding exactly {@code entity}, released entries included, or -1: a scan of the packed array. */
    private static int slotOf(final SparseSet target, final long entity)
    {
        if (entity == Entity.NULL)
        {
            return -1;
        }
        for (int i = 0; i < target.size(); i++)
        {
            if (target.entityAt(i) == entity)
            {
                return i;
            }
        }
        return -1;
    }

    private static InvariantViolation violation(final String invariant, final String detail)
    {
        return new InvariantViolation(invariant, detail, null);
    }
}
