package dev.cairn.signals;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.signals.SignalFixtures.Body;
import dev.cairn.signals.SignalFixtures.Ghost;
import dev.cairn.signals.SignalFixtures.Speed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Observers, generated and built at run time: who enters, who leaves, clearing, closing, and that following a storage
 * never fails half-way.
 */
final class ObserverTest
{
    private final World world = new World(1 << 16);
    private final SignalFixtures_BodyStorage bodies = world.storage(SignalFixtures_BodyStorage.TYPE);
    private final SignalFixtures_SpeedStorage speeds = world.storage(SignalFixtures_SpeedStorage.TYPE);
    private final SignalFixtures_HealthStorage healths = world.storage(SignalFixtures_HealthStorage.TYPE);
    private final SignalFixtures_StunnedStorage stunned = world.storage(SignalFixtures_StunnedStorage.TYPE);
    private final SignalFixtures_GhostStorage ghosts = world.storage(SignalFixtures_GhostStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void clearingTheObserverInItsWalkWaitsForItsEndAndThePatchesMadeAfterTheClearEnterItAgain()
    {
        final RuntimeObserver observer = world.observer().onAdded(Body.class).onUpdated(Body.class).build();
        final List<Long> all = new ArrayList<>();
        for (int k = 0; k < 5; k++)
        {
            final long entity = world.create();
            bodies.emplace(entity, k, k);
            all.add(entity);
        }
        final List<Long> visits = new ArrayList<>();
        observer.forEach(entity ->
        {
            visits.add(entity);
            if (visits.size() == 1)
            {
                observer.clear();
                assertEquals(5, observer.size(), "the clear waits for the walk's end");
                for (int k = 4; k >= 1; k--)
                {
                    bodies.patch(all.get(k), 9, 9);
                    assertEquals(9f, bodies.x(all.get(k)), "a patch writes at once");
                }
            }
        });
        assertEquals(all, visits, "every entity the walk began with, front to back (entry order), once");
        assertEquals(4, observer.size(), "cleared, then the four patches, told after the clear, entered again");
        assertFalse(observer.contains(all.get(0)));
        final List<Long> next = new ArrayList<>();
        observer.forEach(next::add);
        assertEquals(List.of(all.get(4), all.get(3), all.get(2), all.get(1)), next, "in the order they entered");
    }

    @Test
    void anObserverClearedAndRefilledInEveryWalkDoesNotGrowFrameAfterFrame()
    {
        final RuntimeObserver runtime = world.observer().onAdded(Body.class).onUpdated(Body.class).build();
        final SignalFixtures_BodyChangesObserver generated = new SignalFixtures_BodyChangesObserver(world);
        final List<Long> all = new ArrayList<>();
        for (int k = 0; k < 50; k++)
        {
            final long entity = world.create();
            speeds.emplace(entity, k);
            bodies.emplace(entity, k, k);
            all.add(entity);
        }
        long bytesAfterWarmUp = 0;
        for (int frame = 0; frame < 200; frame++)
        {
            final int[] visits = {0, 0};
            runtime.forEach(entity ->
            {
                if (visits[0]++ == 0)
                {
                    runtime.clear();
                    all.forEach(e -> bodies.patch(e, 1, 1));
                }
            });
            generated.forEach((entity, body, speed) ->
            {
                if (visits[1]++ == 0)
                {
                    generated.clear();
                    all.forEach(e -> bodies.patch(e, 2, 2));
                }
            });

            assertEquals(50, visits[0], "frame " + frame + ": the clear waited for the walk's end");
            assertEquals(50, visits[1], "frame " + frame);
            assertEquals(50, runtime.size());
            assertEquals(50, runtime.extent(), "frame " + frame + ": no holes");
            assertEquals(50, generated.size());
            if (frame == 10)
            {
                bytesAfterWarmUp = world.offHeapBytes();
            }
        }
        assertEquals(bytesAfterWarmUp, world.offHeapBytes(), "no observer grew after the first frames");
    }

    @Test
    void patchesMadeDuringAnObserversWalkAfterItsClearNeedNoNewMemoryWithTheBudgetSpent()
    {
        try (World small = new World(1024, 1 << 20))
        {
            final SignalFixtures_BodyStorage smallBodies = small.storage(SignalFixtures_BodyStorage.TYPE);
            final SignalFixtures_SpeedStorage smallSpeeds = small.storage(SignalFixtures_SpeedStorage.TYPE);
            final SignalFixtures_HealthStorage ballast = small.storage(SignalFixtures_HealthStorage.TYPE);
            final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(small);
            for (int i = 0; i < 100; i++)
            {
                final long entity = small.create();
                smallSpeeds.emplace(entity, i);
                smallBodies.emplace(entity, i, 0f);
            }
            int capacity = ballast.capacity();
            for (int step = 1 << 20; step > 0; )
            {
                try
                {
                    ballast.reserve(capacity + step);
                    capacity += step;
                }
                catch (final OffHeapExhaustedException ex)
                {
                    step >>= 1;
                }
            }
            final long bytes = small.offHeapBytes();
            final int[] visits = {0};

            // The first visit clears the observer and every visit patches its entity: the clear is made when the walk
            // returns, then the updates, in the order made, and each entity enters again where it was before.
            observer.forEach((entity, body, speed) ->
            {
                if (visits[0]++ == 0)
                {
                    observer.clear();
                }
                smallBodies.patch(entity, 1234f, 0f);
            });

            assertEquals(100, visits[0]);
            assertEquals(bytes, small.offHeapBytes(), "no new memory");
            small.forEachEntity(entity ->
            {
                assertEquals(1234f, smallBodies.x(entity), Entity.toString(entity));
                assertTrue(observer.contains(entity), Entity.toString(entity) + " entered again");
            });
            assertEquals(100, observer.size());
        }
    }

    @Test
    void anObserverIsBuiltOnlyOverItsOwnWorldsStorages()
    {
        try (World other = new World(); SignalFixtures_BodyStorage standalone = SignalFixtures_BodyStorage.create())
        {
            final SignalFixtures_BodyStorage foreign = other.storage(SignalFixtures_BodyStorage.TYPE);

            final IllegalArgumentException fromOther = assertThrows(IllegalArgumentException.class,
                () -> world.observer().onAdded(foreign).build());
            final IllegalArgumentException fromNowhere = assertThrows(IllegalArgumentException.class,
                () -> world.observer().with(standalone));

            assertTrue(fromOther.getMessage().contains("is not this world's"), fromOther.getMessage());
            assertTrue(fromNowhere.getMessage().contains("is not this world's"), fromNowhere.getMessage());
            foreign.emplace(other.create(), 1, 1);
            assertEquals(1, foreign.size(), "the other world's storage is untouched");
        }
    }

    @Test
    void anEntityEntersWhenATriggerFiresAndItMatchesAndAppearsOnceHoweverOftenItChanged()
    {
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        final long moving = world.create();
        final long noSpeed = world.create();
        final long ghost = world.create();
        speeds.emplace(moving, 1);
        ghosts.emplace(ghost);
        speeds.emplace(ghost, 1);

        bodies.emplace(moving, 1f, 1f);
        bodies.patch(moving, 2f, 2f);
        bodies.markUpdated(moving);
        bodies.emplace(noSpeed, 1f, 1f);
        bodies.emplace(ghost, 1f, 1f);

        assertEquals(Set.of(moving), visited(observer));
        assertEquals(1, observer.size());
        speeds.emplace(noSpeed, 1);
        assertFalse(observer.contains(noSpeed), "gaining a 'with' component is no trigger");
        bodies.x(noSpeed, 5f);
        assertFalse(observer.contains(noSpeed), "a field write is no update");
        bodies.patch(noSpeed, 5f, 5f);
        assertTrue(observer.contains(noSpeed));
    }

    @Test
    void anEntityLeavesWhenItStopsMatchingOrIsDestroyedAndClearEmptiesTheObserver()
    {
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        final long[] e = new long[5];
        for (int i = 0; i < e.length; i++)
        {
            e[i] = world.create();
            speeds.emplace(e[i], i);
            bodies.emplace(e[i], i, i);
        }
        assertEquals(5, observer.size());

        speeds.erase(e[0]);
        bodies.erase(e[1]);
        ghosts.emplace(e[2]);
        world.destroy(e[3]);

        assertEquals(Set.of(e[4]), visited(observer));
        observer.clear();
        assertTrue(observer.isEmpty());
        ghosts.erase(e[2]);
        bodies.patch(e[2], 0f, 0f);
        assertEquals(Set.of(e[2]), visited(observer), "it observes on after a clear");
    }

    @Test
    void theActionReceivesPositionedRefsAndMayRemoveTheEntityItVisits()
    {
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        for (int i = 0; i < 10; i++)
        {
            final long entity = world.create();
            speeds.emplace(entity, i);
            bodies.emplace(entity, i, 0f);
        }
        final List<String> seen = new ArrayList<>();

        observer.forEach((entity, body, speed) ->
        {
            seen.add(body.x() + "/" + speed.v());
            if (speed.v() % 2 == 0)
            {
                world.destroy(entity);
            }
        });

        assertEquals(10, seen.size());
        for (final String pair : seen)
        {
            final String[] parts = pair.split("/");
            assertEquals(Float.parseFloat(parts[0]), Double.parseDouble(parts[1]), 0.0, pair);
        }
        assertEquals(5, observer.size());
    }

    @Test
    void theActionMayMakeOtherEntitiesLeaveAndEnterAndTheWalkVisitsExactlyTheEntitiesItBeganWithOnce()
    {
        final SignalFixtures_BodyChangesObserver generated = new SignalFixtures_BodyChangesObserver(world);
        assertEachStartingMemberVisitedOnce(
            action -> generated.forEach((entity, body, speed) -> action.accept(entity)),
            other ->
            {
                speeds.erase(other);
                bodies.patch(other, 1f, 1f); // told after the erase: it does not match any more, so it stays out
            },
            newcomer ->
            {
                speeds.emplace(newcomer, 1);
                bodies.emplace(newcomer, 1f, 1f);
            });
        generated.close();

        final RuntimeObserver runtime = world.observer().onAdded(Body.class).with(Speed.class).build();
        assertEachStartingMemberVisitedOnce(runtime::forEach, bodies::erase,
            newcomer ->
            {
                speeds.emplace(newcomer, 1);
                bodies.emplace(newcomer, 1f, 1f);
            });
        runtime.close();

        final SignalFixtures_NewGhostsObserver tags = new SignalFixtures_NewGhostsObserver(world);
        assertEachStartingMemberVisitedOnce(action -> tags.forEach(action::accept), ghosts::erase, ghosts::emplace);
    }

    /**
     * Makes 40 entities enter an observer, then walks it with an action that, at every other visit, makes the next
     * member not visited yet leave, and at each visit makes a new entity enter: the walk visits each member present
     * at the start exactly once, those made to leave included (they leave when it returns), and none that entered
     * meanwhile; afterwards the observer holds the members that stayed and the newcomers.
     */
    private void assertEachStartingMemberVisitedOnce(
        final Consumer<LongConsumer> walk, final LongConsumer leave, final LongConsumer enter)
    {
        final List<Long> atStart = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            final long entity = world.create();
            enter.accept(entity);
            atStart.add(entity);
        }
        final List<Long> visited = new ArrayList<>();
        final Set<Long> madeToLeave = new HashSet<>();
        final Set<Long> entered = new HashSet<>();

        walk.accept(entity ->
        {
            assertTrue(atStart.contains(entity), Entity.toString(entity) + " entered meanwhile but was visited");
            visited.add(entity);
            if (visited.size() % 2 == 1)
            {
                for (final long other : atStart)
                {
                    if (!visited.contains(other) && madeToLeave.add(other))
                    {
                        leave.accept(other);
                        break;
                    }
                }
            }
            final long newcomer = world.create();
            enter.accept(newcomer);
            entered.add(newcomer);
        });

        assertEquals(atStart, visited, "each member the walk began with, once, in entry order");
        assertEquals(20, madeToLeave.size());
        final Set<Long> next = new HashSet<>();
        walk.accept(next::add);
        final Set<Long> kept = new HashSet<>(atStart);
        kept.removeAll(madeToLeave);
        kept.addAll(entered);
        assertEquals(kept, next, "the next walk sees the members that stayed and those that entered meanwhile");
        world.clear();
    }

    @Test
    void aStoragesListenersSeeItsObserversUpToDateTheEntityInOnAddAndStillInOnRemoval()
    {
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        final List<String> seen = new ArrayList<>();
        bodies.onAdded((entity, index) -> seen.add("added, observed " + observer.contains(entity)));
        bodies.onRemoving((entity, index) -> seen.add("removing, observed " + observer.contains(entity)));
        final long entity = world.create();
        speeds.emplace(entity, 1);

        bodies.emplace(entity, 1f, 1f);
        bodies.erase(entity);

        assertEquals(List.of("added, observed true", "removing, observed true"), seen);
        assertFalse(observer.contains(entity));
    }

    @Test
    void aRuntimeObserverFollowsTheSameRule()
    {
        final RuntimeObserver observer = world.observer()
            .onUpdated(Body.class).with(Speed.class).without(Ghost.class).build();
        final long a = world.create();
        final long b = world.create();
        bodies.emplace(a, 1f, 1f);
        speeds.emplace(a, 1);
        bodies.emplace(b, 1f, 1f);
        speeds.emplace(b, 1);
        assertTrue(observer.isEmpty(), "added is no trigger of this rule");

        bodies.patch(a, 2f, 2f);
        bodies.patch(b, 2f, 2f);
        ghosts.emplace(b);

        final List<Long> seen = new ArrayList<>();
        observer.forEach(seen::add);
        assertEquals(List.of(a), seen);
        assertTrue(observer.toString().contains("updated Body with Speed without Ghost"), observer.toString());
        observer.close();
        assertFalse(observer.isOpen());
        assertThrows(IllegalStateException.class, () -> observer.contains(a));
        bodies.patch(a, 3f, 3f);
    }

    @Test
    void anObserverOnATagAndAnUntrackedSwapOnlyStorageWorks()
    {
        final SignalFixtures_NewGhostsObserver newGhosts = new SignalFixtures_NewGhostsObserver(world);
        final SignalFixtures_HurtWhileStunnedObserver hurt = new SignalFixtures_HurtWhileStunnedObserver(world);
        final long a = world.create();
        final long b = world.create();
        healths.emplace(a, 10);
        healths.emplace(b, 10);
        stunned.emplace(a);

        ghosts.emplace(b);
        healths.patch(a, 5);
        healths.patch(b, 5);

        final Set<Long> ghostsSeen = new HashSet<>();
        newGhosts.forEach(ghostsSeen::add);
        assertEquals(Set.of(b), ghostsSeen);
        final List<Integer> hp = new ArrayList<>();
        hurt.forEach((entity, health) -> hp.add(health.hp()));
        assertEquals(List.of(5), hp);
        stunned.erase(a);
        assertTrue(hurt.isEmpty());
    }

    @Test
    void anObserverCreatedLaterSeesOnlyLaterChangesButCanEnterEveryExistingEntityWithoutAllocating()
    {
        final long[] e = new long[3000];
        for (int i = 0; i < e.length; i++)
        {
            e[i] = world.create();
            bodies.emplace(e[i], i, i);
            speeds.emplace(e[i], i);
        }
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        assertTrue(observer.isEmpty());
        final long bytes = world.offHeapBytes();

        for (final long entity : e)
        {
            bodies.patch(entity, 0f, 0f);
        }

        assertEquals(e.length, observer.size());
        assertEquals(bytes, world.offHeapBytes(), "room for every body was reserved when the observer was made");
    }

    @Test
    void closingAnObserverDetachesItAndFreesItsMemory()
    {
        final long before = world.offHeapBytes();
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        final long entity = world.create();
        speeds.emplace(entity, 1);
        bodies.emplace(entity, 1f, 1f);
        assertTrue(world.offHeapBytes() > before);

        observer.close();
        observer.close();

        assertFalse(observer.isOpen());
        assertEquals(0, observer.size());
        for (int attempt = 0; attempt < 2; attempt++)
        {
            final IllegalStateException closed =
                assertThrows(IllegalStateException.class, () -> observer.forEach((e, body, speed) -> { }));
            assertTrue(closed.getMessage().contains("closed"), "every attempt says why: " + closed.getMessage());
        }
        assertFalse(bodies.isSignalled(), "nothing follows the storages any more");
        bodies.patch(entity, 2f, 2f);
        world.destroy(entity);
        final long afterStorages = world.offHeapBytes();
        final SignalFixtures_BodyChangesObserver again = new SignalFixtures_BodyChangesObserver(world);
        again.close();
        assertEquals(afterStorages, world.offHeapBytes());
    }

    @Test
    void closingTheWorldClosesItsObserversAndNeitherCanCloseWhileAnObserverIsIterated()
    {
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        final long entity = world.create();
        speeds.emplace(entity, 1);
        bodies.emplace(entity, 1f, 1f);

        observer.forEach((e, body, speed) ->
        {
            final IllegalStateException world = assertThrows(IllegalStateException.class, this.world::close);
            final IllegalStateException own = assertThrows(IllegalStateException.class, observer::close);
            assertTrue(world.getMessage().contains("while SignalFixtures_BodyChangesObserver.forEach runs"),
                world.getMessage());
            assertTrue(own.getMessage().contains("while SignalFixtures_BodyChangesObserver.forEach runs") &&
                own.getMessage().contains("after the walk"), own.getMessage());
        });
        world.close();

        assertFalse(observer.isOpen());
        assertThrows(IllegalStateException.class, () -> observer.contains(entity));
    }

    @Test
    void anAddThatTheObserverCannotMakeRoomForIsRefusedWithNothingChanged()
    {
        try (World small = new World(1 << 16, 300_000))
        {
            final SignalFixtures_BodyStorage smallBodies = small.storage(SignalFixtures_BodyStorage.TYPE);
            final SignalFixtures_SpeedStorage smallSpeeds = small.storage(SignalFixtures_SpeedStorage.TYPE);
            final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(small);
            int added = 0;
            try
            {
                while (true)
                {
                    final long entity = small.create();
                    smallSpeeds.emplace(entity, 1);
                    smallBodies.emplace(entity, 1f, 1f);
                    added++;
                }
            }
            catch (final OffHeapExhaustedException expected)
            {
                // the budget ran out somewhere: in a storage or in the observer's reservation
            }
            assertEquals(smallBodies.memberCount(), observer.size(), "every body that got in was observed");
            assertEquals(added, observer.size());
            final long bytes = small.offHeapBytes();
            for (int i = smallBodies.extent(); --i >= 0; )
            {
                smallBodies.markUpdated(smallBodies.entityAt(i));
            }
            assertEquals(bytes, small.offHeapBytes());
        }
    }

    @Test
    void aRuleWithoutTriggerOrWithAComponentBothRequiredAndExcludedIsRefused()
    {
        final IllegalArgumentException noTrigger = assertThrows(IllegalArgumentException.class,
            () -> world.observer().with(Body.class).build());
        assertTrue(noTrigger.getMessage().contains("needs a trigger"), noTrigger.getMessage());
        final IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
            () -> world.observer().onAdded(Body.class).without(Body.class).build());
        assertTrue(both.getMessage().contains("both required and excluded"), both.getMessage());
    }

    private static Set<Long> visited(final SignalFixtures_BodyChangesObserver observer)
    {
        final Set<Long> seen = new HashSet<>();
        observer.forEach((entity, body, speed) ->
        {
            assertTrue(seen.add(entity), "visited twice: " + Entity.toString(entity));
            assertEquals(entity, body.entity());
            assertEquals(entity, speed.entity());
        });
        return seen;
    }
}
