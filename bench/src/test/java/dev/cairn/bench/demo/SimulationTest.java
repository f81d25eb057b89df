package dev.cairn.bench.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulationTest
{
    @Test
    void entityCountStaysConstantThroughChurnAndTheSummaryIsPrinted()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (Simulation simulation = new Simulation(3_000, 7))
        {
            assertEquals(3_000, simulation.aliveCount());
            for (int tick = 0; tick < 5; tick++)
            {
                simulation.tick();
                assertEquals(3_000, simulation.aliveCount());
            }
            // Lifetimes are at most MAX_LIFETIME ticks, so this run despawns and respawns.
            final Simulation.Summary summary = simulation.run(Simulation.MAX_LIFETIME + 10, out);
            summary.print(out);

            assertEquals(3_000, summary.aliveAtStart());
            assertEquals(3_000, summary.aliveAtEnd());
            assertEquals(3_000, simulation.aliveCount());
            assertTrue(summary.spawned() >= 3_000, "every original entity expired: " + summary.spawned());
            assertTrue(summary.offHeapBytes() > 0);
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("tick 210/210: 3,000 entities"), text);
        for (final String line : new String[] {
            "entities                 3,000", "ticks per second", "ns per entity per tick", "off-heap bytes",
            "heap used", "GC count during run"})
        {
            assertTrue(text.contains(line), line + " missing from:\n" + text);
        }
    }
}
