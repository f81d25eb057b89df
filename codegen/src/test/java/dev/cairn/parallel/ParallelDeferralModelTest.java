package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.parallel.DeferralSubjects.Engine;
import dev.cairn.parallel.DeferralSubjects.Model;
import dev.cairn.parallel.DeferralSubjects.Reader;
import dev.cairn.parallel.DeferralSubjects.Sink;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Heat;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.parallel.ParallelFixtures.Velocity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule of change in parallel walks, against two references. A system walks a view or a group (swap-and-pop,
 * in-place, swap-only and tag leads, an owning group by entity, by index and by block, a non-owning group, a runtime
 * view) and its actions make direct structural changes: destroys, removals and additions to the visited entity and to
 * others, additions that later ones overwrite, joins and leaves of the owning group, a storage's clear, field writes;
 * a listener of one addition removes another component. Run in parallel on every thread count and chunk size, the
 * world must come out exactly, packed arrays and group order included, as the same actions leave it in a sequential
 * walk; and the sequential walk must visit exactly the entities that matched when it began and leave the world as a
 * brute-force model does that makes the changes in order at the walk's end (an entity no longer alive drops its
 * change, an addition of a component the entity has by then overwrites it, a removal of one it lacks by then does
 * nothing, one recorded after an addition of the same walk undoes it), with what the listener records made in the
 * rounds after.
 */
final class ParallelDeferralModelTest
{
    private static final ForkJoinPool[] POOLS = {new ForkJoinPool(1), new ForkJoinPool(2), new ForkJoinPool(8)};
    private static final int[] CHUNK_SIZES = {1, 7, 100, Chunks.AUTOMATIC};

    @AfterAll
    static void shutDown()
    {
        for (final ForkJoinPool pool : POOLS)
        {
            pool.shutdownNow();
        }
    }

    @Test
    void parallelDirectChangesEqualTheSequentialWalkAndItTheModelOnEveryThreadCountAndChunkSize()
    {
        for (final long seed : new long[] {1, 2, 3, 4})
        {
            run(seed, 14, 1_200);
        }
    }

    @Test
    void theCommonPoolWhoseWorkersForgetTheirThreadLocalsGivesTheSameWorld()
    {
        run(5, 6, 3_000, ForkJoinPool.commonPool(), 16);
    }

    private static void run(final long seed, final int rounds, final int count)
    {
        run(seed, rounds, count, null, 0);
    }

    /**
     * Runs {@code rounds} walks on a sequential engine, parallel engines (every pool and chunk size, or the one given)
     * and the model, all grown alike, comparing them after each walk.
     */
    private static void run(
        final long seed, final int rounds, final int count, final ForkJoinPool onlyPool, final int onlyChunk)
    {
        final Map<String, Engine> parallel = new LinkedHashMap<>();
        try (Engine sequential = new Engine(null, 0))
        {
            if (onlyPool != null)
            {
                parallel.put(onlyPool + ", chunk " + onlyChunk, new Engine(onlyPool, onlyChunk));
            }
            else
            {
                for (final ForkJoinPool pool : POOLS)
                {
                    for (final int chunk : CHUNK_SIZES)
                    {
                        parallel.put(pool.getParallelism() + " threads, chunk " + chunk, new Engine(pool, chunk));
                    }
                }
            }
            final Model model = new Model();
            final Random random = new Random(seed);
            final List<Long> victims = new ArrayList<>();
            grow(random, count, sequential, parallel, model, victims);
            for (int round = 0; round < rounds; round++)
            {
                final int kind = random.nextInt(DeferralSubjects.WALK_KINDS);
                final int r = round;
                final String where = "seed " + seed + ", round " + round + ", walk " + kind;

                final List<Long> order = new ArrayList<>();
                sequential.walk(kind, entity ->
                {
                    order.add(entity);
                    decide(seed, r, entity, victims, sequential, sequential);
                });
                assertEquals(model.matching(kind), new HashSet<>(order),
                    where + ": the sequential walk visits the entities matching when it began");
                assertEquals(order.size(), new HashSet<>(order).size(), where + ": each once");
                model.walk(order, entity -> decide(seed, r, entity, victims, model, model));
                final String layout = ParallelFixtures.layout(sequential.world);
                final String expected = model.digest();
                final String actual = ParallelFixtures.digest(sequential.world);
                assertEquals(expected, actual, () -> where + ": against the model, " +
                    DeferralSubjects.difference(expected, actual));

                for (final Map.Entry<String, Engine> engine : parallel.entrySet())
                {
                    final Set<Long> visited = ConcurrentHashMap.newKeySet();
                    engine.getValue().walk(kind, entity ->
                    {
                        if (!visited.add(entity))
                        {
                            throw new AssertionError("visited twice: " + Entity.toString(entity));
                        }
                        decide(seed, r, entity, victims, engine.getValue(), engine.getValue());
                    });
                    assertEquals(new HashSet<>(order), visited, where + " on " + engine.getKey());
                    assertEquals(layout, ParallelFixtures.layout(engine.getValue().world),
                        where + " on " + engine.getKey());
                }
                if (round % 3 == 2)
                {
                    grow(random, count / 10, sequential, parallel, model, victims);
                }
            }
            assertTrue(sequential.world.aliveCount() > 0, "seed " + seed + ": the world did not die out");
        }
        finally
        {
            parallel.values().forEach(Engine::close);
        }
    }

    /**
     * What an action does for one entity: two changes chosen by a hash of the seed, the round and the entity (a
     * storage's clear rarely), deciding by what the world answers during the walk only.
     */
    private static void decide(
        final long seed, final int round, final long entity, final List<Long> victims, final Reader read,
        final Sink change)
    {
        long hash = (entity + 1) * 0x9E3779B97F4A7C15L + (round + 1) * 0xBF58476D1CE4E5B9L + seed * 0x94D049BB133111EBL;
        for (int op = 0; op < 2; op++)
        {
            hash ^= hash >>> 29;
            hash *= 0xBF58476D1CE4E5B9L;
            hash ^= hash >>> 32;
            final long victim = victims.get((int)Long.remainderUnsigned(hash >>> 20, victims.size()));
            int choice = (int)Long.remainderUnsigned(hash, 23);
            if (choice == 17 && Long.remainderUnsigned(hash >>> 8, 40) != 0)
            {
                choice = DeferralSubjects.CHANGES;
            }
            DeferralSubjects.change(choice, entity, victim, (int)(hash >>> 40), round, read, change);
        }
    }

    /**
     * Creates {@code count} entities with random components in every engine and the model, which takes the handles
     * the sequential engine hands out (the parallel engines must hand out the same).
     */
    private static void grow(
        final Random random,
        final int count,
        final Engine sequential,
        final Map<String, Engine> parallel,
        final Model model,
        final List<Long> victims)
    {
        for (int i = 0; i < count; i++)
        {
            final List<Record> components = new ArrayList<>();
            if (random.nextInt(4) != 0)
            {
                components.add(new Position(random.nextInt(100), random.nextInt(100)));
                if (random.nextBoolean())
                {
                    components.add(new Heat(random.nextInt(100)));
                }
            }
            if (random.nextInt(3) != 0)
            {
                components.add(new Velocity(random.nextInt(10), random.nextInt(10)));
            }
            if (random.nextBoolean())
            {
                components.add(new Health(random.nextInt(50), true));
            }
            final long entity = sequential.create(components);
            for (final Map.Entry<String, Engine> engine : parallel.entrySet())
            {
                assertEquals(entity, engine.getValue().create(components), engine.getKey() + ": the same handle");
            }
            model.create(entity, components);
            victims.add(entity);
        }
    }
}
