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
    void iterationLeadsWithTheSmallestStorageWalkingItBackToFront()
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

        assertEquals(List.of(entities[5], entities[2], entities[7]), forEachOrder(view), "velocities lead");
        assertEquals(List.of(entities[5], entities[2], entities[7]), cursorOrder(view), "velocities lead");

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
        // Positions now hold entities[9], entities[8] (swap-and-pop kept them at the back) and lead the next run.
        final List<Long> expected = new ArrayList<>();
        for (int i = positions.extent() - 1; i >= 0; i--)
        {
            expected.add(positions.entityAt(i));
        }
        assertEquals(expected, forEachOrder(view), "positions lead once they are smaller");
        assertEquals(expected, cursorOrder(view), "positions lead once they are smaller");
    }

    @Test
    void aSingleComponentViewWalksTheDenseArrayInOrder()
    {
        final long[] entities = create(50);
        for (final long entity : entities)
        {
            positions.emplace(entity, Entity.index(entity), 0f);
        }
        positions.sort(positions.comparingX());
        final List<Long> expected = new ArrayList<>();
        for (int i = positions.size() - 1; i >= 0; i--)
        {
            expected.add(positions.entityAt(i));
        }
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
    void removingTheCurrentEntityOrItsComponentsVisitsTheRestOnce()
    {
        movers(100);
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
        });
        assertEquals(100, visited.size());
        assertEquals(100, visited.stream().distinct().count());
        assertEquals(0, view.count());
    }

    @Test
    void destroyingAnEntityTheWalkHasStillToReachStopsItInsteadOfVisitingAnotherTwice()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
        }
        final ViewFixtures_OnePosView generated = new ViewFixtures_OnePosView(world);
        final List<Long> visited = new ArrayList<>();

        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
            generated.forEach((entity, pos) ->
            {
                visited.add(entity);
                if (visited.size() == 2)
                {
                    world.destroy(positions.entityAt(0)); // the last one, visited first, moves to index 0
                }
            }));
        assertTrue(stopped.getMessage().contains("other members moved in it") &&
            stopped.getMessage().contains("CommandBuffer"), stopped.getMessage());
        assertEquals(2, visited.size());

        visited.clear();
        final IllegalStateException runtime = assertThrows(IllegalStateException.class, () ->
            world.view(Pos.class).forEach(entity ->
            {
                visited.add(entity);
                if (visited.size() == 2)
                {
                    world.destroy(positions.entityAt(0));
                }
            }));
        assertTrue(runtime.getMessage().contains("other members moved in it"), runtime.getMessage());
        assertEquals(visited.size(), visited.stream().distinct().count());
        assertEquals(8, positions.memberCount(), "the destroys themselves were made");
    }

    @Test
    void entitiesAppendedDuringIterationAreNotVisited()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
        }
        final ViewFixtures_OnePosView view = new ViewFixtures_OnePosView(world);
        final int[] visits = new int[1];
        view.forEach((entity, pos) ->
        {
            visits[0]++;
            positions.emplace(world.create(), 9f, 9f);
        });
        assertEquals(10, visits[0], "swap-and-pop appends at the back, which this iteration has passed");
        assertEquals(20, view.count());
    }

    @Test
    void anEntityAddedToAnInPlaceLeadDuringForEachGoesBehindTheWalkNotIntoAHoleAhead()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            velocities.emplace(entity, 0, 0);
        }
        velocities.erase(entities[0]); // tombstone at packed index 0, walked last
        final long newcomer = world.create();
        final long later = world.create();
        final ViewFixtures_VelNotFrozenView view = new ViewFixtures_VelNotFrozenView(world);
        final List<Long> visited = new ArrayList<>();
        view.forEach((entity, vel) ->
        {
            visited.add(entity);
            if (visited.size() == 1)
            {
                assertEquals(10, velocities.emplace(newcomer, 1, 1), "appended, not put into the hole at 0");
            }
        });
        assertEquals(9, visited.size());
        assertFalse(visited.contains(newcomer), "an entity that entered the lead meanwhile is not visited");
        assertEquals(0, velocities.emplace(later, 1, 1), "after the walk the hole is reused");
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
        assertEquals(List.of(entities[1], entities[0]), forEachOrder(view));
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
    void theCursorIsReusedAndRestsOnNullOutsideAnIteration()
    {
        final long entity = world.create();
        positions.emplace(entity, 3f, 4f);
        final ViewFixtures_OnePosView view = new ViewFixtures_OnePosView(world);
        final ViewFixtures_OnePosView.Cursor cursor = view.cursor();
        assertSame(cursor, view.cursor());
        assertEquals(Entity.NULL, cursor.entity());
        assertThrows(IllegalStateException.class, () -> cursor.pos().x(), "not positioned yet");
        assertTrue(cursor.next());
        assertEquals(entity, cursor.entity());
        assertEquals(3f, cursor.pos().x());
        assertFalse(cursor.next());
        assertFalse(cursor.next(), "stays at the end");
        assertEquals(Entity.NULL, cursor.entity());
        assertThrows(IllegalStateException.class, () -> cursor.pos().x(), "no longer positioned");
        assertTrue(view.cursor().next(), "a new iteration starts over");
    }

    @Test
    void forEachInsideItsOwnActionIsRefusedAndASecondViewWorks()
    {
        final long[] entities = create(4);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 0, 0);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final IllegalStateException refused = assertThrows(
            IllegalStateException.class, () -> view.forEach((e, p, v) -> view.forEach((e2, p2, v2) -> { })));
        assertTrue(refused.getMessage().contains("second ViewFixtures_PosVelView"), refused.getMessage());

        final ViewFixtures_PosVelView inner = new ViewFixtures_PosVelView(world);
        final int[] pairs = new int[1];
        view.forEach((e, p, v) -> inner.forEach((e2, p2, v2) -> pairs[0]++));
        assertEquals(16, pairs[0]);
        view.forEach((e, p, v) -> pairs[0]++);
        assertEquals(20, pairs[0], "the guard is released after a refused call");
    }

    @Test
    void closingTheWorldFromAnActionIsRefusedAndAfterCloseEveryCallThrows()
    {
        final long[] entities = create(10);
        for (final long entity : entities)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 0, 0);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final ViewFixtures_PosVelView.Cursor cursor = view.cursor();
        assertTrue(cursor.next());
        final int[] visits = new int[1];
        view.forEach((entity, pos, vel) ->
        {
            visits[0]++;
            final IllegalStateException refused = assertThrows(IllegalStateException.class, world::close);
            assertTrue(refused.getMessage().startsWith("World cannot be closed while ViewFixtures.Pos storage is " +
                "being iterated"), refused.getMessage());
            pos.x(pos.x() + 1f);
        });
        assertEquals(10, visits[0], "the iteration goes on after the refused close");
        assertFalse(world.isClosed());
        world.close();
        assertThrows(IllegalStateException.class, cursor::next, "a cursor started before close");
        assertThrows(IllegalStateException.class, () -> cursor.pos().x());
        assertThrows(IllegalStateException.class, view::cursor);
        assertThrows(IllegalStateException.class, () -> view.forEach((e, p, v) -> { }));
        assertThrows(IllegalStateException.class, view::count);
        assertThrows(IllegalStateException.class, () -> view.contains(entities[0]));
        assertEquals(0, view.sizeHint());
        assertFalse(view.isOpen());
        assertThrows(IllegalStateException.class, () -> new ViewFixtures_AllFourView(world), "new view, new storage");
    }

    @Test
    void closingTheWorldInsideACursorLoopEndsItWithIllegalStateException()
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
        world.close();
        assertThrows(IllegalStateException.class, () -> cursor.hp().value());
        assertThrows(IllegalStateException.class, cursor::next);
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
    void aCountInsideAWalkLeavesTheWalksCheckOfManyMovesInOneStepAsItWas()
    {
        movers(200);
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final ViewFixtures_PosVelView other = new ViewFixtures_PosVelView(world);
        final int[] visits = {0};

        view.forEach((entity, pos, vel) ->
        {
            if (++visits[0] == 100)
            {
                // 140 moves in one step, none across the walk: each removal swaps the last member into the part
                // walked, each add joins at the end. More than the log keeps one by one, so the walk checks their span.
                final int at = positions.indexOf(entity);
                for (int k = 0; k < 70; k++)
                {
                    final long behind = positions.entityAt(at + 1);
                    positions.remove(behind);
                    positions.emplace(behind, 2f, 2f);
                }
                assertEquals(200, other.count());
            }
        });

        assertEquals(200, visits[0], "a count() is no walk of its own: it did not make this one stop");
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
