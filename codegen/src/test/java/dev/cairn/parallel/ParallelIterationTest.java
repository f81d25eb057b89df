package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.parallel.ParallelFixtures.Frozen;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.parallel.ParallelFixtures.Velocity;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.signal.Connection;
import dev.cairn.snapshot.ContinuousLoader;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.view.RuntimeView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
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
        assertFalse(world.isDeferring());
    }

    @Test
    void askingAboutAComponentNoEntityHasChangesNothingAndIsAllowedInParallel()
    {
        try (World fresh = new World(1 << 12))
        {
            final ParallelFixtures_PositionStorage ps = fresh.storage(ParallelFixtures_PositionStorage.TYPE);
            for (int i = 0; i < 2000; i++)
            {
                ps.emplace(fresh.create(), i, i);
            }
            final AtomicInteger answered = new AtomicInteger();
            fresh.view(Position.class).parallelForEach(pool(4), 64, entity ->
            {
                assertFalse(fresh.has(entity, Health.class));
                assertFalse(fresh.remove(entity, Health.class), "removing what nobody has changes nothing");
                final IllegalArgumentException lacks =
                    assertThrows(IllegalArgumentException.class, () -> fresh.get(entity, Health.class));
                assertTrue(lacks.getMessage().contains("has no Health"), lacks.getMessage());
                answered.incrementAndGet();
            });
            assertEquals(2000, answered.get());
            assertEquals(1, fresh.storages().size(), "no storage was created by a question");

            final IllegalStateException creating = assertThrows(IllegalStateException.class,
                () -> fresh.view(Position.class).parallelForEach(entity -> fresh.storage(Health.class)));
            assertTrue(creating.getMessage().contains("cannot create the storage of Health while") &&
                creating.getMessage().contains("ask for it before"), creating.getMessage());
            assertEquals(1, fresh.storages().size());
        }
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
        changes.put("reset the world", entity -> world.reset());
        changes.put("destroy many", entity -> world.destroy(new long[] {spare}, 1));
        changes.put("sort", entity -> velocities.sort(velocities.comparingDx()));
        changes.put("compact", entity -> velocities.compact());
        changes.put("sort a group", entity -> hot.sort(positions.comparingX()));
        changes.put("reserve", entity -> healths.reserve(100_000));
        changes.put("a new storage", entity -> world.storage(ParallelFixtures_FollowStorage.TYPE));
        changes.put("a new group", entity -> new ParallelFixtures_ToughGroup(world));
        changes.put("a new observer", entity -> world.observer().onAdded(Health.class).build());
        changes.put("connect a listener", entity -> healths.onAdded((e, i) -> { }));
        final Connection watching = healths.onRemoving((e, i) -> { });
        final Connection counting = world.onCreated(e -> { });
        changes.put("disconnect a component listener", entity -> watching.close());
        changes.put("disconnect a world listener", entity -> counting.close());
        changes.put("advance the tick", entity -> world.advanceTick());
        changes.put("advance the clock", entity -> world.clock().advance());
        changes.put("restore the clock", entity -> world.clock().restore(1_000));
        final String before = ParallelFixtures.digest(world);
        final int tick = world.tick();

        for (final Map.Entry<String, LongConsumer> change : changes.entrySet())
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) ->
                    change.getValue().accept(entity)), change.getKey());

            // A storage is not recorded but asked for before the iteration; every other change goes to a buffer.
            final boolean storage = change.getKey().equals("a new storage");
            assertTrue(refused.getMessage().contains("ParallelFixtures_MoversView.parallelForEach runs" +
                (storage ? "" : " in parallel")) && refused.getMessage().contains(
                storage ? "ask for it before" : "CommandBuffer"), change.getKey() + ": " + refused.getMessage());
            assertEquals(before, ParallelFixtures.digest(world), change.getKey() + " changed the world");
            assertFalse(world.isDeferring(), "unlocked once the iteration returned");
        }
        assertEquals(tick, world.tick());
        assertTrue(watching.isConnected() && counting.isConnected(), "refused disconnects leave the listeners");
        final IllegalStateException close = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) -> world.close()));
        assertTrue(close.getMessage().contains("cannot be closed while"), close.getMessage());
        assertFalse(world.isClosed());
        final long after = world.create();
        positions.emplace(after, 1f, 2f);
        assertTrue(positions.contains(after), "structural changes work again after the iteration");
    }

    @Test
    void closingObserversAndGroupsAndLoadingSnapshotsAreRefusedDuringARunAndChangeNothing()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        final ParallelFixtures_ToughGroup tough = new ParallelFixtures_ToughGroup(world);
        final RuntimeObserver moved = world.observer().onUpdated(Position.class).build();
        populate(new Random(4), 300);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final ByteBuffer snapshot;
        try (World source = new World())
        {
            source.storage(ParallelFixtures_PositionStorage.TYPE).emplace(source.create(), 1f, 2f);
            snapshot = ByteBuffer.allocate((int)Snapshot.sizeOf(source, ParallelFixtures_PositionStorage.TYPE));
            Snapshot.save(source, snapshot, ParallelFixtures_PositionStorage.TYPE);
            snapshot.flip();
        }
        final ContinuousLoader loader = new ContinuousLoader(world);
        final Map<String, Runnable> changes = new LinkedHashMap<>();
        changes.put("close an observer", moved::close);
        changes.put("close a non-owning group", tough::close);
        changes.put("close an owning group", hot::close);
        changes.put("load through a continuous loader", () -> loader.load(snapshot.duplicate()));
        changes.put("load a snapshot", () -> Snapshot.load(world, snapshot.duplicate()));
        final String before = ParallelFixtures.digest(world);
        final int hotSize = hot.size();
        final int toughSize = tough.size();

        for (final Map.Entry<String, Runnable> change : changes.entrySet())
        {
            // From a worker and from the calling thread alike: the caller runs chunks too.
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> living.parallelForEach(pool(2), 16, (entity, health) -> change.getValue().run()),
                change.getKey());

            assertTrue(refused.getMessage().contains("runs in parallel") &&
                refused.getMessage().contains("CommandBuffer"), change.getKey() + ": " + refused.getMessage());
            assertEquals(before, ParallelFixtures.digest(world), change.getKey() + " changed the world");
            assertTrue(moved.isOpen() && hot.isOpen() && tough.isOpen(), change.getKey());
            assertEquals(2, world.groups().size(), change.getKey());
            assertEquals(hotSize, hot.size(), change.getKey());
            assertEquals(toughSize, tough.size(), change.getKey());
        }
        final long mover = positions.entityAt(0);
        positions.patch(mover, 5f, 5f);
        assertTrue(moved.contains(mover), "the observer still follows its storages");
        loader.load(snapshot.duplicate());
        assertEquals(1, loader.size(), "the loader is usable after the refused loads");
        loader.close();
        moved.close();
        tough.close();
        hot.close();
        assertEquals(0, world.groups().size());
    }

    @Test
    void aPatchIsRefusedOnlyWhereSomethingFollowsUpdates()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        populate(new Random(8), 300);
        positions.onAdded((entity, index) -> { });
        positions.onRemoving((entity, index) -> { });
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);

        // Adds, removals and the owning group do not care about updates: patching is fine.
        movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 3f, 4f));
        hot.parallelForEach(pool(2), 16, (entity, position, heat) -> heats.patch(entity, 9f));

        movers.forEach((entity, position, velocity) -> assertEquals(3f, position.x()));
        hot.forEach((entity, position, heat) -> assertEquals(9f, heat.t()));
        final Connection listener = positions.onUpdated((entity, index) -> { });
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 1f, 1f)));
        assertTrue(refused.getMessage().contains("patch or markUpdated (which notify listeners and observers)"),
            refused.getMessage());
        movers.forEach((entity, position, velocity) -> assertEquals(3f, position.x(), "nothing patched"));
        listener.close();
        final RuntimeObserver updated = world.observer().onUpdated(Position.class).build();
        assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 1f, 1f)));
        updated.close();
        movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 1f, 1f));
    }

    @Test
    void aParallelIterationOfAnotherWorldInsideAnActionRecordsInTheSequentialOrder()
    {
        final List<String> results = new ArrayList<>();
        for (final int threads : new int[] {1, 2, 8})
        {
            for (final int chunkSize : new int[] {1, 3, Chunks.AUTOMATIC})
            {
                results.add(nestedRun(threads, chunkSize, true));
            }
        }
        final String sequential = nestedRun(1, 1, false);

        for (final String result : results)
        {
            assertEquals(sequential, result);
        }
    }

    /**
     * Twenty outer entities, each with a small world of its own; each visit records before, during (from an inner
     * iteration of its world) and after, into one buffer of the outer world; the created entities' handles and values
     * tell the order the buffer applied them in.
     */
    private static String nestedRun(final int threads, final int chunkSize, final boolean parallel)
    {
        try (World outer = new World())
        {
            final ParallelFixtures_HealthStorage outerHealths = outer.storage(ParallelFixtures_HealthStorage.TYPE);
            final ParallelFixtures_PositionStorage outerPositions = outer.storage(ParallelFixtures_PositionStorage.TYPE);
            final List<World> inners = new ArrayList<>();
            final Map<Long, ParallelFixtures_LivingView> innerViews = new HashMap<>();
            for (int i = 0; i < 20; i++)
            {
                final long entity = outer.create();
                outerHealths.emplace(entity, i, true);
                final World inner = new World();
                final ParallelFixtures_HealthStorage innerHealths = inner.storage(ParallelFixtures_HealthStorage.TYPE);
                for (int j = 0; j < 9; j++)
                {
                    innerHealths.emplace(inner.create(), 100 * i + j, true);
                }
                inners.add(inner);
                innerViews.put(entity, new ParallelFixtures_LivingView(inner));
            }
            final CommandBuffer commands = new CommandBuffer(outer);
            final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(outer);
            final ParallelFixtures_LivingView.Action action = (entity, health) ->
            {
                outerPositions.emplace(commands, commands.create(), health.hp(), 0f);
                final ParallelFixtures_LivingView.Action inner = (innerEntity, innerHealth) ->
                    outerPositions.emplace(commands, commands.create(), innerHealth.hp(), 1f);
                if (parallel)
                {
                    innerViews.get(entity).parallelForEach(pool(threads), chunkSize, inner);
                }
                else
                {
                    innerViews.get(entity).forEach(inner);
                }
                outerPositions.emplace(commands, commands.create(), health.hp(), 2f);
            };
            if (parallel)
            {
                living.parallelForEach(pool(threads), chunkSize, action);
            }
            else
            {
                living.forEach(action);
            }
            commands.apply();
            inners.forEach(World::close);
            return ParallelFixtures.digest(outer);
        }
    }

    @Test
    void aShutDownPoolIsRefusedBeforeAnythingRunsWhateverTheChunkCount()
    {
        populate(new Random(6), 100);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ForkJoinPool stopped = new ForkJoinPool(2);
        stopped.shutdown();
        final AtomicInteger visits = new AtomicInteger();

        for (final int chunkSize : new int[] {1, Integer.MAX_VALUE})
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movers.parallelForEach(stopped, chunkSize, (entity, position, velocity) ->
                    visits.incrementAndGet()));
            assertTrue(refused.getMessage().contains("is shut down"), refused.getMessage());
        }
        assertEquals(0, visits.get());
        assertFalse(world.isDeferring());
    }

    @Test
    void aPoolShutDownDuringTheRunStopsItAndNoActionRunsAfterTheCallReturns() throws InterruptedException
    {
        populate(new Random(8), 20_000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ForkJoinPool dying = new ForkJoinPool(4);
        final AtomicInteger visits = new AtomicInteger();
        final AtomicInteger afterReturn = new AtomicInteger();
        final AtomicBoolean returned = new AtomicBoolean();
        final IllegalStateException stopped = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(dying, 1, (entity, position, velocity) ->
            {
                if (returned.get())
                {
                    afterReturn.incrementAndGet();
                }
                if (visits.incrementAndGet() == 200)
                {
                    dying.shutdownNow();
                }
                float sum = 0;
                for (int k = 0; k < 2_000; k++)
                {
                    sum += position.x() * k;
                }
                position.y(sum);
            }));
        returned.set(true);
        final int visited = visits.get();
        assertTrue(stopped.getMessage().contains("was shut down while a parallel iteration ran") &&
            stopped.getMessage().contains("chunks did not run"), stopped.getMessage());
        assertFalse(world.isDeferring());
        Thread.sleep(100);
        assertEquals(0, afterReturn.get(), "an action ran after parallelForEach returned");
        assertEquals(visited, visits.get(), "an action ran after parallelForEach returned");
        assertTrue(visited < movers.count(), visited + " visits");
        positions.emplace(world.create(), 1f, 1f);
        world.clear();
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
        assertFalse(world.isDeferring());
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

        assertTrue(nested.getMessage().contains("parallel iterations of one World do not nest"), nested.getMessage());
        assertEquals(0, inner.get());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> movers.parallelForEach(pool(2), -1, (entity, position, velocity) -> { }));
        assertTrue(negative.getMessage().contains("chunk size -1 is negative"), negative.getMessage());
        assertThrows(NullPointerException.class,
            () -> movers.parallelForEach(null, 8, (entity, position, velocity) -> { }));
        assertThrows(NullPointerException.class, () -> movers.parallelForEach(null));
        assertFalse(world.isDeferring());
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
            assertEquals(12_800, Chunks.sizeInBlocks(Chunks.AUTOMATIC, 1_000_000, 10, 512), "whole blocks");
            assertEquals(1_024, Chunks.sizeInBlocks(Chunks.AUTOMATIC, 100, 8, 512));
            assertEquals(1_024, Chunks.sizeInBlocks(700, 1_000_000, 10, 512), "a size asked for, in whole blocks");
            assertEquals(512, Chunks.sizeInBlocks(1, 1_000_000, 10, 512));
            assertEquals(Integer.MAX_VALUE / 512 * 512, Chunks.sizeInBlocks(Integer.MAX_VALUE, 10, 10, 512));
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
