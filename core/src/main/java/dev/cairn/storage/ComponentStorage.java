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
 * Generated subclasses add the allocation-free accessors (one per column, by entity and by packed index). Each keeps
 * the address of its columns in a field that {@link #columnsMoved()} refreshes, checks the index
 * ({@link #checkIndex(int)}, {@link #requireIndex(long)} or a {@code Ref}'s {@link #refIndex}) and then reads or
 * writes the column through the raw accessors here, which check nothing. This class also gives the record-level
 * operations that the {@link dev.cairn.World}'s convenience methods need. Those allocate a record per call and are
 * meant for code that is not hot.
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
}
