package dev.cairn.command;

import dev.cairn.world.World;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a playback does with a lane whose bytes were written over, as a {@code Row} misused from another thread can:
 * the damage is reported, never read past, and what comes before it still applies. The lane is damaged here by hand,
 * which a race does only now and then.
 */
final class CommandBufferLaneTest
{
    /** Offset of the count in the second run: a destroy run (8-byte header, one entity) comes first. */
    private static final int SECOND_RUN_COUNT = CommandBuffer.RUN_HEADER_BYTES + Long.BYTES + Integer.BYTES;

    @Test
    void aRunWhoseCountWasOverwrittenIsReportedAndTheRunsBeforeItApply() throws Exception
    {
        // Counts that cannot be: none, negative, more commands than the lane holds after the run's header. (A count
        // that fits, however wrong, is read as commands; what it then meets is checked run by run.)
        for (final int forged : new int[]{0, -1, 5, 1_000_000, Integer.MIN_VALUE})
        {
            try (World world = new World())
            {
                final long first = world.create();
                final long second = world.create();
                final CommandBuffer commands = new CommandBuffer(world);
                commands.destroy(first);                 // run 1
                commands.create();
                commands.create();                       // run 2: two creates
                commands.destroy(second);                // run 3, whose start ends run 2 and writes its count
                putInt(firstLane(commands).bytes, SECOND_RUN_COUNT, forged);

                final IllegalStateException reported = assertThrows(IllegalStateException.class, commands::apply,
                    "count " + forged);

                assertTrue(reported.getMessage().contains("lane was overwritten") &&
                    reported.getMessage().contains("a Row was written from a thread other than"), reported.getMessage());
                assertFalse(world.valid(first), "the run before the damage applied");
                assertTrue(world.valid(second), "what could not be read was skipped, not guessed at");
                assertEquals(1, world.aliveCount());
                assertTrue(commands.isEmpty(), "the buffer is empty after the apply, as after any failure");
                commands.destroy(second);
                assertEquals(0, commands.apply(), "and records and applies as before");
                assertEquals(0, world.aliveCount());
            }
        }
    }

    @Test
    void aRunWhoseHeaderWasOverwrittenIsSkippedAndReportedAndTheRunsAroundItApply() throws Exception
    {
        try (World world = new World())
        {
            final long first = world.create();
            final long second = world.create();
            final CommandBuffer commands = new CommandBuffer(world);
            commands.destroy(first);
            commands.create();
            commands.create();
            commands.destroy(second);
            // An operation no command has, with the run's length intact: the runs after it can still be found.
            putInt(firstLane(commands).bytes, SECOND_RUN_COUNT - Integer.BYTES, 7);

            final IllegalStateException reported = assertThrows(IllegalStateException.class, commands::apply);

            assertTrue(reported.getMessage().contains("2 commands were skipped"), reported.getMessage());
            assertFalse(world.valid(first), "the run before applied");
            assertFalse(world.valid(second), "the run after applied");
            assertEquals(0, world.aliveCount(), "the damaged run created nothing");
        }
    }

    @Test
    void aLaneThatRanOutOfPlaceholderNumbersRefusesCreateAndNeverTakesAnOldPlaceholderForANewOne() throws Exception
    {
        try (World world = new World())
        {
            final CommandBuffer commands = new CommandBuffer(world);
            final long old = commands.create();
            commands.clear();
            firstLane(commands).base = CommandBuffer.PLACEHOLDERS - 1; // as after 2^32 - 1 creates by this thread
            final long last = commands.create();

            final IllegalStateException refused = assertThrows(IllegalStateException.class, commands::create);

            assertTrue(refused.getMessage().contains("new CommandBuffer"), refused.getMessage());
            assertNotEquals(old, last);
            assertEquals(1, commands.size(), "the refused create recorded nothing");
            commands.destroy(old);
            assertEquals(1, commands.apply(), "the old placeholder names nothing: its destroy is skipped");
            assertEquals(1, world.aliveCount(), "the last create was made");
            assertThrows(IllegalStateException.class, commands::create, "and stays refused");
        }
    }

    private static CommandBuffer.Lane firstLane(final CommandBuffer commands) throws ReflectiveOperationException
    {
        final Field lanes = CommandBuffer.class.getDeclaredField("lanes");
        lanes.setAccessible(true);
        return ((CommandBuffer.Lane[])lanes.get(commands))[0];
    }

    private static void putInt(final byte[] bytes, final int at, final int value)
    {
        UnsafeApi.putIntUnaligned(bytes, UnsafeApi.arrayBaseOffset(byte[].class) + at, value);
    }
}
