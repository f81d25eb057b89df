package dev.cairn.snapshots;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.snapshots.SnapshotFixtures.Heat;
import dev.cairn.snapshots.SnapshotFixtures.Link;
import dev.cairn.snapshots.SnapshotFixtures.Marked;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link World#destroy(long[], int)}: many entities destroyed in one call, with the result of destroying each in turn,
 * all or none. Runs on the random worlds of the snapshot tests, which hold every policy, tags, tracked components and
 * references.
 */
class DestroyManyTest
{
    @Test
    void destroyingManyLeavesTheWorldExactlyAsDestroyingEachInTurnWithOrWithoutListenersAndGroups()
    {
        for (int seed = 0; seed < 30; seed++)
        {
            final int kind = seed % 3;
            try (World batch = new World(); World single = new World())
            {
                final List<String> heard = new ArrayList<>();
                final List<String> heardSingle = new ArrayList<>();
                Worlds.grow(batch, new Random(seed), 2_000);
                Worlds.grow(single, new Random(seed), 2_000);
                prepare(batch, kind, heard);
                prepare(single, kind, heardSingle);
                final List<Long> alive = new ArrayList<>();
                batch.forEachEntity(alive::add);
                java.util.Collections.shuffle(alive, new Random(seed));
                final long[] doomed = alive.subList(0, alive.size() * (1 + seed % 4) / 4).stream()
                    .mapToLong(Long::longValue).toArray();

                batch.destroy(doomed, doomed.length);
                for (final long entity : doomed)
                {
                    single.destroy(entity);
                }

                assertEquals(Worlds.digest(single), Worlds.digest(batch), "seed " + seed);
                assertEquals(heardSingle, heard, "listeners hear the same, in the same order");
                for (final long entity : doomed)
                {
                    assertFalse(batch.valid(entity));
                }
                assertEquals(single.create(), batch.create(), "the freed indices come back in the same order");
            }
        }
    }

    /** kind 0: nothing listens; 1: listeners on the world and a storage; 2: a group and an observer. */
    private static void prepare(final World world, final int kind, final List<String> heard)
    {
        if (kind == 1)
        {
            world.onDestroying(entity -> heard.add("destroying " + Entity.toString(entity)));
            world.storage(SnapshotFixtures_LinkStorage.TYPE)
                .onRemoving((entity, index) -> heard.add("link off " + Entity.toString(entity)));
        }
        else if (kind == 2)
        {
            world.group().owning(Link.class).with(Heat.class).without(Marked.class).build();
            world.observer().onAdded(Link.class).build();
        }
    }

    @Test
    void aDeadOrRepeatedHandleIsNamedAndNothingIsDestroyed()
    {
        for (final boolean listened : new boolean[] {false, true})
        {
            try (World world = new World())
            {
                if (listened)
                {
                    world.onDestroying(entity -> { });
                }
                final long a = world.create();
                final long b = world.create();
                final long c = world.create();
                world.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(b, a, c, 1);
                final long gone = world.create();
                world.destroy(gone);
                final String before = Worlds.digest(world);

                final IllegalArgumentException dead = assertThrows(IllegalArgumentException.class,
                    () -> world.destroy(new long[] {a, b, gone, c}, 4));
                final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> world.destroy(new long[] {a, b, c, b}, 4));
                final IllegalArgumentException nul = assertThrows(IllegalArgumentException.class,
                    () -> world.destroy(new long[] {a, Entity.NULL}, 2));

                assertTrue(dead.getMessage().contains("entities[2]") &&
                    dead.getMessage().contains(Entity.toString(gone)), dead.getMessage());
                assertTrue(twice.getMessage().contains("entities[3]") &&
                    twice.getMessage().contains("is there twice, the first time at entities[1]"), twice.getMessage());
                assertTrue(nul.getMessage().contains("entities[1]") && nul.getMessage().contains("NULL"),
                    nul.getMessage());
                assertTrue(dead.getMessage().contains("none of the 4 entities was destroyed"), dead.getMessage());
                assertEquals(before, Worlds.digest(world));
                assertThrows(IndexOutOfBoundsException.class, () -> world.destroy(new long[] {a, b}, 3));
                assertThrows(IndexOutOfBoundsException.class, () -> world.destroy(new long[] {a, b}, -1));
                assertEquals(before, Worlds.digest(world));
                world.destroy(new long[] {c, a}, 2);
                assertEquals(List.of(b), aliveOf(world));
            }
        }
    }

    @Test
    void aDestroyAListenerMakesWaitsForTheBulkDestroyToEndAndWhatListenersThrowComesAtTheEnd()
    {
        try (World world = new World())
        {
            final long a = world.create();
            final long b = world.create();
            final long c = world.create();
            final List<String> heard = new ArrayList<>();
            world.onDestroying(entity ->
            {
                heard.add(Entity.toString(entity));
                if (entity == a)
                {
                    world.destroy(c);
                    heard.add(Entity.toString(c) + (world.valid(c) ? " still alive" : " gone"));
                    throw new IllegalStateException("listener failed on " + Entity.toString(entity));
                }
            });

            final IllegalStateException thrown =
                assertThrows(IllegalStateException.class, () -> world.destroy(new long[] {a, b, c}, 3));

            assertEquals("listener failed on 0v0", thrown.getMessage());
            assertEquals(List.of("0v0", "2v0 still alive", "1v0", "2v0"), heard,
                "the listener's destroy waited, so the bulk destroy met c alive and destroyed it, once");
            assertEquals(0, world.aliveCount(), "every entity went, the failing listener's included");
        }
    }

    private static List<Long> aliveOf(final World world)
    {
        final List<Long> alive = new ArrayList<>();
        world.forEachEntity(alive::add);
        return alive;
    }
}
