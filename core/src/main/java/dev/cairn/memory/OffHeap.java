package dev.cairn.memory;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Owner of off-heap memory: allocates, grows and frees the blocks behind {@link UnsafeBuffer}s and counts the bytes
 * it holds, so every structure built on it can report its footprint and be freed deterministically.
 * <p>
 * A freed or empty buffer is wrapped over a shared zero-length heap array, so a stray access through it fails
 * Agrona's bounds check instead of touching freed memory.
 * <p>
 * Not thread-safe: one owner (a {@link dev.cairn.World} or a standalone set) uses it from one thread at a time.
 */
public final class OffHeap
{
    /**
     * The JVM flag Agrona 2.x needs to reach {@code jdk.internal.misc.Unsafe}.
     */
    public static final String REQUIRED_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final byte[] EMPTY = new byte[0];
    private static final Throwable UNSAFE_UNAVAILABLE = probeUnsafe();

    private long allocatedBytes;

    /**
     * Creates an owner that holds no memory yet.
     *
     * @throws IllegalStateException if this JVM was started without {@link #REQUIRED_FLAG}.
     */
    public OffHeap()
    {
        requireUnsafeAccess();
    }

    /**
     * Checks that Agrona can reach {@code jdk.internal.misc.Unsafe} in this JVM.
     *
     * @throws IllegalStateException naming the missing JVM flag if it cannot.
     */
    public static void requireUnsafeAccess()
    {
        if (UNSAFE_UNAVAILABLE != null)
        {
            throw new IllegalStateException(
                "Cairn keeps its data off-heap through Agrona, which needs the JVM flag " + REQUIRED_FLAG +
                ": add it to the java command line (or to Surefire's argLine, JMH's jvmArgsAppend, or the jar " +
                "manifest entry 'Add-Exports: java.base/jdk.internal.misc')", UNSAFE_UNAVAILABLE);
        }
    }

    /**
     * A buffer of capacity 0 that owns no memory.
     *
     * @return a new empty buffer.
     */
    public static UnsafeBuffer emptyBuffer()
    {
        return new UnsafeBuffer(EMPTY);
    }

    /**
     * Allocates a buffer of {@code bytes} bytes, every byte set to {@code fill}.
     *
     * @param bytes size in bytes, 0 or more.
     * @param fill  the initial value of every byte.
     * @return a buffer owning the new memory (or an empty buffer for 0 bytes).
     */
    public UnsafeBuffer allocate(final int bytes, final byte fill)
    {
        final UnsafeBuffer buffer = emptyBuffer();
        resize(buffer, bytes, fill);
        return buffer;
    }

    /**
     * Grows or shrinks the memory behind {@code buffer} to {@code bytes}, keeping the common prefix and setting every
     * added byte to {@code fill}. The buffer object is re-wrapped, so references to it stay valid; its old address
     * does not.
     *
     * @param buffer a buffer from {@link #allocate} or {@link #emptyBuffer()}, owned by this object.
     * @param bytes  the new size in bytes, 0 or more.
     * @param fill   the value of every added byte.
     */
    public void resize(final UnsafeBuffer buffer, final int bytes, final byte fill)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("negative buffer size " + bytes);
        }
        final int oldBytes = buffer.capacity();
        if (bytes == oldBytes)
        {
            return;
        }
        if (bytes == 0)
        {
            free(buffer);
            return;
        }
        final long address;
        if (oldBytes == 0)
        {
            address = UnsafeApi.allocateMemory(bytes);
        }
        else
        {
            address = UnsafeApi.reallocateMemory(buffer.addressOffset(), bytes);
        }
        if (bytes > oldBytes)
        {
            UnsafeApi.setMemory(address + oldBytes, bytes - oldBytes, fill);
        }
        buffer.wrap(address, bytes);
        allocatedBytes += bytes - oldBytes;
    }

    /**
     * Frees the memory behind {@code buffer} and leaves it empty; a no-op for an empty buffer.
     *
     * @param buffer a buffer owned by this object.
     */
    public void free(final UnsafeBuffer buffer)
    {
        final int bytes = buffer.capacity();
        if (bytes != 0)
        {
            final long address = buffer.addressOffset();
            buffer.wrap(EMPTY);
            UnsafeApi.freeMemory(address);
            allocatedBytes -= bytes;
        }
    }

    /**
     * Bytes currently allocated through this owner and not yet freed.
     *
     * @return the count of off-heap bytes held.
     */
    public long allocatedBytes()
    {
        return allocatedBytes;
    }

    private static Throwable probeUnsafe()
    {
        try
        {
            final long address = UnsafeApi.allocateMemory(8);
            UnsafeApi.freeMemory(address);
            return null;
        }
        catch (final Throwable ex)
        {
            return ex;
        }
    }
}
