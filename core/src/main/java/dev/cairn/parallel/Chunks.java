package dev.cairn.parallel;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Splits a leading range of packed indices into chunks and runs them on a {@link ForkJoinPool}: the engine of every
 * {@code parallelForEach}. Chunk {@code k} covers {@code [k * size, min((k + 1) * size, extent))}; the chunks are
 * divided recursively between the pool's workers, so idle workers steal what busy ones have not started.
 * <p>
 * <b>Failures.</b> The first exception (or error) an action throws is rethrown to the caller once every chunk that
 * started has returned; exceptions thrown later are attached to it as suppressed; chunks not started when the first
 * failure happened are skipped.
 * <p>
 * <b>Where a command comes from.</b> While a chunk runs, {@link Chunk#current()} tells the thread running it which
 * parallel run and which chunk it is in; a {@link dev.cairn.command.CommandBuffer} orders what it records by that,
 * which is why its order does not depend on threads or chunk size.
 * <p>
 * <b>Nesting.</b> A run started from inside a chunk of another run (a {@code parallelForEach} of another world in an
 * action) does not fork: it walks its chunks on the calling thread, front to back as a sequential {@code forEach}
 * would, inside the outer chunk, so commands it records keep their place in the outer run's order.
 */
public final class Chunks
{
    /** Pass as the chunk size to let the iteration choose: about eight chunks per worker, 1024 indices at least. */
    public static final int AUTOMATIC = 0;

    /** The smallest chunk {@link #AUTOMATIC} chooses: below it, handing chunks to threads costs more than it gains. */
    public static final int MIN_AUTOMATIC_CHUNK = 1024;

    /** Incremented when each parallel run starts and when it ends, so that every run has an odd number of its own. */
    private static final AtomicLong EPOCHS = new AtomicLong();

    private Chunks()
    {
    }

    /**
     * The number of the parallel run in progress or, between runs, an even number that orders what is recorded then
     * between the runs before and after it.
     *
     * @return the current epoch.
     */
    public static long epoch()
    {
        return EPOCHS.get();
    }

    /**
     * The chunk size {@link #AUTOMATIC} stands for.
     *
     * @param extent      the length of the leading range.
     * @param parallelism the pool's parallelism.
     * @return at least {@link #MIN_AUTOMATIC_CHUNK}, and about {@code extent / (8 * parallelism)} above it.
     */
    public static int automaticSize(final int extent, final int parallelism)
    {
        final long chunks = 8L * Math.max(1, parallelism);
        return (int)Math.max(MIN_AUTOMATIC_CHUNK, (extent + chunks - 1) / chunks);
    }

    /**
     * The chunk size to walk {@code extent} indices with by blocks of {@code multiple}: {@code chunkSize}, or for
     * {@link #AUTOMATIC} the {@linkplain #automaticSize(int, int) automatic size}, rounded up to a multiple of
     * {@code multiple}. Every chunk then starts at a multiple of {@code multiple}, so the blocks are the same
     * whatever the chunk size (full ones but the last), and so is the order of what their actions record.
     *
     * @param chunkSize   what the caller asked for.
     * @param extent      the length of the range.
     * @param parallelism the pool's parallelism.
     * @param multiple    the block size, 1 or more.
     * @return the chunk size.
     */
    public static int sizeInBlocks(final int chunkSize, final int extent, final int parallelism, final int multiple)
    {
        final long size = chunkSize != AUTOMATIC ? chunkSize : automaticSize(extent, parallelism);
        return (int)Math.min(Integer.MAX_VALUE / multiple * multiple, (size + multiple - 1) / multiple * multiple);
    }

    /**
     * Runs {@code action} over {@code [0, extent)} in chunks on {@code pool}, and returns when all have.
     *
     * @param pool      where the chunks run; the calling thread waits (and may help).
     * @param extent    the length of the leading range, 0 or more.
     * @param chunkSize indices per chunk, 1 or more, or {@link #AUTOMATIC}.
     * @param walker    what the chunks belong to (a world's walks): {@link Chunk#walksFor} tells a thread in one.
     * @param action    walks one chunk.
     * @throws NullPointerException     if {@code pool} or {@code action} is null.
     * @throws IllegalArgumentException if {@code chunkSize} is negative.
     * @throws IllegalStateException    if the pool is shut down.
     */
    public static void run(
        final ForkJoinPool pool, final int extent, final int chunkSize, final Object walker, final ChunkAction action)
    {
        requireValid(pool, chunkSize, action);
        if (extent <= 0)
        {
            return;
        }
        final int size = chunkSize == AUTOMATIC ? automaticSize(extent, pool.getParallelism()) : chunkSize;
        final int chunks = (int)((extent + (long)size - 1) / size);
        if (Chunk.current().from() != Chunk.NONE)
        {
            // Started from a chunk of another run: walk on this thread, as a sequential forEach would, so that what
            // it records into a command buffer belongs to the outer chunk and keeps its place in the apply order.
            final Run nested = new Run(Chunk.current().epoch(), extent, size, walker, action);
            final Chunk chunk = Chunk.current();
            chunk.enter(walker);
            try
            {
                for (int n = 0; n < chunks && nested.failure == null; n++)
                {
                    nested.walk(n);
                }
            }
            finally
            {
                chunk.leave();
            }
            nested.rethrow();
            return;
        }
        final Run run = new Run(EPOCHS.incrementAndGet(), extent, size, walker, action);
        try
        {
            if (chunks == 1)
            {
                run.chunk(0);
            }
            else
            {
                pool.invoke(new Split(run, 0, chunks));
            }
        }
        catch (final CancellationException | RejectedExecutionException stopped)
        {
            // The pool was shut down under the run: its tasks were cancelled, but chunks other workers took may
            // still be walking. Nothing of the run may outlive this call, which ends the walk.
            run.stopAndAwait();
            final IllegalStateException failure = new IllegalStateException("the ForkJoinPool " + pool + " was shut " +
                "down while a parallel walk ran on it: " + (chunks - run.walked()) + " of " + chunks + " chunks " +
                "did not run, so their entities were not visited (what the others' actions did stays); run it on a " +
                "pool that lives longer, or again once the pool is replaced", stopped);
            if (run.failure != null)
            {
                failure.addSuppressed(run.failure);
            }
            throw failure;
        }
        finally
        {
            run.stopAndAwait();
            EPOCHS.incrementAndGet();
        }
        run.rethrow();
    }

    /**
     * Checks the arguments of a {@code parallelForEach} before its walk begins.
     *
     * @param pool      must not be null.
     * @param chunkSize must be 0 or more.
     * @param action    must not be null.
     */
    public static void requireValid(final ForkJoinPool pool, final int chunkSize, final Object action)
    {
        if (pool == null)
        {
            throw new NullPointerException("pool: pass a ForkJoinPool, for example ForkJoinPool.commonPool()");
        }
        if (action == null)
        {
            throw new NullPointerException("action is null: pass what to run for each entity or index");
        }
        if (pool.isShutdown())
        {
            throw new IllegalStateException("the ForkJoinPool " + pool + " is shut down; pass a running pool");
        }
        if (chunkSize < 0)
        {
            throw new IllegalArgumentException(
                "chunk size " + chunkSize + " is negative; pass 1 or more, or Chunks.AUTOMATIC (0) to let Cairn choose");
        }
    }

    /** One parallel run: its chunks and the first failure. */
    private static final class Run
    {
        final long epoch;
        final int extent;
        final int size;
        final Object walker;
        final ChunkAction action;
        volatile Throwable failure;
        /** Chunks walking now; {@link #stopAndAwait} waits for 0 once no chunk may start any more. */
        private final AtomicInteger running = new AtomicInteger();
        private final AtomicInteger walked = new AtomicInteger();
        private volatile boolean stopped;

        Run(final long epoch, final int extent, final int size, final Object walker, final ChunkAction action)
        {
            this.epoch = epoch;
            this.extent = extent;
            this.size = size;
            this.walker = walker;
            this.action = action;
        }

        void chunk(final int k)
        {
            // Counted before the check: stopAndAwait sets the flag before it reads the count, so either it waits for
            // this chunk or this chunk sees the flag.
            running.incrementAndGet();
            try
            {
                if (failure != null || stopped)
                {
                    return;
                }
                final Chunk chunk = Chunk.current();
                final long outerEpoch = chunk.epoch;
                final int outerFrom = chunk.from;
                chunk.set(epoch, k * size);
                chunk.enter(walker);
                try
                {
                    walk(k);
                    walked.incrementAndGet();
                }
                finally
                {
                    chunk.leave();
                    chunk.set(outerEpoch, outerFrom);
                }
            }
            finally
            {
                running.decrementAndGet();
            }
        }

        /** Lets no further chunk start and waits until every started one returned. */
        void stopAndAwait()
        {
            stopped = true;
            boolean interrupted = false;
            while (running.get() != 0)
            {
                LockSupport.parkNanos(100_000);
                interrupted |= Thread.interrupted();
            }
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }

        int walked()
        {
            return walked.get();
        }

        /** Walks chunk {@code k}, recording a failure. */
        void walk(final int k)
        {
            final int from = k * size;
            final int to = (int)Math.min((long)from + size, extent);
            try
            {
                action.walk(from, to);
            }
            catch (final Throwable thrown)
            {
                fail(thrown);
            }
        }

        synchronized void fail(final Throwable thrown)
        {
            if (failure == null)
            {
                failure = thrown;
            }
            else if (failure != thrown)
            {
                failure.addSuppressed(thrown);
            }
        }

        void rethrow()
        {
            final Throwable thrown = failure;
            if (thrown instanceof RuntimeException)
            {
                throw (RuntimeException)thrown;
            }
            if (thrown instanceof Error)
            {
                throw (Error)thrown;
            }
            if (thrown != null)
            {
                throw new IllegalStateException("a parallel action threw a checked exception", thrown);
            }
        }
    }

    /** Divides chunks {@code [low, high)} between workers until one chunk is left. */
    private static final class Split extends RecursiveAction
    {
        private static final long serialVersionUID = 1L;

        private final transient Run run;
        private final int low;
        private final int high;

        Split(final Run run, final int low, final int high)
        {
            this.run = run;
            this.low = low;
            this.high = high;
        }

        @Override
        protected void compute()
        {
            if (high - low == 1)
            {
                run.chunk(low);
                return;
            }
            final int middle = (low + high) >>> 1;
            invokeAll(new Split(run, middle, high), new Split(run, low, middle));
        }
    }
}
