package dev.cairn.groups;

import dev.cairn.world.World;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A column's Agrona buffer is memory of a world: while the buffer is reachable, the garbage collector's Cleaner must
 * not free that memory, even when the program dropped the world without closing it.
 */
final class ColumnLifetimeTest
{
    private static final int ENTITIES = 1_000_000;

    @Test
    void aColumnBufferKeepsTheMemoryOfAWorldNobodyElseReaches() throws InterruptedException
    {
        // The world is leaked on purpose: its report is no news in the build's output.
        final Logger cairn = Logger.getLogger("dev.cairn");
        cairn.setUseParentHandlers(false);
        try
        {
            UnsafeBuffer xs = xsOfAWorldDroppedUnclosed();
            collect();

            for (int i = 0; i < ENTITIES; i += 4_099)
            {
                assertEquals(i, xs.getFloat(i * Float.BYTES), 0f, "element " + i);
            }
            xs = null;
            collect();
        }
        finally
        {
            cairn.setUseParentHandlers(true);
        }
    }

    private static void collect() throws InterruptedException
    {
        for (int round = 0; round < 30; round++)
        {
            System.gc();
            Thread.sleep(10);
        }
    }

    private static UnsafeBuffer xsOfAWorldDroppedUnclosed()
    {
        final World world = new World();
        final GroupFixtures_PosStorage positions = world.storage(GroupFixtures_PosStorage.TYPE);
        final long[] entities = new long[ENTITIES];
        world.create(entities, ENTITIES);
        for (int i = 0; i < ENTITIES; i++)
        {
            positions.emplace(entities[i], i, 0f);
        }
        return positions.xColumn().buffer();
    }
}
