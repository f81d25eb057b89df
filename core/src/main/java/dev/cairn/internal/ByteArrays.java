package dev.cairn.internal;

import org.agrona.UnsafeApi;

/**
 * Where a {@code byte[]}'s elements start, for code that reads and writes byte arrays by raw offset. It lives apart
 * from the classes that use it so that loading them (a generated storage's class, to read its {@code TYPE}) needs no
 * access to {@code jdk.internal.misc}: only the first use does, by which time a {@link OffHeap} has checked the flag
 * and named it if it is missing.
 */
public final class ByteArrays
{
    /** The offset of element 0 of a {@code byte[]}. */
    public static final long BASE = UnsafeApi.arrayBaseOffset(byte[].class);

    private ByteArrays()
    {
    }
}
