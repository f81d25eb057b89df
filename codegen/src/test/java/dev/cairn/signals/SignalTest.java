package dev.cairn.signals;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.signal.Connection;
import dev.cairn.signals.SignalFixtures.Body;
import dev.cairn.signals.SignalFixtures.Health;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Storage and world signals: when each listener is called, what it sees, what it may change, and what happens when it
 * throws. One storage per deletion policy ({@code Body} swap-and-pop, {@code Speed} in-place, {@code Health}
 * swap-only) and tags.
 */
final class SignalTest
{
    private final World world = new World(1 << 16);
    private final SignalFixtures_BodyStorage bodies = world.storage(SignalFixtures_BodyStorage.TYPE);
    private final SignalFixtures_SpeedStorage speeds = world.storage(SignalFixtures_SpeedStorage.TYPE);
    private final SignalFixtures_HealthStorage healths = world.storage(SignalFixtures_HealthStorage.TYPE);
    private final SignalFixtures_GhostStorage ghosts = world.storage(SignalFixtures_GhostStorage.TYPE);
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void aDestroyThatACreatedListenerMakesDuringABulkCreateWaitsUntilEveryEntityIsAnnounced()
    {
        final long[] made = new long[3];
        final List<String> events = new ArrayList<>();
        world.onDestroying(entity -> events.add("destroying " + Entity.toString(entity)));
        world.onCreated(entity ->
        {
            events.add("created " + Entity.toString(entity) + (world.valid(entity) ? "" : " (dead)"));
            if (entity == made[0])
            {
                world.destroy(made[2]);
                assertTrue(world.valid(made[2]), "the destroy waits for the end of the create");
            }
        });

        world.create(made, 3);

        assertEquals(List.of("created " + Entity.toString(made[0]), "created " + Entity.toString(made[1]),
            "created " + Entity.toString(made[2]), "destroying " + Entity.toString(made[2])), events);
        assertFalse(world.valid(made[2]));
        assertTrue(world.valid(made[0]) && world.valid(made[1]));
    }

    @Test
    void everyListenerOfARemovalGetsTheSameIndexAndWhatAnEarlierOneChangedIsMadeWhenTheRemovalEnds()
    {
        final long a = world.create();
        bodies.emplace(a, 100, 0);
        final long c = world.create();
        bodies.emplace(c, 300, 0);
        final long b = world.create();
        bodies.emplace(b, 200, 0);
        final long[] added = {Entity.NULL};
        final List<Integer> seen = new ArrayList<>();
        bodies.onRemoving((entity, index) ->
        {
            if (entity == b)
            {
                bodies.remove(a);
                added[0] = world.create();
                bodies.emplace(added[0], 999, 0);
                throw new IllegalStateException("boom");
            }
        });
        bodies.onRemoving((entity, index) ->
        {
            if (entity == b)
            {
                seen.add(index);
                assertTrue(bodies.contains(a) && !bodies.contains(added[0]), "the first listener's changes wait");
                assertEquals(200f, bodies.xAt(index));
                bodies.xAt(index, -1f);
            }
        });

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> bodies.remove(b));

        assertEquals("boom", thrown.getMessage(), "what a listener throws reaches the caller");
        assertEquals(List.of(2), seen, "b's index when the removal was announced");
        assertEquals(999f, bodies.x(added[0]), "the changes made before the throw were made after the removal");
        assertFalse(bodies.contains(b));
        assertFalse(bodies.contains(a));
        assertEquals(300f, bodies.x(c));
    }

    @Test
    void removalsMadeInAWalkRunTheirListenersAfterItAndWhatThoseRecordIsMadeAfterThemInOrder()
    {
        final List<Long> newcomers = new ArrayList<>();
        final List<Long> visited = new ArrayList<>();
        final List<Long> removedAfterTheWalk = new ArrayList<>();
        for (int k = 0; k < 5; k++)
        {
            bodies.emplace(world.create(), k, 0);
        }
        final boolean[] cleared = {false};
        bodies.onRemoving((entity, index) ->
        {
            assertEquals(5, visited.size(), "a removal recorded in a walk is announced when the walk returns");
            removedAfterTheWalk.add(entity);
            if (!cleared[0])
            {
                cleared[0] = true;
                bodies.clear();
                for (int k = 0; k < 3; k++)
                {
                    final long newcomer = world.create();
                    newcomers.add(newcomer);
                    bodies.emplace(newcomer, 10 + k, 0);
                }
            }
        });

        bodies.forEach(entity ->
        {
            visited.add(entity);
            bodies.remove(entity);
        });

        assertEquals(5, visited.size(), "every member visited: " + visited);
        assertEquals(visited, removedAfterTheWalk, "the removals were made in the order recorded, then the clear " +
            "found nothing left");
        assertEquals(3, bodies.memberCount(), "the listener's adds came after its clear");
        for (int k = 0; k < 3; k++)
        {
            assertEquals(10f + k, bodies.x(newcomers.get(k)));
        }
    }

    @Test
    void anInPlaceStorageClearedFromTheRemovalListenerOfARemovalMadeInAWalkHasNoHolesLeft()
    {
        for (int k = 0; k < 6; k++)
        {
            speeds.emplace(world.create(), k);
        }
        final boolean[] cleared = {false};
        speeds.onRemoving((entity, index) ->
        {
            if (!cleared[0])
            {
                cleared[0] = true;
                speeds.clear();
            }
        });
        final List<Long> visited = new ArrayList<>();

        speeds.forEach(entity ->
        {
            visited.add(entity);
            speeds.remove(entity);
        });

        assertEquals(6, visited.size(), "the removals and the clear waited for the walk's end: " + visited);
        assertEquals(0, speeds.memberCount());
        assertEquals(0, speeds.size(), "the holes were dropped by the clear");
    }

    @Test
    void anAddedListenerRunsAfterTheValuesAreWrittenAndReadsThemAtTheIndexItIsGiven()
    {
        bodies.onAdded((entity, index) -> log.add("added " + name(entity) + " x=" + bodies.xAt(index)));
        final long a = world.create();
        final long b = world.create();

        bodies.emplace(a, 1f, 2f);
        bodies.add(b, new Body(3f, 4f));
        world.add(world.create(), new Body(5f, 6f));

        assertEquals(List.of("added " + name(a) + " x=1.0", "added " + name(b) + " x=3.0", "added 2v0 x=5.0"), log);
    }

    @Test
    void updatedFiresForWholeComponentWritesAndMarkUpdatedButNotForSingleFieldWrites()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 1f);
        healths.emplace(a, 10);
        bodies.onUpdated((entity, index) -> log.add("body " + bodies.xAt(index) + "," + bodies.yAt(index)));
        healths.onUpdated((entity, index) -> log.add("health " + healths.hpAt(index)));

        bodies.patch(a, 2f, 3f);
        bodies.patch(a, new Body(4f, 5f));
        bodies.x(a, 9f);
        new SignalFixtures_BodyStorage.Ref(bodies).moveTo(bodies.indexOf(a)).y(9f);
        bodies.markUpdated(a);
        healths.patch(a, 7);
        healths.hp(a, 8);

        assertEquals(List.of("body 2.0,3.0", "body 4.0,5.0", "body 9.0,9.0", "health 7"), log);
    }

    @Test
    void aRemovingListenerRunsBeforeTheSlotIsReusedFromEveryWayOfRemoving()
    {
        final long[] e = new long[7];
        for (int i = 0; i < e.length; i++)
        {
            e[i] = world.create();
            bodies.emplace(e[i], i, 0f);
        }
        bodies.onRemoving((entity, index) ->
        {
            assertTrue(bodies.contains(entity), "still there while its listeners run");
            log.add(name(entity) + " x=" + bodies.xAt(index));
        });

        bodies.remove(e[0]);
        bodies.erase(e[1]);
        world.remove(e[2], Body.class);
        world.destroy(e[3]);
        new SignalFixtures_NewBodiesView(world).forEach(0, (entity, body) ->
        {
            if (entity == e[5])
            {
                world.destroy(entity);
            }
        });
        assertEquals(List.of(name(e[0]) + " x=0.0", name(e[1]) + " x=1.0", name(e[2]) + " x=2.0",
            name(e[3]) + " x=3.0", name(e[5]) + " x=5.0"), log);
        log.clear();
        bodies.clear();
        assertEquals(2, log.size(), "clear() tells each member: " + log);
        assertEquals(0, bodies.memberCount());
    }

    @Test
    void worldClearDestroysEachEntityThroughTheSameSignalsAsDestroy()
    {
        final long a = world.create();
        final long b = world.create();
        bodies.emplace(a, 1f, 1f);
        ghosts.emplace(b);
        world.onDestroying(entity -> log.add("destroying " + name(entity) + " valid=" + world.valid(entity)));
        bodies.onRemoving((entity, index) -> log.add("body of " + name(entity)));
        ghosts.onRemoving((entity, index) -> log.add("ghost of " + name(entity)));

        world.clear();

        assertEquals(List.of("destroying " + name(b) + " valid=true", "ghost of " + name(b),
            "destroying " + name(a) + " valid=true", "body of " + name(a)), log);
        assertEquals(0, world.aliveCount());
        assertEquals(0, bodies.memberCount() + ghosts.memberCount());
    }

    @Test
    void destroyTellsTheWorldFirstWithTheEntityWholeThenEachComponentAndReleasesTheHandleLast()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 2f);
        healths.emplace(a, 3);
        ghosts.emplace(a);
        world.onDestroying(entity -> log.add("destroying: has body " + world.has(entity, Body.class) +
            ", health " + world.get(entity, Health.class).hp()));
        healths.onRemoving((entity, index) -> log.add("health " + healths.hpAt(index) + ", valid " +
            world.valid(entity)));
        ghosts.onRemoving((entity, index) -> log.add("ghost, body still " + bodies.contains(entity)));

        world.destroy(a);

        assertEquals(List.of("destroying: has body true, health 3", "health 3, valid true",
            "ghost, body still false"), log);
        assertFalse(world.valid(a));
    }

    @Test
    void destroyAnnouncesItselfAsLongAsAnyStorageOfTheWorldHasAListenerLeft()
    {
        final Connection onBodies = bodies.onRemoving((entity, index) -> log.add("body, valid " + world.valid(entity)));
        final Connection onHealths = healths.onRemoving((entity, index) ->
            log.add("health, valid " + world.valid(entity)));
        healths.onAdded((entity, index) -> { }).close();
        onBodies.close();
        final long a = world.create();
        bodies.emplace(a, 1f, 2f);
        healths.emplace(a, 3);
        final long b = world.create();
        healths.emplace(b, 4);

        world.destroy(a);
        world.destroy(new long[]{b}, 1);

        assertEquals(List.of("health, valid true", "health, valid true"), log, "a removing listener hears the " +
            "entity while it is still alive, however many other listeners came and went");
        onHealths.close();
        final long c = world.create();
        healths.emplace(c, 5);
        world.destroy(c);
        assertEquals(2, log.size());
        assertFalse(world.valid(c));
        assertFalse(healths.contains(c));
    }

    @Test
    void anEntityCreatedByARemovalListenerDoesNotGetTheIndexOfTheEntityBeingDestroyed()
    {
        final long dying = world.create();
        bodies.emplace(dying, 1f, 1f);
        healths.emplace(dying, 1);
        final List<Long> spawned = new ArrayList<>();
        healths.onRemoving((entity, index) ->
        {
            final long spawn = world.create();
            bodies.emplace(spawn, 7f, 7f);
            spawned.add(spawn);
        });

        world.destroy(dying);

        assertEquals(1, spawned.size());
        assertTrue(Entity.index(spawned.get(0)) != Entity.index(dying));
        assertEquals(7f, bodies.x(spawned.get(0)));
        assertEquals(1, bodies.memberCount());
    }

    @Test
    void listenersRunInTheOrderOfConnectionAndAClosedConnectionIsNotCalledAgain()
    {
        final Connection first = bodies.onAdded((entity, index) -> log.add("first"));
        bodies.onAdded((entity, index) -> log.add("second"));
        bodies.onAdded((entity, index) -> log.add("third"));
        bodies.emplace(world.create(), 0f, 0f);

        first.close();
        first.close();
        bodies.emplace(world.create(), 0f, 0f);

        assertEquals(List.of("first", "second", "third", "second", "third"), log);
        assertFalse(first.isConnected());
    }

    @Test
    void aListenerMayConnectAndDisconnectListenersWhileAnEventIsSent()
    {
        final List<Connection> connections = new ArrayList<>();
        connections.add(bodies.onAdded((entity, index) ->
        {
            log.add("one");
            connections.get(1).close();
            if (connections.size() == 2)
            {
                connections.add(bodies.onAdded((e, i) -> log.add("late")));
            }
        }));
        connections.add(bodies.onAdded((entity, index) -> log.add("two")));

        bodies.emplace(world.create(), 0f, 0f);
        bodies.emplace(world.create(), 0f, 0f);

        assertEquals(List.of("one", "one", "late"), log, "two was closed before its turn; late joined for the next");
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheOthersAndTheOperationIsCompleteWhenTheFirstExceptionArrives()
    {
        final long a = world.create();
        bodies.onAdded((entity, index) ->
        {
            throw new IllegalStateException("first");
        });
        bodies.onAdded((entity, index) -> log.add("still called"));
        bodies.onAdded((entity, index) ->
        {
            throw new IllegalArgumentException("second");
        });

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> bodies.emplace(a, 4f, 5f));

        assertEquals("first", thrown.getMessage());
        assertEquals("second", thrown.getSuppressed()[0].getMessage());
        assertEquals(List.of("still called"), log);
        assertEquals(4f, bodies.x(a), "the add is complete");
    }

    @Test
    void aRemovingListenerThatThrowsStillLetsTheComponentGoAndDestroyFinish()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 1f);
        healths.emplace(a, 1);
        bodies.onRemoving((entity, index) ->
        {
            throw new IllegalStateException("from body");
        });

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> world.destroy(a));

        assertEquals("from body", thrown.getMessage());
        assertFalse(world.valid(a));
        assertFalse(bodies.contains(a));
        assertFalse(healths.contains(a));
    }

    @Test
    void listenersMayRemoveTheComponentThatIsBeingRemovedAndOtherEntitiesComponentsOfTheSameStorage()
    {
        final long[] e = new long[5];
        for (int i = 0; i < e.length; i++)
        {
            e[i] = world.create();
            bodies.emplace(e[i], i, i);
            speeds.emplace(e[i], i);
        }
        bodies.onRemoving((entity, index) ->
        {
            bodies.remove(entity);
            if (entity == e[0])
            {
                bodies.remove(e[4]);
            }
        });
        speeds.onRemoving((entity, index) -> speeds.remove(e[3]));

        assertTrue(bodies.remove(e[0]));
        speeds.erase(e[1]);

        assertEquals(3, bodies.memberCount());
        for (final int i : new int[]{1, 2, 3})
        {
            assertEquals((float)i, bodies.x(e[i]), "entity " + i + " keeps its values");
        }
        assertFalse(speeds.contains(e[1]));
        assertFalse(speeds.contains(e[3]));
        assertEquals(2.0, speeds.v(e[2]));
    }

    @Test
    void componentsThatListenersAddToAnEntityBeingDestroyedAreDroppedAfterTheDestroyWithoutRounds()
    {
        final long once = world.create();
        final long always = world.create();
        bodies.emplace(once, 1f, 1f);
        bodies.emplace(always, 1f, 1f);
        healths.emplace(always, 1);
        final int[] calls = new int[2];
        bodies.onRemoving((entity, index) ->
        {
            calls[0]++;
            if (!healths.contains(entity))
            {
                healths.emplace(entity, 9);
            }
        });
        healths.onRemoving((entity, index) ->
        {
            calls[1]++;
            speeds.emplace(entity, 2);
        });

        world.destroy(once);
        world.destroy(always);

        assertFalse(world.valid(once));
        assertFalse(world.valid(always), "an entity whose listeners add components back is destroyed all the same");
        assertFalse(healths.contains(once) || speeds.contains(once) || speeds.contains(always));
        assertEquals(0, bodies.memberCount() + healths.memberCount() + speeds.memberCount());
        assertEquals(2, calls[0], "each removal was announced once: the adds were recorded and dropped, not applied");
        assertEquals(1, calls[1]);
    }

    @Test
    void aListenerMayAddBackAComponentItsEntityLostWhenTheRemovalIsDoneButNotWhileItIsAnnounced()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 1f);
        final List<IllegalArgumentException> refused = new ArrayList<>();
        bodies.onRemoving((entity, index) ->
        {
            refused.add(assertThrows(IllegalArgumentException.class, () -> bodies.emplace(entity, 2f, 2f)));
            healths.emplace(entity, 3);
        });
        healths.onAdded((entity, index) -> bodies.emplace(entity, 4f, 4f));

        bodies.erase(a);

        assertTrue(refused.get(0).getMessage().contains("already has Body"), refused.get(0).getMessage());
        assertEquals(4f, bodies.x(a), "the health added after the removal brought the body back, one round later");
        assertEquals(3, healths.hp(a));
    }

    @Test
    void listenersWhoseChangesNeverSettleStopAfterAThousandRoundsWithAnExceptionSayingWhatWasLeft()
    {
        final int[] created = {0};
        world.onCreated(entity ->
        {
            created[0]++;
            world.create();
        });

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, world::create);

        assertTrue(thrown.getMessage().contains("did not settle") && thrown.getMessage().contains("1000 rounds"),
            thrown.getMessage());
        assertTrue(thrown.getMessage().contains("the created listeners of"), thrown.getMessage());
        assertEquals(1001, created[0], "the first announcement, then a thousand rounds");
        assertFalse(world.isDeferring());
        world.onCreated(entity -> { }).close();
    }

    @Test
    void everyListenerOfOneEventGetsTheSameIndexAndTheRemovalsTheyMakeFollowTheAdd()
    {
        final long[] e = new long[3];
        for (int i = 0; i < e.length; i++)
        {
            e[i] = world.create();
            bodies.emplace(e[i], i, 0f);
        }
        final long added = world.create();
        bodies.onAdded((entity, index) -> bodies.erase(e[0]));
        bodies.onAdded((entity, index) -> log.add("second sees x=" + bodies.xAt(index) + " at " + index));
        bodies.onAdded((entity, index) -> bodies.erase(entity));
        bodies.onAdded((entity, index) -> log.add("fourth gets " + index + ", still there " + bodies.contains(entity)));

        bodies.emplace(added, 9f, 9f);

        assertEquals(List.of("second sees x=9.0 at 3", "fourth gets 3, still there true"), log);
        assertFalse(bodies.contains(added));
        assertFalse(bodies.contains(e[0]));
        assertEquals(2, bodies.memberCount());
    }

    @Test
    void destroyingAnEntityAgainFromItsOwnDestroyListenersIsDroppedOnceTheFirstDestroyIsDone()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 1f);
        healths.emplace(a, 1);
        world.onDestroying(entity ->
        {
            log.add("destroying " + name(entity));
            world.destroy(entity);
            assertTrue(world.valid(entity));
        });
        bodies.onRemoving((entity, index) -> world.destroy(entity));

        world.destroy(a);

        assertEquals(List.of("destroying " + name(a)), log);
        assertFalse(world.valid(a));
        assertEquals(0, bodies.memberCount() + healths.memberCount());
    }

    @Test
    void aPatchInAWalkWritesAndStampsAtOnceAndItsListenersAndObserversAreToldWhenTheWalkReturns()
    {
        final SignalFixtures_BodyChangesObserver observer = new SignalFixtures_BodyChangesObserver(world);
        final long a = world.create();
        speeds.emplace(a, 1);
        bodies.emplace(a, 1f, 1f);
        observer.clear();
        final int before = world.advanceTick();
        bodies.onUpdated((entity, index) -> log.add("updated " + name(entity) + " x=" + bodies.xAt(index)));

        speeds.forEach(entity ->
        {
            bodies.patch(entity, 5f, 5f);
            assertEquals(5f, bodies.x(entity), "written at once");
            assertTrue(bodies.changedSince(bodies.indexOf(entity), before), "stamped at once");
            assertTrue(log.isEmpty() && !observer.contains(entity), "told when the walk returns");
            bodies.markUpdated(entity);
        });

        assertEquals(List.of("updated " + name(a) + " x=5.0", "updated " + name(a) + " x=5.0"), log);
        assertTrue(observer.contains(a));
    }

    @Test
    void aRemovingListenerMayDestroyItsEntityOrClearItsStorageOrTheWorldWhichIsMadeWhenTheRemovalEnds()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 1f);
        healths.emplace(a, 1);
        final Connection destroying = bodies.onRemoving((entity, index) ->
        {
            world.destroy(entity);
            assertTrue(world.valid(entity) && healths.contains(entity), "the destroy waits for the removal's end");
        });

        bodies.erase(a);

        assertFalse(world.valid(a), "destroyed from the listener of a plain erase");
        assertEquals(0, bodies.memberCount() + healths.memberCount());
        destroying.close();

        final long[] e = {world.create(), world.create(), world.create()};
        for (final long entity : e)
        {
            bodies.emplace(entity, 1f, 1f);
            speeds.emplace(entity, 1);
        }
        final Connection clearing = bodies.onRemoving((entity, index) -> bodies.clear());
        bodies.erase(e[1]);
        assertTrue(bodies.isEmpty(), "clear() from the listener of the component being removed empties the storage");
        assertEquals(3, speeds.memberCount());
        clearing.close();

        e[1] = world.create();
        bodies.emplace(e[1], 1f, 1f);
        speeds.onRemoving((entity, index) -> world.clear());
        world.destroy(e[0]);
        assertEquals(0, world.aliveCount(), "clear() from a listener of a destroy empties the world");
        assertEquals(0, bodies.memberCount() + speeds.memberCount());
    }

    @Test
    void aListenersCloseOfTheWorldIsRefusedNamingItAndTheRemovalCompletesWithEveryListenerCalled()
    {
        final long a = world.create();
        final long b = world.create();
        bodies.emplace(a, 1f, 1f);
        bodies.onRemoving((entity, index) ->
        {
            throw new IllegalArgumentException("first removing listener");
        });
        bodies.onRemoving((entity, index) -> world.close());
        bodies.onRemoving((entity, index) -> log.add("after the refused close"));

        final IllegalArgumentException removing = assertThrows(IllegalArgumentException.class, () -> bodies.erase(a));

        assertEquals("first removing listener", removing.getMessage());
        assertEquals(1, removing.getSuppressed().length);
        assertTrue(removing.getSuppressed()[0].getMessage().startsWith("World cannot be closed while a listener of " +
            "SignalFixtures.Body storage: removing in removing " + name(a) + "'s Body runs"),
            removing.getSuppressed()[0].getMessage());
        assertTrue(removing.getSuppressed()[0].getMessage().contains("close it after that returns"),
            removing.getSuppressed()[0].getMessage());
        assertEquals(List.of("after the refused close"), log, "the listeners after the refused one are called");
        assertFalse(world.isClosed());
        assertFalse(bodies.contains(a), "the removal is complete");
        bodies.emplace(b, 1f, 1f);
        assertTrue(bodies.contains(b));
    }

    @Test
    void aDestroyOrClearWhoseListenerClosesTheWorldThrowsTheRefusalNamingTheOperationAndCompletes()
    {
        final long a = world.create();
        bodies.emplace(a, 1f, 1f);
        world.onDestroying(entity -> world.close());

        final IllegalStateException destroyed = assertThrows(IllegalStateException.class, () -> world.destroy(a));

        assertTrue(destroyed.getMessage().startsWith("World cannot be closed while a listener of World: destroying " +
            "in World.destroy(" + Entity.toString(a) + ") runs"), destroyed.getMessage());
        assertFalse(world.isClosed());
        assertFalse(world.valid(a));
        assertFalse(bodies.contains(a));

        try (World other = new World())
        {
            other.create();
            other.create();
            other.onDestroying(entity -> other.close());
            final IllegalStateException cleared = assertThrows(IllegalStateException.class, other::clear);
            assertTrue(cleared.getMessage().contains("in World.clear() runs"), cleared.getMessage());
            assertEquals(1, cleared.getSuppressed().length, "the refusals of both destroys reach the caller");
            assertFalse(other.isClosed());
            assertEquals(0, other.aliveCount());
        }
    }

    @Test
    void whenAnAddedListenersCloseIsRefusedAnEarlierOnesExceptionReachesTheCallerWithTheRefusal()
    {
        final long a = world.create();
        bodies.onAdded((entity, index) ->
        {
            throw new IllegalArgumentException("first added listener");
        });
        bodies.onAdded((entity, index) -> world.close());

        final IllegalArgumentException added =
            assertThrows(IllegalArgumentException.class, () -> bodies.emplace(a, 1f, 1f));

        assertEquals("first added listener", added.getMessage());
        assertTrue(added.getSuppressed()[0].getMessage().contains("cannot be closed while a listener of " +
            "SignalFixtures.Body storage: added runs"), added.getSuppressed()[0].getMessage());
        assertFalse(world.isClosed());
        assertEquals(1f, bodies.x(a));
    }

    @Test
    void anOperationWhoseOnlyListenerClosesTheWorldThrowsTheRefusalAndIsComplete()
    {
        final Map<String, Consumer<World>> operations = new LinkedHashMap<>();
        operations.put("emplace", w -> w.storage(SignalFixtures_BodyStorage.TYPE).emplace(w.create(), 1f, 1f));
        operations.put("emplace of a tag", w -> w.storage(SignalFixtures_GhostStorage.TYPE).emplace(w.create()));
        operations.put("World.add", w -> w.add(w.create(), new Health(3)));
        operations.put("patch", w -> w.storage(SignalFixtures_BodyStorage.TYPE).patch(bodyOf(w), 2f, 2f));
        operations.put("markUpdated", w -> w.storage(SignalFixtures_BodyStorage.TYPE).markUpdated(bodyOf(w)));
        operations.put("create", World::create);
        operations.put("create(entities, count)", w -> w.create(new long[3], 3));

        for (final Map.Entry<String, Consumer<World>> operation : operations.entrySet())
        {
            try (World other = new World())
            {
                final long body = other.create();
                other.storage(SignalFixtures_BodyStorage.TYPE).emplace(body, 0f, 0f);
                other.storage(SignalFixtures_BodyStorage.TYPE).onAdded((entity, index) -> other.close());
                other.storage(SignalFixtures_GhostStorage.TYPE).onAdded((entity, index) -> other.close());
                other.storage(SignalFixtures_HealthStorage.TYPE).onAdded((entity, index) -> other.close());
                other.storage(SignalFixtures_BodyStorage.TYPE).onUpdated((entity, index) -> other.close());
                if (operation.getKey().startsWith("create"))
                {
                    other.onCreated(entity -> other.close());
                }
                final int alive = other.aliveCount();

                final IllegalStateException stopped = assertThrows(IllegalStateException.class,
                    () -> operation.getValue().accept(other), operation.getKey());

                assertTrue(stopped.getMessage().startsWith("World cannot be closed while a listener of "),
                    operation.getKey() + ": " + stopped.getMessage());
                assertFalse(other.isClosed(), operation.getKey());
                assertEquals(operation.getKey().equals("create(entities, count)") ? alive + 3 :
                    operation.getKey().startsWith("patch") || operation.getKey().equals("markUpdated") ? alive :
                    alive + 1, other.aliveCount(), operation.getKey() + " is complete");
            }
        }
    }

    @Test
    void entityListenersAfterTheOneWhoseCloseWasRefusedAreStillCalled()
    {
        try (World other = new World())
        {
            other.onCreated(entity -> other.close());
            other.onCreated(entity -> log.add("created listener after the refused close"));

            assertThrows(IllegalStateException.class, other::create);
        }
        try (World other = new World())
        {
            final long entity = other.create();
            other.onDestroying(dying -> other.close());
            other.onDestroying(dying -> log.add("destroying listener after the refused close"));

            assertThrows(IllegalStateException.class, () -> other.destroy(entity));
            assertFalse(other.valid(entity));
        }
        assertEquals(List.of("created listener after the refused close", "destroying listener after the refused close"),
            log);
    }

    @Test
    void aClearOrResetWhoseListenerClosesTheWorldIsNamedInTheRefusal()
    {
        for (final String call : List.of("clear()", "reset()"))
        {
            try (World other = new World())
            {
                other.create();
                other.onDestroying(dying -> other.close());

                final IllegalStateException stopped = assertThrows(IllegalStateException.class,
                    call.equals("clear()") ? other::clear : other::reset);

                assertTrue(stopped.getMessage().contains("a listener of World: destroying in World." + call + " runs"),
                    stopped.getMessage());
                assertFalse(other.isClosed());
                assertEquals(0, other.aliveCount());
            }
        }
    }

    private static long bodyOf(final World world)
    {
        return world.storage(SignalFixtures_BodyStorage.TYPE).entityAt(0);
    }

    @Test
    void worldCreatedListenersHearSingleAndBulkCreation()
    {
        world.onCreated(entity -> log.add("created " + name(entity) + " valid=" + world.valid(entity)));

        final long a = world.create();
        final long[] more = new long[2];
        world.create(more, 2);

        assertEquals(List.of("created " + name(a) + " valid=true", "created " + name(more[0]) + " valid=true",
            "created " + name(more[1]) + " valid=true"), log);
    }

    @Test
    void tagsSignalLikeComponents()
    {
        ghosts.onAdded((entity, index) -> log.add("added " + name(entity) + " at " + index));
        ghosts.onUpdated((entity, index) -> log.add("updated " + name(entity)));
        ghosts.onRemoving((entity, index) -> log.add("removing " + name(entity)));
        final long a = world.create();

        ghosts.emplace(a);
        ghosts.patch(a, new SignalFixtures.Ghost());
        ghosts.markUpdated(a);
        ghosts.erase(a);

        assertEquals(List.of("added " + name(a) + " at 0", "updated " + name(a), "updated " + name(a),
            "removing " + name(a)), log);
    }

    @Test
    void sendingEventsToAConnectedListenerAllocatesNothing()
    {
        final long[] counts = new long[1];
        bodies.onAdded((entity, index) -> counts[0]++);
        bodies.onUpdated((entity, index) -> counts[0]++);
        bodies.onRemoving((entity, index) -> counts[0]++);
        final long[] entities = new long[10_000];
        world.create(entities, entities.length);
        for (int round = 0; round < 12; round++)
        {
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (final long entity : entities)
            {
                bodies.emplace(entity, 1f, 1f);
                bodies.patch(entity, 2f, 2f);
            }
            for (final long entity : entities)
            {
                bodies.erase(entity);
            }
            final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            if (round == 11)
            {
                assertTrue(allocated < 1024, "30000 events allocated " + allocated + " bytes");
            }
        }
        assertEquals(12 * 30_000, counts[0]);
    }

    @Test
    void aClosedWorldRefusesNewListeners()
    {
        world.close();

        assertThrows(IllegalStateException.class, () -> bodies.onAdded((entity, index) -> { }));
        assertThrows(IllegalStateException.class, () -> world.onCreated(entity -> { }));
        assertSame(null, null);
    }

    private static String name(final long entity)
    {
        return Entity.toString(entity);
    }
}
