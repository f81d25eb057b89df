package dev.cairn.view;

import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.Walks;
import dev.cairn.parallel.Chunks;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.Storages;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongConsumer;

/**
 * A view whose components are chosen at run time: it visits the entities that are members of every included set and
 * of no excluded one.
 * <pre>{@code
 * RuntimeView view = world.view(Position.class, Velocity.class).without(Frozen.class);
 * PositionStorage positions = view.storage(PositionStorage.TYPE);
 * view.forEach(entity -> positions.x(entity, positions.x(entity) + 1f));
 * }</pre>
 * For code that is not hot: the action receives only the handle, and reading a component through a storage's
 * by-entity accessor costs a sparse lookup. Generated views ({@link dev.cairn.View}) pass positioned accessors and are
 * the fast path; both follow the same rules.
 * <p>
 * <b>Walks.</b> Each walk leads with the included set that is smallest (by {@link SparseSet#extent()}) when it
 * starts, walks it from front to back and checks every other set, first at the same packed index and then through
 * its sparse array. {@link dev.cairn.DeletionPolicy#IN_PLACE} tombstones and
 * {@link dev.cairn.DeletionPolicy#SWAP_ONLY} released entries are never visited. {@code forEach},
 * {@code parallelForEach} and {@code count} are walks of every world and standalone set the view reads, and follow
 * the rule of every walk (see {@link dev.cairn.View}): the structure holds still, a world's changes made meanwhile
 * are applied when the walk returns, a standalone set refuses them, and closing any of them, from the action or
 * another thread, is refused. A view holds no state between walks: keep it and walk it again after any change.
 * <p>
 * After the world (or a set) is closed, every method except {@link #included(int)}, {@link #excluded(int)} and the
 * counts throws {@link IllegalStateException}. Not thread-safe, except {@link #parallelForEach(LongConsumer)}, whose
 * actions run on a pool's threads (see {@code docs/threads.md}); a view whose sets belong to more than one world is
 * walked with {@code forEach} only.
 */
public final class RuntimeView
{
    private static final TickFilter[] NO_FILTERS = new TickFilter[0];

    private final Storages world;
    private final SparseSet[] included;
    private final SparseSet[] excluded;
    /** The included sets, then the excluded ones: every set a walk reads. */
    private final SparseSet[] sets;
    private final TickFilter[] filters;
    /** The walks of the worlds and standalone sets the view reads, each once: a walk of the view begins on all. */
    private final Walks[] walks;

    /** Visits only entities whose tracked component at {@code storage} was added (or changed) after {@code since}. */
    private record TickFilter(ComponentStorage<?> storage, boolean added, int since)
    {
        boolean passes(final long entity, final int hint)
        {
            final int index = storage.indexOf(entity, hint);
            return added ? storage.addedSince(index, since) : storage.changedSince(index, since);
        }
    }

    /**
     * Creates a view over sets, not tied to a world: {@link #without(Class[])} is then unavailable.
     *
     * @param included sets an entity must be a member of; at least one.
     * @param excluded sets an entity must not be a member of.
     * @throws IllegalArgumentException if {@code included} is empty.
     */
    public RuntimeView(final List<? extends SparseSet> included, final List<? extends SparseSet> excluded)
    {
        this(null, included, excluded);
    }

    /**
     * Creates a view over sets of a world; what {@link dev.cairn.world.World#view(Class[])} calls.
     *
     * @param world    where {@link #without(Class[])} finds storages (the world the sets belong to); may be null.
     * @param included sets an entity must be a member of; at least one.
     * @param excluded sets an entity must not be a member of.
     * @throws IllegalArgumentException if {@code included} is empty, a set is null, or a set is both included and
     *                                  excluded (the view would visit nothing).
     */
    public RuntimeView(
        final Storages world, final List<? extends SparseSet> included, final List<? extends SparseSet> excluded)
    {
        this(world, included, excluded, NO_FILTERS);
    }

    private RuntimeView(
        final Storages world,
        final List<? extends SparseSet> included,
        final List<? extends SparseSet> excluded,
        final TickFilter[] filters)
    {
        this.filters = filters;
        if (included.isEmpty())
        {
            throw new IllegalArgumentException(
                "a view needs at least one included component; pass one or more component classes or sets");
        }
        this.world = world;
        this.included = included.toArray(new SparseSet[0]);
        this.excluded = excluded.toArray(new SparseSet[0]);
        for (final SparseSet set : this.excluded)
        {
            if (Arrays.asList(this.included).contains(set))
            {
                throw new IllegalArgumentException(
                    set.name() + " is both included in and excluded from this view, so it would visit nothing; " +
                    "list it on one side only");
            }
        }
        if (Arrays.asList(this.included).contains(null) || Arrays.asList(this.excluded).contains(null))
        {
            throw new NullPointerException("a view's sets must not be null");
        }
        this.sets = Arrays.copyOf(this.included, this.included.length + this.excluded.length);
        System.arraycopy(this.excluded, 0, sets, this.included.length, this.excluded.length);
        this.walks = distinctWalks(sets);
    }

    private static Walks[] distinctWalks(final SparseSet[] sets)
    {
        final List<Walks> distinct = new java.util.ArrayList<>();
        for (final SparseSet set : sets)
        {
            final Walks walks = Access.walks(set);
            if (!distinct.contains(walks))
            {
                distinct.add(walks);
            }
        }
        return distinct.toArray(new Walks[0]);
    }

    /**
     * A view with the same included and excluded sets, and these sets excluded as well.
     *
     * @param more sets an entity must not be a member of.
     * @return a new view; this one is unchanged.
     */
    public RuntimeView without(final SparseSet... more)
    {
        ensureOpen();
        java.util.Objects.requireNonNull(more, "more: pass the sets to exclude");
        final List<SparseSet> all = new ArrayList<>(Arrays.asList(excluded));
        all.addAll(Arrays.asList(more));
        return new RuntimeView(world, Arrays.asList(included), all, filters);
    }

    /**
     * A view like this one that visits only entities whose component of {@code recordClass} was added after tick
     * {@code since}.
     *
     * @param recordClass an included component declared {@code @Component(tracked = true)}.
     * @param since       a tick, for example one {@link dev.cairn.world.World#advanceTick()} returned.
     * @return a new view; this one is unchanged.
     * @throws IllegalArgumentException if the view does not include that component, or it is not tracked.
     */
    public RuntimeView addedSince(final Class<? extends Record> recordClass, final int since)
    {
        return filtered(recordClass, true, since);
    }

    /**
     * A view like this one that visits only entities whose component of {@code recordClass} was written (or added)
     * after tick {@code since}.
     *
     * @param recordClass an included component declared {@code @Component(tracked = true)}.
     * @param since       a tick, for example one {@link dev.cairn.world.World#advanceTick()} returned.
     * @return a new view; this one is unchanged.
     * @throws IllegalArgumentException if the view does not include that component, or it is not tracked.
     */
    public RuntimeView changedSince(final Class<? extends Record> recordClass, final int since)
    {
        return filtered(recordClass, false, since);
    }

    private RuntimeView filtered(final Class<? extends Record> recordClass, final boolean added, final int since)
    {
        final ComponentStorage<?> storage = storage(recordClass);
        if (!storage.isTracked())
        {
            throw new IllegalArgumentException(
                recordClass.getName() + " is not tracked, so its storage keeps no change ticks; declare it " +
                "@Component(tracked = true) to filter a view by " + (added ? "additions" : "changes"));
        }
        final TickFilter[] more = Arrays.copyOf(filters, filters.length + 1);
        more[filters.length] = new TickFilter(storage, added, since);
        return new RuntimeView(world, Arrays.asList(included), Arrays.asList(excluded), more);
    }

    /**
     * A view with the same included and excluded components, and these components excluded as well.
     *
     * @param more component records an entity must not have.
     * @return a new view; this one is unchanged.
     * @throws IllegalStateException    if this view was built from sets rather than by a world, or the world is
     *                                  closed.
     * @throws IllegalArgumentException if a class has no generated storage.
     */
    @SafeVarargs
    public final RuntimeView without(final Class<? extends Record>... more)
    {
        ensureOpen();
        if (world == null)
        {
            throw new IllegalStateException(
                "this view was built from sets, not by a World, so it cannot find the storage of a component " +
                "class: pass the sets to without(SparseSet...) instead");
        }
        final SparseSet[] sets = new SparseSet[more.length];
        for (int k = 0; k < more.length; k++)
        {
            sets[k] = world.storage(more[k]);
        }
        return without(sets);
    }

    /**
     * The included set at position {@code k} of the list given at construction, for reading components.
     *
     * @param k position in the included list, from 0 to {@link #includedCount()} - 1.
     * @return that set (a {@link ComponentStorage} when the view came from a World).
     * @throws IndexOutOfBoundsException if {@code k} is out of range.
     */
    public SparseSet included(final int k)
    {
        if (k < 0 || k >= included.length)
        {
            throw new IndexOutOfBoundsException(
                "included set " + k + " does not exist: this view includes " + included.length + " sets");
        }
        return included[k];
    }

    /**
     * The excluded set at position {@code k}, in the order exclusions were added.
     *
     * @param k position in the excluded list, from 0 to {@link #excludedCount()} - 1.
     * @return that set.
     * @throws IndexOutOfBoundsException if {@code k} is out of range.
     */
    public SparseSet excluded(final int k)
    {
        if (k < 0 || k >= excluded.length)
        {
            throw new IndexOutOfBoundsException(
                "excluded set " + k + " does not exist: this view excludes " + excluded.length + " sets");
        }
        return excluded[k];
    }

    /**
     * How many sets an entity must be a member of.
     *
     * @return at least 1.
     */
    public int includedCount()
    {
        return included.length;
    }

    /**
     * How many sets an entity must not be a member of.
     *
     * @return 0 or more.
     */
    public int excludedCount()
    {
        return excluded.length;
    }

    /**
     * The included storage of a component record.
     *
     * @param recordClass a component record this view includes.
     * @param <R>         the record.
     * @return its storage.
     * @throws IllegalArgumentException if the view does not include a storage of that record.
     */
    @SuppressWarnings("unchecked")
    public <R extends Record> ComponentStorage<R> storage(final Class<R> recordClass)
    {
        ensureOpen();
        for (final SparseSet set : included)
        {
            if (set instanceof ComponentStorage && ((ComponentStorage<?>)set).type().recordClass() == recordClass)
            {
                return (ComponentStorage<R>)set;
            }
        }
        throw notIncluded(recordClass);
    }

    /**
     * The included storage of a component type, typed as its generated class: {@code
     * view.storage(PositionStorage.TYPE)} is a {@code PositionStorage}.
     *
     * @param type the storage's {@code TYPE} constant.
     * @param <R>  the record.
     * @param <S>  the generated storage class.
     * @return the storage.
     * @throws IllegalArgumentException if the view does not include a storage of that type.
     */
    @SuppressWarnings("unchecked")
    public <R extends Record, S extends ComponentStorage<R>> S storage(final ComponentType<R, S> type)
    {
        ensureOpen();
        for (final SparseSet set : included)
        {
            if (set instanceof ComponentStorage && ((ComponentStorage<?>)set).type() == type)
            {
                return (S)set;
            }
        }
        throw notIncluded(type.recordClass());
    }

    /**
     * Whether an entity would be visited now.
     *
     * @param entity any value.
     * @return true if it is in every included set and no excluded one.
     * @throws IllegalStateException if a set is closed.
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
        for (final TickFilter filter : filters)
        {
            if (!filter.passes(entity, -1))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * An upper bound of the entities a walk begun now would visit: the extent of the smallest included set.
     *
     * @return the bound; 0 after the world is closed.
     */
    public int sizeHint()
    {
        return lead().extent();
    }

    /**
     * Calls {@code action} with each matching entity, walking the smallest included set from front to back. A walk:
     * the world's structure holds still, and the changes the action makes are applied when it returns.
     *
     * @param action receives each matching entity.
     * @throws IllegalStateException if a set is closed.
     */
    public void forEach(final LongConsumer action)
    {
        java.util.Objects.requireNonNull(action, "action is null: pass what to do with each entity");
        ensureOpen();
        walk(0, "RuntimeView.forEach", () ->
        {
            final SparseSet lead = lead();
            final int end = lead.extent();
            for (int i = 0; i < end; i++)
            {
                final long entity = lead.entityAt(i);
                if (entity != Entity.NULL && matches(lead, i, entity))
                {
                    action.accept(entity);
                }
            }
        });
    }

    /** Runs {@code body} as a walk of every world and standalone set the view reads, from {@code walks[k]} on. */
    private void walk(final int k, final String what, final Runnable body)
    {
        if (k == walks.length)
        {
            body.run();
            return;
        }
        walks[k].run(walks[k].beginWalk(what), () -> walk(k + 1, what, body));
    }

    /**
     * Visits every matching entity once, on the {@linkplain ForkJoinPool#commonPool() common pool}, in chunks of an
     * automatic size; see {@link #parallelForEach(ForkJoinPool, int, LongConsumer)}.
     *
     * @param action receives each entity's handle, on any of the pool's threads.
     * @throws IllegalStateException if a set is closed, or a parallel walk of the world runs already.
     */
    public void parallelForEach(final LongConsumer action)
    {
        parallelForEach(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, action);
    }

    /**
     * Visits every matching entity once, in chunks of the leading set's range that run on {@code pool}: a parallel
     * walk of the view's world. The changes the actions make are applied when it returns, in the order
     * {@link #forEach} would have made them.
     *
     * @param pool      where the chunks run; the calling thread waits.
     * @param chunkSize indices per chunk, 1 or more, or {@link Chunks#AUTOMATIC}.
     * @param action    receives each entity's handle, on any of the pool's threads.
     * @throws IllegalStateException    if a set is closed, a parallel walk of the world runs already, or the view's
     *                                  sets belong to more than one world.
     * @throws IllegalArgumentException if {@code chunkSize} is negative.
     */
    public void parallelForEach(final ForkJoinPool pool, final int chunkSize, final LongConsumer action)
    {
        Chunks.requireValid(pool, chunkSize, action);
        ensureOpen();
        Walks parallel = null;
        for (final Walks candidate : walks)
        {
            if (candidate.canDefer())
            {
                if (parallel != null)
                {
                    throw new IllegalStateException("cannot walk " + this + " in parallel: its sets belong to more " +
                        "than one World, and the changes the pool's threads make to each could not be put in one " +
                        "order; walk it with forEach, or make the view of one World's storages");
                }
                parallel = candidate;
            }
        }
        final Walks runner = parallel == null ? walks[0] : parallel;
        // The other walks (standalone sets, which refuse changes while walked) are held on this thread.
        walkExcept(0, runner, () ->
        {
            final SparseSet lead = lead();
            runner.runParallel("RuntimeView.parallelForEach", pool, lead.extent(), chunkSize, (from, to) ->
            {
                for (int i = from; i < to; i++)
                {
                    final long entity = lead.entityAt(i);
                    if (entity != Entity.NULL && matches(lead, i, entity))
                    {
                        action.accept(entity);
                    }
                }
            });
        });
    }

    private void walkExcept(final int k, final Walks skipped, final Runnable body)
    {
        if (k == walks.length)
        {
            body.run();
        }
        else if (walks[k] == skipped)
        {
            walkExcept(k + 1, skipped, body);
        }
        else
        {
            walks[k].run(walks[k].beginWalk("RuntimeView.parallelForEach"), () -> walkExcept(k + 1, skipped, body));
        }
    }

    /**
     * Counts the matching entities by walking the smallest included set.
     *
     * @return how many entities a walk started now would visit.
     * @throws IllegalStateException if a set is closed.
     */
    public int count()
    {
        ensureOpen();
        final int[] count = new int[1];
        walk(0, "RuntimeView.count", () ->
        {
            final SparseSet lead = lead();
            for (int i = 0; i < lead.extent(); i++)
            {
                final long entity = lead.entityAt(i);
                if (entity != Entity.NULL && matches(lead, i, entity))
                {
                    count[0]++;
                }
            }
        });
        return count[0];
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("RuntimeView[with=").append(names(included))
            .append(", without=").append(names(excluded));
        for (final TickFilter filter : filters)
        {
            text.append(", ").append(filter.storage().type().recordClass().getSimpleName())
                .append(filter.added() ? " added" : " changed").append(" since ").append(filter.since());
        }
        return text.append(']').toString();
    }

    /** Whether {@code entity}, at index {@code i} of {@code lead}, is in every other included set, no excluded one. */
    private boolean matches(final SparseSet lead, final int i, final long entity)
    {
        for (final SparseSet set : included)
        {
            if (set != lead && !(i < set.extent() && set.entityAt(i) == entity) && set.indexOf(entity) < 0)
            {
                return false;
            }
        }
        for (final SparseSet set : excluded)
        {
            if (set.indexOf(entity) >= 0)
            {
                return false;
            }
        }
        for (final TickFilter filter : filters)
        {
            if (!filter.passes(entity, i))
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
            if (set.extent() < lead.extent())
            {
                lead = set;
            }
        }
        return lead;
    }

    private void ensureOpen()
    {
        for (final SparseSet set : included)
        {
            set.ensureOpen();
        }
        for (final SparseSet set : excluded)
        {
            set.ensureOpen();
        }
    }

    private IllegalArgumentException notIncluded(final Class<?> recordClass)
    {
        return new IllegalArgumentException(
            "this view does not include " + recordClass.getName() + "; it includes " + names(included) +
            ": add it to world.view(...) or read it through world.storage(...)");
    }

    private static String names(final SparseSet[] sets)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int k = 0; k < sets.length; k++)
        {
            text.append(k == 0 ? "" : ", ").append(sets[k].name());
        }
        return text.append(']').toString();
    }
}
