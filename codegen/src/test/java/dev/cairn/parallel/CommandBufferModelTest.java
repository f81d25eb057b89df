package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.parallel.ParallelFixtures.Mood;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
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
            final Sink sink = new BufferSink(world, commands);
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
                final DirectSink sink = new DirectSink(world);
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
        final long entity, final float x, final double dx, final int round, final long[] victims, final Sink sink)
    {
        long hash = entity * 0x9E3779B97F4A7C15L + round * 0xBF58476D1CE4E5B9L;
        hash ^= hash >>> 31;
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

    /** Where the system's changes go. */
    private interface Sink
    {
        long create();

        void destroy(long entity);

        void position(long entity, float x, float y);

        void patchPosition(long entity, float x, float y);

        void velocity(long entity, double dx, double dy);

        void removeVelocity(long entity);

        void health(long entity, int hp);

        void patchHealth(long entity, int hp);

        void frozen(long entity);

        void follow(long entity, long target, short steps);
    }

    /** Records into a command buffer, from any thread. */
    private static final class BufferSink implements Sink
    {
        private final CommandBuffer commands;
        private final ParallelFixtures_PositionStorage positions;
        private final ParallelFixtures_VelocityStorage velocities;
        private final ParallelFixtures_HealthStorage healths;
        private final ParallelFixtures_FrozenStorage frozen;
        private final ParallelFixtures_FollowStorage follows;

        BufferSink(final World world, final CommandBuffer commands)
        {
            this.commands = commands;
            positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
            healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
            frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
            follows = world.storage(ParallelFixtures_FollowStorage.TYPE);
        }

        @Override
        public long create()
        {
            return commands.create();
        }

        @Override
        public void destroy(final long entity)
        {
            commands.destroy(entity);
        }

        @Override
        public void position(final long entity, final float x, final float y)
        {
            positions.emplace(commands, entity, x, y);
        }

        @Override
        public void patchPosition(final long entity, final float x, final float y)
        {
            positions.patch(commands, entity, x, y);
        }

        @Override
        public void velocity(final long entity, final double dx, final double dy)
        {
            velocities.emplace(commands, entity, dx, dy);
        }

        @Override
        public void removeVelocity(final long entity)
        {
            commands.remove(entity, velocities);
        }

        @Override
        public void health(final long entity, final int hp)
        {
            healths.emplace(commands, entity, hp, hp > 10);
        }

        @Override
        public void patchHealth(final long entity, final int hp)
        {
            healths.patch(commands, entity, hp, false);
        }

        @Override
        public void frozen(final long entity)
        {
            frozen.emplace(commands, entity);
        }

        @Override
        public void follow(final long entity, final long target, final short steps)
        {
            follows.emplace(commands, entity, target, steps % 2 == 0 ? Mood.CALM : Mood.ANGRY, steps);
        }
    }

    /**
     * Collects the changes in order, then makes them with direct calls, as the documentation says a command buffer
     * does: a command on an entity no longer alive does nothing, an add replaces, a patch of a missing component does
     * nothing. A created entity is named by a token until made.
     */
    private static final class DirectSink implements Sink
    {
        private final World world;
        private final ParallelFixtures_PositionStorage positions;
        private final ParallelFixtures_VelocityStorage velocities;
        private final ParallelFixtures_HealthStorage healths;
        private final ParallelFixtures_FrozenStorage frozen;
        private final ParallelFixtures_FollowStorage follows;
        private final List<Runnable> changes = new ArrayList<>();
        private final List<Long> created = new ArrayList<>();

        DirectSink(final World world)
        {
            this.world = world;
            positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
            healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
            frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
            follows = world.storage(ParallelFixtures_FollowStorage.TYPE);
        }

        void run()
        {
            changes.forEach(Runnable::run);
        }

        private long resolve(final long entity)
        {
            return entity >= 0 ? entity : created.get((int)(-entity - 2));
        }

        private void onAlive(final long token, final java.util.function.LongConsumer change)
        {
            changes.add(() ->
            {
                final long entity = resolve(token);
                if (world.valid(entity))
                {
                    change.accept(entity);
                }
            });
        }

        @Override
        public long create()
        {
            final long token = -(created.size() + 2);
            created.add(Entity.NULL);
            changes.add(() -> created.set((int)(-token - 2), world.create()));
            return token;
        }

        @Override
        public void destroy(final long entity)
        {
            onAlive(entity, world::destroy);
        }

        @Override
        public void position(final long entity, final float x, final float y)
        {
            onAlive(entity, e ->
            {
                if (positions.contains(e))
                {
                    positions.patch(e, x, y);
                }
                else
                {
                    positions.emplace(e, x, y);
                }
            });
        }

        @Override
        public void patchPosition(final long entity, final float x, final float y)
        {
            onAlive(entity, e ->
            {
                if (positions.contains(e))
                {
                    positions.patch(e, x, y);
                }
            });
        }

        @Override
        public void velocity(final long entity, final double dx, final double dy)
        {
            onAlive(entity, e ->
            {
                if (velocities.contains(e))
                {
                    velocities.patch(e, dx, dy);
                }
                else
                {
                    velocities.emplace(e, dx, dy);
                }
            });
        }

        @Override
        public void removeVelocity(final long entity)
        {
            onAlive(entity, velocities::remove);
        }

        @Override
        public void health(final long entity, final int hp)
        {
            onAlive(entity, e ->
            {
                if (healths.contains(e))
                {
                    healths.patch(e, hp, hp > 10);
                }
                else
                {
                    healths.emplace(e, hp, hp > 10);
                }
            });
        }

        @Override
        public void patchHealth(final long entity, final int hp)
        {
            onAlive(entity, e ->
            {
                if (healths.contains(e))
                {
                    healths.patch(e, hp, false);
                }
            });
        }

        @Override
        public void frozen(final long entity)
        {
            onAlive(entity, e ->
            {
                if (!frozen.contains(e))
                {
                    frozen.emplace(e);
                }
            });
        }

        @Override
        public void follow(final long entity, final long target, final short steps)
        {
            onAlive(entity, e ->
            {
                final long resolved = resolve(target);
                final Mood mood = steps % 2 == 0 ? Mood.CALM : Mood.ANGRY;
                if (follows.contains(e))
                {
                    follows.patch(e, resolved, mood, steps);
                }
                else
                {
                    follows.emplace(e, resolved, mood, steps);
                }
            });
        }
    }
}
