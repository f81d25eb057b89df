package dev.cairn.views;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.views.ViewFixtures.Frozen;
import dev.cairn.views.ViewFixtures.Hp;
import dev.cairn.views.ViewFixtures.Marked;
import dev.cairn.views.ViewFixtures.Pos;
import dev.cairn.views.ViewFixtures.Sleeping;
import dev.cairn.views.ViewFixtures.Vel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documented behaviour of generated views, one rule per test.
 */
final class ViewBehaviourTest
{
    private final World world = new World(1 << 16);
    private final ViewFixtures_PosStorage positions = world.storage(ViewFixtures_PosStorage.TYPE);
    private final ViewFixtures_VelStorage velocities = world.storage(ViewFixtures_VelStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void iterationLeadsWithTheSmallestStorageWalkingItFrontToBack()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 1f, 2f);
        }
        velocities.emplace(entities[7], 0, 0);
        velocities.emplace(entities[2], 0, 0);
        velocities.emplace(entities[5], 0, 0);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);

        assertEquals(List.of(entities[7], entities[2], entities[5]), forEachOrder(view), "velocities lead");
        assertEquals(List.of(entities[7], entities[2], entities[5]), cursorOrder(view), "velocities lead");

        for (final long entity : entities)
        {
            if (!velocities.contains(entity))
            {
                velocities.emplace(entity, 0, 0);
            }
        }
        for (int k = 0; k < 8; k++)
        {
            positions.erase(entities[k]);
        }
        // Positions now hold only entities[8] and entities[9], and lead the next run.
        final List<Long> expected = new ArrayList<>();
        for (int i = 0; i < positions.extent(); i++)
        {
            expected.add(positions.entityAt(i));
        }
        assertEquals(2, expected.size());
        assertEquals(expected, forEachOrder(view), "positions lead once they are smaller");
        assertEquals(expected, cursorOrder(view), "positions lead once they are smaller");
    }

    @Test
    void aSingleComponentViewWalksTheDenseArrayFrontToBackSoASortedStorageInTheComparatorsOrder()
    {
        final long[] entities = create(50);
        for (final long entity : entities)
        {
            positions.emplace(entity, -Entity.index(entity), 0f);
        }
        positions.sort(positions.comparingX());
        final List<Long> expected = new ArrayList<>();
        for (int i = 0; i < positions.size(); i++)
        {
            expected.add(positions.entityAt(i));
        }
        assertEquals(entities[entities.length - 1], expected.get(0), "the comparator's first is at index 0");
        final ViewFixtures_OnePosView view = new ViewFixtures_OnePosView(world);
        assertEquals(expected, onePosOrder(view));
        final List<Float> xs = new ArrayList<>();
        view.forEach((entity, pos) -> xs.add(pos.x()));
        for (int k = 1; k < xs.size(); k++)
        {
            assertTrue(xs.get(k - 1) <= xs.get(k), "sorted by x: " + xs);
        }
    }

    @Test
    void tombstonesAndReleasedEntriesAreNeverVisited()
    {
        final long[] entities = create(20);
        final ViewFixtures_HpStorage hps = world.storage(ViewFixtures_HpStorage.TYPE);
        for (final long entity : entities)
        {
            velocities.emplace(entity, 1, 1);
            hps.emplace(entity, 5, true);
            world.add(entity, new Marked());
        }
        final List<Long> removed = new ArrayList<>();
        for (int k = 0; k < 20; k += 3)
        {
            removed.add(entities[k]);
            velocities.erase(entities[k]);
            hps.erase(entities[k]);
            world.remove(entities[k], Marked.class);
        }
        assertTrue(velocities.size() > velocities.memberCount(), "in-place tombstones exist");
        assertTrue(hps.size() > hps.extent(), "swap-only released entries exist");

        final List<Long> visited = new ArrayList<>();
        new ViewFixtures_VelNotFrozenView(world).forEach((entity, vel) -> visited.add(entity));
        new ViewFixtures_HpMarkedView(world).forEach((entity, hp) -> visited.add(entity));
        new ViewFixtures_OnlyMarkedView(world).forEach(visited::add);
        for (final ViewFixtures_HpMarkedView.Cursor c = new ViewFixtures_HpMarkedView(world).cursor(); c.next(); )
        {
            visited.add(c.entity());
        }
        assertEquals(13 * 4, visited.size());
        for (final long entity : visited)
        {
            assertFalse(removed.contains(entity), Entity.toString(entity));
            assertTrue(Entity.isWellFormed(entity), "never a tombstone or released value: " + entity);
        }
    }

    @Test
    void removingTheCurrentEntityOrItsComponentsWaitsForTheWalksEndAndEveryEntityIsVisitedOnce()
    {
        final long[] entities = movers(100);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final List<Long> visited = new ArrayList<>();
        view.forEach((entity, pos, vel) ->
        {
            visited.add(entity);
            switch (visited.size() % 3)
            {
                case 0:
                    world.destroy(entity);
                    break;
                case 1:
                    positions.erase(entity);
                    break;
                default:
                    velocities.erase(entity);
                    break;
            }
            assertTrue(view.contains(entity) && world.valid(entity), "nothing changes before the walk returns");
            assertEquals(100, view.count());
            pos.x(1f);
        });
        assertEquals(entities.length, visited.size());
        assertEquals(100, visited.stream().distinct().count());
        assertEquals(0, view.count());
        assertEquals(67, world.aliveCount(), "every third was destroyed");
    }

    @Test
    void destroyingOtherEntitiesDuringAWalkVisitsEachEntityThatMatchedOnceAndDestroysThemAfterIt()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
        }
        final ViewFixtures_OnePosView generated = new ViewFixtures_OnePosView(world);
        final List<Long> visited = new ArrayList<>();

        generated.forEach((entity, pos) ->
        {
            visited.add(entity);
            if (visited.size() == 2)
            {
                world.destroy(positions.entityAt(0)); // visited; swap-and-pop would move the last one here
                world.destroy(positions.entityAt(9)); // still to come
            }
        });
        assertEquals(entities.length, visited.size());
        assertEquals(10, visited.stream().distinct().count(), "each once: " + visited);
        assertFalse(world.valid(entities[0]));
        assertFalse(world.valid(entities[9]));
        assertEquals(8, positions.memberCount(), "the destroys were made when the walk returned");

        visited.clear();
        world.view(Pos.class).forEach(entity ->
        {
            visited.add(entity);
            if (visited.size() == 2)
            {
                world.destroy(positions.entityAt(0));
                world.destroy(positions.entityAt(7));
            }
        });
        assertEquals(8, visited.size());
        assertEquals(8, visited.stream().distinct().count(), "each once: " + visited);
        assertEquals(6, positions.memberCount(), "the destroys were made when the walk returned");
    }

    @Test
    void anActionThatThrowsReachesTheCallerAfterTheChangesItMadeBeforeAreApplied()
    {
        final long[] entities = movers(6);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final IllegalStateException failure = new IllegalStateException("the action failed");

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () ->
            view.forEach((entity, pos, vel) ->
            {
                if (entity == entities[3])
                {
                    throw failure;
                }
                world.destroy(entity);
            }));

        assertSame(failure, thrown);
        assertFalse(world.isDeferring(), "the walk ended");
        for (int k = 0; k < entities.length; k++)
        {
            assertEquals(k >= 3, world.valid(entities[k]), "destroyed before the failure: " + k);
        }
    }

    @Test
    void entitiesCreatedAndGivenComponentsDuringAWalkAreNotVisitedAndJoinWhenItReturns()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
        }
        final ViewFixtures_OnePosView view = new ViewFixtures_OnePosView(world);
        final List<Long> made = new ArrayList<>();
        final int[] visits = new int[1];
        view.forEach((entity, pos) ->
        {
            visits[0]++;
            final long fresh = world.create();
            assertTrue(world.valid(fresh), "a create is made at once");
            positions.emplace(fresh, 9f, 9f);
            assertFalse(positions.contains(fresh), "its component waits for the walk's end");
            made.add(fresh);
        });
        assertEquals(10, visits[0], "the walk visits the entities that matched when it began");
        assertEquals(20, view.count());
        for (final long fresh : made)
        {
            assertEquals(new Pos(9f, 9f), positions.get(fresh));
        }
    }

    @Test
    void anEntityAddedToAnInPlaceLeadDuringForEachIsNotVisitedAndTakesTheHoleWhenTheWalkReturns()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            velocities.emplace(entity, 0, 0);
        }
        velocities.erase(entities[0]); // tombstone at packed index 0
        final long newcomer = world.create();
        final long later = world.create();
        final ViewFixtures_VelNotFrozenView view = new ViewFixtures_VelNotFrozenView(world);
        final List<Long> visited = new ArrayList<>();
        view.forEach((entity, vel) ->
        {
            visited.add(entity);
            if (visited.size() == 1)
            {
                velocities.emplace(newcomer, 1, 1);
                assertEquals(-1, velocities.indexOf(newcomer), "recorded for the walk's end");
            }
        });
        assertEquals(9, visited.size());
        assertFalse(visited.contains(newcomer), "an entity that entered the lead meanwhile is not visited");
        assertEquals(0, velocities.indexOf(newcomer), "added when the walk returned, into the hole at 0");
        velocities.emplace(later, 1, 1);
        assertEquals(10, velocities.indexOf(later));
    }

    @Test
    void aViewSeesTheStoragesAsTheyAreWhenItRuns()
    {
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        assertEquals(0, view.count());
        final long[] entities = create(3);
        for (final long entity : entities)
        {
            positions.emplace(entity, 1f, 1f);
            velocities.emplace(entity, 2, 2);
        }
        assertEquals(3, view.count());
        world.add(entities[1], new Frozen());
        world.destroy(entities[2]);
        assertEquals(List.of(entities[0], entities[1]), forEachOrder(view));
        assertTrue(view.contains(entities[0]));
        assertFalse(view.contains(entities[2]));
        assertFalse(view.contains(Entity.NULL));
    }

    @Test
    void writesThroughRefsReachTheStorage()
    {
        final long[] entities = create(5);
        for (final long entity : entities)
        {
            positions.emplace(entity, 1f, 2f);
            velocities.emplace(entity, 10, 20);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        view.forEach((entity, pos, vel) ->
        {
            pos.x(pos.x() + (float)vel.dx());
            pos.y(pos.y() + (float)vel.dy());
        });
        for (ViewFixtures_PosVelView.Cursor c = view.cursor(); c.next(); )
        {
            c.vel().dx(c.vel().dx() * 2);
        }
        for (final long entity : entities)
        {
            assertEquals(new Pos(11f, 22f), positions.get(entity));
            assertEquals(new Vel(20, 20), velocities.get(entity));
        }
    }

    @Test
    void theCursorIsReusedRestsOnNullOutsideAWalkAndItsWalkLastsUntilNextReturnsFalse()
    {
        final long entity = world.create();
        positions.emplace(entity, 3f, 4f);
        final ViewFixtures_OnePosView view = new ViewFixtures_OnePosView(world);
        final ViewFixtures_OnePosView.Cursor cursor = view.cursor();
        assertSame(cursor, view.cursor());
        assertTrue(world.isDeferring(), "cursor() begins a walk");
        assertEquals("ViewFixtures_OnePosView.cursor()", world.heldBy());
        assertEquals(Entity.NULL, cursor.entity());
        assertThrows(IllegalStateException.class, () -> cursor.pos().x(), "not positioned yet");
        assertTrue(cursor.next());
        assertEquals(entity, cursor.entity());
        assertEquals(3f, cursor.pos().x());
        world.destroy(entity);
        assertTrue(world.valid(entity), "deferred while the cursor walks");
        assertFalse(cursor.next());
        assertFalse(world.isDeferring(), "the walk ended with the last next()");
        assertFalse(world.valid(entity), "and the destroy was made then");
        assertFalse(cursor.next(), "stays at the end");
        assertEquals(Entity.NULL, cursor.entity());
        assertThrows(IllegalStateException.class, () -> cursor.pos().x(), "no longer positioned");
        positions.emplace(world.create(), 1f, 1f);
        try (ViewFixtures_OnePosView.Cursor again = view.cursor())
        {
            assertTrue(again.next(), "a new walk starts over");
        }
        assertFalse(world.isDeferring(), "closing the cursor ends its walk");
    }

    @Test
    void aCursorLoopLeftEarlyDefersChangesUntilTheCursorIsClosedOrRestarted()
    {
        final long[] entities = movers(5);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        for (final ViewFixtures_PosVelView.Cursor c = view.cursor(); c.next(); )
        {
            world.destroy(c.entity());
            break;
        }
        assertTrue(world.valid(entities[0]), "the walk of a cursor left early goes on");
        final long fresh = world.create();
        positions.emplace(fresh, 1f, 1f);
        assertFalse(positions.contains(fresh), "and every change waits for it");

        assertTrue(view.cursor().next(), "a new cursor() ends the previous walk and begins its own");
        assertFalse(world.valid(entities[0]), "the previous walk's changes were made when it ended");
        assertTrue(positions.contains(fresh));
        view.cursor().close();
        assertFalse(world.isDeferring());

        final long destroyed;
        try (ViewFixtures_PosVelView.Cursor c = view.cursor())
        {
            assertTrue(c.next());
            destroyed = c.entity();
            world.destroy(destroyed);
            assertTrue(world.valid(destroyed));
        }
        assertFalse(world.valid(destroyed), "closing the cursor applied the destroy");
    }

    @Test
    void forEachInsideItsOwnActionWalksAgainWithRefsOfItsOwn()
    {
        final long[] entities = create(4);
        for (int k = 0; k < entities.length; k++)
        {
            positions.emplace(entities[k], k, 0f);
            velocities.emplace(entities[k], 0, 0);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final int[] pairs = new int[1];
        view.forEach((e, p, v) ->
        {
            view.forEach((e2, p2, v2) ->
            {
                assertTrue(p2 != p, "the inner walk has Refs of its own");
                p2.y(p2.y() + 1f);
                pairs[0]++;
            });
            assertEquals(e, p.entity(), "the outer Ref stays on its entity");
            assertEquals(positions.x(e), p.x());
        });
        assertEquals(16, pairs[0]);
        for (final long entity : entities)
        {
            assertEquals(4f, positions.y(entity));
        }

        final ViewFixtures_PosVelView second = new ViewFixtures_PosVelView(world);
        view.forEach((e, p, v) -> second.forEach((e2, p2, v2) -> pairs[0]++));
        assertEquals(32, pairs[0]);
    }

    @Test
    void closingTheWorldFromAnActionOrDuringACursorWalkIsRefusedAndAfterCloseEveryCallThrows()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 0, 0);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final int[] visits = new int[1];
        view.forEach((entity, pos, vel) ->
        {
            visits[0]++;
            final IllegalStateException refused = assertThrows(IllegalStateException.class, world::close);
            assertTrue(refused.getMessage().startsWith("World cannot be closed while ViewFixtures_PosVelView.forEach " +
                "runs") && refused.getMessage().contains("close it after that returns"), refused.getMessage());
            pos.x(pos.x() + 1f);
        });
        assertEquals(10, visits[0], "the iteration goes on after the refused close");
        assertFalse(world.isClosed());

        final ViewFixtures_PosVelView.Cursor cursor = view.cursor();
        assertTrue(cursor.next());
        final IllegalStateException refused = assertThrows(IllegalStateException.class, world::close);
        assertTrue(refused.getMessage().contains("ViewFixtures_PosVelView.cursor()"), refused.getMessage());
        assertFalse(world.isClosed());
        assertEquals(1f, cursor.pos().x(), "the cursor reads on");
        cursor.close();

        world.close();
        assertThrows(IllegalStateException.class, () -> cursor.pos().x());
        assertThrows(IllegalStateException.class, view::cursor);
        assertThrows(IllegalStateException.class, () -> view.forEach((e, p, v) -> { }));
        assertThrows(IllegalStateException.class, view::count);
        assertThrows(IllegalStateException.class, () -> view.contains(entities[0]));
        assertEquals(0, view.sizeHint());
        assertFalse(view.isOpen());
        assertFalse(nextOrRefused(cursor), "an ended cursor reads nothing after close");
        assertThrows(IllegalStateException.class, () -> new ViewFixtures_AllFourView(world), "new view, new storage");
    }

    @Test
    void closingTheWorldInsideACursorLoopIsRefusedNamingTheCursorUntilTheCursorIsClosed()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            world.add(entity, new Hp(1, true));
            world.add(entity, new Marked());
        }
        final ViewFixtures_HpMarkedView view = new ViewFixtures_HpMarkedView(world);
        final ViewFixtures_HpMarkedView.Cursor cursor = view.cursor();
        assertTrue(cursor.next());
        final IllegalStateException refused = assertThrows(IllegalStateException.class, world::close);
        assertTrue(refused.getMessage().startsWith("World cannot be closed while ViewFixtures_HpMarkedView.cursor() " +
            "runs"), refused.getMessage());
        assertEquals(1, cursor.hp().value(), "nothing was freed");
        assertTrue(cursor.next());
        cursor.close();
        world.close();
        assertThrows(IllegalStateException.class, () -> cursor.hp().value());
        assertFalse(nextOrRefused(cursor));
    }

    @Test
    void iterationAllocatesNothingPerEntity()
    {
        final long[] entities = create(20_000);
        for (final long entity : entities)
        {
            positions.emplace(entity, 1f, 1f);
            velocities.emplace(entity, 1, 1);
            world.add(entity, new Hp(1, true));
        }
        world.add(entities[3], new Sleeping());
        final ViewFixtures_PosVelView pair = new ViewFixtures_PosVelView(world);
        final ViewFixtures_AllFourView four = new ViewFixtures_AllFourView(world);
        final ViewFixtures_PosVelHpView three = new ViewFixtures_PosVelHpView(world);
        final ViewFixtures_PosVelView.Action action = ViewBehaviourTest::move;
        final ViewFixtures_PosVelHpView.Action threeAction = (entity, pos, vel, hp) -> hp.value(hp.value() + 1);
        final ViewFixtures_AllFourView.Action fourAction = (entity, pos, vel, hp, kind) -> pos.x(1f);
        for (int warm = 0; warm < 3; warm++)
        {
            pair.forEach(action);
            three.forEach(threeAction);
            four.forEach(fourAction);
            cursorLoop(pair);
            pair.count();
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(thread);
        pair.forEach(action);
        three.forEach(threeAction);
        four.forEach(fourAction);
        cursorLoop(pair);
        pair.count();
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(allocated < 1024, "iterating 4 x 20000 entities allocated " + allocated + " bytes");
    }

    private static void move(
        final long entity, final ViewFixtures_PosStorage.Ref pos, final ViewFixtures_VelStorage.Ref vel)
    {
        pos.x(pos.x() + (float)vel.dx());
    }

    private static void cursorLoop(final ViewFixtures_PosVelView view)
    {
        for (ViewFixtures_PosVelView.Cursor c = view.cursor(); c.next(); )
        {
            c.pos().y(c.pos().y() + (float)c.vel().dy());
        }
    }

    @Test
    void aCountOrContainsInsideAWalkSeesTheStructureAsItWasWhenTheWalkBegan()
    {
        final long[] entities = movers(200);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final ViewFixtures_PosVelView other = new ViewFixtures_PosVelView(world);
        final int[] visits = {0};

        view.forEach((entity, pos, vel) ->
        {
            if (++visits[0] == 100)
            {
                for (int k = 100; k < 170; k++)
                {
                    final long removed = entities[k];
                    positions.remove(removed);
                    assertTrue(positions.contains(removed), "the removal waits for the walk's end");
                    final IllegalArgumentException added = assertThrows(
                        IllegalArgumentException.class, () -> positions.emplace(removed, 2f, 2f));
                    assertTrue(added.getMessage().contains("already has Pos"), added.getMessage());
                }
                assertEquals(200, other.count());
                assertTrue(other.contains(entities[150]));
                assertEquals(200, positions.memberCount());
            }
        });

        assertEquals(200, visits[0], "the walk visits every entity that matched when it began");
        assertEquals(130, view.count(), "the removals were made when it returned");
    }

    /** Calls {@code next()} of a cursor whose world is closed: false, or refused, but never on an entity. */
    private static boolean nextOrRefused(final ViewFixtures_PosVelView.Cursor cursor)
    {
        try
        {
            return cursor.next();
        }
        catch (final IllegalStateException refused)
        {
            return false;
        }
    }

    private static boolean nextOrRefused(final ViewFixtures_HpMarkedView.Cursor cursor)
    {
        try
        {
            return cursor.next();
        }
        catch (final IllegalStateException refused)
        {
            return false;
        }
    }

    /** Creates {@code count} entities, each with a position at the origin and a velocity of (1, 1). */
    private long[] movers(final int count)
    {
        final long[] entities = create(count);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 1, 1);
        }
        return entities;
    }

    private long[] create(final int count)
    {
        final long[] entities = new long[count];
        world.create(entities, count);
        return entities;
    }

    private static List<Long> forEachOrder(final ViewFixtures_PosVelView view)
    {
        final List<Long> order = new ArrayList<>();
        view.forEach((entity, pos, vel) -> order.add(entity));
        return order;
    }

    private static List<Long> cursorOrder(final ViewFixtures_PosVelView view)
    {
        final List<Long> order = new ArrayList<>();
        for (ViewFixtures_PosVelView.Cursor c = view.cursor(); c.next(); )
        {
            order.add(c.entity());
        }
        return order;
    }

    private static List<Long> onePosOrder(final ViewFixtures_OnePosView view)
    {
        final List<Long> order = new ArrayList<>();
        view.forEach((entity, pos) -> order.add(entity));
        return order;
    }
}
