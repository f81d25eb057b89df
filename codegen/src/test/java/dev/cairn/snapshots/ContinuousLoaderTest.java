package dev.cairn.snapshots;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.codegen.fixture.Colour;
import dev.cairn.internal.Access;
import dev.cairn.internal.RawStorage;
import dev.cairn.snapshot.ContinuousLoader;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshot.SnapshotFormatException;
import dev.cairn.snapshots.SnapshotFixtures.Heat;
import dev.cairn.snapshots.SnapshotFixtures.Link;
import dev.cairn.snapshots.SnapshotFixtures.ShipV1;
import dev.cairn.snapshots.SnapshotFixtures.ShipV8;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.FieldType;
import dev.cairn.storage.Schema;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live world follows a source world through a continuous loader: checked after every load of long random sequences
 * of source worlds against what the source holds (each source entity alive maps to one local entity alive; each local
 * entity has exactly its source's components with its values, references translated), against the events the live
 * world's listeners heard, and against local entities the loader must leave alone. Then what users rely on, case by
 * case.
 */
class ContinuousLoaderTest
{
    static LongStream seeds()
    {
        return LongStream.range(0, 24);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aLiveWorldFollowsASequenceOfSourceWorlds(final long seed)
    {
        final Random random = new Random(seed);
        try (World source = new World(random.nextBoolean() ? 40 : 5_000); World live = new World();
             ContinuousLoader loader = new ContinuousLoader(live))
        {
            final List<Long> ownEntities = new ArrayList<>();
            for (int i = 0; i < 5; i++)
            {
                final long own = live.create();
                live.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(own, own, Entity.NULL, i);
                ownEntities.add(own);
            }
            final String own = ownDigest(live, ownEntities);
            final int[] events = new int[3];
            for (final ComponentType<?, ?> type : SnapshotFixtures.TYPES)
            {
                final ComponentStorage<?> storage = live.storage(type);
                storage.onAdded((entity, index) -> events[0]++);
                storage.onUpdated((entity, index) -> events[1]++);
                storage.onRemoving((entity, index) -> events[2]++);
            }
            Map<Long, Long> mapped = Map.of();
            final int loads = 6 + random.nextInt(10);
            for (int load = 0; load < loads; load++)
            {
                Worlds.grow(source, random, 20 + random.nextInt(seed % 5 == 0 ? 3_000 : 300));
                if (load > 0 && random.nextInt(3) == 0)
                {
                    destroySomeLocal(live, loader, source, random);
                }
                final int[] expected = expectedEvents(source, live, mapped);
                events[0] = events[1] = events[2] = 0;

                loader.load(Worlds.save(source));

                assertFollows(source, live, loader);
                mapped = mapping(source, loader);
                assertArrayEquals(expected, events, "added, updated, removed events of load " + load);
                assertEquals(own, ownDigest(live, ownEntities), "the loader left the live world's own entities alone");
                assertEquals(source.aliveCount() + ownEntities.size(), live.aliveCount());
            }
        }
    }

    @Test
    void entitiesAreCreatedUpdatedAndDestroyedToMatch()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var ships = server.storage(SnapshotFixtures_ShipV1Storage.TYPE);
            final long ship = server.create();
            final long dock = server.create();
            ships.emplace(ship, 1, 2, 100, Colour.RED, dock);

            loader.load(Worlds.save(server));
            final long localShip = loader.local(ship);
            final long localDock = loader.local(dock);
            assertEquals(new ShipV1(1, 2, 100, Colour.RED, localDock), client.get(localShip, ShipV1.class));

            ships.patch(ship, 5, 6, 90, Colour.BLUE, dock);
            server.destroy(dock);
            loader.load(Worlds.save(server));

            assertEquals(localShip, loader.local(ship), "an entity keeps its local entity from load to load");
            assertFalse(client.valid(localDock), "the dock is gone from the server, so from the client");
            assertFalse(loader.contains(dock));
            assertEquals(Entity.NULL, loader.local(dock));
            assertEquals(new ShipV1(5, 6, 90, Colour.BLUE, Entity.NULL), client.get(localShip, ShipV1.class),
                "a reference to an entity the snapshot does not hold alive becomes NULL");
        }
    }

    @Test
    void aLoadStartedFromAListenerDuringALoadIsRefusedAndTheOuterLoadCompletes()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var heats = server.storage(SnapshotFixtures_HeatStorage.TYPE);
            for (int i = 0; i < 5; i++)
            {
                heats.emplace(server.create(), i);
            }
            final java.nio.ByteBuffer snapshot = Worlds.save(server);
            final List<IllegalStateException> refused = new ArrayList<>();
            client.onCreated(entity ->
            {
                try
                {
                    loader.load(snapshot.duplicate());
                }
                catch (final IllegalStateException ex)
                {
                    refused.add(ex);
                }
            });
            client.storage(SnapshotFixtures_HeatStorage.TYPE).onAdded((entity, index) ->
                assertThrows(IllegalStateException.class, () -> loader.load(snapshot.duplicate())));

            loader.load(snapshot.duplicate());

            assertEquals(5, refused.size());
            assertTrue(refused.get(0).getMessage().contains("cannot load a snapshot into the World while a listener " +
                "of World: created") && refused.get(0).getMessage().contains("after"), refused.get(0).getMessage());
            assertEquals(5, client.aliveCount(), "no entity mirrors nothing");
            assertEquals(5, client.storage(SnapshotFixtures_HeatStorage.TYPE).size(), "the outer load completed");

            heats.clear();
            server.clear();
            loader.load(Worlds.save(server));
            assertEquals(0, client.aliveCount());
        }
    }

    @Test
    void aCreateRefusedByTheMemoryBudgetMapsNoSourceAndLeavesTheApplicationsEntitiesAlone()
    {
        try (World server = new World(); World client = new World(1 << 20, 256 * 1024);
             ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var serverHeats = server.storage(SnapshotFixtures_HeatStorage.TYPE);
            for (int i = 0; i < 100_000; i++)
            {
                serverHeats.emplace(server.create(), 1000 + i);
            }
            final var heats = client.storage(SnapshotFixtures_HeatStorage.TYPE);
            final long player = client.create();
            heats.emplace(player, -1f);

            assertThrows(RuntimeException.class, () -> loader.load(Worlds.save(server)));

            assertEquals(new Heat(-1f), client.get(player, Heat.class), "the application's entity 0v0 is untouched");
            assertEquals(0, loader.size(), "no source is mapped to an entity the loader did not make");
            assertEquals(Entity.NULL, loader.local(Entity.of(0, 0)));
            server.destroy(Entity.of(5, 0));
            assertThrows(RuntimeException.class, () -> loader.load(Worlds.save(server)));
            assertTrue(client.valid(player), "a later load does not destroy it either");
        }
    }

    @Test
    void afterAResetOfTheLiveWorldTheLoaderMapsAfreshAndNeverTakesTheApplicationsNewEntitiesForMirrors()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var serverHeats = server.storage(SnapshotFixtures_HeatStorage.TYPE);
            final long[] ships = new long[3];
            for (int i = 0; i < ships.length; i++)
            {
                ships[i] = server.create();
                serverHeats.emplace(ships[i], 10 + i);
            }
            loader.load(Worlds.save(server));
            final long oldLocal = loader.local(ships[0]);

            client.reset();
            final var heats = client.storage(SnapshotFixtures_HeatStorage.TYPE);
            final long player = client.create();
            heats.emplace(player, -1f);
            assertEquals(oldLocal, player, "the reset world hands the old local handle out again");

            assertEquals(Entity.NULL, loader.local(ships[0]), "the reset destroyed every mirror");
            assertFalse(loader.contains(ships[0]));
            assertEquals(0, loader.size());

            server.destroy(ships[1]);
            loader.load(Worlds.save(server));

            assertEquals(new Heat(-1f), client.get(player, Heat.class), "the application's entity was not written");
            assertTrue(client.valid(player), "nor destroyed as the mirror of a gone source");
            assertEquals(3, client.aliveCount(), "the player and a new mirror of each source entity alive");
            assertEquals(new Heat(10f), client.get(loader.local(ships[0]), Heat.class));
            assertEquals(new Heat(12f), client.get(loader.local(ships[2]), Heat.class));
            assertNotEquals(player, loader.local(ships[0]));
        }
    }

    @Test
    void newSourceEntitiesGetLocalEntitiesInTheSourcesOrder()
    {
        try (World server = new World(); World client = new World();
             ContinuousLoader loader = new ContinuousLoader(client))
        {
            final long[] sources = new long[5];
            for (int i = 0; i < sources.length; i++)
            {
                sources[i] = server.create();
                server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(sources[i], i);
            }

            loader.load(Worlds.save(server));

            final List<Long> locals = new ArrayList<>();
            for (final long source : sources)
            {
                locals.add(loader.local(source));
            }
            assertEquals(List.of(Entity.of(0, 0), Entity.of(1, 0), Entity.of(2, 0), Entity.of(3, 0), Entity.of(4, 0)),
                locals, "a new world hands out its lowest indices first, to the sources in their order");
        }
    }

    @Test
    void aLoadFromInsideAWalkOfTheLiveWorldIsRefusedNamingTheWalkAndLoadsAfterIt()
    {
        try (World server = new World(); World client = new World();
             ContinuousLoader loader = new ContinuousLoader(client))
        {
            for (int i = 0; i < 5; i++)
            {
                server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(server.create(), i);
            }
            final var heats = client.storage(SnapshotFixtures_HeatStorage.TYPE);
            heats.emplace(client.create(), -1f);
            final String before = Worlds.digest(client);
            final List<IllegalStateException> refused = new ArrayList<>();

            heats.forEach(entity -> refused.add(
                assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)))));

            assertEquals(1, refused.size());
            assertTrue(refused.get(0).getMessage().contains("cannot load a snapshot into the World while " +
                "SnapshotFixtures.Heat storage.forEach runs") && refused.get(0).getMessage().contains("after"),
                refused.get(0).getMessage());
            assertEquals(before, Worlds.digest(client), "the refused load changed nothing");
            assertEquals(0, loader.size());
            loader.load(Worlds.save(server));
            assertFollows(server, client, loader);
        }
    }

    @Test
    void aLocalEntityDestroyedByTheUserIsMadeAgain()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final long ship = server.create();
            server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(ship, 3f);
            loader.load(Worlds.save(server));
            final long first = loader.local(ship);
            client.destroy(first);

            loader.load(Worlds.save(server));

            final long second = loader.local(ship);
            assertNotEquals(first, second);
            assertEquals(new Heat(3f), client.get(second, Heat.class));
        }
    }

    @Test
    void componentsTheSnapshotDoesNotHoldAreLeftAlone()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final long ship = server.create();
            server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(ship, 3f);
            server.storage(SnapshotFixtures_LinkStorage.TYPE);
            loader.load(Worlds.save(server));
            final long local = loader.local(ship);
            client.add(local, new Link(local, Entity.NULL, 4));

            loader.load(Worlds.save(server, SnapshotFixtures_HeatStorage.TYPE));

            assertEquals(new Link(local, Entity.NULL, 4), client.get(local, Link.class), "Link is not in the snapshot");
            loader.load(Worlds.save(server));
            assertFalse(client.has(local, Link.class), "Link is in this one, and the server's entity has none");
        }
    }

    @Test
    void aBadSnapshotChangesNothing()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            Worlds.grow(server, new Random(9), 800);
            loader.load(Worlds.save(server));
            Worlds.grow(server, new Random(10), 800);
            final byte[] next = Worlds.bytes(Worlds.save(server));
            final String before = Worlds.digest(client);
            final int mapped = loader.size();
            for (int length = 0; length < next.length; length += 1 + length / 16)
            {
                final ByteBuffer cut = ByteBuffer.wrap(next, 0, length);

                assertThrows(SnapshotFormatException.class, () -> loader.load(cut));

                assertEquals(before, Worlds.digest(client), "after a load of " + length + " bytes");
                assertEquals(mapped, loader.size());
            }
            loader.load(ByteBuffer.wrap(next));
            assertFollows(server, client, loader);
        }
    }

    @Test
    void aSnapshotNeedingMoreEntitiesThanTheWorldHoldsChangesNothing()
    {
        try (World server = new World(); World client = new World(4); ContinuousLoader loader = new ContinuousLoader(client))
        {
            for (int i = 0; i < 5; i++)
            {
                server.create();
            }

            final IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)));

            assertTrue(ex.getMessage().contains("needs 5 new local entities but the World can create 4 more"),
                ex.getMessage());
            assertEquals(0, client.aliveCount());
            assertEquals(0, loader.size());
        }
    }

    @Test
    void aLocalEntityWhoseDestroyRetiresItsIndexGivesNoRoomSoTheLoadIsRefusedBeforeAnythingChanges()
    {
        // A live world of one index whose next entity carries the last version, MAX_VERSION: the state a world
        // reaches after 2^31 - 1 destroys of that index, written as the snapshot such a world saves.
        final byte[] base;
        try (World spent = new World(1))
        {
            spent.destroy(spent.create());
            base = Worlds.bytes(Worlds.save(spent));
        }
        // Header (24 bytes), world section: kind and length (12), tick, max, created, alive, free, retired (24), then
        // the versions: a free index stores the complement of the version it hands out next.
        ByteBuffer.wrap(base).order(ByteOrder.LITTLE_ENDIAN).putInt(60, ~Entity.MAX_VERSION);
        try (World server = new World(); World client = new World(1); ContinuousLoader loader = new ContinuousLoader(client))
        {
            Snapshot.load(client, ByteBuffer.wrap(Worlds.reseal(base)));
            final long first = server.create();
            server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(first, 1f);
            loader.load(Worlds.save(server));
            final long local = loader.local(first);
            assertEquals(Entity.MAX_VERSION, Entity.version(local));
            server.destroy(first);
            server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(server.create(), 2f);

            // Destroying the local entity of the gone one retires index 0: nothing is left for the new one.
            final IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)));

            assertTrue(ex.getMessage().contains("needs 1 new local entities but the World can create 0 more"),
                ex.getMessage());
            assertTrue(client.valid(local), "the local entity of the gone one is still alive");
            assertEquals(1f, client.storage(SnapshotFixtures_HeatStorage.TYPE).get(local).t());
            assertEquals(local, loader.local(first));
            assertEquals(1, loader.size());
        }
    }

    @Test
    void aThrowingListenerDoesNotStopTheLoad()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            for (int i = 0; i < 3; i++)
            {
                server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(server.create(), i);
            }
            client.storage(SnapshotFixtures_HeatStorage.TYPE).onAdded((entity, index) ->
            {
                throw new IllegalStateException("listener failed for " + Entity.toString(entity));
            });

            final IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)));

            assertTrue(ex.getMessage().startsWith("listener failed"), ex.getMessage());
            assertEquals(2, ex.getSuppressed().length, "the others are suppressed");
            assertFollows(server, client, loader);
        }
    }

    @Test
    void aClosedLoaderOrWorldIsRefused()
    {
        final World client = new World();
        final ContinuousLoader loader = new ContinuousLoader(client);
        loader.close();
        loader.close();
        final IllegalStateException closedLoader =
            assertThrows(IllegalStateException.class, () -> loader.load(ByteBuffer.allocate(0)));
        assertTrue(closedLoader.getMessage().contains("ContinuousLoader is closed"), closedLoader.getMessage());
        client.close();
        assertThrows(IllegalStateException.class, () -> new ContinuousLoader(client));
    }

    @Test
    void closingTheLoaderFromAListenerStopsTheLoadSayingTheLoaderWasClosed()
    {
        try (World server = new World(); World client = new World())
        {
            for (int i = 0; i < 10; i++)
            {
                server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(server.create(), i);
            }
            final ContinuousLoader loader = new ContinuousLoader(client);
            client.storage(SnapshotFixtures_HeatStorage.TYPE).onAdded((entity, index) -> loader.close());

            final IllegalStateException stopped =
                assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)));

            assertTrue(stopped.getMessage().contains("the ContinuousLoader was closed while it applied a snapshot"),
                stopped.getMessage());
            assertEquals(0, loader.size());
            assertEquals(1, client.storage(SnapshotFixtures_HeatStorage.TYPE).size(), "it stopped after the first");
            final IllegalStateException closed =
                assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)));
            assertTrue(closed.getMessage().contains("ContinuousLoader is closed"), closed.getMessage());
        }
    }

    @Test
    void closingTheLiveWorldFromAListenerIsRefusedAndTheLoadCompletesReportingWhatEveryListenerThrew()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            for (int i = 0; i < 10; i++)
            {
                server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(server.create(), i);
            }
            final int[] calls = {0};
            client.storage(SnapshotFixtures_HeatStorage.TYPE).onAdded((entity, index) ->
            {
                if (calls[0]++ == 0)
                {
                    throw new IllegalArgumentException("the first listener call failed");
                }
                client.close();
            });

            final IllegalArgumentException failed =
                assertThrows(IllegalArgumentException.class, () -> loader.load(Worlds.save(server)));

            assertEquals("the first listener call failed", failed.getMessage());
            assertEquals(9, failed.getSuppressed().length, "each refused close is reported");
            for (final Throwable refused : failed.getSuppressed())
            {
                assertTrue(refused instanceof IllegalStateException && refused.getMessage().contains(
                    "World cannot be closed while a listener of SnapshotFixtures.Heat storage: added") &&
                    refused.getMessage().contains("close it after"), refused.getMessage());
            }
            assertEquals(10, calls[0], "the load went on");
            assertFalse(client.isClosed());
            assertFollows(server, client, loader);
            server.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(server.create(), 10f);
            assertThrows(IllegalStateException.class, () -> loader.load(Worlds.save(server)), "refused again");
            assertFollows(server, client, loader);
        }
    }

    /** The live world holds, for every source entity alive, one local entity with exactly its components. */
    static void assertFollows(final World source, final World live, final ContinuousLoader loader)
    {
        final List<Long> alive = new ArrayList<>();
        source.forEachEntity(alive::add);
        assertEquals(alive.size(), loader.size());
        final Set<Long> locals = new HashSet<>();
        for (final long entity : alive)
        {
            final long local = loader.local(entity);
            assertTrue(live.valid(local), Entity.toString(entity) + " maps to a live entity");
            assertTrue(locals.add(local), "two source entities map to " + Entity.toString(local));
        }
        for (final ComponentStorage<?> from : source.storages())
        {
            final ComponentStorage<?> to = live.storage(from.type());
            final RawStorage fromRaw = Access.rawStorage(from);
            final RawStorage toRaw = Access.rawStorage(to);
            final UnsafeBuffer expected = new UnsafeBuffer(new byte[Math.max(1, fromRaw.rowBytes())]);
            final UnsafeBuffer actual = new UnsafeBuffer(new byte[Math.max(1, fromRaw.rowBytes())]);
            for (final long entity : alive)
            {
                final long local = loader.local(entity);
                assertEquals(from.contains(entity), to.contains(local), from.name() + " of " + Entity.toString(entity));
                if (from.contains(entity))
                {
                    fromRaw.readRow(from.indexOf(entity), expected, 0);
                    translate(from, expected, source, loader);
                    toRaw.readRow(to.indexOf(local), actual, 0);
                    assertEquals(expected, actual, from.name() + " of " + Entity.toString(entity));
                }
            }
        }
    }

    private static void translate(
        final ComponentStorage<?> storage, final UnsafeBuffer row, final World source, final ContinuousLoader loader)
    {
        final List<Schema.Field> fields = storage.type().schema().fields();
        for (int k = 0; k < fields.size(); k++)
        {
            if (fields.get(k).type() == FieldType.ENTITY)
            {
                final int at = Access.rawStorage(storage).rowOffset(k);
                final long reference = row.getLong(at, ByteOrder.nativeOrder());
                row.putLong(at, source.valid(reference) ? loader.local(reference) : Entity.NULL,
                    ByteOrder.nativeOrder());
            }
        }
    }

    /**
     * The additions, updates and removals a load of {@code source} must make in {@code live}, given what the last load
     * mapped: local entities of source entities that are gone lose every component as they are destroyed.
     */
    private static int[] expectedEvents(final World source, final World live, final Map<Long, Long> mapped)
    {
        final int[] events = new int[3];
        for (final Map.Entry<Long, Long> entry : mapped.entrySet())
        {
            if (!source.valid(entry.getKey()) && live.valid(entry.getValue()))
            {
                for (final ComponentType<?, ?> type : SnapshotFixtures.TYPES)
                {
                    events[2] += live.storage(type).contains(entry.getValue()) ? 1 : 0;
                }
            }
        }
        source.forEachEntity(entity ->
        {
            final Long mappedLocal = mapped.get(entity);
            final long local = mappedLocal != null && live.valid(mappedLocal) ? mappedLocal : Entity.NULL;
            for (final ComponentStorage<?> from : source.storages())
            {
                final boolean had = local != Entity.NULL && live.storage(from.type()).contains(local);
                if (from.contains(entity))
                {
                    if (!had)
                    {
                        events[0]++;
                    }
                    else if (changes(from, entity, live.storage(from.type()), local, source, live, mapped))
                    {
                        events[1]++;
                    }
                }
                else if (had)
                {
                    events[2]++;
                }
            }
        });
        return events;
    }

    /**
     * Whether loading the source's component over the live one changes its bytes: references are translated with the
     * mapping of the last load, and one to an entity the load is about to create always changes.
     */
    private static boolean changes(
        final ComponentStorage<?> from,
        final long entity,
        final ComponentStorage<?> to,
        final long local,
        final World source,
        final World live,
        final Map<Long, Long> mapped)
    {
        final RawStorage fromRaw = Access.rawStorage(from);
        final UnsafeBuffer incoming = new UnsafeBuffer(new byte[Math.max(1, fromRaw.rowBytes())]);
        final UnsafeBuffer present = new UnsafeBuffer(new byte[Math.max(1, fromRaw.rowBytes())]);
        fromRaw.readRow(from.indexOf(entity), incoming, 0);
        Access.rawStorage(to).readRow(to.indexOf(local), present, 0);
        final List<Schema.Field> fields = from.type().schema().fields();
        for (int k = 0; k < fields.size(); k++)
        {
            if (fields.get(k).type() == FieldType.ENTITY)
            {
                final int at = fromRaw.rowOffset(k);
                final long reference = incoming.getLong(at, ByteOrder.nativeOrder());
                final Long target = mapped.get(reference);
                if (source.valid(reference) && (target == null || !live.valid(target)))
                {
                    return true;
                }
                incoming.putLong(at, source.valid(reference) ? target : Entity.NULL, ByteOrder.nativeOrder());
            }
        }
        return !incoming.equals(present);
    }

    @Test
    void aComponentWhoseValuesDidNotChangeIsNotWrittenAgainSoItsListenersAndTicksSeeOnlyRealChanges()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var ships = server.storage(SnapshotFixtures_ShipV1Storage.TYPE);
            final long still = server.create();
            final long moving = server.create();
            ships.emplace(still, 1, 1, 10, Colour.RED, moving);
            ships.emplace(moving, 2, 2, 20, Colour.RED, still);
            loader.load(Worlds.save(server));
            final List<Long> updated = new ArrayList<>();
            client.storage(SnapshotFixtures_ShipV1Storage.TYPE).onUpdated((entity, index) -> updated.add(entity));

            ships.patch(moving, 3, 3, 20, Colour.RED, still);
            loader.load(Worlds.save(server));
            loader.load(Worlds.save(server));

            assertEquals(List.of(loader.local(moving)), updated, "one real change, heard once; the identical reload is silent");
        }
    }

    @Test
    void fieldsTheSourcesVersionLacksKeepTheirLiveValuesAndChangeNothingOnTheirOwn()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var ships = server.storage(SnapshotFixtures_ShipV1Storage.TYPE);
            final long ship = server.create();
            final long dock = server.create();
            ships.emplace(ship, 1, 2, 100, Colour.RED, dock);
            loader.load(asShipV8(server));
            final long localShip = loader.local(ship);
            final long localDock = loader.local(dock);
            assertEquals(new ShipV8(1, 2, 100, Colour.RED, localDock, Entity.NULL, 0), client.get(localShip, ShipV8.class),
                "a field the source lacks starts at zero, a reference at NULL");

            // The client's own state, in the fields the server's version does not have.
            final long escort = client.create();
            client.storage(SnapshotFixtures_ShipV8Storage.TYPE).patch(localShip, 1, 2, 100, Colour.RED, localDock, escort, 7);
            final List<Long> updated = new ArrayList<>();
            client.storage(SnapshotFixtures_ShipV8Storage.TYPE).onUpdated((entity, index) -> updated.add(entity));
            loader.load(asShipV8(server));
            assertEquals(List.of(), updated, "nothing the source has changed");

            ships.patch(ship, 5, 6, 90, Colour.BLUE, dock);
            final long newcomer = server.create();
            ships.emplace(newcomer, 9, 9, 9, Colour.GREEN, ship);
            loader.load(asShipV8(server));

            assertEquals(List.of(localShip), updated);
            assertEquals(new ShipV8(5, 6, 90, Colour.BLUE, localDock, escort, 7), client.get(localShip, ShipV8.class),
                "the source's fields follow it, the client's keep their values");
            assertEquals(new ShipV8(9, 9, 9, Colour.GREEN, localShip, Entity.NULL, 0),
                client.get(loader.local(newcomer), ShipV8.class));
        }
    }

    @Test
    void aLiveWorldWhoseBudgetCannotHoldTheSnapshotRefusesItWholeOrStopsAtTheFirstFailureSayingSo()
    {
        try (World server = new World())
        {
            final var ships = server.storage(SnapshotFixtures_ShipV1Storage.TYPE);
            final var heat = server.storage(SnapshotFixtures_HeatStorage.TYPE);
            for (int i = 0; i < 100; i++)
            {
                final long entity = server.create();
                ships.emplace(entity, i, i, i, Colour.RED, entity);
                heat.emplace(entity, i);
            }
            final byte[] small = Worlds.bytes(Worlds.save(server));
            for (int i = 0; i < 5_000; i++)
            {
                final long entity = server.create();
                ships.emplace(entity, i, i, i, Colour.BLUE, Entity.NULL);
                heat.emplace(entity, i);
            }
            final byte[] large = Worlds.bytes(Worlds.save(server));

            int refusedWhole = 0;
            int stoppedPartWay = 0;
            for (long budget = 150_000; budget <= 700_000; budget += 10_000)
            {
                try (World client = new World(1 << 20, budget); ContinuousLoader loader = new ContinuousLoader(client))
                {
                    loader.load(ByteBuffer.wrap(small));
                    final String before = Worlds.digest(client);
                    try
                    {
                        loader.load(ByteBuffer.wrap(large));
                        assertEquals(5_100, client.storage(SnapshotFixtures_HeatStorage.TYPE).memberCount());
                        assertEquals(5_100, client.storage(SnapshotFixtures_ShipV1Storage.TYPE).memberCount());
                    }
                    catch (final OffHeapExhaustedException ex)
                    {
                        if (ex.getMessage().contains("so nothing was changed"))
                        {
                            refusedWhole++;
                            assertEquals(before, Worlds.digest(client), "budget " + budget);
                        }
                        else
                        {
                            stoppedPartWay++;
                            assertTrue(ex.getMessage().startsWith("the live World ran out of memory part-way through " +
                                "a continuous load, which stopped there"), ex.getMessage());
                        }
                    }
                }
            }
            assertTrue(refusedWhole > 0, "the components' room is taken before anything changes");
            assertTrue(refusedWhole > stoppedPartWay, refusedWhole + " refused whole, " + stoppedPartWay + " part-way");
        }
    }

    @Test
    void aServerThatReplacesItsEntitiesIsFollowedWithinTheBudgetThatHoldsEitherSnapshot()
    {
        try (World server = new World())
        {
            final var ships = server.storage(SnapshotFixtures_ShipV1Storage.TYPE);
            final long[] first = new long[4096];
            for (int i = 0; i < first.length; i++)
            {
                first[i] = server.create();
                ships.emplace(first[i], i, i, i, Colour.RED, Entity.NULL);
            }
            final byte[] before = Worlds.bytes(Worlds.save(server));
            server.destroy(first, first.length);
            for (int i = 0; i < first.length; i++)
            {
                ships.emplace(server.create(), i, i, i, Colour.BLUE, Entity.NULL);
            }
            final byte[] after = Worlds.bytes(Worlds.save(server));

            for (long budget = 150_000; budget <= 300_000; budget += 10_000)
            {
                final boolean holdsEither;
                try (World fresh = new World(1 << 20, budget); ContinuousLoader probe = new ContinuousLoader(fresh))
                {
                    probe.load(ByteBuffer.wrap(before));
                    holdsEither = true;
                }
                catch (final OffHeapExhaustedException ex)
                {
                    continue;
                }
                try (World client = new World(1 << 20, budget); ContinuousLoader loader = new ContinuousLoader(client))
                {
                    loader.load(ByteBuffer.wrap(before));
                    // The 4096 removals come before the 4096 additions: the storage never holds 8192.
                    loader.load(ByteBuffer.wrap(after));
                    assertTrue(holdsEither);
                    assertEquals(4096, client.storage(SnapshotFixtures_ShipV1Storage.TYPE).memberCount());
                    assertTrue(client.storage(SnapshotFixtures_ShipV1Storage.TYPE).capacity() < 8192,
                        "reserved for the net growth, at budget " + budget);
                }
            }
        }
    }

    @Test
    void anExhaustionAListenerThrowsAfterItsChangeIsCollectedAndTheLoadCompletes()
    {
        try (World server = new World(); World client = new World(); ContinuousLoader loader = new ContinuousLoader(client))
        {
            final var ships = server.storage(SnapshotFixtures_ShipV1Storage.TYPE);
            for (int i = 0; i < 10; i++)
            {
                ships.emplace(server.create(), i, i, i, Colour.RED, Entity.NULL);
            }
            final int[] heard = {0};
            client.storage(SnapshotFixtures_ShipV1Storage.TYPE).onAdded((entity, index) ->
            {
                if (++heard[0] == 3)
                {
                    throw new OffHeapExhaustedException("the listener's own cache is full", null);
                }
            });

            final OffHeapExhaustedException thrown = assertThrows(OffHeapExhaustedException.class,
                () -> loader.load(Worlds.save(server)));

            assertEquals("the listener's own cache is full", thrown.getMessage());
            assertEquals(10, heard[0], "the load went on");
            assertEquals(10, client.storage(SnapshotFixtures_ShipV1Storage.TYPE).memberCount());
        }
    }

    /** A snapshot of the server's version-1 ships, read by a client that knows them as version 8. */
    private static ByteBuffer asShipV8(final World server)
    {
        return ByteBuffer.wrap(Evolution.rename(Worlds.bytes(Worlds.save(server)), "ShipV1", "ShipV8"));
    }

    private static Map<Long, Long> mapping(final World source, final ContinuousLoader loader)
    {
        final Map<Long, Long> mapping = new HashMap<>();
        source.forEachEntity(entity -> mapping.put(entity, loader.local(entity)));
        return mapping;
    }

    private static void destroySomeLocal(
        final World live, final ContinuousLoader loader, final World source, final Random random)
    {
        source.forEachEntity(entity ->
        {
            if (random.nextInt(8) == 0 && live.valid(loader.local(entity)))
            {
                live.destroy(loader.local(entity));
            }
        });
    }

    private static String ownDigest(final World live, final List<Long> own)
    {
        final StringBuilder text = new StringBuilder();
        for (final long entity : own)
        {
            text.append(Entity.toString(entity)).append(' ').append(live.valid(entity)).append(' ')
                .append(live.has(entity, Link.class) ? live.get(entity, Link.class) : "-").append('\n');
        }
        return text.toString();
    }
}
