package dev.cairn.world;

import dev.cairn.Entity;
import dev.cairn.internal.LeakReports;
import dev.cairn.OffHeapExhaustedException;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of the {@link World}'s own lifecycle: entity iteration, the memory budget, closing while iterating
 * and the safety net for worlds nobody closed. Storages and views are specified with generated code in codegen.
 */
class WorldTest
{
    @Test
    void forEachEntityVisitsEveryAliveEntityOnceAndDestroysTheCurrentOneAfterTheWalk()
    {
        try (World world = new World())
        {
            final long[] entities = new long[10];
            world.create(entities, entities.length);
            world.destroy(entities[4]);
            final List<Long> visited = new ArrayList<>();

            world.forEachEntity(entity ->
            {
                visited.add(entity);
                world.destroy(entity);
                assertTrue(world.valid(entity), "destroyed when the walk returns");
            });

            assertEquals(9, visited.size());
            assertEquals(entities[0], visited.get(0), "lowest index first");
            assertFalse(visited.contains(entities[4]));
            assertEquals(0, world.aliveCount());
        }
    }

    @Test
    void closingTheWorldFromInsideForEachEntityIsRefusedAndTheWorldStaysUsable()
    {
        final World world = new World();
        final long entity = world.create();

        world.forEachEntity(e ->
        {
            final IllegalStateException error = assertThrows(IllegalStateException.class, world::close);
            assertTrue(error.getMessage().startsWith("World cannot be closed while World.forEachEntity runs"),
                error.getMessage());
        });

        assertFalse(world.isClosed());
        assertTrue(world.valid(entity));
        world.close();
        assertTrue(world.isClosed());
        assertThrows(IllegalStateException.class, () -> world.forEachEntity(e -> { }));
    }

    @Test
    void resettingFromInsideForEachEntityIsRefusedSoTheWalkNeverHandsOutForgottenHandles()
    {
        try (World world = new World())
        {
            for (int i = 0; i < 10; i++)
            {
                world.create();
            }
            final List<Long> visited = new ArrayList<>();
            world.forEachEntity(e ->
            {
                final IllegalStateException error = assertThrows(IllegalStateException.class, world::reset);
                assertTrue(error.getMessage().startsWith("cannot reset() the World while World.forEachEntity runs"),
                    error.getMessage());
                assertTrue(world.valid(e));
                visited.add(e);
            });

            assertEquals(10, visited.size());
            world.reset();
            assertEquals(0, world.aliveCount());
        }
    }

    @Test
    void closingFromAnotherThreadWhileOneIteratesIsRefused() throws InterruptedException
    {
        final World world = new World();
        world.create(new long[1000], 1000);
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final int[] visited = {0};
        final Thread iterating = new Thread(() -> world.forEachEntity(entity ->
        {
            inside.countDown();
            awaitQuietly(release);
            visited[0]++;
        }));
        iterating.start();
        inside.await();

        final IllegalStateException error = assertThrows(IllegalStateException.class, world::close);
        release.countDown();
        iterating.join();

        assertTrue(error.getMessage().contains("another thread walks it"), error.getMessage());
        assertEquals(1000, visited[0]);
        world.close();
    }

    @Test
    void aWorldOffersNoSnapshotHookThatCouldForgetItsEntities()
    {
        for (final java.lang.reflect.Method method : World.class.getMethods())
        {
            assertFalse(method.getName().toLowerCase(java.util.Locale.ROOT).contains("snapshot"),
                "snapshots reach a world's raw state through dev.cairn.internal, not " + method);
        }
    }

    @Test
    void aWorldOverItsBudgetThrowsOffHeapExhaustedExceptionAndKeepsItsEntities()
    {
        try (World world = new World(1_000_000, 1024))
        {
            final List<Long> created = new ArrayList<>();
            final OffHeapExhaustedException error = assertThrows(OffHeapExhaustedException.class, () ->
            {
                while (true)
                {
                    created.add(world.create());
                }
            });

            assertTrue(error.getMessage().contains("cannot grow a block of World's off-heap memory from 864 to 1296 bytes: it holds 864 of its budget of 1024"), error.getMessage());
            assertEquals(1024, world.offHeapBudget());
            assertTrue(world.offHeapBytes() <= 1024);
            assertEquals(created.size(), world.aliveCount());
            for (final long entity : created)
            {
                assertTrue(world.valid(entity));
            }
            // Destroying needs no memory, so a world at its budget can always make room.
            world.destroy(created.get(0));
            assertFalse(world.valid(created.get(0)));
            assertEquals(created.size() - 1, world.aliveCount());
            assertEquals(Entity.next(created.get(0)), world.create(), "its index is reused");
            world.clear();
            assertEquals(0, world.aliveCount());
        }
    }

    @Test
    void aWorldNobodyClosedIsFreedByTheCleanerAndReportedOnce() throws InterruptedException
    {
        try (LeakReports reports = LeakReports.startingWith("World was not closed"))
        {
            final List<String> messages = reports.awaitAfterCollecting(leakAWorld());

            assertEquals(1, messages.size(), "one report per leaked world");
            assertTrue(messages.get(0).contains("were freed by the garbage collector's Cleaner"), messages.get(0));
        }
    }

    @Test
    void aRecordDeclaredInAMethodIsNoComponentAndTheMessageSaysWhyAndWhatToDo()
    {
        record Local(int value)
        {
        }
        try (World world = new World())
        {
            final IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> world.storage(Local.class));

            assertTrue(error.getMessage().contains("is declared inside a method, and a local record cannot be a " +
                "component"), error.getMessage());
            assertTrue(error.getMessage().contains("move it to a top-level or member declaration"), error.getMessage());
        }
    }

    private static WeakReference<World> leakAWorld()
    {
        final World world = new World();
        world.create(new long[100], 100);
        return new WeakReference<>(world);
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
