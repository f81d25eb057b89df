package dev.cairn.internal;

import dev.cairn.OffHeapExhaustedException;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of {@link OffHeap} and {@link Columns}: allocation, the byte budget, all-or-nothing growth, the close
 * protocol and the Cleaner that frees the memory of an owner nobody closed.
 */
class OffHeapTest
{
    @Test
    void allocateCountsTheBytesAndFillsThem()
    {
        final OffHeap offHeap = new OffHeap("test");

        final long address = offHeap.allocate(64, (byte)0x5A);

        assertEquals(64, offHeap.allocatedBytes());
        for (int i = 0; i < 64; i++)
        {
            assertEquals(0x5A, UnsafeApi.getByte(address + i));
        }
        offHeap.free(address);
        assertEquals(0, offHeap.allocatedBytes());
        offHeap.close();
    }

    @Test
    void arraysGrowByHalfWhileSmallAndByASixteenthOnceLargeSoTheUnusedTailOfABigWorldStaysSmall()
    {
        assertEquals(16, OffHeap.grownCapacity(0, 1, 16, Integer.MAX_VALUE), "the minimum");
        assertEquals(1_500_000, OffHeap.grownCapacity(1_000_000, 1_000_001, 16, Integer.MAX_VALUE));
        final int large = 8 << 20;
        assertEquals(large + large / 16, OffHeap.grownCapacity(large, large + 1, 16, Integer.MAX_VALUE));
        assertEquals(100_000_000 + 6_250_000, OffHeap.grownCapacity(100_000_000, 100_000_001, 16, Integer.MAX_VALUE));
        assertEquals(5_000, OffHeap.grownCapacity(1_000, 5_000, 16, Integer.MAX_VALUE), "at least what is needed");
        assertEquals(1_200, OffHeap.grownCapacity(1_000, 1_001, 16, 1_200), "at most the maximum");
    }

    @Test
    void freeingAnAddressThatIsNotABlockThrowsAndFreesNothing()
    {
        final OffHeap offHeap = new OffHeap("test");
        final long address = offHeap.allocate(16);

        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> offHeap.free(address + 8));

        assertTrue(error.getMessage().contains("is not a block of test's memory"), error.getMessage());
        assertEquals(16, offHeap.allocatedBytes());
        offHeap.close();
    }

    @Test
    void anAllocationOverTheBudgetThrowsOffHeapExhaustedExceptionNamingTheSizesAndAllocatesNothing()
    {
        final OffHeap offHeap = new OffHeap("test world", 100);
        offHeap.allocate(64);

        final OffHeapExhaustedException error = assertThrows(OffHeapExhaustedException.class, () -> offHeap.allocate(40));

        assertEquals("cannot allocate 40 bytes of off-heap memory for test world: it holds 64 of its budget of " +
            "100 bytes; raise the budget or hold fewer entities", error.getMessage());
        assertEquals(64, offHeap.allocatedBytes());
        offHeap.allocate(36);
        assertEquals(100, offHeap.allocatedBytes());
        offHeap.close();
    }

    @Test
    void closeFreesEveryBlockStillHeldAndLaterAllocationsThrow()
    {
        final OffHeap offHeap = new OffHeap("test world");
        offHeap.allocate(1000);
        offHeap.allocate(24, (byte)1);

        offHeap.close();
        offHeap.close();

        assertTrue(offHeap.isClosed());
        assertEquals(0, offHeap.allocatedBytes());
        final IllegalStateException error = assertThrows(IllegalStateException.class, () -> offHeap.allocate(8));
        assertTrue(error.getMessage().startsWith("test world is closed"), error.getMessage());
    }

    @Test
    void closeTellsEveryHolderOnceThatItsMemoryIsGone()
    {
        final OffHeap offHeap = new OffHeap("test world");
        final int[] freed = {0};
        offHeap.register(() -> freed[0]++);
        offHeap.allocate(8);

        offHeap.close();
        offHeap.close();

        assertEquals(1, freed[0], "every holder hears once that its memory is gone");
        assertEquals(0, offHeap.allocatedBytes());
    }

    @Test
    // In a thread of its own, so that a table left looping fails the test instead of hanging the build.
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void blocksAllocatedAndMovedWhereTheStackRunsOutStayExactlyAccountedFor() throws Exception
    {
        allocateWhereTheStackRunsOut();
        // Again in a JVM of its own that only interprets, with a small stack: every call is a frame there, so the
        // overflows land between the steps of an allocation that the JIT's inlining hides in this one.
        final Process child = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xint", "-Xss256k",
            "-cp", System.getProperty("java.class.path"), StackSweep.class.getName())
            .redirectErrorStream(true).start();
        final String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(100, java.util.concurrent.TimeUnit.SECONDS), "the sweep hung: " + output);
        assertEquals(0, child.exitValue(), output);
    }

    /** The sweep of {@link #blocksAllocatedAndMovedWhereTheStackRunsOutStayExactlyAccountedFor} in a JVM of its own. */
    static final class StackSweep
    {
        public static void main(final String[] args)
        {
            allocateWhereTheStackRunsOut();
        }
    }

    static void allocateWhereTheStackRunsOut()
    {
        final OffHeap offHeap = new OffHeap("test world");
        final long[] addresses = new long[4_096];
        final long[] sizes = new long[addresses.length];
        final int[] held = {0};
        final int[] step = {0};
        // At each of the deepest frames in turn, so that the stack runs out at every point of an allocation (the
        // table of blocks grows at many of them) and of a growth that moves a block; each round starts the descent a
        // few frames of another size deeper, so that the overflows land at other points.
        final Runnable change = () ->
        {
            final int k = step[0] % 3 == 0 || held[0] == 0 ? -1 : step[0] % held[0];
            if (k < 0 && held[0] < addresses.length)
            {
                final long address = offHeap.allocate(16);
                addresses[held[0]] = address;
                sizes[held[0]++] = 16;
            }
            else if (k >= 0)
            {
                final long grown = sizes[k] * 2 > 1 << 20 ? 16 : sizes[k] * 2;
                final long address = offHeap.reallocate(addresses[k], grown);
                addresses[k] = address;
                sizes[k] = grown;
            }
        };
        for (int round = 0; round < 64; round++)
        {
            step[0] = 0;
            shiftThenDescend(round, step, change);
        }

        long total = 0;
        for (int k = 0; k < held[0]; k++)
        {
            total += sizes[k];
        }
        assertTrue(held[0] > 10, "blocks: " + held[0]);
        assertEquals(total, offHeap.allocatedBytes(), "every block the table holds is one the test holds");
        for (int k = 0; k < held[0]; k++)
        {
            offHeap.free(addresses[k]); // throws if the table does not know the block
        }
        assertEquals(0, offHeap.allocatedBytes());
        offHeap.close();
    }

    /** {@code frames} frames of its own size, then {@link #descendThenRun}. */
    private static long shiftThenDescend(final int frames, final int[] step, final Runnable change)
    {
        final long spill = frames * 31L;
        if (frames > 0)
        {
            return shiftThenDescend(frames - 1, step, change) + spill;
        }
        descendThenRun(step, change);
        return spill;
    }

    /** Recurses until the stack overflows, then runs {@code change} in each of the deepest frames on the way back. */
    private static void descendThenRun(final int[] step, final Runnable change)
    {
        try
        {
            descendThenRun(step, change);
        }
        catch (final StackOverflowError expected)
        {
            // the bottom
        }
        if (step[0] < 200)
        {
            try
            {
                change.run();
            }
            catch (final StackOverflowError expected)
            {
                // too deep for this change, or for part of it
            }
            step[0]++;
        }
    }

    @Test
    void columnsGrowKeepingTheirContentsAndMoveAndSwapSlotsInEveryColumn()
    {
        final OffHeap offHeap = new OffHeap("test");
        final Columns columns = new Columns(offHeap, 8, 4, 2, 1);
        columns.grow(2);
        for (int slot = 0; slot < 2; slot++)
        {
            UnsafeApi.putLong(columns.address(0) + slot * 8L, 100 + slot);
            UnsafeApi.putInt(columns.address(1) + slot * 4L, 200 + slot);
            UnsafeApi.putShort(columns.address(2) + slot * 2L, (short)(300 + slot));
            UnsafeApi.putByte(columns.address(3) + slot, (byte)(40 + slot));
        }

        columns.grow(1000);
        columns.swap(0, 1);
        columns.move(0, 999);

        assertEquals(1000, columns.capacity());
        assertEquals(1000L * 15, columns.bytes());
        assertEquals(columns.bytes(), offHeap.allocatedBytes(), "the old blocks are freed");
        assertEquals(101, UnsafeApi.getLong(columns.address(0)));
        assertEquals(100, UnsafeApi.getLong(columns.address(0) + 8));
        assertEquals(201, UnsafeApi.getInt(columns.address(1) + 999 * 4L));
        assertEquals(301, UnsafeApi.getShort(columns.address(2) + 999 * 2L));
        assertEquals(41, UnsafeApi.getByte(columns.address(3) + 999));
        assertEquals(40, UnsafeApi.getByte(columns.address(3) + 1));
        offHeap.close();
    }

    @Test
    void aGrowthThatFailsPartWayKeepsEveryValueAndTheCapacity()
    {
        // Room for the old columns (2 slots x 15 bytes) grown to 100 slots, except the last (1-byte) column.
        final OffHeap offHeap = new OffHeap("test", 100 * (8 + 4 + 2) + 2);
        final Columns columns = new Columns(offHeap, 8, 4, 2, 1);
        columns.grow(2);
        UnsafeApi.putLong(columns.address(0) + 8, 77);
        UnsafeApi.putInt(columns.address(1) + 4, 66);
        UnsafeApi.putByte(columns.address(3) + 1, (byte)7);

        final OffHeapExhaustedException error = assertThrows(OffHeapExhaustedException.class, () -> columns.grow(100));

        assertTrue(error.getMessage().contains("from 2 to 100 bytes"), error.getMessage());
        assertEquals(2, columns.capacity(), "the capacity is the smallest column's");
        assertEquals(77, UnsafeApi.getLong(columns.address(0) + 8));
        assertEquals(66, UnsafeApi.getInt(columns.address(1) + 4));
        assertEquals(7, UnsafeApi.getByte(columns.address(3) + 1));
        assertEquals(columns.bytes(), offHeap.allocatedBytes(), "the columns already grown keep their blocks");
        columns.grow(50);
        assertEquals(50, columns.capacity(), "and a smaller growth that fits succeeds");
        assertEquals(77, UnsafeApi.getLong(columns.address(0) + 8));
        assertEquals(7, UnsafeApi.getByte(columns.address(3) + 1));
        offHeap.close();
    }

    @Test
    void aReallocationOverTheBudgetLeavesTheBlockWhereItWas()
    {
        final OffHeap offHeap = new OffHeap("test", 100);
        final long address = offHeap.allocate(60, (byte)3);

        assertThrows(OffHeapExhaustedException.class, () -> offHeap.reallocate(address, 101));

        assertEquals(60, offHeap.allocatedBytes());
        assertEquals(3, UnsafeApi.getByte(address + 59));
        final long grown = offHeap.reallocate(address, 100);
        assertEquals(3, UnsafeApi.getByte(grown + 59), "the prefix is kept");
        assertEquals(100, offHeap.allocatedBytes());
        assertEquals(0, offHeap.reallocate(grown, 0));
        assertEquals(0, offHeap.allocatedBytes());
        offHeap.close();
    }

    @Test
    void theCleanerFreesTheMemoryOfAnOwnerNobodyClosedAndReportsTheLeakOnce() throws InterruptedException
    {
        try (LeakReports reports = LeakReports.startingWith("leaked test world"))
        {
            final List<String> messages = reports.awaitAfterCollecting(leakOne());

            assertEquals(1, messages.size(), "the leak is reported once");
            assertTrue(messages.get(0).startsWith("leaked test world was not closed before it became unreachable; " +
                "its 4096 bytes of off-heap memory were freed"), messages.get(0));
            assertTrue(messages.get(0).contains("-Dcairn.leakTracking=true"), messages.get(0));
        }
    }

    private static WeakReference<OffHeap> leakOne()
    {
        final OffHeap offHeap = new OffHeap("leaked test world");
        offHeap.allocate(4096);
        return new WeakReference<>(offHeap);
    }
}
