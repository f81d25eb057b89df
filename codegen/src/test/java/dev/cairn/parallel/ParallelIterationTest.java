package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.World;
import dev.cairn.parallel.ParallelFixtures.Frozen;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.parallel.ParallelFixtures.Velocity;
import dev.cairn.view.RuntimeView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parallel iteration of generated views, groups and runtime views: each visits exactly the entities its sequential
 * iteration visits, once, whatever the thread count and chunk size; writes land; structural changes from an action are
 * refused and change nothing; failures reach the caller.
 */
final class ParallelIterationTest
{
    private static final int[] THREADS = {1, 2, 3, 8};
    private static final int[] CHUNK_SIZES = {1, 7, 64, Chunks.AUTOMATIC};
    private static final Map<Integer, ForkJoinPool> POOLS = new HashMap<>();

    private final World world = new World(1 << 16);
    private final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
    private final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
    private final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
    private final ParallelFixtures_FrozenStorage frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
    private final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @AfterAll
    static void shutDown()
    {
        POOLS.values().forEach(ForkJoinPool::shutdownNow);
    }

    private static ForkJoinPool pool(final int threads)
    {
        synchronized (POOLS)
        {
            return POOLS.computeIfAbsent(threads, ForkJoinPool::new);
        }
    }

    @Test
    void eachIterationVisitsExactlyTheSequentialEntitiesOnceForEveryThreadCountAndChunkSize()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        final ParallelFixtures_ToughGroup tough = new ParallelFixtures_ToughGroup(world);
        populate(new Random(7), 3000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final ParallelFixtures_FrozensView frozens = new ParallelFixtures_FrozensView(world);
        final RuntimeView runtime = world.view(Health.class, Position.class).without(Frozen.class);
        final Map<String, Iteration> iterations = new LinkedHashMap<>();
        iterations.put("Movers (in-place or swap-and-pop lead)", new Iteration(
            action -> movers.forEach((entity, position, velocity) -> action.accept(entity)),
            (pool, chunk, action) -> movers.parallelForEach(pool, chunk, (entity, position, velocity) ->
            {
                assertEquals(entity, position.entity());
                assertEquals(entity, velocity.entity());
                action.accept(entity);
            })));
        iterations.put("Living (swap-only lead)", new Iteration(
            action -> living.forEach((entity, health) -> action.accept(entity)),
            (pool, chunk, action) -> living.parallelForEach(pool, chunk, (entity, health) -> action.accept(entity))));
        iterations.put("Frozens (tag lead)", new Iteration(
            action -> frozens.forEach(action::accept), (pool, chunk, action) -> frozens.parallelForEach(pool, chunk,
            action::accept)));
        iterations.put("RuntimeView", new Iteration(runtime::forEach, runtime::parallelForEach));
        iterations.put("Hot (full-owning group)", new Iteration(
            action -> hot.forEach((entity, position, heat) -> action.accept(entity)),
            (pool, chunk, action) -> hot.parallelForEach(pool, chunk, (entity, position, heat) ->
            {
                assertEquals(entity, heat.entity());
                action.accept(entity);
            })));
        iterations.put("Tough (non-owning group)", new Iteration(
            action -> tough.forEach((entity, health, velocity) -> action.accept(entity)),
            (pool, chunk, action) -> tough.parallelForEach(pool, chunk,
                (entity, health, velocity) -> action.accept(entity))));

        for (final Map.Entry<String, Iteration> iteration : iterations.entrySet())
        {
            final List<Long> sequential = new ArrayList<>();
            iteration.getValue().sequential.accept(sequential::add);
            assertTrue(sequential.size() > 100, iteration.getKey() + " visits " + sequential.size());
            for (final int threads : THREADS)
            {
                for (final int chunk : CHUNK_SIZES)
                {
                    final ConcurrentHashMap<Long, AtomicInteger> visits = new ConcurrentHashMap<>();
                    iteration.getValue().parallel.run(pool(threads), chunk,
                        entity -> visits.computeIfAbsent(entity, e -> new AtomicInteger()).incrementAndGet());
                    final String where = iteration.getKey() + " on " + threads + " threads, chunk " + chunk;
                    assertEquals(sequential.size(), visits.size(), where);
                    for (final long entity : sequential)
                    {
                        assertEquals(1, visits.get(entity).get(), where + ": " + Entity.toString(entity));
                    }
                }
            }
        }
        assertFalse(world.isStructureLocked());
    }

    @Test
    void fieldWritesOfTheVisitedEntityLandAndEqualASequentialRun()
    {
        populate(new Random(11), 5000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final Map<Long, Float> expected = new HashMap<>();
        movers.forEach((entity, position, velocity) ->
            expected.put(entity, (float)(position.x() + velocity.dx() * 0.5)));

        movers.parallelForEach(pool(4), 16, (entity, position, velocity) ->
            position.x((float)(position.x() + velocity.dx() * 0.5)));

        for (final Map.Entry<Long, Float> entry : expected.entrySet())
        {
            assertEquals(entry.getValue(), positions.x(entry.getKey()), Entity.toString(entry.getKey()));
        }
    }

    @Test
    void structuralChangesFromAnActionAreRefusedUnderEveryPolicyAndChangeNothing()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        populate(new Random(3), 400);
        final long spare = world.create();
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        positions.onUpdated((entity, index) -> { });
        final Map<String, LongConsumer> changes = new LinkedHashMap<>();
        changes.put("create", entity -> world.create());
        changes.put("destroy", world::destroy);
        changes.put("remove swap-and-pop", positions::remove);
        changes.put("remove in-place", velocities::remove);
        changes.put("remove swap-only", healths::remove);
        changes.put("add in-place tag", entity -> frozen.emplace(spare));
        changes.put("add swap-only", entity -> healths.emplace(spare, 1, true));
        changes.put("patch a signalled storage", entity -> positions.patch(entity, 1f, 1f));
        changes.put("clear a storage", entity -> velocities.clear());
        changes.put("clear the world", entity -> world.clear());
        changes.put("sort", entity -> velocities.sort(velocities.comparingDx()));
        changes.put("compact", entity -> velocities.compact());
        changes.put("sort a group", entity -> hot.sort(positions.comparingX()));
        changes.put("reserve", entity -> healths.reserve(100_000));
        changes.put("a new storage", entity -> world.storage(dev.cairn.views.ViewFixtures_PosStorage.TYPE));
        changes.put("a new group", entity -> new ParallelFixtures_ToughGroup(world));
        changes.put("a new observer", entity -> world.observer().onAdded(Health.class).build());
        changes.put("connect a listener", entity -> healths.onAdded((e, i) -> { }));
        changes.put("advance the tick", entity -> world.advanceTick());
        final String before = ParallelFixtures.digest(world);
        final int tick = world.tick();

        for (final Map.Entry<String, LongConsumer> change : changes.entrySet())
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) ->
                    change.getValue().accept(entity)), change.getKey());

            assertTrue(refused.getMessage().contains("ParallelFixtures_MoversView.parallelForEach runs on several " +
                "threads") && refused.getMessage().contains("CommandBuffer"), change.getKey() + ": " +
                refused.getMessage());
            assertEquals(before, ParallelFixtures.digest(world), change.getKey() + " changed the world");
            assertFalse(world.isStructureLocked(), "unlocked once the iteration returned");
        }
        assertEquals(tick, world.tick());
        final IllegalStateException close = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) -> world.close()));
        assertTrue(close.getMessage().contains("cannot be closed while"), close.getMessage());
        assertFalse(world.isClosed());
        final long after = world.create();
        positions.emplace(after, 1f, 2f);
        assertTrue(positions.contains(after), "structural changes work again after the iteration");
    }

    @Test
    void theFirstExceptionReachesTheCallerWithTheOthersSuppressedAndTheWorldIsUsableAfter()
    {
        populate(new Random(5), 4000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final AtomicInteger thrown = new AtomicInteger();

        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> movers.parallelForEach(pool(4), 1, (entity, position, velocity) ->
            {
                if (thrown.incrementAndGet() <= 3)
                {
                    throw new IllegalArgumentException("action failed for " + Entity.toString(entity));
                }
            }));

        assertTrue(failure.getMessage().startsWith("action failed for"));
        assertTrue(failure.getSuppressed().length <= 2);
        assertFalse(world.isStructureLocked());
        final AssertionError error = assertThrows(AssertionError.class,
            () -> movers.parallelForEach(pool(2), 64, (entity, position, velocity) ->
            {
                throw new AssertionError("an error too");
            }));
        assertEquals("an error too", error.getMessage());
        movers.forEach((entity, position, velocity) -> world.destroy(entity));
        assertEquals(0, movers.count());
    }

    @Test
    void parallelIterationsDoNotNestAndArgumentsAreChecked()
    {
        populate(new Random(9), 200);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final AtomicInteger inner = new AtomicInteger();

        final IllegalStateException nested = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) ->
                living.parallelForEach((e, health) -> inner.incrementAndGet())));

        assertTrue(nested.getMessage().contains("parallel iterations do not nest"), nested.getMessage());
        assertEquals(0, inner.get());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> movers.parallelForEach(pool(2), -1, (entity, position, velocity) -> { }));
        assertTrue(negative.getMessage().contains("chunk size -1 is negative"), negative.getMessage());
        assertThrows(NullPointerException.class,
            () -> movers.parallelForEach(null, 8, (entity, position, velocity) -> { }));
        assertThrows(NullPointerException.class, () -> movers.parallelForEach(null));
        assertFalse(world.isStructureLocked());
        final int[] readsOtherEntities = {0};
        living.parallelForEach(pool(1), 4, (entity, health) ->
        {
            if (positions.contains(entity))
            {
                synchronized (readsOtherEntities)
                {
                    readsOtherEntities[0]++;
                }
            }
        });
        assertTrue(readsOtherEntities[0] > 0);
    }

    @Test
    void aViewIteratedByOneThreadRefusesAForEachFromAnother() throws Exception
    {
        populate(new Random(2), 100);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final Thread first = new Thread(() -> living.forEach((entity, health) ->
        {
            inside.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }), "first-iterator");
        first.start();
        inside.await();

        final IllegalStateException shared =
            assertThrows(IllegalStateException.class, () -> living.forEach((entity, health) -> { }));

        release.countDown();
        first.join();
        assertTrue(shared.getMessage().contains("while first-iterator iterates it") &&
            shared.getMessage().contains("give each thread its own ParallelFixtures_LivingView"), shared.getMessage());
        final AtomicInteger visits = new AtomicInteger();
        living.forEach((entity, health) -> visits.incrementAndGet());
        assertEquals(living.count(), visits.get(), "usable again once the other thread's loop returned");
    }

    @Test
    void anEmptyViewOrAClosedWorldRunsNoAction()
    {
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        movers.parallelForEach((entity, position, velocity) ->
        {
            throw new AssertionError("nothing to visit");
        });
        world.close();
        assertThrows(IllegalStateException.class, () -> movers.parallelForEach((entity, position, velocity) -> { }));
    }

    @Test
    void aRunAllocatesPerChunkNotPerEntity() throws Exception
    {
        final List<Thread> workers = new java.util.concurrent.CopyOnWriteArrayList<>();
        final ForkJoinPool two = new ForkJoinPool(2, pool ->
        {
            final java.util.concurrent.ForkJoinWorkerThread worker =
                ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            workers.add(worker);
            return worker;
        }, null, false);
        try
        {
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
            final long small = allocatedByARun(two, threads, workers, 4_000);
            final long large = allocatedByARun(two, threads, workers, 40_000);
            assertTrue(Math.abs(large - small) < 4096 && large < 16384,
                "bytes allocated by a run of 4 chunks over 4,000 entities: " + small + ", over 40,000: " + large);
            assertEquals(Chunks.MIN_AUTOMATIC_CHUNK, Chunks.automaticSize(100, 8));
            assertEquals(12_500, Chunks.automaticSize(1_000_000, 10));
        }
        finally
        {
            two.shutdownNow();
        }
    }

    /** The fewest bytes one of 30 runs of 4 chunks over {@code count} entities allocated, on every thread. */
    private static long allocatedByARun(
        final ForkJoinPool pool,
        final com.sun.management.ThreadMXBean threads,
        final List<Thread> workers,
        final int count)
    {
        try (World other = new World(1 << 17))
        {
            final ParallelFixtures_PositionStorage positions = other.storage(ParallelFixtures_PositionStorage.TYPE);
            final ParallelFixtures_VelocityStorage velocities = other.storage(ParallelFixtures_VelocityStorage.TYPE);
            for (int i = 0; i < count; i++)
            {
                final long entity = other.create();
                positions.emplace(entity, i, i);
                velocities.emplace(entity, 1, 1);
            }
            final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(other);
            final float[] sink = new float[1];
            long fewest = Long.MAX_VALUE;
            for (int round = 0; round < 30; round++)
            {
                final long before = allocatedBy(threads, workers);
                movers.parallelForEach(pool, count / 4, (entity, position, velocity) -> sink[0] += position.x() * 0f);
                fewest = Math.min(fewest, allocatedBy(threads, workers) - before);
            }
            return fewest;
        }
    }

    private static long allocatedBy(final com.sun.management.ThreadMXBean threads, final List<Thread> workers)
    {
        long bytes = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (final Thread worker : workers)
        {
            bytes += Math.max(0, threads.getThreadAllocatedBytes(worker.getId()));
        }
        return bytes;
    }

    /** Entities with random components of every policy, with removals in between so that every lead has holes. */
    private void populate(final Random random, final int count)
    {
        final List<Long> entities = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final long entity = world.create();
            entities.add(entity);
            if (random.nextInt(4) != 0)
            {
                positions.emplace(entity, random.nextFloat(), random.nextFloat());
            }
            if (random.nextInt(3) != 0)
            {
                velocities.emplace(entity, random.nextDouble(), random.nextDouble());
            }
            if (random.nextBoolean())
            {
                healths.emplace(entity, random.nextInt(100), true);
            }
            if (random.nextInt(5) == 0)
            {
                frozen.emplace(entity);
            }
            if (positions.contains(entity) && random.nextBoolean())
            {
                heats.emplace(entity, random.nextFloat());
            }
            if (random.nextInt(6) == 0)
            {
                final long victim = entities.get(random.nextInt(entities.size()));
                if (world.valid(victim))
                {
                    velocities.remove(victim);
                    healths.remove(victim);
                    frozen.remove(victim);
                    if (random.nextBoolean())
                    {
                        world.destroy(victim);
                    }
                }
            }
        }
    }

    /** A sequential iteration and its parallel counterpart, both reduced to the entity. */
    private record Iteration(Consumer<LongConsumer> sequential, Parallel parallel)
    {
    }

    @FunctionalInterface
    private interface Parallel
    {
        void run(ForkJoinPool pool, int chunkSize, LongConsumer action);
    }
}
