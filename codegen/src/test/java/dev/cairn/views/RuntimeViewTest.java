package dev.cairn.views;

import dev.cairn.DeletionPolicy;
import dev.cairn.world.World;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.view.RuntimeView;
import dev.cairn.views.ViewFixtures.Frozen;
import dev.cairn.views.ViewFixtures.Hp;
import dev.cairn.views.ViewFixtures.Marked;
import dev.cairn.views.ViewFixtures.Pos;
import dev.cairn.views.ViewFixtures.Vel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runtime view API: building from a World with exclusions, storage access, iteration and closing. Its iteration
 * semantics are also checked against the model in {@link ViewModelBasedTest}.
 */
final class RuntimeViewTest
{
    private final World world = new World(1 << 12);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void withoutClassesExcludesThoseComponents()
    {
        final long moving = world.create();
        final long frozen = world.create();
        final long marked = world.create();
        for (final long entity : new long[]{moving, frozen, marked})
        {
            world.add(entity, new Pos(1f, 2f));
            world.add(entity, new Vel(3, 4));
        }
        world.add(frozen, new Frozen());
        world.add(marked, new Marked());

        final RuntimeView all = world.view(Pos.class, Vel.class);
        final RuntimeView notFrozen = all.without(Frozen.class);
        final RuntimeView neither = notFrozen.without(Marked.class);
        assertEquals(List.of(moving, frozen, marked), visit(all), "front to back");
        assertEquals(List.of(moving, marked), visit(notFrozen));
        assertEquals(List.of(moving), visit(neither));
        assertEquals(3, all.count());
        assertEquals(2, notFrozen.count());
        assertEquals(1, neither.count());
        assertEquals(0, all.excludedCount(), "without() leaves the original view unchanged");
        assertEquals(2, neither.excludedCount());
        assertSame(world.storage(Marked.class), neither.excluded(1));
        assertTrue(neither.contains(moving));
        assertFalse(neither.contains(frozen));
        assertEquals(
            "RuntimeView[with=[" + world.storage(Pos.class).name() + ", " + world.storage(Vel.class).name() +
                "], without=[" + world.storage(Frozen.class).name() + ", " + world.storage(Marked.class).name() + "]]",
            neither.toString());
    }

    @Test
    void aNullListOfSetsToExcludeIsNamed()
    {
        final RuntimeView view = world.view(Pos.class, Vel.class);

        final NullPointerException refused =
            assertThrows(NullPointerException.class, () -> view.without((dev.cairn.set.SparseSet[])null));

        assertTrue(refused.getMessage().startsWith("more"), refused.getMessage());
    }

    @Test
    void storagesAreReachableByPositionRecordClassAndType()
    {
        final RuntimeView view = world.view(Pos.class, Vel.class).without(Frozen.class);
        assertEquals(2, view.includedCount());
        assertSame(world.storage(Pos.class), view.included(0));
        assertSame(world.storage(Vel.class), view.included(1));
        final ComponentStorage<Vel> velocities = view.storage(Vel.class);
        assertSame(world.storage(Vel.class), velocities);
        final ViewFixtures_PosStorage positions = view.storage(ViewFixtures_PosStorage.TYPE);
        assertSame(world.storage(ViewFixtures_PosStorage.TYPE), positions);

        final IllegalArgumentException missing =
            assertThrows(IllegalArgumentException.class, () -> view.storage(Hp.class));
        assertTrue(
            missing.getMessage().contains("does not include dev.cairn.views.ViewFixtures$Hp"), missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> view.storage(Frozen.class), "excluded is not included");
        assertThrows(IndexOutOfBoundsException.class, () -> view.included(2));
        assertThrows(IndexOutOfBoundsException.class, () -> view.excluded(-1));
    }

    @Test
    void forEachReadsAndWritesThroughTheStorages()
    {
        for (int k = 0; k < 10; k++)
        {
            final long entity = world.create();
            world.add(entity, new Pos(k, 0f));
            if (k % 2 == 0)
            {
                world.add(entity, new Vel(1, 1));
            }
        }
        final RuntimeView view = world.view(Vel.class, Pos.class);
        final ViewFixtures_PosStorage positions = view.storage(ViewFixtures_PosStorage.TYPE);
        final ViewFixtures_VelStorage velocities = view.storage(ViewFixtures_VelStorage.TYPE);
        view.forEach(entity -> positions.y(entity, positions.y(entity) + (float)velocities.dy(entity)));
        final float[] sum = new float[1];
        world.view(Pos.class).forEach(entity -> sum[0] += positions.y(entity));
        assertEquals(5f, sum[0]);
        assertEquals(5, view.sizeHint(), "velocities, the smaller storage, bound the iteration");
    }

    @Test
    void removingOrDestroyingTheCurrentEntityDuringForEachWaitsForTheWalksEndAndEveryEntityIsVisitedOnce()
    {
        final List<Long> created = new ArrayList<>();
        for (int k = 0; k < 50; k++)
        {
            final long entity = world.create();
            created.add(entity);
            world.add(entity, new Pos(0f, 0f));
            world.add(entity, new Hp(k, true));
        }
        final RuntimeView view = world.view(Hp.class, Pos.class);
        final List<Long> visited = new ArrayList<>();
        view.forEach(entity ->
        {
            visited.add(entity);
            if (visited.size() % 2 == 0)
            {
                world.destroy(entity);
            }
            else
            {
                world.remove(entity, Hp.class);
            }
            assertTrue(world.valid(entity) && world.has(entity, Hp.class) && view.contains(entity),
                "the world answers as it did until the walk returns");
        });
        assertEquals(created, visited, "front to back, each once");
        assertEquals(0, view.count());
        for (int k = 0; k < created.size(); k++)
        {
            assertEquals(k % 2 == 0, world.valid(created.get(k)), "destroyed at the walk's end: " + k);
        }
        assertEquals(25, world.storage(Pos.class).size());
    }

    @Test
    void aViewBuiltFromSetsWorksButCannotResolveClasses()
    {
        try (SparseSet first = new SparseSet(DeletionPolicy.SWAP_AND_POP);
             SparseSet second = new SparseSet(DeletionPolicy.IN_PLACE);
             SparseSet excluded = new SparseSet(DeletionPolicy.SWAP_ONLY))
        {
            for (int k = 0; k < 6; k++)
            {
                final long entity = dev.cairn.Entity.of(k, 0);
                first.insert(entity);
                if (k > 1)
                {
                    second.insert(entity);
                }
                if (k == 4)
                {
                    excluded.insert(entity);
                }
            }
            final RuntimeView view = new RuntimeView(List.of(first, second), List.of()).without(excluded);
            assertEquals(3, view.count());
            final IllegalStateException noWorld = assertThrows(
                IllegalStateException.class, () -> view.without(Frozen.class));
            assertTrue(noWorld.getMessage().contains("without(SparseSet...)"), noWorld.getMessage());
            assertThrows(IllegalArgumentException.class, () -> view.storage(Pos.class), "plain sets are no storage");
        }
    }

    @Test
    void aViewNeedsAComponent()
    {
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> world.view());
        assertTrue(none.getMessage().contains("at least one included component"), none.getMessage());
    }

    @Test
    void closingTheWorldFromTheActionIsRefusedAndAfterCloseEveryCallThrows()
    {
        for (int k = 0; k < 5; k++)
        {
            world.add(world.create(), new Pos(0f, 0f));
        }
        final RuntimeView view = world.view(Pos.class);
        final int[] visits = new int[1];
        view.forEach(entity ->
        {
            visits[0]++;
            assertThrows(IllegalStateException.class, world::close);
        });
        assertEquals(5, visits[0]);
        assertFalse(world.isClosed());
        world.close();
        assertThrows(IllegalStateException.class, () -> view.forEach(entity -> { }));
        assertThrows(IllegalStateException.class, () -> view.storage(Pos.class), "storage() after close");
        assertThrows(IllegalStateException.class, () -> view.without(Pos.class), "without() after close");
        assertThrows(IllegalStateException.class, view::count);
        assertThrows(IllegalStateException.class, () -> view.contains(0L));
        assertThrows(IllegalStateException.class, () -> world.view(Pos.class));
        assertEquals(0, view.sizeHint());
    }

    @Test
    void closingAnotherWorldOrAStandaloneSetOfTheViewFromTheActionIsRefused()
    {
        try (World other = new World(1 << 12);
             SparseSet standalone = new SparseSet(DeletionPolicy.SWAP_AND_POP))
        {
            final List<Long> matching = new ArrayList<>();
            // Handles are numbers: the other world's entities are given indices this world's do not have.
            other.create(new long[100], 100);
            for (int k = 0; k < 20; k++)
            {
                final long entity = world.create();
                world.add(entity, new Pos(k, 0f));
                other.add(other.create(), new Frozen());
                if (k % 2 == 0)
                {
                    standalone.insert(entity);
                }
                else
                {
                    matching.add(entity);
                }
            }
            final RuntimeView view =
                world.view(Pos.class).without(standalone, (SparseSet)other.storage(Frozen.class));
            final List<Long> visited = new ArrayList<>();
            view.forEach(entity ->
            {
                visited.add(entity);
                final IllegalStateException setRefused = assertThrows(IllegalStateException.class, standalone::close);
                assertTrue(setRefused.getMessage().contains("RuntimeView.forEach"), setRefused.getMessage());
                final IllegalStateException worldRefused = assertThrows(IllegalStateException.class, other::close);
                assertTrue(worldRefused.getMessage().contains("RuntimeView.forEach"), worldRefused.getMessage());
            });
            assertEquals(matching, visited, "the excluded set stayed open and excluded what it holds");
            assertFalse(other.isClosed());
            assertFalse(standalone.isClosed());
            assertEquals(null, world.heldBy(), "every walk was ended");
            assertEquals(null, other.heldBy());
        }
    }

    @Test
    void aViewOverASetClosedBeforeItsIterationThrowsAndAnnouncesNothing()
    {
        final long entity = world.create();
        world.add(entity, new Pos(0f, 0f));
        final SparseSet standalone = new SparseSet(DeletionPolicy.SWAP_AND_POP);
        final RuntimeView view = world.view(Pos.class).without(standalone);
        standalone.close();
        assertThrows(IllegalStateException.class, () -> view.forEach(e -> { }));
        assertThrows(IllegalStateException.class, view::count);
        assertEquals(null, world.heldBy(), "no walk was left begun");
    }

    @Test
    void closingAnExcludedStandaloneSetFromAnotherThreadDuringTheIterationIsRefused() throws Exception
    {
        try (SparseSet standalone = new SparseSet(DeletionPolicy.SWAP_AND_POP))
        {
            for (int k = 0; k < 100; k++)
            {
                final long entity = world.create();
                world.add(entity, new Pos(k, 0f));
                if (k % 2 == 0)
                {
                    standalone.insert(entity);
                }
            }
            final RuntimeView view = world.view(Pos.class).without(standalone);
            final CountDownLatch walking = new CountDownLatch(1);
            final CountDownLatch tried = new CountDownLatch(1);
            final Throwable[] closeFailure = new Throwable[1];
            final Thread closer = new Thread(() ->
            {
                try
                {
                    walking.await();
                    standalone.close();
                }
                catch (final Throwable ex)
                {
                    closeFailure[0] = ex;
                }
                finally
                {
                    tried.countDown();
                }
            });
            closer.start();
            final int[] visits = new int[1];
            view.forEach(entity ->
            {
                if (visits[0]++ == 0)
                {
                    walking.countDown();
                    awaitUninterruptibly(tried);
                }
            });
            closer.join();
            assertTrue(closeFailure[0] instanceof IllegalStateException, String.valueOf(closeFailure[0]));
            assertFalse(standalone.isClosed());
            assertEquals(50, visits[0], "the walk went on reading the excluded set");
        }
    }

    private static void awaitUninterruptibly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static List<Long> visit(final RuntimeView view)
    {
        final List<Long> visited = new ArrayList<>();
        view.forEach(visited::add);
        return visited;
    }
}
