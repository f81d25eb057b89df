package dev.cairn.internal;

import org.agrona.UnsafeApi;

/**
 * The raw reads and writes generated storages make after they checked the index: by address in a column, in a row
 * held in a byte array (native byte order, unaligned), exchanges of two slots, and bulk copies between a column and a
 * primitive array. Nothing here checks anything; every caller has.
 */
public final class Memory
{
    private Memory()
    {
    }

    /** Reads the {@code byte} at a checked address. */
    public static byte getByte(final long address)
    {
        return UnsafeApi.getByte(address);
    }

    /** Writes a {@code byte} at a checked address. */
    public static void putByte(final long address, final byte value)
    {
        UnsafeApi.putByte(address, value);
    }

    /** Reads the {@code short} at a checked address. */
    public static short getShort(final long address)
    {
        return UnsafeApi.getShort(address);
    }

    /** Writes a {@code short} at a checked address. */
    public static void putShort(final long address, final short value)
    {
        UnsafeApi.putShort(address, value);
    }

    /** Reads the {@code char} at a checked address. */
    public static char getChar(final long address)
    {
        return UnsafeApi.getChar(address);
    }

    /** Writes a {@code char} at a checked address. */
    public static void putChar(final long address, final char value)
    {
        UnsafeApi.putChar(address, value);
    }

    /** Reads the {@code int} at a checked address. */
    public static int getInt(final long address)
    {
        return UnsafeApi.getInt(address);
    }

    /** Writes a {@code int} at a checked address. */
    public static void putInt(final long address, final int value)
    {
        UnsafeApi.putInt(address, value);
    }

    /** Reads the {@code float} at a checked address. */
    public static float getFloat(final long address)
    {
        return UnsafeApi.getFloat(address);
    }

    /** Writes a {@code float} at a checked address. */
    public static void putFloat(final long address, final float value)
    {
        UnsafeApi.putFloat(address, value);
    }

    /** Reads the {@code long} at a checked address. */
    public static long getLong(final long address)
    {
        return UnsafeApi.getLong(address);
    }

    /** Writes a {@code long} at a checked address. */
    public static void putLong(final long address, final long value)
    {
        UnsafeApi.putLong(address, value);
    }

    /** Reads the {@code double} at a checked address. */
    public static double getDouble(final long address)
    {
        return UnsafeApi.getDouble(address);
    }

    /** Writes a {@code double} at a checked address. */
    public static void putDouble(final long address, final double value)
    {
        UnsafeApi.putDouble(address, value);
    }

    /** Reads the {@code byte} at a checked offset of a row held in a byte array. */
    public static byte getByte(final byte[] row, final int offset)
    {
        return UnsafeApi.getByte(row, ArrayBases.BYTE + offset);
    }

    /** Reads the {@code short} at a checked offset of a row held in a byte array. */
    public static short getShort(final byte[] row, final int offset)
    {
        return UnsafeApi.getShortUnaligned(row, ArrayBases.BYTE + offset);
    }

    /** Reads the {@code char} at a checked offset of a row held in a byte array. */
    public static char getChar(final byte[] row, final int offset)
    {
        return UnsafeApi.getCharUnaligned(row, ArrayBases.BYTE + offset);
    }

    /** Reads the {@code int} at a checked offset of a row held in a byte array. */
    public static int getInt(final byte[] row, final int offset)
    {
        return UnsafeApi.getIntUnaligned(row, ArrayBases.BYTE + offset);
    }

    /** Reads the {@code float} at a checked offset of a row held in a byte array. */
    public static float getFloat(final byte[] row, final int offset)
    {
        return Float.intBitsToFloat(UnsafeApi.getIntUnaligned(row, ArrayBases.BYTE + offset));
    }

    /** Reads the {@code long} at a checked offset of a row held in a byte array. */
    public static long getLong(final byte[] row, final int offset)
    {
        return UnsafeApi.getLongUnaligned(row, ArrayBases.BYTE + offset);
    }

    /** Reads the {@code double} at a checked offset of a row held in a byte array. */
    public static double getDouble(final byte[] row, final int offset)
    {
        return Double.longBitsToDouble(UnsafeApi.getLongUnaligned(row, ArrayBases.BYTE + offset));
    }

    /** Exchanges the bytes at two checked addresses. */
    public static void swapByte(final long a, final long b)
    {
        final byte held = UnsafeApi.getByte(a);
        UnsafeApi.putByte(a, UnsafeApi.getByte(b));
        UnsafeApi.putByte(b, held);
    }

    /** Exchanges the two-byte values at two checked addresses. */
    public static void swapShort(final long a, final long b)
    {
        final short held = UnsafeApi.getShort(a);
        UnsafeApi.putShort(a, UnsafeApi.getShort(b));
        UnsafeApi.putShort(b, held);
    }

    /** Exchanges the four-byte values at two checked addresses. */
    public static void swapInt(final long a, final long b)
    {
        final int held = UnsafeApi.getInt(a);
        UnsafeApi.putInt(a, UnsafeApi.getInt(b));
        UnsafeApi.putInt(b, held);
    }

    /** Exchanges the eight-byte values at two checked addresses. */
    public static void swapLong(final long a, final long b)
    {
        final long held = UnsafeApi.getLong(a);
        UnsafeApi.putLong(a, UnsafeApi.getLong(b));
        UnsafeApi.putLong(b, held);
    }

    /**
     * Copies {@code length} elements of a column, from {@code from}, into an array from element {@code offset}.
     *
     * @param from   the address of the first element copied, checked.
     * @param target the array.
     * @param offset the first element written, checked.
     * @param length how many.
     */
    public static void copyOut(final long from, final byte[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.BYTE + offset, length);
    }

    /** As {@link #copyOut(long, byte[], int, int)}, for another element type. */
    public static void copyOut(final long from, final short[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.SHORT + ((long)offset << 1), (long)length << 1);
    }

    /** As {@link #copyOut(long, byte[], int, int)}, for another element type. */
    public static void copyOut(final long from, final char[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.CHAR + ((long)offset << 1), (long)length << 1);
    }

    /** As {@link #copyOut(long, byte[], int, int)}, for another element type. */
    public static void copyOut(final long from, final int[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.INT + ((long)offset << 2), (long)length << 2);
    }

    /** As {@link #copyOut(long, byte[], int, int)}, for another element type. */
    public static void copyOut(final long from, final float[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.FLOAT + ((long)offset << 2), (long)length << 2);
    }

    /** As {@link #copyOut(long, byte[], int, int)}, for another element type. */
    public static void copyOut(final long from, final long[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.LONG + ((long)offset << 3), (long)length << 3);
    }

    /** As {@link #copyOut(long, byte[], int, int)}, for another element type. */
    public static void copyOut(final long from, final double[] target, final int offset, final int length)
    {
        UnsafeApi.copyMemory(null, from, target, ArrayBases.DOUBLE + ((long)offset << 3), (long)length << 3);
    }

    /**
     * Copies {@code length} elements of an array, from element {@code offset}, into a column from {@code to}.
     *
     * @param source the array.
     * @param offset the first element read, checked.
     * @param to     the address of the first element written, checked.
     * @param length how many.
     */
    public static void copyIn(final byte[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.BYTE + offset, null, to, length);
    }

    /** As {@link #copyIn(byte[], int, long, int)}, for another element type. */
    public static void copyIn(final short[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.SHORT + ((long)offset << 1), null, to, (long)length << 1);
    }

    /** As {@link #copyIn(byte[], int, long, int)}, for another element type. */
    public static void copyIn(final char[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.CHAR + ((long)offset << 1), null, to, (long)length << 1);
    }

    /** As {@link #copyIn(byte[], int, long, int)}, for another element type. */
    public static void copyIn(final int[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.INT + ((long)offset << 2), null, to, (long)length << 2);
    }

    /** As {@link #copyIn(byte[], int, long, int)}, for another element type. */
    public static void copyIn(final float[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.FLOAT + ((long)offset << 2), null, to, (long)length << 2);
    }

    /** As {@link #copyIn(byte[], int, long, int)}, for another element type. */
    public static void copyIn(final long[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.LONG + ((long)offset << 3), null, to, (long)length << 3);
    }

    /** As {@link #copyIn(byte[], int, long, int)}, for another element type. */
    public static void copyIn(final double[] source, final int offset, final long to, final int length)
    {
        UnsafeApi.copyMemory(source, ArrayBases.DOUBLE + ((long)offset << 3), null, to, (long)length << 3);
    }
}
