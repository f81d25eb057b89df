package dev.cairn.snapshots;

import dev.cairn.world.World;
import dev.cairn.snapshot.Snapshot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random worlds round-trip exactly: every component kind (all primitives, enums, nested records, entity references,
 * tags, a tracked component) under every policy, grown by random creations, destructions, additions, removals, sorts,
 * compactions, clears and ticks, in worlds whose small id spaces make indices recycle with climbing versions. After a
 * load the copy's digest (entities, packed orders, tombstones, released entries, values, ticks) equals the source's,
 * and the same further random operations on both keep them equal, which checks the state a digest cannot see (free
 * lists, free stacks, sparse arrays) by its effects. Every other seed loads with its storages read in parallel.
 */
class SnapshotModelTest
{
    static LongStream seeds()
    {
        return LongStream.range(0, 48);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aRandomWorldRoundTripsAndBehavesTheSameAfterwards(final long seed)
    {
        final Random random = new Random(seed);
        final int maxEntities = random.nextBoolean() ? 24 + random.nextInt(40) : 2_000;
        final int operations = 50 + random.nextInt(seed % 6 == 0 ? 6_000 : 1_200);
        try (World source = new World(maxEntities); World copy = new World(maxEntities))
        {
            Worlds.grow(source, random, operations);
            final ByteBuffer snapshot = Worlds.save(source);

            if (seed % 2 == 0)
            {
                Snapshot.load(copy, snapshot);
            }
            else
            {
                Snapshot.load(copy, snapshot, ForkJoinPool.commonPool());
            }

            assertEquals(0, snapshot.remaining(), "the load consumed the whole snapshot");
            assertEquals(Worlds.digest(source), Worlds.digest(copy));
            assertArrayEquals(Worlds.bytes(Worlds.save(source)), Worlds.bytes(Worlds.save(copy)),
                "saving the copy writes the same bytes");

            final long next = random.nextLong();
            Worlds.grow(source, new Random(next), 400);
            Worlds.grow(copy, new Random(next), 400);
            assertEquals(Worlds.digest(source), Worlds.digest(copy), "the worlds diverged after the load");
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aChannelCarriesTheSameBytesAsABuffer(final long seed)
    {
        if (seed % 4 != 0)
        {
            return;
        }
        final Random random = new Random(seed);
        try (World source = new World(); World copy = new World())
        {
            Worlds.grow(source, random, 3_000);
            final ByteArrayOutputStream out = new ByteArrayOutputStream();

            Snapshot.save(source, Channels.newChannel(out));
            Snapshot.load(copy, Channels.newChannel(new java.io.ByteArrayInputStream(out.toByteArray())));

            assertArrayEquals(Worlds.bytes(Worlds.save(source)), out.toByteArray());
            assertEquals(Worlds.digest(source), Worlds.digest(copy));
        }
    }
}
