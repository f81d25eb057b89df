package dev.cairn.storage;

import dev.cairn.entity.EntityPool;
import dev.cairn.memory.OffHeap;
import dev.cairn.set.SparseSet;
import org.agrona.UnsafeApi;

/**
 * A sparse set whose payload columns hold one component per member, one column per primitive field of the record;
 * the base of every generated storage. This is the storage half of EnTT's set/storage seam: the set moves payload
 * bytes with their entities but never reads them; the storage gives them meaning.
 * <p>
 * Generated subclasses add the allocation-free accessors (one per column, by entity and by packed index) on top of
 * the typed column reads and writes here; this class also gives the record-level operations that the
 * {@link dev.cairn.World}'s convenience methods need. Those allocate a record per call and are meant for code that is
 * not hot.
 *
 * @param <R> the component record.
 */
public abstract class ComponentStorage<R extends Record> extends SparseSet
{
    private final ComponentType<R, ?> type;

    /**
     * Creates an empty storage.
     *
     * @param type         the component type.
     * @param offHeap      owner of the memory, or null for a storage that owns its memory.
     * @param pool         the pool entities must be alive in, or null to accept any well-formed handle.
     * @param columnWidths byte width of each column.
     */
    protected ComponentStorage(
        final ComponentType<R, ?> type, final OffHeap offHeap, final EntityPool pool, final int[] columnWidths)
    {
        super(type.policy(), offHeap, pool, displayName(type.recordClass()) + " storage", columnWidths);
        this.type = type;
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
     * Adds a component to an entity that does not have one.
     *
     * @param entity    the entity.
     * @param component its value.
     * @return the packed index the component occupies.
     * @throws IllegalArgumentException if the entity already has this component or is not alive.
     */
    public abstract int add(long entity, R component);

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
     * Reads a {@code byte} from a payload column of 1 byte.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final byte getByte(final int column, final int index)
    {
        return UnsafeApi.getByte(payloadAddress(column, index, 0));
    }

    /**
     * Writes a {@code byte} into a payload column of 1 byte.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putByte(final int column, final int index, final byte value)
    {
        UnsafeApi.putByte(payloadAddress(column, index, 0), value);
    }

    /**
     * Reads a {@code short} from a payload column of 2 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final short getShort(final int column, final int index)
    {
        return UnsafeApi.getShort(payloadAddress(column, index, 1));
    }

    /**
     * Writes a {@code short} into a payload column of 2 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putShort(final int column, final int index, final short value)
    {
        UnsafeApi.putShort(payloadAddress(column, index, 1), value);
    }

    /**
     * Reads a {@code char} from a payload column of 2 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final char getChar(final int column, final int index)
    {
        return UnsafeApi.getChar(payloadAddress(column, index, 1));
    }

    /**
     * Writes a {@code char} into a payload column of 2 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putChar(final int column, final int index, final char value)
    {
        UnsafeApi.putChar(payloadAddress(column, index, 1), value);
    }

    /**
     * Reads a {@code int} from a payload column of 4 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final int getInt(final int column, final int index)
    {
        return UnsafeApi.getInt(payloadAddress(column, index, 2));
    }

    /**
     * Writes a {@code int} into a payload column of 4 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putInt(final int column, final int index, final int value)
    {
        UnsafeApi.putInt(payloadAddress(column, index, 2), value);
    }

    /**
     * Reads a {@code float} from a payload column of 4 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final float getFloat(final int column, final int index)
    {
        return UnsafeApi.getFloat(payloadAddress(column, index, 2));
    }

    /**
     * Writes a {@code float} into a payload column of 4 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putFloat(final int column, final int index, final float value)
    {
        UnsafeApi.putFloat(payloadAddress(column, index, 2), value);
    }

    /**
     * Reads a {@code long} from a payload column of 8 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final long getLong(final int column, final int index)
    {
        return UnsafeApi.getLong(payloadAddress(column, index, 3));
    }

    /**
     * Writes a {@code long} into a payload column of 8 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putLong(final int column, final int index, final long value)
    {
        UnsafeApi.putLong(payloadAddress(column, index, 3), value);
    }

    /**
     * Reads a {@code double} from a payload column of 8 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @return the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final double getDouble(final int column, final int index)
    {
        return UnsafeApi.getDouble(payloadAddress(column, index, 3));
    }

    /**
     * Writes a {@code double} into a payload column of 8 bytes.
     *
     * @param column a payload column number.
     * @param index  a packed index from 0 to {@link #size()} - 1.
     * @param value  the value.
     * @throws IndexOutOfBoundsException if {@code index} is out of range.
     * @throws IllegalStateException     if the storage is closed.
     */
    protected final void putDouble(final int column, final int index, final double value)
    {
        UnsafeApi.putDouble(payloadAddress(column, index, 3), value);
    }
}
