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
            final Simulation.Summary summary = simulation.run(0, Simulation.MAX_LIFETIME + 10, out);
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
            "per entity)", "heap used", "GC count during run"})
        {
            assertTrue(text.contains(line), line + " missing from:\n" + text);
        }
    }

    @Test
    void warmUpTicksRunFirstAndAreLeftOutOfEveryFigure()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (Simulation simulation = new Simulation(10, 7))
        {
            final Simulation.Summary summary = simulation.run(Simulation.warmUpTicks(10), 1, out);
            summary.print(out);

            assertEquals(Simulation.MAX_WARM_UP_TICKS, summary.warmUpTicks());
            assertEquals(1, summary.ticks());
            assertEquals(summary.elapsedNanos(), summary.medianTickNanos(), "one measured tick is its own median");
            assertEquals(10, simulation.aliveCount());
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("warm-up: 20,000 ticks, not measured"), text);
        assertTrue(
            text.contains("Summary (steady state: the 20,000 warm-up ticks before these are not counted)"), text);
        assertTrue(text.contains("tick 1/1: 10 entities"), text);
    }

    @Test
    void theDefaultWarmUpGivesTwoMillionEntityUpdatesWithinItsBounds()
    {
        assertEquals(Simulation.MAX_WARM_UP_TICKS, Simulation.warmUpTicks(1));
        assertEquals(10, Simulation.warmUpTicks(200_000));
        assertEquals(2, Simulation.warmUpTicks(1_000_000));
        assertEquals(1, Simulation.warmUpTicks(100_000_000));
    }
}
