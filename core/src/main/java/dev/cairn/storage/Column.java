package dev.cairn.storage;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The memory of one field column of a storage, for code that processes it in bulk or hands it on: native code and GPU
 * uploads that take an address and a length, or Agrona buffers. A generated storage makes one per field
 * ({@code positions.xColumn()}); it covers the components at packed indices {@code [0, count())}, element {@code i}
 * at {@code address() + i * width()}, in the order walks visit them, from the front.
 * <p>
 * <b>Validity.</b> A column is valid until its storage's memory moves or its members move: growth (an add that needs
 * more room), {@code shrinkToFit}, any removal, sort, swap, compaction, {@code clear}, and closing the storage or its
 * world. Adding components that fit does not invalidate it, unless a group owns the storage and the add makes an entity
 * join that group (joining swaps members within the owned storages); writing fields through any accessor does not
 * invalidate it either.
 * Every method here checks validity first and throws {@link IllegalStateException} once the column is stale; what you
 * did with an address or buffer obtained earlier cannot be checked: do not use it after the storage changed. A raw
 * address keeps nothing alive: hold the world (or the column) while native code uses it.
 * Not thread-safe; allocation-free except {@link #buffer()}.
 */
public final class Column
{
    private final ComponentStorage<?> storage;
    private final int column;
    private final int width;
    private final int count;
    private final long address;
    private final long layoutVersion;

    Column(final ComponentStorage<?> storage, final int column, final int width, final int count)
    {
        this.storage = storage;
        this.column = column;
        this.width = width;
        this.count = count;
        this.address = storage.columnAddressOf(column);
        this.layoutVersion = storage.layout();
    }

    /**
     * The address of element 0.
     *
     * @return a raw address; 0 for an empty column.
     * @throws IllegalStateException if the column is stale.
     */
    public long address()
    {
        ensureValid();
        return address;
    }

    /**
     * How many elements the column covers.
     *
     * @return the count.
     * @throws IllegalStateException if the column is stale.
     */
    public int count()
    {
        ensureValid();
        return count;
    }

    /**
     * The bytes of one element: 1, 2, 4 or 8.
     *
     * @return the width.
     * @throws IllegalStateException if the column is stale.
     */
    public int width()
    {
        ensureValid();
        return width;
    }

    /**
     * The bytes the column covers: {@code count() * width()}.
     *
     * @return the length in bytes.
     * @throws IllegalStateException if the column is stale.
     */
    public long byteLength()
    {
        ensureValid();
        return (long)count * width;
    }

    /**
     * A view of the same elements over fewer of them, {@code [0, count)}: what an owning group's range of an owned
     * storage is.
     *
     * @param count how many elements, from 0 to {@link #count()}.
     * @return a new column over the first {@code count} elements.
     * @throws IllegalArgumentException if {@code count} is out of range.
     * @throws IllegalStateException    if the column is stale.
     */
    public Column first(final int count)
    {
        ensureValid();
        if (count < 0 || count > this.count)
        {
            throw new IllegalArgumentException(
                "cannot take the first " + count + " elements of a column of " + this.count + " in " + storage.name());
        }
        return new Column(storage, column, width, count);
    }

    /**
     * An Agrona buffer over the column's bytes, for code that reads or writes them through a
     * {@link org.agrona.MutableDirectBuffer}. It wraps the memory as it is now: its accesses are not checked against
     * later changes of the storage. It holds the storage, so a world that nothing else reaches is not freed by the
     * garbage collector's Cleaner while the buffer is reachable (a raw {@link #address()} holds nothing).
     *
     * @return a new buffer of {@link #byteLength()} bytes.
     * @throws IllegalStateException if the column is stale, or longer than a buffer can be (2^31 - 1 bytes).
     */
    public UnsafeBuffer buffer()
    {
        ensureValid();
        if (byteLength() > Integer.MAX_VALUE)
        {
            throw new IllegalStateException(
                "a column of " + byteLength() + " bytes is longer than an Agrona buffer can be; use address() and " +
                "byteLength(), or first(...) to take less");
        }
        return count == 0 ? new UnsafeBuffer(new byte[0]) : new HoldingBuffer(address, (int)byteLength(), storage);
    }

    /** A buffer over a column that keeps the column's storage, and so its memory's owner, reachable. */
    private static final class HoldingBuffer extends UnsafeBuffer
    {
        @SuppressWarnings({"unused", "FieldCanBeLocal"})
        private final ComponentStorage<?> storage;

        HoldingBuffer(final long address, final int length, final ComponentStorage<?> storage)
        {
            super(address, length);
            this.storage = storage;
        }
    }

    /**
     * Whether the column still describes its storage's memory.
     *
     * @return false once the storage's memory or members moved, or it was closed.
     */
    public boolean isValid()
    {
        return !storage.isClosed() && storage.layout() == layoutVersion &&
            storage.columnAddressOf(column) == address && count <= storage.size();
    }

    /**
     * Throws if the column is stale.
     *
     * @throws IllegalStateException saying what happened and what to do.
     */
    public void ensureValid()
    {
        if (!isValid())
        {
            storage.ensureOpen();
            throw new IllegalStateException(
                "this column of " + storage.name() + " is stale: the storage grew, shrank, or its members moved since " +
                "it was taken (a removal, a sort, an entity joining or leaving a group that owns the storage); take " +
                "the " + storage.type().schema().fields().get(column).name() + " column again after the change");
        }
    }

    @Override
    public String toString()
    {
        return "Column[" + storage.name() + " column " + column + ", " + count + " x " + width + " bytes" +
            (isValid() ? "" : ", stale") + "]";
    }
}
