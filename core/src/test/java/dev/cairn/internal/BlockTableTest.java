package dev.cairn.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table of an owner's blocks, checked against a map after every operation of a long random sequence. */
final class BlockTableTest
{
    @Test
    void recordsMovesAndRemovalsAgreeWithAMap()
    {
        final long seed = Long.getLong("cairn.fuzz.seed", System.nanoTime());
        final Random random = new Random(seed);
        final BlockTable table = new BlockTable();
        final Map<Long, Long> model = new HashMap<>();
        final List<Long> held = new ArrayList<>();
        long next = 16;
        for (int step = 0; step < 200_000; step++)
        {
            final int operation = random.nextInt(10);
            final String context = "seed " + seed + ", step " + step;
            if (operation < 4 || held.isEmpty())
            {
                final long address = next += 16 * (1 + random.nextInt(4));
                final long bytes = 1 + random.nextInt(1 << 20);
                table.ensureRoom();
                table.record(address, bytes);
                model.put(address, bytes);
                held.add(address);
            }
            else if (operation < 7)
            {
                final int k = random.nextInt(held.size());
                final long from = held.get(k);
                final long to = random.nextBoolean() ? from : (next += 16);
                final long bytes = 1 + random.nextInt(1 << 20);
                table.ensureRoom();
                assertTrue(table.move(from, to, bytes), context);
                model.remove(from);
                model.put(to, bytes);
                held.set(k, to);
            }
            else
            {
                final int k = random.nextInt(held.size());
                final long address = held.remove(k);
                assertEquals((long)model.remove(address), table.remove(address), context);
            }
            table.record(0, 0);
            assertFalse(table.move(0, 0, 0), context);
            assertFalse(table.move(next + 16, next + 32, 1), context + ": a block never recorded");
            assertEquals(BlockTable.MISSING, table.remove(next + 16), context);
            assertEquals(model.size(), table.count(), context);
            if (step % 5_000 == 0 || step > 199_990)
            {
                for (final Map.Entry<Long, Long> block : model.entrySet())
                {
                    assertEquals((long)block.getValue(), table.sizeOf(block.getKey()), context);
                }
                final TreeSet<Long> addresses = new TreeSet<>();
                for (final long address : table.addresses())
                {
                    addresses.add(address);
                }
                assertEquals(new TreeSet<>(model.keySet()), addresses, context);
            }
        }
        table.clear();
        assertEquals(0, table.count());
        assertEquals(0, table.addresses().length);
    }
}
