package dev.cairn.internal;

import dev.cairn.OffHeapExhaustedException;
import org.agrona.UnsafeApi;

/**
 * Parallel off-heap columns that share one capacity: column {@code k} holds one value of
 * {@code 1 << shift(k)} bytes per slot, and slot {@code i} of every column belongs to the same element. A sparse
 * set keeps its packed entity handles in column 0 and a component storage its fields in the columns after it;
 * moving or swapping a slot moves it in every column.
 * <p>
 * {@link #grow(int)} is all or nothing as far as the contents go: each column is resized in place (large blocks are
 * remapped, not copied) and its new address recorded at once, and the capacity is that of the smallest column, so if
 * an allocation fails every slot below the old capacity holds what it held, the capacity is unchanged, and the
 * columns already resized are resized back. Addresses change only in {@link #grow(int)} and
 * {@link #free()}; callers that cache {@link #address(int)} refresh it after those, also after a failed grow.
 * <p>
 * Accesses through addresses are unchecked: callers keep every slot they touch below {@link #capacity()}. Not
 * thread-safe.
 */
public final class Columns
{
    private final OffHeap offHeap;
    private final int[] shifts;
    private final long[] addresses;
    /** Slots each column's block holds; the capacity is the smallest. */
    private final int[] slots;
    private int capacity;

    /**
     * Creates columns with no capacity.
     *
     * @param offHeap the owner of the memory.
     * @param widths  the byte width of each column: 1, 2, 4 or 8.
     * @throws IllegalArgumentException if a width is not 1, 2, 4 or 8.
     */
    public Columns(final OffHeap offHeap, final int... widths)
    {
        this.offHeap = offHeap;
        this.shifts = new int[widths.length];
        this.addresses = new long[widths.length];
        this.slots = new int[widths.length];
        for (int k = 0; k < widths.length; k++)
        {
            shifts[k] = shiftOf(widths[k]);
        }
    }

    /**
     * How many columns there are.
     *
     * @return the column count.
     */
    public int count()
    {
        return shifts.length;
    }

    /**
     * Slots allocated in every column.
     *
     * @return the capacity.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * The address of slot 0 of column {@code k}, or 0 while the capacity is 0.
     *
     * @param k a column number.
     * @return the column's address.
     */
    public long address(final int k)
    {
        return addresses[k];
    }

    /**
     * The log2 of column {@code k}'s width in bytes: 0, 1, 2 or 3.
     *
     * @param k a column number.
     * @return the shift.
     */
    public int shift(final int k)
    {
        return shifts[k];
    }

    /**
     * Off-heap bytes the columns hold.
     *
     * @return the byte count.
     */
    public long bytes()
    {
        long bytes = 0;
        for (int k = 0; k < shifts.length; k++)
        {
            bytes += (long)slots[k] << shifts[k];
        }
        return bytes;
    }

    /**
     * Resizes every column to {@code newCapacity} slots, keeping the first {@code min(capacity, newCapacity)} slots;
     * the contents of the others are undefined.
     *
     * @param newCapacity the new capacity, 0 or more.
     * @throws OffHeapExhaustedException if a column cannot be resized; the slots below the old capacity and the
     *                                   capacity are unchanged.
     */
    public void grow(final int newCapacity)
    {
        final int oldCapacity = capacity;
        try
        {
            for (int k = 0; k < addresses.length; k++)
            {
                if (slots[k] != newCapacity)
                {
                    addresses[k] = offHeap.reallocate(addresses[k], (long)newCapacity << shifts[k]);
                    slots[k] = newCapacity;
                }
            }
        }
        catch (final RuntimeException ex)
        {
            // Give back what the columns already resized took, so a refused growth leaves the budget as it was.
            for (int k = 0; k < addresses.length; k++)
            {
                if (slots[k] != oldCapacity)
                {
                    try
                    {
                        addresses[k] = offHeap.reallocate(addresses[k], (long)oldCapacity << shifts[k]);
                        slots[k] = oldCapacity;
                    }
                    catch (final RuntimeException ignored)
                    {
                        // Keeping the larger block is harmless: the capacity is the smallest column's.
                    }
                }
            }
            throw ex;
        }
        finally
        {
            int smallest = Integer.MAX_VALUE;
            for (final int columnSlots : slots)
            {
                smallest = Math.min(smallest, columnSlots);
            }
            capacity = slots.length == 0 ? newCapacity : smallest;
        }
    }

    /**
     * Frees every column; the capacity becomes 0. Each column is forgotten before it is freed, so a free stopped
     * part-way leaves a block to the owner's close, never an address freed twice.
     */
    public void free()
    {
        capacity = 0;
        for (int k = 0; k < addresses.length; k++)
        {
            final long address = addresses[k];
            addresses[k] = 0;
            slots[k] = 0;
            if (address != 0 && !offHeap.isClosed())
            {
                offHeap.free(address);
            }
        }
    }

    /**
     * Forgets every column without freeing it, for an owner that frees all of its blocks itself; the capacity becomes
     * 0.
     */
    public void forget()
    {
        capacity = 0;
        for (int k = 0; k < addresses.length; k++)
        {
            addresses[k] = 0;
            slots[k] = 0;
        }
    }

    /**
     * Copies slot {@code from} over slot {@code to} in every column.
     *
     * @param from a slot below the capacity.
     * @param to   a slot below the capacity.
     */
    public void move(final int from, final int to)
    {
        moveFrom(0, from, to);
    }

    /**
     * Copies slot {@code from} over slot {@code to} in the columns from {@code first} on: a sparse set that moves its
     * packed column itself passes 1.
     *
     * @param first the first column to copy.
     * @param from  a slot below the capacity.
     * @param to    a slot below the capacity.
     */
    public void moveFrom(final int first, final int from, final int to)
    {
        final long[] addresses = this.addresses;
        final int[] shifts = this.shifts;
        for (int k = first; k < addresses.length; k++)
        {
            // As in swapFrom: predictable branches, commonest width first.
            final int shift = shifts[k];
            final long target = addresses[k] + ((long)to << shift);
            final long source = addresses[k] + ((long)from << shift);
            if (shift == 2)
            {
                UnsafeApi.putInt(target, UnsafeApi.getInt(source));
            }
            else if (shift == 3)
            {
                UnsafeApi.putLong(target, UnsafeApi.getLong(source));
            }
            else if (shift == 1)
            {
                UnsafeApi.putShort(target, UnsafeApi.getShort(source));
            }
            else
            {
                UnsafeApi.putByte(target, UnsafeApi.getByte(source));
            }
        }
    }

    /**
     * Exchanges slots {@code a} and {@code b} in every column.
     *
     * @param a a slot below the capacity.
     * @param b a slot below the capacity.
     */
    public void swap(final int a, final int b)
    {
        swapFrom(0, a, b);
    }

    /**
     * Exchanges slots {@code a} and {@code b} in the columns from {@code first} on: a sparse set that swaps its packed
     * column itself passes 1.
     *
     * @param first the first column to swap.
     * @param a     a slot below the capacity.
     * @param b     a slot below the capacity.
     */
    public void swapFrom(final int first, final int a, final int b)
    {
        final long[] addresses = this.addresses;
        final int[] shifts = this.shifts;
        for (int k = first; k < addresses.length; k++)
        {
            // Commonest width first: a chain of predictable branches, where a switch would jump through a table.
            final int shift = shifts[k];
            final long addressA = addresses[k] + ((long)a << shift);
            final long addressB = addresses[k] + ((long)b << shift);
            if (shift == 2)
            {
                final int value = UnsafeApi.getInt(addressA);
                UnsafeApi.putInt(addressA, UnsafeApi.getInt(addressB));
                UnsafeApi.putInt(addressB, value);
            }
            else if (shift == 3)
            {
                final long value = UnsafeApi.getLong(addressA);
                UnsafeApi.putLong(addressA, UnsafeApi.getLong(addressB));
                UnsafeApi.putLong(addressB, value);
            }
            else if (shift == 1)
            {
                final short value = UnsafeApi.getShort(addressA);
                UnsafeApi.putShort(addressA, UnsafeApi.getShort(addressB));
                UnsafeApi.putShort(addressB, value);
            }
            else
            {
                final byte value = UnsafeApi.getByte(addressA);
                UnsafeApi.putByte(addressA, UnsafeApi.getByte(addressB));
                UnsafeApi.putByte(addressB, value);
            }
        }
    }

    private static int shiftOf(final int width)
    {
        switch (width)
        {
            case 1:
                return 0;
            case 2:
                return 1;
            case 4:
                return 2;
            case 8:
                return 3;
            default:
                throw new IllegalArgumentException("column width " + width + " is not 1, 2, 4 or 8 bytes");
        }
    }
}
