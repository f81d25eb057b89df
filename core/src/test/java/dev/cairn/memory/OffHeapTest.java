package dev.cairn.memory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of {@link OffHeap}: allocation, growth, freeing and byte accounting.
 */
class OffHeapTest
{
    @Test
    void newOwnerHoldsNothing()
    {
        assertEquals(0, new OffHeap().allocatedBytes());
    }

    @Test
    void allocateCountsTheBytesAndFillsThem()
    {
        final OffHeap offHeap = new OffHeap();

        final UnsafeBuffer buffer = offHeap.allocate(64, (byte)0x5A);

        assertEquals(64, buffer.capacity());
        assertEquals(64, offHeap.allocatedBytes());
        for (int i = 0; i < 64; i++)
        {
            assertEquals(0x5A, buffer.getByte(i));
        }
        offHeap.free(buffer);
    }

    @Test
    void allocatingZeroBytesAllocatesNothing()
    {
        final OffHeap offHeap = new OffHeap();

        final UnsafeBuffer buffer = offHeap.allocate(0, (byte)0);

        assertEquals(0, buffer.capacity());
        assertEquals(0, offHeap.allocatedBytes());
    }

    @Test
    void growingKeepsThePrefixFillsTheRestAndKeepsTheBufferObject()
    {
        final OffHeap offHeap = new OffHeap();
        final UnsafeBuffer buffer = offHeap.allocate(8, (byte)0);
        buffer.putLong(0, 0x0102_0304_0506_0708L);

        offHeap.resize(buffer, 32, (byte)-1);

        assertEquals(32, buffer.capacity());
        assertEquals(32, offHeap.allocatedBytes());
        assertEquals(0x0102_0304_0506_0708L, buffer.getLong(0));
        assertEquals(-1L, buffer.getLong(8));
        assertEquals(-1L, buffer.getLong(24));
        offHeap.free(buffer);
    }

    @Test
    void shrinkingKeepsThePrefixAndGivesBytesBack()
    {
        final OffHeap offHeap = new OffHeap();
        final UnsafeBuffer buffer = offHeap.allocate(32, (byte)0);
        buffer.putInt(0, 77);

        offHeap.resize(buffer, 4, (byte)0);

        assertEquals(4, offHeap.allocatedBytes());
        assertEquals(77, buffer.getInt(0));
        offHeap.free(buffer);
        assertEquals(0, offHeap.allocatedBytes());
    }

    @Test
    void resizingToZeroFrees()
    {
        final OffHeap offHeap = new OffHeap();
        final UnsafeBuffer buffer = offHeap.allocate(16, (byte)0);

        offHeap.resize(buffer, 0, (byte)0);

        assertEquals(0, buffer.capacity());
        assertEquals(0, offHeap.allocatedBytes());
    }

    @Test
    void negativeSizeIsRejectedNamingIt()
    {
        final OffHeap offHeap = new OffHeap();
        final UnsafeBuffer buffer = OffHeap.emptyBuffer();

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> offHeap.resize(buffer, -3, (byte)0));
        assertTrue(ex.getMessage().contains("-3"), ex.getMessage());
    }

    @Test
    void freeIsANoOpOnAnEmptyBufferAndIdempotent()
    {
        final OffHeap offHeap = new OffHeap();
        final UnsafeBuffer buffer = offHeap.allocate(16, (byte)0);

        offHeap.free(buffer);
        offHeap.free(buffer);
        offHeap.free(OffHeap.emptyBuffer());

        assertEquals(0, offHeap.allocatedBytes());
    }

    @Test
    void aFreedBufferFailsBoundsChecksInsteadOfTouchingFreedMemory()
    {
        final OffHeap offHeap = new OffHeap();
        final UnsafeBuffer buffer = offHeap.allocate(16, (byte)0);

        offHeap.free(buffer);

        assertThrows(IndexOutOfBoundsException.class, () -> buffer.getLong(0));
    }

    @Test
    void ownersCountIndependently()
    {
        final OffHeap first = new OffHeap();
        final OffHeap second = new OffHeap();

        final UnsafeBuffer a = first.allocate(100, (byte)0);
        final UnsafeBuffer b = second.allocate(28, (byte)0);

        assertEquals(100, first.allocatedBytes());
        assertEquals(28, second.allocatedBytes());
        first.free(a);
        second.free(b);
    }

    @Test
    void thisJvmHasTheRequiredFlag()
    {
        assertEquals("--add-exports java.base/jdk.internal.misc=ALL-UNNAMED", OffHeap.REQUIRED_FLAG);
        assertDoesNotThrow(OffHeap::requireUnsafeAccess);
    }

    @Test
    void emptyBuffersAreDistinctObjects()
    {
        final UnsafeBuffer a = OffHeap.emptyBuffer();
        final UnsafeBuffer b = OffHeap.emptyBuffer();

        assertEquals(0, a.capacity());
        assertNotSame(a, b, "each structure wraps its own buffer object");
    }
}
