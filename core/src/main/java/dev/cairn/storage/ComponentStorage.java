package dev.cairn.storage;

import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.ArrayBases;
import dev.cairn.internal.Deferred;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.Failures;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.RawStorage;
import dev.cairn.internal.Row;
import dev.cairn.internal.StorageHook;
import dev.cairn.internal.Walks;
import dev.cairn.set.SparseSet;
import dev.cairn.signal.ComponentListener;
import dev.cairn.signal.Connection;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * A sparse set whose payload columns hold one component per member, one column per primitive field of the record;
 * the base of every generated storage. This is the storage half of EnTT's set/storage seam: the set moves payload
 * bytes with their entities but never reads them; the storage gives them meaning.
 * <p>
 * Generated subclasses add the allocation-free accessors, one per field by entity and by packed index. Each keeps the
 * address of its columns in a field that {@link #columnsMoved()} refreshes, checks the index ({@link #checkIndex},
 * {@link #requireIndex} or a {@code Ref}'s {@link #refIndex}) and then reads or writes the column through
 * {@link dev.cairn.internal.Memory}, which checks nothing. This class also gives the record-level operations that
 * code which is not hot uses; those allocate a record per call.
 * <p>
 * <b>Signals.</b> Listeners connected with {@link #onAdded}, {@link #onUpdated} and {@link #onRemoving} hear every
 * add (after the values are written), every {@code patch} and {@link #markUpdated(long)}, and every removal (before
 * the slot is reused, also from {@link dev.cairn.world.World#destroy(long)} and {@link #clear()}). They run while the
 * world's structure holds still: what they change is applied when the operation that announced them returns.
 * <p>
 * <b>Change ticks.</b> A storage of a tracked component ({@code @Component(tracked = true)}) keeps two hidden columns
 * beside the fields: the {@link Clock} tick at which each component was added and the tick at which it was last
 * written. Generated code stamps them on every write path; {@link #addedSince(int, int)} and
 * {@link #changedSince(int, int)} read them.
 * <p>
 * <b>Bulk copies.</b> The generated {@code readXAt} and {@code writeXAt} copy a field of the components at packed
 * indices {@code [index, index + length)} to or from an array, from its element {@code offset}, in one copy of the
 * column's memory. They throw {@link IndexOutOfBoundsException} if either range does not fit, and copy nothing then;
 * {@code writeXAt} tells no listener (a tracked component's change ticks are stamped).
 *
 * @param <R> the component record.
 */
public abstract class ComponentStorage<R extends Record> extends SparseSet
{
    static
    {
        Access.installRawStorage(ComponentStorage.class, storage -> ((ComponentStorage<?>)storage).raw);
    }

    private final ComponentType<R, ?> type;
    /** The pool entities must be alive in, or null for a storage of its own. */
    private final EntityPool pool;
    private final StorageSignals signals;
    /** The change ticks of a tracked component; null for others. */
    private final ChangeTicks ticks;
    private final Clock clock;
    private final RowCodec rows;
    private final Raw raw = new Raw();
    /** The name of a removal while listeners watch, for messages; {@code {}} stands for the entity. */
    private final String removalName;

    /**
     * Creates an empty storage.
     *
     * @param type         the component type.
     * @param offHeap      owner of the memory, or null for a storage that owns its memory.
     * @param walks        the walks of the world whose memory it is; null with {@code offHeap}.
     * @param pool         the pool entities must be alive in, or null to accept any well-formed handle.
     * @param clock        the clock of the world (or of this storage alone) that tracked components are stamped with.
     * @param columnWidths byte width of each field column; a tracked storage adds its two tick columns after them.
     */
    protected ComponentStorage(
        final ComponentType<R, ?> type,
        final OffHeap offHeap,
        final Walks walks,
        final EntityPool pool,
        final Clock clock,
        final int[] columnWidths)
    {
        super(type.policy(), offHeap, walks, pool, displayName(type.recordClass()) + " storage",
            withTickColumns(columnWidths, type.isTracked()));
        this.type = type;
        this.pool = pool;
        this.clock = clock;
        this.rows = new RowCodec(type.schema(), columnWidths);
        this.removalName = "removing {}'s " + type.recordClass().getSimpleName();
        this.signals = new StorageSignals(this, pool);
        this.ticks = type.isTracked() ? new ChangeTicks(this, clock, columnWidths.length) : null;
        if (ticks != null)
        {
            ticks.columnsMoved();
            clock.track(ticks);
        }
    }

    private static int[] withTickColumns(final int[] columnWidths, final boolean tracked)
    {
        if (!tracked)
        {
            return columnWidths;
        }
        final int[] widths = Arrays.copyOf(columnWidths, columnWidths.length + 2);
        widths[columnWidths.length] = Integer.BYTES;
        widths[columnWidths.length + 1] = Integer.BYTES;
        return widths;
    }

    private static String displayName(final Class<?> recordClass)
    {
        final String packageName = recordClass.getPackageName();
        final String binaryName = packageName.isEmpty() ?
            recordClass.getName() : recordClass.getName().substring(packageName.length() + 1);
        return binaryName.replace('$', '.');
    }

    /**
     * The component type this storage holds.
     *
     * @return its type.
     */
    public final ComponentType<R, ?> type()
    {
        return type;
    }

    /**
     * Connects a listener to every add of this component, called after the values are written, with the packed index
     * the component occupies then.
     *
     * @param listener the listener.
     * @return its connection: close it to disconnect.
     * @throws IllegalStateException if the storage is closed, or from a parallel walk's threads.
     */
    public final Connection onAdded(final ComponentListener listener)
    {
        return signals.onAdded(listener);
    }

    /**
     * Connects a listener to every update of this component: a {@code patch} of the whole component (by fields or
     * by record) and {@link #markUpdated(long)}. Writes of single fields do not signal; tracked components record
     * them in their change ticks.
     *
     * @param listener the listener.
     * @return its connection: close it to disconnect.
     * @throws IllegalStateException if the storage is closed, or from a parallel walk's threads.
     */
    public final Connection onUpdated(final ComponentListener listener)
    {
        return signals.onUpdated(listener);
    }

    /**
     * Connects a listener to every removal of this component, called before the slot is reused, while the values can
     * still be read at the given index: {@code remove}, {@code erase}, {@link #clear()},
     * {@link dev.cairn.world.World#destroy(long)} and {@link dev.cairn.world.World#clear()}.
     *
     * @param listener the listener.
     * @return its connection: close it to disconnect.
     * @throws IllegalStateException if the storage is closed, or from a parallel walk's threads.
     */
    public final Connection onRemoving(final ComponentListener listener)
    {
        return signals.onRemoving(listener);
    }

    /**
     * Whether any listener or engine structure (a group, an observer) follows this storage's adds, updates or
     * removals.
     *
     * @return true if an add or a removal sends an event.
     */
    public final boolean isSignalled()
    {
        return signals.isSignalled();
    }

    /**
     * Refused: a storage adds a component only with its values, and tells its listeners, groups and observers, which
     * a bare insert would not.
     *
     * @param entity any value.
     * @return never.
     * @throws UnsupportedOperationException always; nothing changes.
     */
    @Override
    public final int insert(final long entity)
    {
        ensureOpen();
        throw new UnsupportedOperationException(name() + " adds a component only with its values, and tells " +
            "listeners, groups and observers: insert(entity) would do neither; use emplace(entity, ...), " +
            "add(entity, component) or emplace(commands, entity, ...) (" + Entity.toString(entity) + " was not added)");
    }

    /**
     * Removes the component from an entity if it has it. Inside a walk or a listener the removal is recorded and made
     * when the walk returns, after the changes recorded before it (the entity keeps its component meanwhile).
     *
     * @param entity any value.
     * @return true if the entity has the component now.
     * @throws IllegalStateException if the storage is closed.
     */
    @Override
    public final boolean remove(final long entity)
    {
        final Walks walks = walks();
        if (walks.isDeferring() && walks.canDefer())
        {
            ensureOpen();
            // Recorded even if absent now: an add recorded before it in the same walk is undone, in order.
            walks.deferred().remove(raw, entity);
            return indexOf(entity) >= 0;
        }
        if (!signals.hasRemovalListeners())
        {
            return super.remove(entity);
        }
        final int operation = walks.beginOperation(removalName, entity);
        final boolean removed;
        try
        {
            removed = super.remove(entity);
        }
        catch (final Throwable thrown)
        {
            // The listeners' own exception comes first, what applying their changes threw after it.
            throw Failures.propagate(walks.end(operation, thrown));
        }
        walks.end(operation);
        return removed;
    }

    /**
     * Removes the component from an entity that has it, as {@link #remove(long)} does.
     *
     * @param entity an entity with the component.
     * @throws IllegalArgumentException if the entity does not have the component now; nothing is recorded then.
     * @throws IllegalStateException    if the storage is closed.
     */
    @Override
    public final void erase(final long entity)
    {
        if (isDeferring() && indexOf(entity) < 0)
        {
            ensureOpen();
            throw notMember(entity);
        }
        super.erase(entity);
    }

    /**
     * Removes the component from each of {@code entities[offset, offset + length)} that has it, in order; inside a
     * walk or a listener the removals are recorded as {@link #remove(long)} records them.
     *
     * @param entities any values.
     * @param offset   where the first is.
     * @param length   how many.
     * @return how many had the component.
     * @throws IndexOutOfBoundsException if the range does not fit {@code entities}; nothing is removed then.
     * @throws IllegalStateException     if the storage is closed.
     */
    @Override
    public final int removeAll(final long[] entities, final int offset, final int length)
    {
        final Walks walks = walks();
        if (walks.isDeferring() && walks.canDefer() || signals.hasRemovalListeners())
        {
            java.util.Objects.checkFromIndexSize(offset, length, entities.length);
            int removed = 0;
            for (int i = offset; i < offset + length; i++)
            {
                removed += remove(entities[i]) ? 1 : 0;
            }
            return removed;
        }
        return super.removeAll(entities, offset, length);
    }

    /**
     * Removes the component from every entity that has it, telling the removal listeners of each. Inside a walk or a
     * listener the clear is recorded and made when the walk returns.
     *
     * @throws IllegalStateException if the storage is closed.
     */
    @Override
    public final void clear()
    {
        final Walks walks = walks();
        if (walks.isDeferring() && walks.canDefer())
        {
            ensureOpen();
            walks.deferred().task(new Runnable()
            {
                @Override
                public void run()
                {
                    clear();
                }

                @Override
                public String toString()
                {
                    return name() + ".clear()";
                }
            });
            return;
        }
        if (!signals.hasRemovalListeners())
        {
            super.clear();
            return;
        }
        walks.run(walks.beginOperation(name() + ".clear()"), super::clear);
    }

    /**
     * Tells the update listeners (and stamps the change tick of a tracked component) that an entity's component
     * changed, for code that wrote its fields one by one. Inside a walk, the listeners are told when it returns.
     *
     * @param entity an entity with this component.
     * @throws IllegalArgumentException if the entity does not have this component.
     * @throws IllegalStateException    if the storage is closed, or someone listens and a parallel walk runs.
     */
    public final void markUpdated(final long entity)
    {
        final int index = indexForPatch(entity);
        if (ticks != null)
        {
            ticks.stampChanged(index);
        }
        updated(entity, index);
    }

    /**
     * Whether this component's storage records change ticks ({@code @Component(tracked = true)}).
     *
     * @return true if it does.
     */
    public final boolean isTracked()
    {
        return ticks != null;
    }

    /**
     * The clock this storage's change ticks come from: its world's, or its own for a standalone storage.
     *
     * @return the clock.
     */
    public final Clock clock()
    {
        return clock;
    }

    /**
     * The tick at which the component at a packed index was added.
     *
     * @param index a packed index from 0 to {@link #size()} - 1.
     * @return the tick.
     * @throws IllegalStateException     if the component is not tracked, or the storage is closed.
     * @throws IndexOutOfBoundsException if the index is out of range.
     */
    public final int addedTickAt(final int index)
    {
        return requireTracked().addedAt(checkIndex(index));
    }

    /**
     * The tick at which the component at a packed index was last written (or added).
     *
     * @param index a packed index from 0 to {@link #size()} - 1.
     * @return the tick.
     * @throws IllegalStateException     if the component is not tracked, or the storage is closed.
     * @throws IndexOutOfBoundsException if the index is out of range.
     */
    public final int changedTickAt(final int index)
    {
        return requireTracked().changedAt(checkIndex(index));
    }

    /**
     * Whether the component at a packed index was added after tick {@code since}.
     *
     * @param index a packed index from 0 to {@link #size()} - 1.
     * @param since a tick, for example one {@link Clock#advance()} returned.
     * @return true if it was added in a later tick.
     * @throws IllegalStateException     if the component is not tracked, or the storage is closed.
     * @throws IndexOutOfBoundsException if the index is out of range.
     */
    public final boolean addedSince(final int index, final int since)
    {
        return ticks().isAfter(addedTickAt(index), since);
    }

    /**
     * Whether the component at a packed index was written (or added) after tick {@code since}.
     *
     * @param index a packed index from 0 to {@link #size()} - 1.
     * @param since a tick, for example one {@link Clock#advance()} returned.
     * @return true if it was written in a later tick.
     * @throws IllegalStateException     if the component is not tracked, or the storage is closed.
     * @throws IndexOutOfBoundsException if the index is out of range.
     */
    public final boolean changedSince(final int index, final int since)
    {
        return ticks().isAfter(changedTickAt(index), since);
    }

    /**
     * Adds a component to an entity that does not have one; inside a walk or a listener the addition is recorded and
     * made when the walk returns.
     *
     * @param entity    the entity.
     * @param component its value.
     * @throws IllegalArgumentException if the entity already has this component or is not alive.
     */
    public abstract void add(long entity, R component);

    /**
     * Overwrites the component of an entity that has one.
     *
     * @param entity    the entity.
     * @param component the new value.
     * @throws IllegalArgumentException if the entity does not have this component.
     */
    public abstract void patch(long entity, R component);

    /**
     * Reads an entity's component into a new record.
     *
     * @param entity the entity.
     * @return a copy of its component.
     * @throws IllegalArgumentException if the entity does not have this component.
     */
    public abstract R get(long entity);

    /**
     * Reads the component at a packed index into a new record.
     *
     * @param index a packed index from 0 to {@link #size()} - 1.
     * @return a copy of the component there.
     * @throws IndexOutOfBoundsException if the index is out of range.
     */
    public abstract R getAt(int index);

    /**
     * A view of a field column over the components at {@code [0, size())}, for bulk processing; generated storages
     * offer one per field ({@code xColumn()}).
     *
     * @param column a field column, counted from 0.
     * @param width  its element width in bytes.
     * @return the column's view.
     * @throws IllegalStateException if the storage is closed.
     */
    protected final Column column(final int column, final int width)
    {
        ensureOpen();
        return new Column(this, column, width, size());
    }

    /**
     * Whether an add, remove or update made now is recorded and made later: a walk or a listener holds the world's
     * structure. Generated {@code emplace} methods record through {@link #deferAdd} then.
     *
     * @return true inside walks and listeners of a world.
     */
    protected final boolean isDeferring()
    {
        final Walks walks = walks();
        return walks.isDeferring() && walks.canDefer();
    }

    /**
     * Records adding this component to an entity, checked now as a direct add would be: the caller writes the fields
     * into the row returned (at the offsets of the component's row), and the component is added when the walk returns
     * (or its fields overwritten, if a change recorded before gave the entity the component by then).
     *
     * @param entity an alive entity without the component.
     * @return the row to write the fields into.
     * @throws IllegalArgumentException if the entity is not alive or has the component.
     * @throws IllegalStateException    if the storage is closed.
     */
    protected final Row deferAdd(final long entity)
    {
        ensureOpen();
        if (indexOf(entity) >= 0)
        {
            throw new IllegalArgumentException("entity " + Entity.toString(entity) + " already has " +
                type.recordClass().getSimpleName() + " (in " + name() + "); check contains() (World.has) first, or " +
                "write the existing value instead of adding it (while " + walks().describeHold() + " runs, a " +
                "removal recorded in it is not made yet: it is made when that returns)");
        }
        requireInsertable(entity);
        return walks().deferred().add(raw, entity, rows.bytes());
    }

    /**
     * Called by generated code once an added component's values are written: stamps its ticks if tracked and tells
     * the hooks and listeners.
     *
     * @param entity the entity.
     * @param index  the packed index the insert gave it.
     */
    protected final void added(final long entity, final int index)
    {
        if (ticks != null)
        {
            ticks.stampAdded(index);
        }
        if (signals.isSignalled())
        {
            signals.sendAdded(entity, index);
        }
    }

    /**
     * The packed index of the component a patch is about to overwrite; a patch someone follows is refused from a
     * parallel walk's threads before anything is written.
     *
     * @param entity an entity with this component.
     * @return its packed index.
     * @throws IllegalArgumentException if the entity does not have this component.
     * @throws IllegalStateException    if the storage is closed, or its updates are followed (a listener, an
     *                                  observer) and a parallel walk runs.
     */
    protected final int indexForPatch(final long entity)
    {
        final int index = requireIndex(entity);
        checkPatchable(entity);
        return index;
    }

    private void checkPatchable(final long entity)
    {
        if (signals.isUpdateSignalled())
        {
            signals.checkPatchable(entity);
            if (!isDeferring())
            {
                // So that a patch refused for lack of memory (an observer the entity enters) writes nothing.
                signals.reserveForUpdate(entity);
            }
        }
    }

    /**
     * Called by generated code after a whole component was overwritten ({@code patch}): stamps its change tick if
     * tracked and tells the hooks and listeners (when the walk returns, inside one).
     *
     * @param entity the entity.
     * @param index  its packed index.
     */
    protected final void updated(final long entity, final int index)
    {
        if (ticks != null)
        {
            ticks.stampChanged(index);
        }
        if (signals.isUpdateSignalled())
        {
            if (isDeferring())
            {
                walks().deferred().updated(raw, entity);
                return;
            }
            signals.sendUpdated(entity, index);
        }
    }

    /**
     * Stamps the change tick of the component at a checked packed index; generated writers of a tracked component
     * call it after every write.
     *
     * @param index a packed index below {@link #size()}.
     */
    protected final void stampChanged(final int index)
    {
        ticks.stampChanged(index);
    }

    /**
     * Stamps the change ticks of the components at checked packed indices {@code [index, index + length)}; generated
     * bulk writers of a tracked component call it after the copy.
     *
     * @param index  the first packed index.
     * @param length how many.
     */
    protected final void stampChanged(final int index, final int length)
    {
        ticks.stampChanged(index, length);
    }

    /**
     * Moves a tracked component's change ticks from slot {@code from} to slot {@code to}: what a generated
     * {@link #movePayload} does after its fields. Does nothing for an untracked component.
     *
     * @param from the slot read.
     * @param to   the slot written.
     */
    protected final void moveTicks(final int from, final int to)
    {
        if (ticks != null)
        {
            ticks.move(from, to);
        }
    }

    /**
     * Exchanges a tracked component's change ticks between two slots: what a generated {@link #swapPayload} does
     * after its fields. Does nothing for an untracked component.
     *
     * @param a a slot.
     * @param b another slot.
     */
    protected final void swapTicks(final int a, final int b)
    {
        if (ticks != null)
        {
            ticks.swap(a, b);
        }
    }

    /**
     * Checks a bulk copy from a column into an array before it touches either: the packed indices
     * {@code [index, index + length)} against {@link #size()}, and {@code [offset, offset + length)} against the array.
     *
     * @param index  the first packed index.
     * @param target the array (a primitive or enum array).
     * @param offset the first element written.
     * @param length how many values.
     * @throws NullPointerException      if {@code target} is null.
     * @throws IndexOutOfBoundsException naming the range that does not fit.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void checkCopyOut(final int index, final Object target, final int offset, final int length)
    {
        checkCopy(index, target, "target is null: pass the array to copy into", offset, length);
    }

    /**
     * Checks a bulk copy from an array into a column, as {@link #checkCopyOut} does.
     *
     * @param index  the first packed index.
     * @param source the array (a primitive or enum array).
     * @param offset the first element read.
     * @param length how many values.
     * @throws NullPointerException      if {@code source} is null.
     * @throws IndexOutOfBoundsException naming the range that does not fit.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void checkCopyIn(final int index, final Object source, final int offset, final int length)
    {
        checkCopy(index, source, "source is null: pass the array to copy from", offset, length);
    }

    /**
     * Checks that none of the enum constants a bulk writer is about to store is null, before it stores any.
     *
     * @param source the array.
     * @param offset the first element to store, already checked.
     * @param length how many.
     * @param field  the field, for the message.
     * @throws NullPointerException naming the element and the field.
     */
    protected final void requireConstants(
        final Object[] source, final int offset, final int length, final String field)
    {
        for (int i = offset; i < offset + length; i++)
        {
            if (source[i] == null)
            {
                throw new NullPointerException("element " + i + " of the array is null, but " + field + " of " +
                    name() + " cannot be null: put a constant there; nothing was written");
            }
        }
    }

    private void checkCopy(final int index, final Object array, final String ifNull, final int offset, final int length)
    {
        if (array == null)
        {
            throw new NullPointerException(ifNull);
        }
        checkRange(index, length);
        final int arrayLength = java.lang.reflect.Array.getLength(array);
        if (offset < 0 || offset > arrayLength - length)
        {
            throw new IndexOutOfBoundsException("array elements [" + offset + ", " + ((long)offset + length) +
                ") are not inside the array of length " + arrayLength + ", for " + length + " values of " + name());
        }
    }

    /**
     * Copies a row held in a byte array into the columns at a packed index. Generated storages override it with one
     * load and store per field; this version walks the row's layout.
     *
     * @param index  a packed index below {@link #size()}, checked by the caller.
     * @param row    the array.
     * @param offset where the row starts in it; the caller checked that the whole row fits.
     */
    protected void writeRow(final int index, final byte[] row, final int offset)
    {
        rows.write(this, index, row, ArrayBases.BYTE + offset);
    }

    @Override
    protected void columnsMoved()
    {
        if (ticks != null)
        {
            ticks.columnsMoved();
        }
    }

    @Override
    protected final void beforeInsert(final long entity)
    {
        signals.reserve(entity);
    }

    @Override
    protected final Throwable beforeRemove(final long entity, final int index)
    {
        return signals.sendRemoving(entity, index);
    }

    long columnAddressOf(final int column)
    {
        return columnAddress(column);
    }

    long layout()
    {
        return layoutVersion();
    }

    Walks walksOf()
    {
        return walks();
    }

    void hookRemovals(final boolean hooked)
    {
        hook(hooked);
    }

    private ChangeTicks ticks()
    {
        return requireTracked();
    }

    private ChangeTicks requireTracked()
    {
        if (ticks == null)
        {
            ensureOpen();
            throw new IllegalStateException(
                type.recordClass().getSimpleName() + " is not tracked, so its storage keeps no change ticks; " +
                "declare it @Component(tracked = true)");
        }
        return ticks;
    }

    private boolean isAlive(final long entity)
    {
        return Entity.isWellFormed(entity) && (pool == null || pool.isAlive(entity));
    }

    private void requireInsertable(final long entity)
    {
        if (!Entity.isWellFormed(entity))
        {
            throw new IllegalArgumentException("cannot add " + type.recordClass().getSimpleName() + " to " +
                Entity.toString(entity) + ": it is not an entity handle (NULL or malformed); use a handle returned " +
                "by World.create()");
        }
        if (pool != null)
        {
            pool.requireAlive(entity);
        }
    }

    /** Adds from a row, or overwrites with it if the entity has the component; recorded inside a walk. */
    private boolean put(final long entity, final byte[] row, final int offset, final boolean onlyAlive)
    {
        ensureOpen();
        if (offset < 0 || offset > row.length - rows.bytes())
        {
            throw new IndexOutOfBoundsException("a row of " + rows.bytes() + " bytes at " + offset + " does not fit " +
                "in an array of " + row.length);
        }
        rows.checkValues(row, ArrayBases.BYTE + offset, name());
        if (isDeferring())
        {
            if (onlyAlive && !isAlive(entity))
            {
                return false;
            }
            requireInsertable(entity);
            final Row recorded = walks().deferred().add(raw, entity, rows.bytes());
            System.arraycopy(row, offset, recorded.bytes(), recorded.offset(), rows.bytes());
            return true;
        }
        final int found = onlyAlive ? indexOrInsertAlive(entity) : indexOrInsertMember(entity);
        if (found == NOT_ALIVE)
        {
            return false;
        }
        if (found >= 0)
        {
            checkPatchable(entity);
            writeRow(found, row, offset);
            updated(entity, found);
        }
        else
        {
            final int index = -1 - found;
            writeRow(index, row, offset);
            added(entity, index);
        }
        return true;
    }

    private void checkRow(final DirectBuffer buffer, final int offset)
    {
        ensureOpen();
        if (offset < 0 || (long)offset + rows.bytes() > buffer.capacity())
        {
            throw new IndexOutOfBoundsException("a row of " + name() + " takes " + rows.bytes() + " bytes, which do " +
                "not fit at offset " + offset + " of a buffer of " + buffer.capacity());
        }
    }

    /** What the engine's other packages reach of the storage: see {@link RawStorage}. */
    private final class Raw implements RawStorage, Deferred.Target
    {
        @Override
        public String toString()
        {
            return name();
        }

        @Override
        public boolean isAlive(final long entity)
        {
            return ComponentStorage.this.isAlive(entity);
        }

        @Override
        public void applyAdd(final long entity, final byte[] row, final int offset)
        {
            put(entity, row, offset, true);
        }

        @Override
        public void applyRemove(final long entity)
        {
            remove(entity);
        }

        @Override
        public void applyUpdated(final long entity)
        {
            final int index = indexOf(entity);
            if (index >= 0 && signals.isUpdateSignalled())
            {
                signals.sendUpdated(entity, index);
            }
        }

        @Override
        public void attach(final StorageHook hook)
        {
            signals.attach(hook);
        }

        @Override
        public void detach(final StorageHook hook)
        {
            signals.detach(hook);
        }

        @Override
        public int rowBytes()
        {
            return rows.bytes();
        }

        @Override
        public int rowOffset(final int column)
        {
            if (column < 0 || column >= rows.fields())
            {
                throw new IndexOutOfBoundsException("column " + column + " of " + name() + ", which has " +
                    rows.fields() + " fields");
            }
            return rows.offset(column);
        }

        @Override
        public int[] entityRowOffsets()
        {
            return rows.entityOffsets();
        }

        @Override
        public void readRow(final int index, final MutableDirectBuffer target, final int offset)
        {
            checkIndex(index);
            checkRow(target, offset);
            rows.read(ComponentStorage.this, index, target.byteArray(), target.addressOffset() + offset);
        }

        @Override
        public void addRow(final long entity, final DirectBuffer source, final int offset)
        {
            checkRow(source, offset);
            final long at = source.addressOffset() + offset;
            rows.checkValues(source.byteArray(), at, name());
            final int index = insertMember(entity);
            rows.write(ComponentStorage.this, index, source.byteArray(), at);
            added(entity, index);
        }

        @Override
        public void patchRow(final long entity, final DirectBuffer source, final int offset)
        {
            checkRow(source, offset);
            final long at = source.addressOffset() + offset;
            rows.checkValues(source.byteArray(), at, name());
            final int index = indexForPatch(entity);
            rows.write(ComponentStorage.this, index, source.byteArray(), at);
            updated(entity, index);
        }

        @Override
        public boolean putRowIfAlive(final long entity, final byte[] row, final int offset)
        {
            return put(entity, row, offset, true);
        }

        @Override
        public int addRowsQuickly(final byte[] entries, final int offset, final int count)
        {
            final int stride = Long.BYTES + rows.bytes();
            if (offset < 0 || count < 0 || (long)offset + (long)count * stride > entries.length)
            {
                throw new IndexOutOfBoundsException(count + " entries of " + stride + " bytes at " + offset +
                    " do not fit in an array of " + entries.length);
            }
            ensureOpen();
            if (signals.isSignalled() || !insertsQuickly())
            {
                return 0;
            }
            int at = offset;
            for (int i = 0; i < count; i++, at += stride)
            {
                if (rows.invalidValue(entries, ArrayBases.BYTE + at + Long.BYTES) >= 0)
                {
                    return i;
                }
                final int index = insertIfQuick(UnsafeApi.getLongUnaligned(entries, ArrayBases.BYTE + at));
                if (index < 0)
                {
                    return i;
                }
                writeRow(index, entries, at + Long.BYTES);
                if (ticks != null)
                {
                    ticks.stampAdded(index);
                }
            }
            return count;
        }
    }
}
