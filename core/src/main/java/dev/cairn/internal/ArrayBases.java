package dev.cairn.internal;

import org.agrona.UnsafeApi;

/**
 * Where the elements of each primitive array start, for code that reads and writes arrays by raw offset. It lives
 * apart from the classes that use it so that loading them (a generated storage's class, to read its {@code TYPE})
 * needs no access to {@code jdk.internal.misc}: only the first use does, by which time an {@link OffHeap} has checked
 * the flag and named it if it is missing.
 */
public final class ArrayBases
{
    /** The offset of element 0 of a {@code byte[]}. */
    public static final long BYTE = UnsafeApi.arrayBaseOffset(byte[].class);
    /** The offset of element 0 of a {@code short[]}. */
    public static final long SHORT = UnsafeApi.arrayBaseOffset(short[].class);
    /** The offset of element 0 of a {@code char[]}. */
    public static final long CHAR = UnsafeApi.arrayBaseOffset(char[].class);
    /** The offset of element 0 of an {@code int[]}. */
    public static final long INT = UnsafeApi.arrayBaseOffset(int[].class);
    /** The offset of element 0 of a {@code float[]}. */
    public static final long FLOAT = UnsafeApi.arrayBaseOffset(float[].class);
    /** The offset of element 0 of a {@code long[]}. */
    public static final long LONG = UnsafeApi.arrayBaseOffset(long[].class);
    /** The offset of element 0 of a {@code double[]}. */
    public static final long DOUBLE = UnsafeApi.arrayBaseOffset(double[].class);

    private ArrayBases()
    {
    }
}
