package dev.cairn.views;

import dev.cairn.OffHeapExhaustedException;
import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.views.ViewFixtures.Pos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user who misuses the engine gets: each call sequence below once corrupted data or visited the wrong
 * entities silently, and now throws an exception that says what happened and leaves the world as it was. Under the
 * rule of change (docs/views.md), what cannot wait for a walk's end (reordering, a reset, a load) is refused with a
 * message naming the walk, and the walk goes on.
 */
final class MisuseTest
{
    private final World world = new World(1 << 16);
    private final ViewFixtures_PosStorage positions = world.storage(ViewFixtures_PosStorage.TYPE);
    private final ViewFixtures_VelStorage velocities = world.storage(ViewFixtures_VelStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    private long[] movers(final int count)
    {
        final long[] entities = new long[count];
        for (int i = 0; i < count; i++)
        {
            entities[i] = world.create();
            positions.emplace(entities[i], i, 0f);
            velocities.emplace(entities[i], 1, 0);
        }
        return entities;
    }

    /** The members of the position storage, in packed order. */
    private List<Long> members()
    {
        final List<Long> members = new ArrayList<>();
        positions.forEach(members::add);
        return members;
    }

    @Test
    void nullArgumentsAndCrossWorldSortsAreRefusedNamingTheArgument()
    {
        final long entity = world.create();
        final NullPointerException noClass = assertThrows(NullPointerException.class,
            () -> world.get(entity, (Class<Pos>)null));
        assertTrue(noClass.getMessage().contains("recordClass"), noClass.getMessage());
        assertTrue(assertThrows(NullPointerException.class, () -> world.view((Class<Pos>)null)).getMessage()
            .contains("recordClass"));
        assertTrue(assertThrows(NullPointerException.class, () -> world.add(entity, null)).getMessage()
            .contains("component"));
        assertTrue(assertThrows(NullPointerException.class, () -> positions.sortAs(null)).getMessage()
            .contains("other"));
        try (World other = new World())
        {
            final ViewFixtures_PosStorage foreign = other.storage(ViewFixtures_PosStorage.TYPE);
            final IllegalArgumentException crossWorld =
                assertThrows(IllegalArgumentException.class, () -> positions.sortAs(foreign));
            assertTrue(crossWorld.getMessage().contains("another World"), crossWorld.getMessage());
        }
        final IllegalStateException tooMany = assertThrows(IllegalStateException.class,
            () -> positions.reserveFor(entity, Integer.MAX_VALUE));
        assertTrue(tooMany.getMessage().contains("cannot make room for " + Integer.MAX_VALUE), tooMany.getMessage());
    }

    @Test
    void reorderingAStorageFromAViewsActionIsRefusedNamingTheWalkAndEveryEntityIsVisitedOnce()
    {
        movers(50);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final Map<String, Executable> reorders = Map.of(
            "sort ViewFixtures.Pos storage", () -> positions.sort(positions.comparingX()),
            "sortAs ViewFixtures.Pos storage", () -> positions.sortAs(velocities),
            "compact ViewFixtures.Pos storage", positions::compact,
            "swapElements ViewFixtures.Pos storage",
            () -> positions.swapElements(positions.entityAt(0), positions.entityAt(49)),
            "sort ViewFixtures.Vel storage", () -> velocities.sort(velocities.comparingDx()),
            "compact ViewFixtures.Vel storage", velocities::compact);
        for (final Map.Entry<String, Executable> reorder : reorders.entrySet())
        {
            final List<Long> before = members();
            final Set<Long> visited = new HashSet<>();
            view.forEach((entity, pos, vel) ->
            {
                assertTrue(visited.add(entity), "visited twice: " + Entity.toString(entity));
                final IllegalStateException error = assertThrows(IllegalStateException.class, reorder.getValue());
                assertTrue(error.getMessage().startsWith("cannot " + reorder.getKey() + " while " +
                    "ViewFixtures_PosVelView.forEach runs") && error.getMessage().contains("after the walk"),
                    error.getMessage());
            });
            assertEquals(50, visited.size(), reorder.getKey());
            assertEquals(before, members(), "a refused reorder moved nothing: " + reorder.getKey());
        }
        positions.sort(positions.comparingX());
    }

    @Test
    void reservingOrShrinkingAStorageFromAViewsActionIsRefusedNamingTheWalkAndSayingToDoItAfterwards()
    {
        movers(10);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final int capacity = positions.capacity();
        final Map<String, Executable> refused = Map.of(
            "reserve", () -> positions.reserve(capacity * 4),
            "reserveFor", () -> positions.reserveFor(positions.entityAt(0), capacity * 4),
            "shrinkToFit", positions::shrinkToFit);
        for (final Map.Entry<String, Executable> call : refused.entrySet())
        {
            view.forEach((entity, pos, vel) ->
            {
                final String message = assertThrows(IllegalStateException.class, call.getValue()).getMessage();
                assertTrue(message.contains("while ViewFixtures_PosVelView.forEach runs"), message);
                // It is refused, not recorded: the advice says to make the call after the walk.
                assertTrue(message.contains("after the walk") &&
                    !message.contains("records such changes and makes them when the walk returns"),
                    call.getKey() + ": " + message);
            });
            assertEquals(capacity, positions.capacity(), call.getKey() + " changed nothing");
        }
        positions.reserve(capacity * 4);
    }

    @Test
    void aResetOrASnapshotLoadDuringACursorWalkIsRefusedNamingTheCursorAndWorksOnceItIsClosed()
    {
        movers(20);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final java.nio.ByteBuffer saved = java.nio.ByteBuffer.allocate((int)dev.cairn.snapshot.Snapshot.sizeOf(world));
        final List<Long> before = members();
        int visits = 0;
        try (ViewFixtures_PosVelView.Cursor cursor = view.cursor())
        {
            assertTrue(cursor.next());
            visits++;
            dev.cairn.snapshot.Snapshot.save(world, saved);

            final IllegalStateException reset = assertThrows(IllegalStateException.class, world::reset);
            assertTrue(reset.getMessage().startsWith("cannot reset() the World while " +
                "ViewFixtures_PosVelView.cursor() runs") && reset.getMessage().contains("clear()"), reset.getMessage());
            final IllegalStateException load = assertThrows(IllegalStateException.class,
                () -> dev.cairn.snapshot.Snapshot.load(world, saved.duplicate().flip()));
            assertTrue(load.getMessage().contains("ViewFixtures_PosVelView.cursor()"), load.getMessage());
            assertEquals(before, members(), "the refused calls changed nothing");
            assertEquals(0f, cursor.pos().y(), "the cursor's Refs still read their entity");
            while (cursor.next())
            {
                visits++;
            }
        }
        assertEquals(20, visits, "the cursor walked on after the refused calls");

        try (ViewFixtures_PosVelView.Cursor cursor = view.cursor())
        {
            assertTrue(cursor.next());
        }
        world.reset();
        dev.cairn.snapshot.Snapshot.load(world, saved.flip());
        assertEquals(before, members(), "reset and load work once the cursor is closed");
    }

    @Test
    void aCursorAListenerLeavesOpenIsClosedWhenTheListenerReturnsAndTheChangeSaysSoOnceItIsMade()
    {
        final long[] entities = movers(5);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final ViewFixtures_PosVelView.Cursor[] kept = new ViewFixtures_PosVelView.Cursor[1];
        final dev.cairn.signal.Connection listener = world.onDestroying(entity ->
        {
            kept[0] = view.cursor();
            assertTrue(kept[0].next());
        });

        final IllegalStateException thrown = assertThrows(IllegalStateException.class,
            () -> world.destroy(entities[1]));

        assertTrue(thrown.getMessage().startsWith("ViewFixtures_PosVelView.cursor() was begun in a listener of " +
            "World: destroying and was still open when that returned"), thrown.getMessage());
        assertFalse(world.valid(entities[1]), "the destroy was made whole");
        assertFalse(positions.contains(entities[1]) || velocities.contains(entities[1]));
        assertFalse(world.isDeferring());
        assertFalse(kept[0].next(), "the cursor was closed: it visits nothing more");
        assertEquals(Entity.NULL, kept[0].entity());
        assertThrows(IllegalStateException.class, () -> kept[0].pos().x(), "its Refs are on no entity");
        kept[0].close();
        listener.close();
        world.destroy(entities[2]);
        assertFalse(world.valid(entities[2]), "later changes are made at once");
    }

    @Test
    void aCursorWhoseWalkIsRefusedStaysAtItsEnd() throws Exception
    {
        movers(5);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final ViewFixtures_PosVelView.Cursor cursor = view.cursor();
        cursor.close();
        final java.util.concurrent.CountDownLatch walking = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        final Thread other = new Thread(() -> new ViewFixtures_PosVelView(world).forEach((entity, p, v) ->
        {
            walking.countDown();
            try
            {
                done.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }), "other walker");
        other.start();
        try
        {
            walking.await();
            assertThrows(IllegalStateException.class, view::cursor, "another thread walks the world");
            assertFalse(cursor.next(), "the refused cursor() did not start the cursor on a walk it does not hold");
        }
        finally
        {
            done.countDown();
            other.join();
        }
    }

    @Test
    void reorderingAStorageDuringACursorLoopIsRefusedUntilTheCursorsWalkEnds()
    {
        movers(20);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final ViewFixtures_PosVelView.Cursor cursor = view.cursor();
        assertTrue(cursor.next());

        final IllegalStateException error =
            assertThrows(IllegalStateException.class, () -> positions.sort(positions.comparingX()));
        assertTrue(error.getMessage().startsWith("cannot sort ViewFixtures.Pos storage while " +
            "ViewFixtures_PosVelView.cursor() runs"), error.getMessage());
        int count = 1;
        while (cursor.next())
        {
            count++;
        }
        assertEquals(20, count, "the cursor walks on after the refused sort");
        positions.sort(positions.comparingX());

        assertTrue(view.cursor().next());
        assertTrue(view.cursor().next(), "a new cursor() ends the walk of the previous one and starts another");
        assertThrows(IllegalStateException.class, () -> positions.sort(positions.comparingX()), "still walking");
        view.cursor().close();
        positions.sort(positions.comparingX());
    }

    @Test
    void aRefKeptAfterForEachStaysOnTheLastVisitedEntityAndThrowsOnceThatEntityLeaves()
    {
        final long[] entities = movers(3);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final List<ViewFixtures_PosStorage.Ref> kept = new ArrayList<>();

        view.forEach((entity, pos, vel) ->
        {
            if (kept.isEmpty())
            {
                kept.add(pos);
            }
        });

        final long last = kept.get(0).entity();
        assertEquals(entities[2], last, "the walk's Ref moved on to the last entity visited");
        kept.get(0).x(99f);
        assertEquals(99f, positions.x(last), "a kept Ref reads and writes the entity it is on, as a Ref moved by hand");
        assertEquals(0f, positions.x(entities[0]), "not the entity it was handed with");
        world.destroy(last);
        final IllegalStateException error = assertThrows(IllegalStateException.class, () -> kept.get(0).x(1f));
        assertTrue(error.getMessage().contains(Entity.toString(last)), error.getMessage());
    }

    @Test
    void aRefMovedToAnIndexWithoutAMemberIsOnNoEntityAndEveryAccessThrows()
    {
        movers(2);
        final ViewFixtures_PosStorage.Ref ref = new ViewFixtures_PosStorage.Ref(positions);

        for (final int index : new int[]{-1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE})
        {
            ref.moveTo(index);
            assertEquals(Entity.NULL, ref.entity());
            assertThrows(IllegalStateException.class, ref::x, "index " + index);
            assertThrows(IllegalStateException.class, () -> ref.y(5f), "index " + index);
        }
        assertEquals(List.of(0f, 1f), List.of(positions.xAt(0), positions.xAt(1)));
    }

    @Test
    void aRefIsPositionedByItsStorageOnlyOnAMemberWhateverHintOrHandleItIsGiven()
    {
        final long[] entities = movers(3);
        final long dead = world.create();
        world.destroy(dead);
        final long reused = world.create();
        final long stale = Entity.combine(Entity.index(reused), Entity.version(reused) - 1);
        final ViewFixtures_PosStorage.Ref ref = new ViewFixtures_PosStorage.Ref(positions);

        assertTrue(ref.moveToEntity(entities[1], 0), "a wrong hint only costs a sparse lookup");
        assertEquals(entities[1], ref.entity());
        assertEquals(positions.indexOf(entities[1]), ref.index());
        assertEquals(1f, ref.x());
        for (final long notMember : new long[]{Entity.NULL, dead, reused, stale, Entity.combine(1 << 20, 0), -7L})
        {
            for (final int hint : new int[]{-1, 0, 1, 2, 3, Integer.MAX_VALUE})
            {
                assertFalse(ref.moveToEntity(notMember, hint), Entity.toString(notMember) + " at hint " + hint);
                assertEquals(Entity.NULL, ref.entity());
                final IllegalStateException error = assertThrows(IllegalStateException.class, () -> ref.x(99f));
                assertTrue(error.getMessage().contains("is on no entity"), error.getMessage());
            }
        }
        assertEquals(List.of(0f, 1f, 2f), List.of(positions.xAt(0), positions.xAt(1), positions.xAt(2)),
            "nothing was written");
    }

    @Test
    void aStorageOfAWorldCannotBeClosedOnItsOwnSoTheWorldKeepsWorking()
    {
        final long[] entities = movers(5);

        final IllegalStateException error = assertThrows(IllegalStateException.class, positions::close);

        assertTrue(error.getMessage().startsWith("ViewFixtures.Pos storage belongs to a World and lives as long as " +
            "it: close the World instead"), error.getMessage());
        assertFalse(positions.isClosed());
        world.destroy(entities[0]);
        assertFalse(positions.contains(entities[0]), "destroy removes every component");
        assertFalse(velocities.contains(entities[0]));
        assertEquals(4, new ViewFixtures_PosVelView(world).count());
        world.clear();
        assertEquals(0, positions.memberCount());
        assertEquals(0, world.aliveCount());
    }

    @Test
    void anEmplaceWhoseGrowthExceedsTheBudgetLeavesTheWorldAsItWas()
    {
        try (World small = new World(1 << 16, 40_000))
        {
            final ViewFixtures_PosStorage pos = small.storage(ViewFixtures_PosStorage.TYPE);
            final long[] entities = new long[1500];
            small.create(entities, entities.length);
            final List<Long> added = new ArrayList<>();
            final OffHeapExhaustedException error = assertThrows(OffHeapExhaustedException.class, () ->
            {
                for (final long entity : entities)
                {
                    pos.emplace(entity, added.size(), -added.size());
                    added.add(entity);
                }
            });

            assertTrue(error.getMessage().contains("budget of 40000 bytes"), error.getMessage());
            assertEquals(added.size(), pos.memberCount());
            for (int i = 0; i < added.size(); i++)
            {
                assertEquals(i, pos.x(added.get(i)));
                assertEquals(-i, pos.y(added.get(i)));
            }
            assertEquals(entities.length, small.aliveCount(), "every entity stays alive");
            assertFalse(pos.contains(entities[added.size()]), "the one whose component failed has none");
            pos.erase(added.get(0));
            assertEquals(added.size() - 1, pos.memberCount(), "and keeps working");
            assertEquals(added.size() - 1, small.view(Pos.class).count());
        }
    }
}
