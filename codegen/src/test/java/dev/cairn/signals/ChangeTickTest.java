package dev.cairn.signals;

import dev.cairn.world.World;
import dev.cairn.signals.SignalFixtures.Body;
import dev.cairn.signals.SignalFixtures.Health;
import dev.cairn.signals.SignalFixtures.Speed;
import dev.cairn.storage.Clock;
import dev.cairn.view.RuntimeView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Change ticks: every generated write path stamps a tracked component with the world's tick, and views visit only
 * what was added or changed since a tick.
 */
final class ChangeTickTest
{
    private final World world = new World(1 << 16);
    private final SignalFixtures_BodyStorage bodies = world.storage(SignalFixtures_BodyStorage.TYPE);
    private final SignalFixtures_SpeedStorage speeds = world.storage(SignalFixtures_SpeedStorage.TYPE);
    private final SignalFixtures_HealthStorage healths = world.storage(SignalFixtures_HealthStorage.TYPE);
    private final SignalFixtures_StunnedStorage stunned = world.storage(SignalFixtures_StunnedStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void aComponentChangedLongerAgoThanTicksAreToldApartStillReadsAsChangedSinceAnOlderTick()
    {
        final long entity = world.create();
        bodies.emplace(entity, 1, 1);
        // Past MAX_AGE but before the raise that follows it: the recorded tick is still the original one.
        while (world.tick() < Clock.MAX_AGE + 2)
        {
            world.advanceTick();
        }

        assertTrue(bodies.changedSince(bodies.indexOf(entity), 0));
        final List<Long> changed = new ArrayList<>();
        world.view(Body.class).changedSince(Body.class, 0).forEach(changed::add);
        assertEquals(List.of(entity), changed);
    }

    @Test
    void everyWritePathStampsTheChangeTickAndAddingStampsBoth()
    {
        final long a = world.create();
        assertEquals(1, world.tick());
        bodies.emplace(a, 0f, 0f);
        assertEquals(1, bodies.addedTickAt(bodies.indexOf(a)));

        final List<Runnable> writes = List.of(
            () -> bodies.x(a, 1f),
            () -> bodies.yAt(bodies.indexOf(a), 2f),
            () -> new SignalFixtures_BodyStorage.Ref(bodies).moveTo(bodies.indexOf(a)).x(3f),
            () -> bodies.patch(a, 4f, 4f),
            () -> bodies.patch(a, new Body(5f, 5f)),
            () -> bodies.markUpdated(a));
        for (final Runnable write : writes)
        {
            final int ended = world.advanceTick();
            assertTrue(bodies.changedTickAt(bodies.indexOf(a)) <= ended);
            write.run();
            assertEquals(world.tick(), bodies.changedTickAt(bodies.indexOf(a)));
            assertTrue(bodies.changedSince(bodies.indexOf(a), ended));
            assertFalse(bodies.addedSince(bodies.indexOf(a), ended), "an update is not an addition");
        }
        assertEquals(1, bodies.addedTickAt(bodies.indexOf(a)));
    }

    @Test
    void readingNeverStampsAndTicksMoveWithTheirEntity()
    {
        final long a = world.create();
        final long b = world.create();
        bodies.emplace(a, 1f, 1f);
        world.advanceTick();
        bodies.emplace(b, 2f, 2f);
        final int ended = world.advanceTick();
        bodies.x(a);
        new SignalFixtures_BodyStorage.Ref(bodies).moveTo(bodies.indexOf(b)).y();
        bodies.get(a);

        bodies.erase(a);

        assertEquals(0, bodies.indexOf(b), "b took a's slot");
        assertEquals(2, bodies.addedTickAt(0), "and brought its ticks along");
        assertFalse(bodies.changedSince(0, ended));
    }

    @Test
    void aGeneratedViewVisitsOnlyWhatChangedOrWasAddedSinceTheTickItIsGiven()
    {
        final long[] e = new long[6];
        for (int i = 0; i < e.length; i++)
        {
            e[i] = world.create();
            bodies.emplace(e[i], i, i);
            speeds.emplace(e[i], i);
        }
        final SignalFixtures_MovedBodiesView moved = new SignalFixtures_MovedBodiesView(world);
        final SignalFixtures_NewBodiesView added = new SignalFixtures_NewBodiesView(world);
        final int seen = world.advanceTick();
        bodies.x(e[1], 10f);
        bodies.patch(e[3], 30f, 30f);
        speeds.v(e[4], 40);
        final long late = world.create();
        bodies.emplace(late, 7f, 7f);
        speeds.emplace(late, 7);

        final Set<Long> movedSince = new HashSet<>();
        moved.forEach(seen, (entity, body, speed) -> movedSince.add(entity));
        final Set<Long> addedSince = new HashSet<>();
        added.forEach(seen, (entity, body) -> addedSince.add(entity));
        final Set<Long> byCursor = new HashSet<>();
        for (SignalFixtures_MovedBodiesView.Cursor c = moved.cursor(seen); c.next(); )
        {
            byCursor.add(c.entity());
        }

        assertEquals(Set.of(e[1], e[3], late), movedSince);
        assertEquals(Set.of(late), addedSince);
        assertEquals(movedSince, byCursor);
        assertEquals(3, moved.count(seen));
        assertTrue(moved.contains(e[1], seen));
        assertFalse(moved.contains(e[0], seen));
        assertEquals(7, moved.count(0), "everything was written after tick 0");
    }

    @Test
    void aViewFilteringByATrackedTagAndAComponentCombinesBothTests()
    {
        final long a = world.create();
        final long b = world.create();
        speeds.emplace(a, 1);
        speeds.emplace(b, 1);
        stunned.emplace(a);
        final int seen = world.advanceTick();
        stunned.emplace(b);
        speeds.v(a, 2);
        speeds.v(b, 2);
        final SignalFixtures_FreshStunsView fresh = new SignalFixtures_FreshStunsView(world);

        final List<Long> visited = new ArrayList<>();
        fresh.forEach(seen, (entity, speed) -> visited.add(entity));

        assertEquals(List.of(b), visited, "a's stun is older than the tick");
    }

    @Test
    void aRuntimeViewFiltersByTheTicksOfTrackedComponentsAndRefusesUntrackedOnes()
    {
        final long a = world.create();
        final long b = world.create();
        bodies.emplace(a, 1f, 1f);
        bodies.emplace(b, 1f, 1f);
        healths.emplace(a, 1);
        healths.emplace(b, 1);
        final int seen = world.advanceTick();
        bodies.y(b, 2f);

        final RuntimeView changed = world.view(Body.class, Health.class).changedSince(Body.class, seen);
        final List<Long> visited = new ArrayList<>();
        changed.forEach(visited::add);

        assertEquals(List.of(b), visited);
        assertEquals(1, changed.count());
        assertTrue(changed.contains(b));
        assertFalse(changed.contains(a));
        assertEquals(0, world.view(Body.class).addedSince(Body.class, seen).count());
        final IllegalArgumentException untracked = assertThrows(IllegalArgumentException.class,
            () -> world.view(Health.class).changedSince(Health.class, seen));
        assertTrue(untracked.getMessage().contains("tracked = true"), untracked.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.view(Body.class).changedSince(Speed.class, seen));
    }

    @Test
    void askingAnUntrackedStorageForTicksThrowsNamingTheAnnotation()
    {
        final long a = world.create();
        healths.emplace(a, 1);

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> healths.changedTickAt(0));

        assertTrue(thrown.getMessage().contains("Health is not tracked"), thrown.getMessage());
        assertFalse(healths.isTracked());
        assertTrue(bodies.isTracked());
    }

    @Test
    void ticksStayComparableWhenTheCounterWrapsBecauseOldTicksAreRaised()
    {
        final long old = world.create();
        final long fresh = world.create();
        bodies.emplace(old, 1f, 1f);
        final Clock clock = bodies.clock();
        final int start = clock.now();
        // Past the wrap of int: 2^32 ticks in all would be slow; 2^31 + a clamp period crosses it.
        final long advances = (1L << 31) + Clock.CLAMP_PERIOD;
        for (long i = 0; i < advances; i++)
        {
            clock.advance();
        }
        final int seen = clock.advance();
        bodies.emplace(fresh, 2f, 2f);

        assertTrue(clock.now() < start, "the counter wrapped");
        assertFalse(bodies.changedSince(bodies.indexOf(old), seen), "an old stamp stays old across the wrap");
        assertTrue(bodies.changedSince(bodies.indexOf(fresh), seen));
        assertTrue(bodies.changedSince(bodies.indexOf(old), start), "a tick older than MAX_AGE sees everything");
    }
}
