package dev.cairn.parallel;

import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A system that records random structural changes from a parallel iteration, applied after each round, leaves the
 * world exactly as the same changes made directly, one after the other in sequential iteration order (the model),
 * on every thread count and chunk size, and on repeated runs.
 */
final class CommandBufferModelTest
{
    private static final ForkJoinPool[] POOLS = {new ForkJoinPool(1), new ForkJoinPool(2), new ForkJoinPool(8)};
    private static final int ROUNDS = 4;

    @AfterAll
    static void shutDown()
    {
        for (final ForkJoinPool pool : POOLS)
        {
            pool.shutdownNow();
        }
    }

    @Test
    void parallelRecordingAppliedEqualsTheDirectSequentialModelOnEveryThreadCountAndChunkSize()
    {
        for (final long seed : new long[]{1, 2, 3})
        {
            final String model = directModel(seed);
            for (final ForkJoinPool pool : POOLS)
            {
                for (final int chunk : new int[]{1, 5, 100, Chunks.AUTOMATIC})
                {
                    assertEquals(model, recorded(seed, pool, chunk),
                        "seed " + seed + ", " + pool.getParallelism() + " threads, chunk " + chunk);
                }
            }
            assertEquals(model, recorded(seed, POOLS[2], 3), "a repeated run");
            assertEquals(model, recorded(seed, ForkJoinPool.commonPool(), 7),
                "the common pool, whose workers drop their thread-local values between tasks");
        }
    }

    /** Runs the system in parallel, recording into a command buffer applied after each round. */
    private static String recorded(final long seed, final ForkJoinPool pool, final int chunk)
    {
        try (World world = new World(1 << 16))
        {
            final long[] victims = populate(world, seed);
            final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
            final CommandBuffer commands = new CommandBuffer(world);
            final CommandSinks.Sink sink = new CommandSinks.Recorded(world, commands);
            for (int round = 0; round < ROUNDS; round++)
            {
                final int r = round;
                movers.parallelForEach(pool, chunk, (entity, position, velocity) ->
                    decide(entity, position.x(), velocity.dx(), r, victims, sink));
                commands.apply();
            }
            return ParallelFixtures.digest(world);
        }
    }

    /** The model: the same decisions made sequentially, then executed directly in that order after each round. */
    private static String directModel(final long seed)
    {
        try (World world = new World(1 << 16))
        {
            final long[] victims = populate(world, seed);
            final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
            for (int round = 0; round < ROUNDS; round++)
            {
                final int r = round;
                final CommandSinks.Direct sink = new CommandSinks.Direct(world);
                movers.forEach((entity, position, velocity) ->
                    decide(entity, position.x(), velocity.dx(), r, victims, sink));
                sink.run();
            }
            final String digest = ParallelFixtures.digest(world);
            assertTrue(world.aliveCount() > 100, digest);
            return digest;
        }
    }

    /** What the system does for one entity: a function of the entity, its values and the round only. */
    private static void decide(
        final long entity,
        final float x,
        final double dx,
        final int round,
        final long[] victims,
        final CommandSinks.Sink sink)
    {
        long hash = entity * 0x9E3779B97F4A7C15L + round * 0xBF58476D1CE4E5B9L;
        hash ^= hash >>> 31;
        if (round % 3 == 2)
        {
            // Long runs of adds, which the playback makes in bulk where it can, broken now and then by a destroy that
            // leaves later adds for a victim to skip, or revives a swap-only health released before.
            if (Long.remainderUnsigned(hash, 40) == 0)
            {
                sink.destroy(victims[(int)Long.remainderUnsigned(hash >>> 8, victims.length)]);
            }
            sink.health(entity, (int)(hash >>> 40) & 0xFF);
            return;
        }
        final int choice = (int)Long.remainderUnsigned(hash, 9);
        switch (choice)
        {
            case 0:
                sink.destroy(entity);
                break;
            case 1:
            {
                final long spark = sink.create();
                sink.position(spark, x + 1f, (float)dx);
                sink.velocity(spark, dx, 1.0);
                sink.follow(spark, entity, (short)round);
                break;
            }
            case 2:
                sink.health(entity, (int)(hash >>> 40) & 0xFF);
                break;
            case 3:
                sink.removeVelocity(entity);
                break;
            case 4:
                sink.patchPosition(entity, x * 0.5f, round);
                break;
            case 5:
                sink.frozen(entity);
                break;
            case 6:
                sink.destroy(victims[(int)Long.remainderUnsigned(hash >>> 8, victims.length)]);
                break;
            case 7:
            {
                final long pair = sink.create();
                sink.follow(pair, entity, (short)-1);
                sink.follow(entity, pair, (short)round);
                sink.patchHealth(entity, round);
                break;
            }
            default:
                break;
        }
    }

    private static long[] populate(final World world, final long seed)
    {
        final Random random = new Random(seed);
        final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
        final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
        final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
        ParallelFixtures.storages(world);
        final long[] entities = new long[1500];
        for (int i = 0; i < entities.length; i++)
        {
            entities[i] = world.create();
            positions.emplace(entities[i], random.nextInt(100), random.nextInt(100));
            if (random.nextInt(4) != 0)
            {
                velocities.emplace(entities[i], random.nextInt(10), random.nextInt(10));
            }
            if (random.nextBoolean())
            {
                healths.emplace(entities[i], random.nextInt(50), true);
            }
        }
        for (int i = 0; i < 100; i++)
        {
            velocities.remove(entities[random.nextInt(entities.length)]);
        }
        return entities;
    }
}
