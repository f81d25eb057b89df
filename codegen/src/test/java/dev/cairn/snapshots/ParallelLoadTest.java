package dev.cairn.snapshots;

import dev.cairn.world.World;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshot.SnapshotFormatException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A load whose storages are read in parallel ends as the same load made one storage after the other: from a damaged
 * snapshot, or one the world's budget cannot hold, the same exception with the world left as it was, whichever thread
 * met which section first; an executor that rejects, throws, runs its tasks on the calling thread, waits for them or
 * never runs them changes nothing of that; a close from another thread is refused. {@link SnapshotModelTest} loads
 * every other random world in parallel and checks that it comes back exactly.
 */
class ParallelLoadTest
{
    private static final ExecutorService THREADS = Executors.newFixedThreadPool(3, task ->
    {
        final Thread thread = new Thread(task, "parallel-load-test");
        thread.setDaemon(true);
        return thread;
    });

    @AfterAll
    static void stopThreads()
    {
        THREADS.shutdownNow();
    }

    static LongStream seeds()
    {
        return LongStream.range(0, 24);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aDamagedSnapshotFailsInParallelAsItFailsSequentially(final long seed)
    {
        final Random random = new Random(seed);
        final byte[] valid;
        try (World source = new World(2_000))
        {
            Worlds.grow(source, random, 200 + random.nextInt(2_000));
            valid = Worlds.bytes(Worlds.save(source));
        }
        for (int attempt = 0; attempt < 40; attempt++)
        {
            final byte[] damaged = damage(valid, random);
            assertSameOutcome(damaged, "attempt " + attempt + " of seed " + seed);
        }
    }

    @Test
    void failuresInSeveralSectionsReportTheFirstInTheSnapshotsOrder()
    {
        final byte[] valid;
        try (World source = new World())
        {
            Worlds.grow(source, new Random(7), 3_000);
            valid = Worlds.bytes(Worlds.save(source));
        }
        final List<Integer> bodies = sectionBodies(valid);
        assertTrue(bodies.size() >= 4, "the world has several storages");
        final byte[] damaged = valid.clone();
        // The last section's byte is flipped first: a thread that reaches it first must not decide what is reported.
        for (int s = bodies.size() - 1; s >= 2; s--)
        {
            damaged[bodies.get(s) + 1] ^= 0x10;
        }

        final String sequential = outcome(damaged, null);
        final String parallel = outcome(damaged, THREADS);

        assertEquals(sequential, parallel);
        assertTrue(parallel.contains("section 2") && parallel.contains("CRC32C"), parallel);
    }

    @Test
    void anExecutorThatRejectsItsTasksLeavesTheWorkToTheCallingThread()
    {
        final byte[] valid = randomSnapshot(11);
        try (World expected = new World(); World copy = new World())
        {
            Snapshot.load(expected, ByteBuffer.wrap(valid));

            Snapshot.load(copy, ByteBuffer.wrap(valid), task ->
            {
                throw new RejectedExecutionException("full");
            });

            assertEquals(Worlds.digest(expected), Worlds.digest(copy));
        }
    }

    @Test
    void tasksAnExecutorRunsAfterTheLoadReturnedFindNothingToDo()
    {
        final byte[] valid = randomSnapshot(12);
        final List<Runnable> late = new ArrayList<>();
        try (World expected = new World(); World copy = new World())
        {
            Snapshot.load(expected, ByteBuffer.wrap(valid));

            Snapshot.load(copy, ByteBuffer.wrap(valid), late::add);
            final String loaded = Worlds.digest(copy);
            late.forEach(Runnable::run);

            assertTrue(Runtime.getRuntime().availableProcessors() == 1 || !late.isEmpty(),
                "the load handed tasks to the executor");
            assertEquals(Worlds.digest(expected), loaded);
            assertEquals(loaded, Worlds.digest(copy), "a late task changed the world");
        }
    }

    @Test
    void executorsThatRunTasksOnTheCallingThreadOrWaitForThemCannotMakeALoadHang()
    {
        final byte[] valid = randomSnapshot(15);
        final Executor inline = Runnable::run;
        final Executor waiting = task ->
        {
            final Thread thread = new Thread(task);
            thread.start();
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        };
        try (World expected = new World(); World first = new World(); World second = new World())
        {
            Snapshot.load(expected, ByteBuffer.wrap(valid));

            assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
            {
                Snapshot.load(first, ByteBuffer.wrap(valid), inline);
                Snapshot.load(second, ByteBuffer.wrap(valid), waiting);
            });

            assertEquals(Worlds.digest(expected), Worlds.digest(first));
            assertEquals(Worlds.digest(expected), Worlds.digest(second));
        }
    }

    /**
     * {@code execute} runs on the loading thread in the middle of the load, as a listener runs in the middle of an
     * operation: a change it makes that can wait (a destroy, an addition, a clear, a clock change) is made when the
     * load returns, after the whole snapshot; one that cannot (a create, which would make the world not new under the
     * load, a reserve, a reset, a close) is refused naming the executor, which the load takes as the executor refusing
     * the task. Either way the load itself ends as a sequential one.
     */
    @Test
    void anExecutorWhoseExecuteChangesTheWorldHasTheChangeMadeAfterTheLoadOrRefusedAndTheLoadIsWhole()
    {
        final byte[] valid = randomSnapshot(17);
        final Map<String, Meddling> changes = new LinkedHashMap<>();
        changes.put("create", new Meddling(World::create, null));
        changes.put("create many", new Meddling(world -> world.create(new long[3], 3), null));
        changes.put("destroy every entity", new Meddling(world -> world.forEachEntity(world::destroy),
            world -> world.forEachEntity(world::destroy)));
        changes.put("clear", new Meddling(World::clear, World::clear));
        changes.put("advance the tick", new Meddling(World::advanceTick, null));
        changes.put("reserve", new Meddling(world -> world.storage(SnapshotFixtures_HeatStorage.TYPE).reserve(100_000),
            null));
        changes.put("reset", new Meddling(World::reset, null));
        changes.put("close", new Meddling(World::close, null));
        final List<String> wrong = new ArrayList<>();

        for (final Map.Entry<String, Meddling> change : changes.entrySet())
        {
            try (World expected = new World(); World loaded = new World())
            {
                Snapshot.load(expected, ByteBuffer.wrap(valid));
                final List<String> refusals = new ArrayList<>();
                final int[] made = {0};
                final Executor meddling = task ->
                {
                    try
                    {
                        change.getValue().change.accept(loaded);
                        made[0]++;
                    }
                    catch (final IllegalStateException refused)
                    {
                        refusals.add(refused.getMessage());
                    }
                    THREADS.execute(task);
                };

                try
                {
                    Snapshot.load(loaded, ByteBuffer.wrap(valid), meddling);
                }
                catch (final RuntimeException failed)
                {
                    wrong.add(change.getKey() + ": the load failed: " + failed);
                    continue;
                }

                final boolean refusable = change.getValue().after == null;
                if (refusable != (made[0] == 0) || refusals.size() + made[0] < 2)
                {
                    wrong.add(change.getKey() + ": " + made[0] + " made, " + refusals.size() + " refused " + refusals);
                }
                for (final String refusal : refusals)
                {
                    if (!refusal.contains("while Snapshot.load's executor"))
                    {
                        wrong.add(change.getKey() + ": the refusal does not name the executor: " + refusal);
                    }
                }
                for (int k = 0; k < made[0]; k++)
                {
                    change.getValue().after.accept(expected);
                }
                if (!Worlds.digest(expected).equals(Worlds.digest(loaded)) || expected.tick() != loaded.tick())
                {
                    wrong.add(change.getKey() + ": the world is not the snapshot with the change made after it (tick " +
                        loaded.tick() + ", expected " + expected.tick() + ")");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** A change an executor's {@code execute} makes, and what it does made after the load; null if it is refused. */
    private record Meddling(Consumer<World> change, Consumer<World> after)
    {
    }

    @Test
    void anExecutorThatThrowsAnErrorOrACheckedExceptionLeavesTheWorkToTheCallingThread()
    {
        final byte[] valid = randomSnapshot(16);
        try (World expected = new World(); World first = new World(); World second = new World())
        {
            Snapshot.load(expected, ByteBuffer.wrap(valid));
            final int[] calls = new int[1];
            // The first task runs on a pool thread; later ones fail as a pool that cannot start a thread does.
            final Executor failing = task ->
            {
                if (calls[0]++ == 0)
                {
                    THREADS.execute(task);
                    return;
                }
                throw new OutOfMemoryError("unable to create native thread");
            };

            Snapshot.load(first, ByteBuffer.wrap(valid), failing);
            Snapshot.load(second, ByteBuffer.wrap(valid), task -> ParallelLoadTest.<RuntimeException>sneaky(
                new java.io.IOException("checked, thrown as if unchecked")));

            assertEquals(Worlds.digest(expected), Worlds.digest(first));
            assertEquals(Worlds.digest(expected), Worlds.digest(second));
        }
    }

    @Test
    void runningOutOfMemoryEndsAsItDoesSequentially()
    {
        final byte[] valid = randomSnapshot(17);
        final byte[] forged = valid.clone();
        final List<Integer> bodies = sectionBodies(valid);
        forged[bodies.get(1) + 40] ^= 0x55;
        final byte[] resealed = Worlds.reseal(forged);
        final long needed;
        try (World world = new World(2_000))
        {
            Snapshot.load(world, ByteBuffer.wrap(valid));
            needed = world.offHeapBytes();
        }
        final Executor rejecting = task ->
        {
            throw new RejectedExecutionException("full");
        };
        for (int k = 1; k <= 24; k++)
        {
            final long budget = needed * k / 20;
            for (final byte[] bytes : List.of(valid, resealed))
            {
                final String sequential = outcome(bytes, null, budget);
                assertEquals(sequential, outcome(bytes, THREADS, budget), "budget " + budget);
                assertEquals(sequential, outcome(bytes, rejecting, budget), "budget " + budget + ", rejected");
            }
        }
    }

    @Test
    void aCloseFromAnotherThreadDuringALoadIsRefusedNotRunUnderIt() throws Exception
    {
        final byte[] big;
        try (World source = new World())
        {
            final var heat = source.storage(SnapshotFixtures_HeatStorage.TYPE);
            final var marked = source.storage(SnapshotFixtures_MarkedStorage.TYPE);
            for (int i = 0; i < 300_000; i++)
            {
                final long entity = source.create();
                heat.emplace(entity, i);
                marked.emplace(entity);
            }
            big = Worlds.bytes(Worlds.save(source));
        }
        for (int attempt = 0; attempt < 5; attempt++)
        {
            final World world = new World();
            final java.util.concurrent.Future<?> load = THREADS.submit(() ->
            {
                try
                {
                    Snapshot.load(world, ByteBuffer.wrap(big), THREADS);
                }
                catch (final IllegalStateException closed)
                {
                    assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
                }
            });
            while (!world.isClosed())
            {
                try
                {
                    world.close();
                }
                catch (final IllegalStateException ex)
                {
                    assertTrue(ex.getMessage().contains("World cannot be closed while"), ex.getMessage());
                }
            }
            load.get();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(final Throwable thrown) throws T
    {
        throw (T)thrown;
    }

    @Test
    void aChannelLoadsInParallelToo()
    {
        final byte[] valid = randomSnapshot(13);
        try (World expected = new World(); World copy = new World())
        {
            Snapshot.load(expected, ByteBuffer.wrap(valid));

            Snapshot.load(copy, Channels.newChannel(new ByteArrayInputStream(valid)), THREADS);

            assertEquals(Worlds.digest(expected), Worlds.digest(copy));
        }
    }

    @Test
    void aNullExecutorIsRefusedBeforeAnythingIsRead()
    {
        try (World world = new World())
        {
            final NullPointerException thrown = assertThrows(NullPointerException.class,
                () -> Snapshot.load(world, ByteBuffer.wrap(randomSnapshot(14)), null));
            assertTrue(thrown.getMessage().contains("ForkJoinPool.commonPool()"), thrown.getMessage());
            assertEquals(0, world.aliveCount());
        }
    }

    /** Loads {@code bytes} both ways into new worlds and checks that the outcomes are the same. */
    private static void assertSameOutcome(final byte[] bytes, final String what)
    {
        final String sequential = outcome(bytes, null);
        final String parallel = outcome(bytes, THREADS);
        assertEquals(sequential, parallel, what);
    }

    private static String outcome(final byte[] bytes, final Executor executor)
    {
        return outcome(bytes, executor, Long.MAX_VALUE);
    }

    /**
     * The digest of the world a load built, or the exception it threw, after checking that the world was left as it
     * was, holding no more memory than before.
     */
    private static String outcome(final byte[] bytes, final Executor executor, final long budget)
    {
        try (World world = new World(2_000, budget))
        {
            final String before = Worlds.digest(world);
            final long bytesBefore = world.offHeapBytes();
            try
            {
                if (executor == null)
                {
                    Snapshot.load(world, ByteBuffer.wrap(bytes));
                }
                else
                {
                    Snapshot.load(world, ByteBuffer.wrap(bytes), executor);
                }
            }
            catch (final SnapshotFormatException | OffHeapExhaustedException ex)
            {
                assertEquals(before, Worlds.digest(world), "a failed load changed the world: " + ex.getMessage());
                assertEquals(List.of(), world.storages(), "a failed load left storages: " + ex.getMessage());
                assertTrue(world.offHeapBytes() <= bytesBefore, "a failed load kept memory: " + ex.getMessage());
                return ex.getClass().getName() + ": " + ex.getMessage();
            }
            return Worlds.digest(world);
        }
    }

    /** A flipped byte (half the time resealed, so that the structural checks meet it), or a cut. */
    private static byte[] damage(final byte[] valid, final Random random)
    {
        final int kind = random.nextInt(3);
        if (kind == 0)
        {
            return java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
        }
        final byte[] damaged = valid.clone();
        damaged[24 + random.nextInt(valid.length - 24)] ^= (byte)(1 + random.nextInt(255));
        return kind == 1 ? damaged : Worlds.reseal(damaged);
    }

    /** Where each section's body starts. */
    private static List<Integer> sectionBodies(final byte[] snapshot)
    {
        final ByteBuffer bytes = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        final List<Integer> bodies = new ArrayList<>();
        for (int at = 24; at < snapshot.length; at += 16 + (int)bytes.getLong(at + 4))
        {
            bodies.add(at + 12);
        }
        return bodies;
    }

    private static byte[] randomSnapshot(final long seed)
    {
        try (World source = new World())
        {
            Worlds.grow(source, new Random(seed), 2_000);
            return Worlds.bytes(Worlds.save(source));
        }
    }
}
