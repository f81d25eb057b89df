package dev.cairn.storage;

import dev.cairn.internal.StorageHook;
import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.ByteArrays;
import dev.cairn.internal.Deferred;
import dev.cairn.internal.Failures;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.Row;
import dev.cairn.internal.Walks;
import dev.cairn.set.SparseSet;
import dev.cairn.signal.ComponentListener;
import dev.cairn.signal.ComponentSignal;
import dev.cairn.signal.Connection;
import dev.cairn.signal.Signal;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * A sparse set whose payload columns hold one component per member, one column per primitive field of the record;
 * the base of every generated storage. This is the storage half of EnTT's set/storage seam: the set moves payload
 * bytes with their entities but never reads them; the storage gives them meaning.
 * <p>
 * Generated subclasses add the allocation-free accessors (one per column, by entity and by packed index). Each keeps
 * the address of its columns in a field that {@link #columnsMoved()} refreshes, checks the index
 * ({@link #checkIndex(int)}, {@link #requireIndex(long)} or a {@code Ref}'s {@link #refIndex}) and then reads or
 * writes the column through the raw accessors here, which check nothing. This class also gives the record-level
 * operations that the {@link dev.cairn.world.World}'s convenience methods need. Those allocate a record per call and are
 * meant for code that is not hot.
 * <p>
 * <b>Signals.</b> Listeners connected with {@link #onAdded}, {@link #onUpdated} and {@link #onRemoving} hear every
 * add (after the values are written), every {@code patch} and {@link #markUpdated(long)}, and every removal (before
 * the slot is reused, also from {@link dev.cairn.world.World#destroy(long)}, {@link #clear()} and inside iterations).
 * Engine structures that must stay exact (observers, groups) follow the storage through {@link StorageHook}s, which
 * hear of an add before the listeners and of a removal after them. With nothing connected, an add or a removal costs
 * one test of a field more.
 * <p>
 * <b>Change ticks.</b> A storage of a tracked component keeps two hidden columns beside the fields: the
 * {@link Clock} tick at which each component was added and the tick at which it was last written. Generated code
 * stamps them on every write path; {@link #addedSince(int, int)} and {@link #changedSince(int, int)} read them.
 *
 * @param <R> the component record.
 */
public abstract class ComponentStorage<R extends Record> extends SparseSet implements Deferred.Target
{
    private static final StorageHook[] NO_HOOKS = new StorageHook[0];

    /**
     * Where the elements of each primitive array start, for the bulk copies: in a class of its own, so that loading
     * a storage class does not reach {@code jdk.internal.misc.Unsafe} (without the flag that opens it, the first
     * world names the flag instead of a class failing to initialise).
     */
    private static final class ArrayBase
    {
        static final long BYTE = UnsafeApi.arrayBaseOffset(byte[].class);
        static final long SHORT = UnsafeApi.arrayBaseOffset(short[].class);
        static final long CHAR = UnsafeApi.arrayBaseOffset(char[].class);
        static final long INT = UnsafeApi.arrayBaseOffset(int[].class);
        static final long FLOAT = UnsafeApi.arrayBaseOffset(float[].class);
        static final long LONG = UnsafeApi.arrayBaseOffset(long[].class);
        static final long DOUBLE = UnsafeApi.arrayBaseOffset(double[].class);

        /** Initialises the class, which the first bulk copy would otherwise do wherever it runs. */
        static void initialise()
        {
        }
    }

    private final ComponentType<R, ?> type;
    /** The world's clock, read by every tracked write. */
    protected final Clock clock;
    private final boolean tracked;
    private final int addedTickColumn;
    private final ComponentSignal added;
    private final ComponentSignal updated;
    private final ComponentSignal removing;
    private StorageHook[] hooks = NO_HOOKS;
    private boolean signalled;
    /** The pool entities must be alive in, told when this storage becomes signalled or stops being; or null. */
    private final EntityPool pool;
    /** Whether an update listener or a hook that follows updates is there: what a patch must tell. */
    private boolean updateSignalled;
    private long addedTicks;
    private long changedTicks;
    /** Where each field starts in a row (see {@link #rowBytes()}), in column order, and the row's size at the end. */
    private final int[] rowOffsets;
    /** The row offsets of the entity-reference fields, which loaders and command buffers translate. */
    private final int[] entityRowOffsets;
    /**
     * The fields whose bytes in a row may hold no value (booleans, enums), where each starts in a row, and the values
     * below which each holds one (2 for a boolean, an enum's constant count).
     */
    private final Schema.Field[] checkedFields;
    private final int[] checkedRowOffsets;
    private final int[] checkedLimits;
    /** The fields of the component as the snapshot it was last loaded from saved it; null if none was loaded. */
    private Schema loadedSchema;

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
        // Now, not at the first bulk copy: a class whose initialisation fails (a copy begun where the stack runs out)
        // stays unusable for the life of the JVM.
        ArrayBase.initialise();
        refuseInsert(name() + " adds a component only with its values, and tells listeners, groups and observers: " +
            "insert(entity) would do neither; use emplace(entity, ...), add(entity, component) or " +
            "emplace(commands, entity, ...)");
        this.tracked = type.isTracked();
        this.addedTickColumn = columnWidths.length;
        this.rowOffsets = new int[columnWidths.length + 1];
        for (int k = 0; k < columnWidths.length; k++)
        {
            rowOffsets[k + 1] = rowOffsets[k] + columnWidths[k];
        }
        this.entityRowOffsets = type.schema().fields().stream()
            .filter(field -> field.type() == FieldType.ENTITY)
            .mapToInt(field -> rowOffsets[type.schema().indexOf(field.name())])
            .toArray();
        this.checkedFields = type.schema().fields().stream()
            .filter(field -> field.type() == FieldType.BOOLEAN || field.type() == FieldType.BYTE_ENUM ||
                field.type() == FieldType.SHORT_ENUM)
            .toArray(Schema.Field[]::new);
        this.checkedRowOffsets = java.util.Arrays.stream(checkedFields)
            .mapToInt(field -> rowOffsets[type.schema().indexOf(field.name())])
            .toArray();
        this.checkedLimits = java.util.Arrays.stream(checkedFields)
            .mapToInt(field -> field.type() == FieldType.BOOLEAN ? 2 : field.constants().size())
            .toArray();
        final String name = name();
        this.added = new ComponentSignal("a listener of " + name + ": added", this::checkListenersMutable,
            this::listenersChanged);
        this.updated = new ComponentSignal("a listener of " + name + ": updated", this::checkListenersMutable,
            this::listenersChanged);
        this.removing = new ComponentSignal("a listener of " + name + ": removing", this::checkListenersMutable,
            this::listenersChanged);
        if (tracked)
        {
            clock.track(this);
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
     */
    public final Connection onAdded(final ComponentListener listener)
    {
        return added.connect(listener);
    }

    /**
     * Connects a listener to every update of this component: a {@code patch} of the whole component (by fields or
     * by record) and {@link #markUpdated(long)}. Writes of single fields do not signal; tracked components record
     * them in their change ticks.
     *
     * @param listener the listener.
     * @return its connection: close it to disconnect.
     */
    public final Connection onUpdated(final ComponentListener listener)
    {
        return updated.connect(listener);
    }

    /**
     * Connects a listener to every removal of this component, called before the slot is reused, while the values can
     * still be read at the given index: {@code remove}, {@code erase}, {@link #clear()},
     * {@link dev.cairn.world.World#destroy(long)} and {@link dev.cairn.world.World#clear()}.
     *
     * @param listener the listener.
     * @return its connection: close it to disconnect.
     */
    public final Connection onRemoving(final ComponentListener listener)
    {
        return removing.connect(listener);
    }

    /**
     * Attaches an engine structure that must follow this storage exactly (an observer, a group): it hears of every
     * add before the listeners and of every removal after them, and may reserve room before an insert. Hooks run in
     * ascending {@link StorageHook#order()} on adds and updates, descending on removals.
     *
     * @param hook the structure.
     * @throws IllegalStateException if the storage is closed.
     */
    public final void attach(final StorageHook hook)
    {
        ensureOpen();
        int at = hooks.length;
        while (at > 0 && hooks[at - 1].order() > hook.order())
        {
            at--;
        }
        final StorageHook[] grown = new StorageHook[hooks.length + 1];
        System.arraycopy(hooks, 0, grown, 0, at);
        grown[at] = hook;
        System.arraycopy(hooks, at, grown, at + 1, hooks.length - at);
        hooks = grown;
        listenersChanged();
    }

    /**
     * Detaches a structure attached with {@link #attach}; a no-op if it is not attached.
     *
     * @param hook the structure.
     */
    public final void detach(final StorageHook hook)
    {
        for (int i = 0; i < hooks.length; i++)
        {
            if (hooks[i] == hook)
            {
                final StorageHook[] shrunk = new StorageHook[hooks.length - 1];
                System.arraycopy(hooks, 0, shrunk, 0, i);
                System.arraycopy(hooks, i + 1, shrunk, i, hooks.length - i - 1);
                hooks = shrunk.length == 0 ? NO_HOOKS : shrunk;
                listenersChanged();
                return;
            }
        }
    }

    /**
     * Whether any listener or engine structure follows this storage's adds, updates or removals.
     *
     * @return true if an add or a removal sends an event.
     */
    public final boolean isSignalled()
    {
        return signalled;
    }

    /**
     * Removes the component from an entity if it has it. Inside a walk or a listener the removal is recorded and made
     * when the walk returns (the entity keeps its component meanwhile); the answer says whether it will be removed.
     *
     * @param entity any value.
     * @return true if the entity has (or, deferred, had when asked) the component.
     * @throws IllegalStateException if the storage is closed.
     */
    @Override
    public final boolean remove(final long entity)
    {
        final Walks walks = walks();
        if (walks.isDeferring() && walks.canDefer())
        {
            ensureOpen();
            if (indexOf(entity) < 0)
            {
                return false;
            }
            walks.deferred().remove(this, entity);
            return true;
        }
        if (removing.isEmpty())
        {
            return super.remove(entity);
        }
        final int operation = walks.beginOperation("removing " + Entity.toString(entity) + "'s " + type.recordClass()
            .getSimpleName());
        try
        {
            return super.remove(entity);
        }
        finally
        {
            walks.end(operation);
        }
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
        if (walks.isDeferring() && walks.canDefer() || !removing.isEmpty())
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
        if (removing.isEmpty())
        {
            super.clear();
            return;
        }
        final int operation = walks.beginOperation(name() + ".clear()");
        try
        {
            super.clear();
        }
        finally
        {
            walks.end(operation);
        }
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
     * Records adding this component to an entity, checked now as a direct add would be: the caller writes the
     * fields into the row returned, and the component is added when the walk returns (or its fields overwritten, if
     * a change recorded before gave the entity the component by then).
     *
     * @param entity an alive entity without the component.
     * @return the row to write the fields into, at the offsets of {@link #rowOffset(int)}.
     * @throws IllegalArgumentException if the entity is not alive or has the component.
     * @throws IllegalStateException    if the storage is closed.
     */
    protected final Row deferAdd(final long entity)
    {
        ensureOpen();
        final int index = indexOf(entity);
        if (index >= 0)
        {
            throw new IllegalArgumentException("entity " + Entity.toString(entity) + " already has " +
                type.recordClass().getSimpleName() + " (in " + name() + "); check contains() (World.has) first, or " +
                "write the existing value instead of adding it");
        }
        requireInsertable(entity);
        return walks().deferred().add(this, entity, rowBytes());
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

    @Override
    public final boolean isAlive(final long entity)
    {
        return Entity.isWellFormed(entity) && (pool == null || pool.isAlive(entity));
    }

    @Override
    public final void applyAdd(final long entity, final byte[] row, final int offset)
    {
        putRow(entity, row, offset);
    }

    @Override
    public final void applyRemove(final long entity)
    {
        remove(entity);
    }

    @Override
    public final void applyUpdated(final long entity)
    {
        final int index = indexOf(entity);
        if (index >= 0 && updateSignalled)
        {
            sendUpdated(entity, index);
        }
    }

    /**
     * Tells the update listeners (and stamps the change tick of a tracked component) that an entity's component
     * changed, for code that wrote its fields one by one.
     *
     * @param entity an entity with this component.
     * @throws IllegalArgumentException if the entity does not have this component.
     * @throws IllegalStateException    if the storage is closed.
     */
    public final void markUpdated(final long entity)
    {
        final int index = indexForPatch(entity);
        if (tracked)
        {
            stampChanged(index);
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
        return tracked;
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
        requireTracked();
        return UnsafeApi.getInt(addedTicks + (long)checkIndex(index) * Integer.BYTES);
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
        requireTracked();
        return UnsafeApi.getInt(changedTicks + (long)checkIndex(index) * Integer.BYTES);
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
        return addedTickAt(index) - clock.comparable(since) > 0;
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
        return changedTickAt(index) - clock.comparable(since) > 0;
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

    final long columnAddressFor(final int column)
    {
        return columnAddress(column);
    }

    final long layoutVersionForColumns()
    {
        return layoutVersion();
    }

    /**
     * The bytes of one component as a row: its fields back to back in column order, each as its column stores it
     * (native byte order; a boolean a byte 0 or 1, an enum its ordinal, an entity reference its handle). Rows let code
     * that does not know the record class (a snapshot loader, a command buffer) copy components without a record.
     *
     * @return the sum of the fields' widths; 0 for a tag.
     */
    public final int rowBytes()
    {
        return rowOffsets[rowOffsets.length - 1];
    }

    /**
     * Copies the component at a packed index into a row.
     *
     * @param index  a packed index below {@link #size()} (a tombstone's row holds what its last component left).
     * @param target where the row goes.
     * @param offset where in {@code target}.
     * @throws IndexOutOfBoundsException if the index is out of range, or the row does not fit.
     * @throws IllegalStateException     if the storage is closed.
     */
    public final void readRow(final int index, final MutableDirectBuffer target, final int offset)
    {
        checkIndex(index);
        checkRow(target, offset);
        final Object base = target.byteArray();
        final long at = target.addressOffset() + offset;
        for (int k = 0; k < rowOffsets.length - 1; k++)
        {
            final int width = rowOffsets[k + 1] - rowOffsets[k];
            copy(null, columnAddress(k) + (long)index * width, base, at + rowOffsets[k], width);
        }
    }

    /**
     * Adds the component to an entity with its fields read from a row (see {@link #rowBytes()}), as {@code add}
     * would with a record of those values: hooks and listeners run, ticks are stamped.
     *
     * @param entity an entity without the component.
     * @param source where the row is.
     * @param offset where in {@code source}.
     * @return the packed index the component occupies once its listeners have run (-1 if one removed it).
     * @throws IllegalArgumentException  if the entity already has the component or is not alive, or the row holds a
     *                                   boolean other than 0 or 1 or an enum ordinal past its constants; nothing is
     *                                   added then.
     * @throws IndexOutOfBoundsException if the row does not fit in {@code source}; nothing is added then.
     * @throws IllegalStateException     if the storage is closed.
     */
    public final int addRow(final long entity, final DirectBuffer source, final int offset)
    {
        checkRow(source, offset);
        checkRowValues(source.byteArray(), source.addressOffset() + offset);
        final int index = insertMember(entity);
        writeRow(index, source, offset);
        return added(entity, index);
    }

    /**
     * Overwrites every field of an entity's component with a row (see {@link #rowBytes()}), as {@code patch} would.
     *
     * @param entity an entity with the component.
     * @param source where the row is.
     * @param offset where in {@code source}.
     * @throws IllegalArgumentException  if the entity does not have the component, or the row holds a boolean other
     *                                   than 0 or 1 or an enum ordinal past its constants; nothing is written then.
     * @throws IndexOutOfBoundsException if the row does not fit in {@code source}; nothing is written then.
     * @throws IllegalStateException     if the storage is closed.
     */
    public final void patchRow(final long entity, final DirectBuffer source, final int offset)
    {
        checkRow(source, offset);
        checkRowValues(source.byteArray(), source.addressOffset() + offset);
        final int index = indexForPatch(entity);
        writeRow(index, source, offset);
        updated(entity, index);
    }

    /**
     * Adds the component to an entity from a row held in a byte array or, if the entity has it, overwrites its
     * fields: {@link #addRow} or {@link #patchRow} with one lookup and a copy specialized to the component, as a
     * command buffer's add is applied. Hooks and listeners run, ticks are stamped.
     *
     * @param entity an alive entity.
     * @param row    the array holding the row (see {@link #rowBytes()}).
     * @param offset where the row starts in it.
     * @throws IllegalArgumentException  if the entity is not alive, or the row holds a boolean other than 0 or 1 or an
     *                                   enum ordinal past its constants; nothing changes then.
     * @throws IndexOutOfBoundsException if the row does not fit in {@code row}; nothing changes then.
     * @throws IllegalStateException     if the storage is closed, or its structure locked and the entity lacks the
     *                                   component (or has it and listeners would be told of the change).
     */
    public final void putRow(final long entity, final byte[] row, final int offset)
    {
        put(entity, row, offset, false);
    }

    /**
     * As {@link #putRow}, except that an entity that is not alive is left alone and {@code false} returned where
     * {@code putRow} throws: what a command buffer's playback calls, for entities destroyed since the command was
     * recorded, with one lookup for an alive one. A standalone storage (one without a world) takes every well-formed
     * handle as alive, as its {@code emplace} does.
     *
     * @param entity any value.
     * @param row    the array holding the row (see {@link #rowBytes()}).
     * @param offset where the row starts in it.
     * @return true if the row was written, false if the entity is not alive (nothing changed).
     * @throws IllegalArgumentException  if the row holds a boolean other than 0 or 1 or an enum ordinal past its
     *                                   constants; nothing changes then.
     * @throws IndexOutOfBoundsException if the row does not fit in {@code row}; nothing changes then.
     * @throws IllegalStateException     as {@link #putRow}.
     */
    public final boolean putRowIfAlive(final long entity, final byte[] row, final int offset)
    {
        return put(entity, row, offset, true);
    }

    /**
     * Adds the component to entities whose rows were written back to back, each row right after its entity's handle,
     * as {@link #putRowIfAlive} would one by one, for as long as an entry takes nothing but the insert and the copy:
     * what a command buffer plays a run of adds with. It stops at the first entry that needs more and leaves that
     * entry, and those after it, to the caller ({@code putRowIfAlive} decides each as a direct add would): an entity
     * that is not alive, not a handle, or already has the component; an entity index held by another version or by a
     * released entry to revive; a sparse page or more room to allocate; a listener or hook to run; a storage cleared
     * under a walk that has not returned; a row holding a boolean other than 0 or 1 or an enum ordinal past its
     * constants (which {@code putRowIfAlive} refuses). It may therefore return 0 with entries left: a caller always has the
     * one-by-one path for the entry it stopped at.
     *
     * @param entries the entries: each an 8-byte handle in native byte order followed by a row of {@link #rowBytes()}.
     * @param offset  where the first entry starts.
     * @param count   how many entries there are.
     * @return how many entries, from the first, were added: {@code count} if all were.
     * @throws NullPointerException      if {@code entries} is null.
     * @throws IndexOutOfBoundsException if {@code count} entries from {@code offset} do not fit in {@code entries};
     *                                   nothing is added.
     * @throws IllegalStateException     if the storage is closed, or a parallel iteration locks its world (record the
     *                                   adds in a command buffer); nothing is added.
     */
    public final int addRowsQuickly(final byte[] entries, final int offset, final int count)
    {
        final int stride = Long.BYTES + rowBytes();
        if (offset < 0 || count < 0 || (long)offset + (long)count * stride > entries.length)
        {
            throw new IndexOutOfBoundsException(count + " entries of " + stride + " bytes at " + offset +
                " do not fit in an array of " + entries.length);
        }
        ensureOpen();
        if (signalled || !insertsQuickly())
        {
            return 0;
        }
        final int now = tracked ? clock.now() : 0;
        int at = offset;
        for (int i = 0; i < count; i++, at += stride)
        {
            if (invalidRowValue(entries, ByteArrays.BASE + at + Long.BYTES) >= 0)
            {
                return i;
            }
            final int index = insertIfQuick(UnsafeApi.getLongUnaligned(entries, ByteArrays.BASE + at));
            if (index < 0)
            {
                return i;
            }
            writeRow(index, entries, at + Long.BYTES);
            if (tracked)
            {
                stampAdded(index, now);
            }
        }
        return count;
    }

    private boolean put(final long entity, final byte[] row, final int offset, final boolean onlyAlive)
    {
        ensureOpen();
        if (offset < 0 || offset > row.length - rowBytes())
        {
            throw new IndexOutOfBoundsException("a row of " + rowBytes() + " bytes at " + offset + " does not fit in " +
                "an array of " + row.length);
        }
        checkRowValues(row, ByteArrays.BASE + offset);
        if (isDeferring())
        {
            if (onlyAlive && !isAlive(entity))
            {
                return false;
            }
            requireInsertable(entity);
            final Row recorded = walks().deferred().add(this, entity, rowBytes());
            System.arraycopy(row, offset, recorded.bytes(), recorded.offset(), rowBytes());
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
        final long at = ByteArrays.BASE + offset;
        for (int k = 0; k < rowOffsets.length - 1; k++)
        {
            final int width = rowOffsets[k + 1] - rowOffsets[k];
            copy(row, at + rowOffsets[k], null, columnAddress(k) + (long)index * width, width);
        }
    }

    private void writeRow(final int index, final DirectBuffer source, final int offset)
    {
        final Object base = source.byteArray();
        final long at = source.addressOffset() + offset;
        for (int k = 0; k < rowOffsets.length - 1; k++)
        {
            final int width = rowOffsets[k + 1] - rowOffsets[k];
            copy(base, at + rowOffsets[k], null, columnAddress(k) + (long)index * width, width);
        }
    }

    /**
     * Throws if a row holds a boolean other than 0 or 1, or an enum ordinal past the enum's constants: the accessors
     * could not read such a value back, and a snapshot holding it would not load.
     */
    private void checkRowValues(final Object base, final long at)
    {
        final int k = invalidRowValue(base, at);
        if (k >= 0)
        {
            final Schema.Field field = checkedFields[k];
            final int value = rowValue(field, base, at + checkedRowOffsets[k]);
            throw new IllegalArgumentException(field.type() == FieldType.BOOLEAN ?
                "field " + field.name() + " of a row for " + name() + " holds " + value + ", where a boolean is 0 " +
                    "(false) or 1 (true); nothing was written" :
                "field " + field.name() + " of a row for " + name() + " holds ordinal " + value + ", where its enum " +
                    "has " + field.constants().size() + " constants (0 to " + (field.constants().size() - 1) +
                    "); write a constant's ordinal(); nothing was written");
        }
    }

    /** The first checked field of the row at {@code at} whose bytes hold no value, or -1. */
    private int invalidRowValue(final Object base, final long at)
    {
        for (int k = 0; k < checkedFields.length; k++)
        {
            if (rowValue(checkedFields[k], base, at + checkedRowOffsets[k]) >= checkedLimits[k])
            {
                return k;
            }
        }
        return -1;
    }

    private static int rowValue(final Schema.Field field, final Object base, final long at)
    {
        return field.type() == FieldType.SHORT_ENUM ?
            UnsafeApi.getShortUnaligned(base, at) & 0xFFFF : UnsafeApi.getByte(base, at) & 0xFF;
    }

    /** Copies one field: a single load and store for the widths fields have, without a native call. */
    private static void copy(
        final Object fromBase, final long from, final Object toBase, final long to, final int width)
    {
        switch (width)
        {
            case Byte.BYTES:
                UnsafeApi.putByte(toBase, to, UnsafeApi.getByte(fromBase, from));
                break;
            case Short.BYTES:
                UnsafeApi.putShortUnaligned(toBase, to, UnsafeApi.getShortUnaligned(fromBase, from));
                break;
            case Integer.BYTES:
                UnsafeApi.putIntUnaligned(toBase, to, UnsafeApi.getIntUnaligned(fromBase, from));
                break;
            case Long.BYTES:
                UnsafeApi.putLongUnaligned(toBase, to, UnsafeApi.getLongUnaligned(fromBase, from));
                break;
            default:
                UnsafeApi.copyMemory(fromBase, from, toBase, to, width);
                break;
        }
    }

    /**
     * Where the entity-reference fields ({@link FieldType#ENTITY}) start in a row, for code that translates handles.
     *
     * @return their row offsets, in column order; a copy.
     */
    public final int[] entityRowOffsets()
    {
        return entityRowOffsets.clone();
    }

    private void checkRow(final DirectBuffer buffer, final int offset)
    {
        ensureOpen();
        if (offset < 0 || (long)offset + rowBytes() > buffer.capacity())
        {
            throw new IndexOutOfBoundsException("a row of " + name() + " takes " + rowBytes() + " bytes, which do " +
                "not fit at offset " + offset + " of a buffer of " + buffer.capacity());
        }
    }

    /**
     * Where a field starts in a row.
     *
     * @param column the field's column number (its place in {@link ComponentType#schema()}).
     * @return its offset in the row.
     * @throws IndexOutOfBoundsException if there is no such field.
     */
    public final int rowOffset(final int column)
    {
        if (column < 0 || column >= rowOffsets.length - 1)
        {
            throw new IndexOutOfBoundsException("column " + column + " of " + name() + ", which has " +
                (rowOffsets.length - 1) + " fields");
        }
        return rowOffsets[column];
    }

    /**
     * Called by generated code once an added component's values are written: stamps its ticks if tracked and tells
     * the hooks and listeners.
     *
     * @param entity the entity.
     * @param index  the packed index {@link #insert(long)} gave it.
     * @return where the component is once the hooks and listeners have run (a group may have moved it; -1 if a
     * listener removed it).
     */
    protected final int added(final long entity, final int index)
    {
        if (tracked)
        {
            stampAdded(index, clock.now());
        }
        return signalled ? sendAdded(entity, index) : index;
    }

    /** Stamps both ticks of a tracked component just added at a checked packed index. */
    private void stampAdded(final int index, final int now)
    {
        final long offset = (long)index * Integer.BYTES;
        UnsafeApi.putInt(addedTicks + offset, now);
        UnsafeApi.putInt(changedTicks + offset, now);
    }

    /**
     * The packed index of the component a patch is about to overwrite. A patch that would notify listeners is refused
     * while a parallel iteration runs (listeners and observers are not thread-safe), before anything is written.
     *
     * @param entity an entity with this component.
     * @return its packed index.
     * @throws IllegalArgumentException if the entity does not have this component.
     * @throws IllegalStateException    if the storage is closed, or its updates are followed (a listener, an
     *                                  observer) while a parallel iteration runs.
     */
    protected final int indexForPatch(final long entity)
    {
        final int index = requireIndex(entity);
        checkPatchable(entity);
        return index;
    }

    /**
     * Throws if a patch would notify listeners or observers while a parallel iteration locks the structure; else has
     * the hooks that follow updates make room for the entity (an observer it may enter), so that a patch refused for
     * lack of memory writes nothing.
     */
    private void checkPatchable(final long entity)
    {
        if (updateSignalled)
        {
            if (walks().isParallel())
            {
                throw walks().refusedChange("patch or markUpdated " + Entity.toString(entity) + "'s component of " +
                    name() + " (which tells listeners and observers)", "listeners and observers are not " +
                    "thread-safe; record the patch with patch(commands, ...) of a dev.cairn.command.CommandBuffer, " +
                    "or write the fields one by one (which tells no one)");
            }
            if (isDeferring())
            {
                // The announcement waits for the walk's end: nothing follows the update now.
                return;
            }
            for (final StorageHook hook : hooks)
            {
                if (hook.followsUpdates())
                {
                    hook.reserve(entity);
                }
            }
        }
    }

    /**
     * Called by generated code after a whole component was overwritten ({@code patch}): stamps its change tick if
     * tracked and tells the hooks and listeners.
     *
     * @param entity the entity.
     * @param index  its packed index.
     */
    protected final void updated(final long entity, final int index)
    {
        if (tracked)
        {
            stampChanged(index);
        }
        if (updateSignalled)
        {
            if (isDeferring())
            {
                walks().deferred().updated(this, entity);
                return;
            }
            sendUpdated(entity, index);
        }
    }

    /**
     * Stamps the change tick of the component at a checked packed index with the clock's current tick; generated
     * writers of a tracked component call it after every write.
     *
     * @param index a packed index below {@link #size()}.
     */
    protected final void stampChanged(final int index)
    {
        UnsafeApi.putInt(changedTicks + (long)index * Integer.BYTES, clock.now());
    }

    /** Raises every recorded tick older than {@code oldest} to it; see {@link Clock}. */
    final void raiseTicks(final int oldest)
    {
        if (isClosed())
        {
            return;
        }
        for (int i = 0; i < size(); i++)
        {
            final long offset = (long)i * Integer.BYTES;
            if (UnsafeApi.getInt(addedTicks + offset) - oldest < 0)
            {
                UnsafeApi.putInt(addedTicks + offset, oldest);
            }
            if (UnsafeApi.getInt(changedTicks + offset) - oldest < 0)
            {
                UnsafeApi.putInt(changedTicks + offset, oldest);
            }
        }
    }

    /**
     * Moves a tracked component's change ticks from slot {@code from} to slot {@code to}: what a generated
     * {@link #movePayload} does after its fields, for a component declared tracked. Does nothing for others.
     *
     * @param from the slot read.
     * @param to   the slot written.
     */
    protected final void moveTicks(final int from, final int to)
    {
        if (tracked)
        {
            UnsafeApi.putInt(addedTicks + ((long)to << 2), UnsafeApi.getInt(addedTicks + ((long)from << 2)));
            UnsafeApi.putInt(changedTicks + ((long)to << 2), UnsafeApi.getInt(changedTicks + ((long)from << 2)));
        }
    }

    /**
     * Exchanges a tracked component's change ticks between slots {@code a} and {@code b}: what a generated
     * {@link #swapPayload} does after its fields, for a component declared tracked. Does nothing for others.
     *
     * @param a a slot.
     * @param b another slot.
     */
    protected final void swapTicks(final int a, final int b)
    {
        if (tracked)
        {
            swapInt(addedTicks + ((long)a << 2), addedTicks + ((long)b << 2));
            swapInt(changedTicks + ((long)a << 2), changedTicks + ((long)b << 2));
        }
    }

    @Override
    protected void columnsMoved()
    {
        if (tracked)
        {
            addedTicks = columnAddress(addedTickColumn);
            changedTicks = columnAddress(addedTickColumn + 1);
        }
    }

    @Override
    protected final void beforeInsert(final long entity)
    {
        for (final StorageHook hook : hooks)
        {
            hook.reserve(entity);
        }
    }

    @Override
    protected final Throwable beforeRemove(final long entity, final int index)
    {
        // Listeners first, with the component and the groups as they were; then the hooks, which may move it.
        Throwable failure = null;
        if (!removing.isEmpty())
        {
            final int hold = walks().hold(removing.toString());
            failure = removing.send(entity, index, null);
            endHold(hold, failure);
        }
        final StorageHook[] hooks = this.hooks;
        long seen = layoutVersion();
        int now = index;
        for (int k = hooks.length; --k >= 0; )
        {
            if (layoutVersion() != seen)
            {
                now = indexOf(entity);
                seen = layoutVersion();
            }
            try
            {
                hooks[k].removing(entity, now);
            }
            catch (final Throwable thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
        }
        return failure;
    }

    /** Ends the hold around listeners; the operation that called them applies what they deferred. */
    private void endHold(final int hold, final Throwable failure)
    {
        if (failure == null)
        {
            walks().end(hold);
        }
        else
        {
            walks().end(hold, failure);
        }
    }
    private int sendAdded(final long entity, final int index)
    {
        // Every removal and reordering changes the layout version: while it stays, the component is where it was.
        long seen = layoutVersion();
        Throwable failure = null;
        int now = index;
        for (final StorageHook hook : hooks)
        {
            try
            {
                hook.added(entity, now);
            }
            catch (final Throwable thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
            if (layoutVersion() != seen)
            {
                now = indexOf(entity);
                seen = layoutVersion();
            }
        }
        if (!added.isEmpty())
        {
            // The last step: once the listeners return, what they deferred is applied (if nothing else holds).
            final int hold = walks().hold(added.toString());
            try
            {
                failure = added.send(entity, now, failure);
            }
            finally
            {
                failure = failure == null ? endHoldCollecting(hold) : walks().end(hold, failure);
            }
        }
        Failures.rethrow(failure);
        return layoutVersion() == seen ? now : indexOf(entity);
    }

    private Throwable endHoldCollecting(final int hold)
    {
        try
        {
            walks().end(hold);
            return null;
        }
        catch (final RuntimeException | Error thrown)
        {
            return thrown;
        }
    }

    private void sendUpdated(final long entity, final int index)
    {
        Throwable failure = null;
        for (final StorageHook hook : hooks)
        {
            try
            {
                if (hook.followsUpdates())
                {
                    hook.updated(entity, index);
                }
            }
            catch (final Throwable thrown)
            {
                failure = Failures.collect(failure, thrown);
            }
        }
        if (!updated.isEmpty())
        {
            final int hold = walks().hold(updated.toString());
            try
            {
                failure = updated.send(entity, index, failure);
            }
            finally
            {
                failure = failure == null ? endHoldCollecting(hold) : walks().end(hold, failure);
            }
        }
        Failures.rethrow(failure);
    }

    private void checkListenersMutable()
    {
        ensureOpen();
        if (walks().isParallel())
        {
            throw walks().refusedChange("connect or disconnect a listener of " + name(), "listeners are not " +
                "thread-safe; connect them before the parallel walk or after it");
        }
    }
    private void listenersChanged()
    {
        final boolean wasSignalled = signalled;
        signalled = hooks.length > 0 || !added.isEmpty() || !updated.isEmpty() || !removing.isEmpty();
        if (signalled != wasSignalled && pool != null)
        {
            pool.countSignalledStorage(signalled);
        }
        boolean followed = !updated.isEmpty();
        for (final StorageHook hook : hooks)
        {
            followed |= hook.followsUpdates();
        }
        updateSignalled = followed;
        hook(hooks.length > 0 || !removing.isEmpty());
    }

    private void requireTracked()
    {
        if (!tracked)
        {
            ensureOpen();
            throw new IllegalStateException(
                type.recordClass().getSimpleName() + " is not tracked, so its storage keeps no change ticks; " +
                "declare it @Component(tracked = true)");
        }
    }

    /**
     * Stamps the change ticks of the components at packed indices {@code [index, index + length)} with the clock's
     * current tick; generated bulk writers of a tracked component call it after the copy.
     *
     * @param index  the first packed index, checked with the length against {@link #size()}.
     * @param length how many.
     */
    protected final void stampChanged(final int index, final int length)
    {
        final int now = clock.now();
        for (int i = 0; i < length; i++)
        {
            UnsafeApi.putInt(changedTicks + (long)(index + i) * Integer.BYTES, now);
        }
    }

    /**
     * Checks a bulk copy between a column and an array before it touches either: the packed indices
     * {@code [index, index + length)} against {@link #size()}, and {@code [offset, offset + length)} against the
     * array.
     *
     * @param index       the first packed index.
     * @param arrayLength the array's length.
     * @param offset      the first array element.
     * @param length      how many values.
     * @throws IndexOutOfBoundsException naming the range that does not fit.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void checkBulk(final int index, final int arrayLength, final int offset, final int length)
    {
        checkRange(index, length);
        if (offset < 0 || offset > arrayLength - length)
        {
            throw new IndexOutOfBoundsException("array elements [" + offset + ", " + ((long)offset + length) +
                ") are not inside the array of length " + arrayLength + ", for " + length + " values of " + name());
        }
    }

    /** A checked copy from a column into a primitive array whose elements start at {@code base}. */
    private void copyOut(
        final long column,
        final int index,
        final Object target,
        final long base,
        final int width,
        final int offset,
        final int length)
    {
        checkBulk(index, arrayLength(target, false), offset, length);
        UnsafeApi.copyMemory(null, column + (long)index * width, target, base + (long)offset * width,
            (long)length * width);
    }

    /**
     * The length of the array a bulk accessor copies from or to (every primitive array, and the enum arrays of
     * generated accessors).
     *
     * @param array  the array.
     * @param source whether values are copied from the array (else into it), for the message.
     * @return its length.
     * @throws NullPointerException naming the parameter if {@code array} is null.
     */
    protected static int arrayLength(final Object array, final boolean source)
    {
        if (array == null)
        {
            throw new NullPointerException(source ? "source is null: pass the array to copy from" :
                "target is null: pass the array to copy into");
        }
        return java.lang.reflect.Array.getLength(array);
    }

    /** A checked copy from a primitive array whose elements start at {@code base} into a column. */
    private void copyIn(
        final long column,
        final int index,
        final Object source,
        final long base,
        final int width,
        final int offset,
        final int length)
    {
        checkBulk(index, arrayLength(source, true), offset, length);
        UnsafeApi.copyMemory(source, base + (long)offset * width, null, column + (long)index * width,
            (long)length * width);
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

    /**
     * Copies {@code length} values of a {@code byte} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final byte[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.BYTE, Byte.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code byte}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final byte[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.BYTE, Byte.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values of a {@code short} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final short[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.SHORT, Short.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code short}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final short[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.SHORT, Short.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values of a {@code char} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final char[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.CHAR, Character.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code char}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final char[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.CHAR, Character.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values of a {@code int} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final int[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.INT, Integer.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code int}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final int[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.INT, Integer.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values of a {@code float} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final float[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.FLOAT, Float.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code float}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final float[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.FLOAT, Float.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values of a {@code long} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final long[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.LONG, Long.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code long}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final long[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.LONG, Long.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values of a {@code double} column, from packed index {@code index}, into
     * {@code target} from element {@code offset}: one bulk copy, after checking both ranges.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param target the array.
     * @param offset the first element written.
     * @param length how many values.
     */
    protected final void copyOut(
        final long column, final int index, final double[] target, final int offset, final int length)
    {
        copyOut(column, index, target, ArrayBase.DOUBLE, Double.BYTES, offset, length);
    }

    /**
     * Copies {@code length} values from {@code source}, from element {@code offset}, into a {@code double}
     * column from packed index {@code index}: one bulk copy, after checking both ranges. Does not stamp change
     * ticks.
     *
     * @param column the column's address.
     * @param index  the first packed index.
     * @param source the array.
     * @param offset the first element read.
     * @param length how many values.
     */
    protected final void copyIn(
        final long column, final int index, final double[] source, final int offset, final int length)
    {
        copyIn(column, index, source, ArrayBase.DOUBLE, Double.BYTES, offset, length);
    }

    /**
     * Reads a {@code byte} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static byte getByte(final byte[] row, final int offset)
    {
        return UnsafeApi.getByte(row, ByteArrays.BASE + offset);
    }

    /**
     * Reads a {@code short} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static short getShort(final byte[] row, final int offset)
    {
        return UnsafeApi.getShortUnaligned(row, ByteArrays.BASE + offset);
    }

    /**
     * Reads a {@code char} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static char getChar(final byte[] row, final int offset)
    {
        return UnsafeApi.getCharUnaligned(row, ByteArrays.BASE + offset);
    }

    /**
     * Reads a {@code int} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static int getInt(final byte[] row, final int offset)
    {
        return UnsafeApi.getIntUnaligned(row, ByteArrays.BASE + offset);
    }

    /**
     * Reads a {@code float} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static float getFloat(final byte[] row, final int offset)
    {
        return Float.intBitsToFloat(UnsafeApi.getIntUnaligned(row, ByteArrays.BASE + offset));
    }

    /**
     * Reads a {@code long} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static long getLong(final byte[] row, final int offset)
    {
        return UnsafeApi.getLongUnaligned(row, ByteArrays.BASE + offset);
    }

    /**
     * Reads a {@code double} from a row in a byte array, in native byte order; unchecked, for {@link #writeRow}.
     *
     * @param row    the array.
     * @param offset where the value starts in it; the whole value must lie inside the array.
     * @return the value there.
     */
    protected static double getDouble(final byte[] row, final int offset)
    {
        return Double.longBitsToDouble(UnsafeApi.getLongUnaligned(row, ByteArrays.BASE + offset));
    }

    /**
     * Reads a {@code byte} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static byte getByte(final long address)
    {
        return UnsafeApi.getByte(address);
    }

    /**
     * Writes a {@code byte} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putByte(final long address, final byte value)
    {
        UnsafeApi.putByte(address, value);
    }

    /**
     * Reads a {@code short} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static short getShort(final long address)
    {
        return UnsafeApi.getShort(address);
    }

    /**
     * Writes a {@code short} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putShort(final long address, final short value)
    {
        UnsafeApi.putShort(address, value);
    }

    /**
     * Reads a {@code char} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static char getChar(final long address)
    {
        return UnsafeApi.getChar(address);
    }

    /**
     * Writes a {@code char} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putChar(final long address, final char value)
    {
        UnsafeApi.putChar(address, value);
    }

    /**
     * Reads an {@code int} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static int getInt(final long address)
    {
        return UnsafeApi.getInt(address);
    }

    /**
     * Writes an {@code int} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putInt(final long address, final int value)
    {
        UnsafeApi.putInt(address, value);
    }

    /**
     * Reads a {@code float} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static float getFloat(final long address)
    {
        return UnsafeApi.getFloat(address);
    }

    /**
     * Writes a {@code float} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putFloat(final long address, final float value)
    {
        UnsafeApi.putFloat(address, value);
    }

    /**
     * Reads a {@code long} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static long getLong(final long address)
    {
        return UnsafeApi.getLong(address);
    }

    /**
     * Writes a {@code long} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putLong(final long address, final long value)
    {
        UnsafeApi.putLong(address, value);
    }

    /**
     * Reads a {@code double} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @return the value there.
     */
    protected static double getDouble(final long address)
    {
        return UnsafeApi.getDouble(address);
    }

    /**
     * Writes a {@code double} at a raw address.
     *
     * @param address an address inside one of this storage's columns, below its size.
     * @param value   the value.
     */
    protected static void putDouble(final long address, final double value)
    {
        UnsafeApi.putDouble(address, value);
    }

    /**
     * Exchanges the bytes at two raw addresses: what a generated {@code swapPayload} does for a one-byte field.
     *
     * @param a an address inside one of this storage's columns, below its capacity.
     * @param b another, in the same column.
     */
    protected static void swapByte(final long a, final long b)
    {
        final byte held = UnsafeApi.getByte(a);
        UnsafeApi.putByte(a, UnsafeApi.getByte(b));
        UnsafeApi.putByte(b, held);
    }

    /**
     * Exchanges the two-byte values at two raw addresses (a {@code short}, a {@code char}, a large enum's ordinal).
     *
     * @param a an address inside one of this storage's columns, below its capacity.
     * @param b another, in the same column.
     */
    protected static void swapShort(final long a, final long b)
    {
        final short held = UnsafeApi.getShort(a);
        UnsafeApi.putShort(a, UnsafeApi.getShort(b));
        UnsafeApi.putShort(b, held);
    }

    /**
     * Exchanges the four-byte values at two raw addresses (an {@code int}, a {@code float}, a change tick).
     *
     * @param a an address inside one of this storage's columns, below its capacity.
     * @param b another, in the same column.
     */
    protected static void swapInt(final long a, final long b)
    {
        final int held = UnsafeApi.getInt(a);
        UnsafeApi.putInt(a, UnsafeApi.getInt(b));
        UnsafeApi.putInt(b, held);
    }

    /**
     * Exchanges the eight-byte values at two raw addresses (a {@code long}, a {@code double}, an entity reference).
     *
     * @param a an address inside one of this storage's columns, below its capacity.
     * @param b another, in the same column.
     */
    protected static void swapLong(final long a, final long b)
    {
        final long held = UnsafeApi.getLong(a);
        UnsafeApi.putLong(a, UnsafeApi.getLong(b));
        UnsafeApi.putLong(b, held);
    }
}
