package dev.cairn.snapshots;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshot.SnapshotFormatException;
import dev.cairn.snapshots.SnapshotFixtures.Heat;
import dev.cairn.snapshots.SnapshotFixtures.Link;
import dev.cairn.snapshots.SnapshotFixtures.Marked;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link World#reset()}: a world made new again with its memory kept, so that a snapshot loads into it again (a game
 * rewinding to a saved state).
 */
class ResetTest
{
    private static final String NEW_WORLD = newWorldDigest();

    private static String newWorldDigest()
    {
        try (World world = new World())
        {
            return Worlds.digest(world);
        }
    }

    @Test
    void aResetWorldHandsOutIndicesAsANewOneDoes()
    {
        try (World world = new World(100); World fresh = new World(100))
        {
            for (int i = 0; i < 10; i++)
            {
                world.destroy(world.create());
            }
            world.create();

            world.reset();

            assertFalse(world.valid(Entity.of(10, 0)), "nothing is alive");
            assertEquals(0, world.aliveCount());
            assertEquals(100, world.remainingCapacity());
            assertEquals(Entity.of(0, 0), fresh.create());
            assertEquals(Entity.of(0, 0), world.create());
            for (int i = 1; i < 5; i++)
            {
                assertEquals(fresh.create(), world.create());
            }
        }
    }

    @Test
    void listenersAreToldOfEveryEntityAndComponentThatGoes()
    {
        try (World world = new World())
        {
            final List<Long> destroyed = new ArrayList<>();
            final List<Long> removed = new ArrayList<>();
            world.onDestroying(destroyed::add);
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            links.onRemoving((entity, index) -> removed.add(entity));
            final long first = world.create();
            final long second = world.create();
            links.emplace(second, first, Entity.NULL, 1);

            world.reset();

            assertEquals(List.of(first, second), destroyed.stream().sorted().toList());
            assertEquals(List.of(second), removed);
            assertEquals(0, links.size());
        }
    }

    @Test
    void aSnapshotLoadsIntoAResetWorldAgainAndAgainWithoutNewMemory()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(11), 5_000);
            final ByteBuffer snapshot = Worlds.save(world);
            Snapshot.load(copy, snapshot.duplicate());
            final long bytes = copy.offHeapBytes();

            for (int round = 0; round < 3; round++)
            {
                copy.reset();
                Snapshot.load(copy, snapshot.duplicate());

                assertEquals(Worlds.digest(world), Worlds.digest(copy));
                assertEquals(bytes, copy.offHeapBytes(), "the reset world's memory held the snapshot again");
            }
            for (int round = 0; round < 3; round++)
            {
                Worlds.grow(copy, new Random(round), 2_000);
                copy.reset();
                Snapshot.load(copy, snapshot.duplicate());

                assertEquals(Worlds.digest(world), Worlds.digest(copy), "after other changes, the same world again");
            }
        }
    }

    @Test
    void groupsAndObserversStayConnectedAcrossAResetAndALoad()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(3), 3_000);
            Worlds.grow(copy, new Random(4), 1_000);
            final RuntimeGroup group = copy.group().owning(Link.class).with(Heat.class).without(Marked.class).build();
            final RuntimeObserver observer = copy.observer().onAdded(Link.class).build();
            copy.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(copy.create(), Entity.NULL, Entity.NULL, 1);
            assertTrue(group.size() > 0 && observer.size() > 0, "the group and the observer hold entities");

            copy.reset();
            assertEquals(0, group.size());
            assertEquals(0, observer.size(), "the destroyed entities left the observer");
            Snapshot.load(copy, Worlds.save(world));

            Worlds.assertGroupHoldsLinkWithHeatWithoutMarked(world, group);
            final long added = copy.create();
            copy.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(added, Entity.NULL, Entity.NULL, 5);
            assertTrue(observer.contains(added), "the observer still hears additions");
        }
    }

    @Test
    void aFailedLoadIntoAResetWorldLeavesItsTickAsItWas()
    {
        try (World world = new World(); World copy = new World())
        {
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            snapshot[snapshot.length - 1] ^= 1;
            copy.create();
            for (int i = 0; i < 5; i++)
            {
                copy.advanceTick();
            }
            copy.reset();
            final String before = Worlds.digest(copy);

            assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, ByteBuffer.wrap(snapshot)));

            assertEquals(before, Worlds.digest(copy));
            assertEquals(6, copy.tick(), "the reset kept the tick, and the failed load did not change it");
        }
    }

    @Test
    void aClearedWorldIsNotNewASnapshotSaysToResetIt()
    {
        try (World world = new World(); World used = new World())
        {
            used.create();
            used.clear();

            final IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> Snapshot.load(used, Worlds.save(world)));

            assertTrue(ex.getMessage().contains("reset()"), ex.getMessage());
        }
    }

    @Test
    void aResetOrALoadFromInsideAWalkIsRefusedNamingTheWalkAClearWaitsForItsEndAndTheLoadIsWholeAfterIt()
    {
        final String[] walks = {"swap-and-pop storage", "in-place storage", "view", "non-owning group", "observer"};
        for (final String walk : walks)
        {
            try (World world = new World(); World copy = new World())
            {
                Worlds.grow(world, new Random(5), 2_000);
                final ByteBuffer snapshot = Worlds.save(world);
                Snapshot.load(copy, snapshot.duplicate());
                final RuntimeObserver observer = copy.observer().onAdded(Link.class).build();
                final RuntimeGroup group = copy.group().with(Link.class, Heat.class).build();
                copy.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(copy.create(), 1f);
                copy.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(copy.create(), Entity.NULL, Entity.NULL, 1);
                final List<Long> visited = new ArrayList<>();
                final List<IllegalStateException> refused = new ArrayList<>();
                final java.util.function.LongConsumer action = entity ->
                {
                    visited.add(entity);
                    if (visited.size() == 1)
                    {
                        refused.add(assertThrows(IllegalStateException.class, copy::reset, walk));
                        refused.add(assertThrows(IllegalStateException.class,
                            () -> Snapshot.load(copy, snapshot.duplicate()), walk));
                        copy.clear();
                        assertTrue(copy.valid(entity), "the clear waits for the walk's end");
                    }
                };
                final int count;
                switch (walk)
                {
                    case "swap-and-pop storage" ->
                    {
                        count = copy.storage(SnapshotFixtures_LinkStorage.TYPE).memberCount();
                        copy.storage(SnapshotFixtures_LinkStorage.TYPE).forEach(action);
                    }
                    case "in-place storage" ->
                    {
                        count = copy.storage(SnapshotFixtures_HeatStorage.TYPE).memberCount();
                        copy.storage(SnapshotFixtures_HeatStorage.TYPE).forEach(action);
                    }
                    case "view" ->
                    {
                        count = copy.view(Link.class, Heat.class).count();
                        copy.view(Link.class, Heat.class).forEach(action);
                    }
                    case "non-owning group" ->
                    {
                        count = group.size();
                        group.forEach(action);
                    }
                    default ->
                    {
                        count = observer.size();
                        observer.forEach(action);
                    }
                }

                for (final IllegalStateException refusal : refused)
                {
                    assertTrue(refusal.getMessage().contains(" while ") &&
                        refusal.getMessage().contains(".forEach runs") &&
                        refusal.getMessage().contains("after the walk or listener returns"), refusal.getMessage());
                }
                assertTrue(refused.get(0).getMessage().contains("clear()"), "a reset points to the clear that waits");
                assertEquals(count, visited.size(), walk + ": the walk visited every entity it began with");
                assertEquals(0, copy.aliveCount(), walk + ": the clear was made when the walk returned");
                final IllegalStateException cleared =
                    assertThrows(IllegalStateException.class, () -> Snapshot.load(copy, snapshot.duplicate()));
                assertTrue(cleared.getMessage().contains("reset()"), cleared.getMessage());
                copy.reset();

                Snapshot.load(copy, snapshot.duplicate());

                assertEquals(Worlds.digest(world), Worlds.digest(copy), walk + ": after the walk, the load is whole");
                Worlds.assertGroupHoldsLinkWithHeatWithoutMarked(world, copy.group().owning(Link.class)
                    .with(Heat.class).without(Marked.class).build());
            }
        }
    }

    @Test
    void aResetFromAListenerWhileSomethingIsRemovedIsRefusedAndChangesNothing()
    {
        try (World world = new World())
        {
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            final long kept = world.create();
            final long removed = world.create();
            links.emplace(kept, Entity.NULL, Entity.NULL, 1);
            links.emplace(removed, Entity.NULL, Entity.NULL, 2);
            final AtomicReference<String> before = new AtomicReference<>();
            final AtomicReference<IllegalStateException> refused = new AtomicReference<>();
            links.onRemoving((entity, index) ->
            {
                before.set(Worlds.digest(world));
                refused.set(assertThrows(IllegalStateException.class, world::reset));
                assertEquals(before.get(), Worlds.digest(world));
            });

            links.remove(removed);

            assertNotNull(refused.get());
            assertTrue(refused.get().getMessage().contains("cannot reset() the World while a listener of " +
                "SnapshotFixtures.Link storage: removing") && refused.get().getMessage().contains("clear()"),
                refused.get().getMessage());
            assertTrue(world.valid(kept));
            assertTrue(links.contains(kept));
            assertFalse(links.contains(removed));

            final AtomicReference<IllegalStateException> fromDestroy = new AtomicReference<>();
            world.onDestroying(entity -> fromDestroy.set(assertThrows(IllegalStateException.class, world::reset)));
            world.destroy(kept);
            assertTrue(fromDestroy.get().getMessage().contains("cannot reset() the World while a listener of World: " +
                "destroying in World.destroy(" + Entity.toString(kept) + ")"), fromDestroy.get().getMessage());
            assertTrue(world.valid(removed), "the other entity was not destroyed");
        }
    }

    @Test
    void aResetFromACreatedAddedOrUpdatedListenerIsRefusedAndTheCallerGetsAnAliveHandle()
    {
        try (World world = new World())
        {
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            final List<IllegalStateException> refused = new ArrayList<>();
            final Runnable reset = () -> refused.add(assertThrows(IllegalStateException.class, world::reset));
            world.onCreated(entity -> reset.run());
            links.onAdded((entity, index) -> reset.run());
            links.onUpdated((entity, index) -> reset.run());

            final long one = world.create();
            final long[] many = new long[3];
            world.create(many, 3);
            links.emplace(one, Entity.NULL, Entity.NULL, 1);
            links.patch(one, Entity.NULL, Entity.NULL, 2);

            assertEquals(6, refused.size(), "4 creations, an addition and an update: each refused");
            assertTrue(refused.get(0).getMessage().contains("cannot reset() the World while a listener of World: " +
                "created runs"), refused.get(0).getMessage());
            assertTrue(refused.get(4).getMessage().contains("while a listener of SnapshotFixtures.Link storage: " +
                "added"), refused.get(4).getMessage());
            assertTrue(refused.get(5).getMessage().contains("while a listener of SnapshotFixtures.Link storage: " +
                "updated"), refused.get(5).getMessage());
            assertTrue(world.valid(one) && world.valid(many[2]));
            assertEquals(4, world.aliveCount());
            assertEquals(2, links.get(one).weight());
        }
    }

    @Test
    void aResetIsRefusedWhileAParallelIterationRunsAndOnAClosedWorld()
    {
        final World world = new World();
        final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
        for (int i = 0; i < 100; i++)
        {
            links.emplace(world.create(), Entity.NULL, Entity.NULL, i);
        }
        final String before = Worlds.digest(world);
        final AtomicReference<Throwable> refused = new AtomicReference<>();
        world.view(Link.class).parallelForEach(ForkJoinPool.commonPool(), 10, (entity) ->
        {
            try
            {
                world.reset();
            }
            catch (final IllegalStateException ex)
            {
                refused.compareAndSet(null, ex);
            }
        });

        assertNotNull(refused.get());
        assertTrue(refused.get().getMessage().contains("reset"), refused.get().getMessage());
        assertEquals(before, Worlds.digest(world));
        world.close();
        final IllegalStateException closed = assertThrows(IllegalStateException.class, world::reset);
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    @Test
    void aForgedHandlePastTheFirstBlockOfALoadIsNamedAndTheResetWorldLoadsCleanlyAfterwards()
    {
        try (World world = new World(); World copy = new World())
        {
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            for (int i = 0; i < 10_000; i++)
            {
                links.emplace(world.create(), Entity.NULL, Entity.NULL, i);
            }
            final byte[] snapshot = Worlds.bytes(Worlds.save(world, SnapshotFixtures_LinkStorage.TYPE));
            final int packed = Worlds.offsetOf(snapshot, Entity.of(0, 0), Entity.of(1, 0));
            final byte[] twice = snapshot.clone();
            ByteBuffer.wrap(twice).order(ByteOrder.LITTLE_ENDIAN).putLong(packed + 8 * 9_000, Entity.of(17, 0));
            final byte[] dead = snapshot.clone();
            ByteBuffer.wrap(dead).order(ByteOrder.LITTLE_ENDIAN).putLong(packed + 8 * 5_000, Entity.of(5_000, 2));
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            copy.reset();

            final SnapshotFormatException duplicate = assertThrows(SnapshotFormatException.class,
                () -> Snapshot.load(copy, ByteBuffer.wrap(Worlds.reseal(twice))));
            assertTrue(duplicate.getMessage().contains("entity index 17 is held at index 17 and again at 9000"),
                duplicate.getMessage());
            final SnapshotFormatException notAlive = assertThrows(SnapshotFormatException.class,
                () -> Snapshot.load(copy, ByteBuffer.wrap(Worlds.reseal(dead))));
            assertTrue(notAlive.getMessage().contains("index 5000 holds 5000v2, which is not alive"),
                notAlive.getMessage());
            assertEquals(NEW_WORLD, Worlds.digest(copy), "a failed load leaves the world new");

            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            assertEquals(Worlds.digest(world), Worlds.digest(copy));
        }
    }

    @Test
    void aForgedFreeListHeadInAnInPlaceStorageWithoutTombstonesIsRefused()
    {
        try (World world = new World(); World copy = new World())
        {
            final var parents = world.storage(SnapshotFixtures_ParentStorage.TYPE);
            for (int i = 0; i < 1_000; i++)
            {
                world.create();
            }
            final long child = world.create();
            parents.emplace(child, Entity.NULL);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world, SnapshotFixtures_ParentStorage.TYPE));
            final ByteBuffer bytes = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
            int counts = -1;
            for (int at = 0; at + 24 <= snapshot.length; at++)
            {
                if (bytes.getInt(at) == 1 && bytes.getInt(at + 4) == 1 && bytes.getInt(at + 8) == -1 &&
                    bytes.getInt(at + 12) == 1 && bytes.getLong(at + 16) == child)
                {
                    counts = at;
                }
            }
            assertTrue(counts >= 0, "the set's counts are in the snapshot");
            bytes.putInt(counts + 8, 0);

            final SnapshotFormatException ex = assertThrows(SnapshotFormatException.class,
                () -> Snapshot.load(copy, ByteBuffer.wrap(Worlds.reseal(snapshot))));

            assertTrue(ex.getMessage().contains("its in-place free list does not link each of its 0 tombstones once"),
                ex.getMessage());
            assertEquals(NEW_WORLD, Worlds.digest(copy));
        }
    }

    @Test
    void aLoadThatRunsOutOfMemoryAnywhereLeavesTheWorldNew()
    {
        final int indices = 1 << 20;
        final String fresh;
        try (World empty = new World(indices))
        {
            fresh = Worlds.digest(empty);
        }
        try (World world = new World(indices))
        {
            Worlds.grow(world, new Random(5), 3_000);
            final ByteBuffer snapshot = Worlds.save(world);
            int refused = 0;
            for (long budget = 0; ; budget += 512)
            {
                try (World copy = new World(indices, budget))
                {
                    try
                    {
                        Snapshot.load(copy, snapshot.duplicate());
                    }
                    catch (final dev.cairn.OffHeapExhaustedException ex)
                    {
                        refused++;
                        assertEquals(fresh, Worlds.digest(copy), "refused with a budget of " + budget);
                        continue;
                    }
                    assertEquals(Worlds.digest(world), Worlds.digest(copy), "loaded with a budget of " + budget);
                    break;
                }
            }
            assertTrue(refused > 10, "the budget ran out at many points of the load: " + refused);
        }
    }
}
