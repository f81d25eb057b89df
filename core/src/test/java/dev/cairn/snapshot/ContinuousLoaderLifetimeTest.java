package dev.cairn.snapshot;

import dev.cairn.world.World;
import dev.cairn.internal.LeakReports;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class ContinuousLoaderLifetimeTest
{
    @Test
    void aLoaderRefusedForAClosedWorldLeavesNoStagingWorldBehind() throws InterruptedException
    {
        try (LeakReports reports = LeakReports.startingWith(
            "World was not closed before it became unreachable; its 0 bytes"))
        {
            final World closed = new World();
            closed.close();
            for (int attempt = 0; attempt < 3; attempt++)
            {
                final IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> new ContinuousLoader(closed));
                assertTrue(refused.getMessage().contains("closed World"), refused.getMessage());
            }

            // The refused loaders' garbage goes in the same collections as a world leaked on purpose.
            reports.awaitAfterCollecting(leakAnEmptyWorld());
            for (int round = 0; round < 20; round++)
            {
                System.gc();
                Thread.sleep(10);
            }

            final List<String> messages = reports.messages();
            assertEquals(1, messages.size(), "only the world leaked on purpose is reported: " + messages);
        }
    }

    @Test
    void aNullWorldIsNamed()
    {
        final NullPointerException refused = assertThrows(NullPointerException.class, () -> new ContinuousLoader(null));

        assertTrue(refused.getMessage().startsWith("world"), refused.getMessage());
    }

    private static WeakReference<World> leakAnEmptyWorld()
    {
        return new WeakReference<>(new World());
    }
}
