package dev.cairn.parallel;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which chunk of which parallel run the current thread is walking, if any: one per thread, reused. A
 * {@link dev.cairn.command.CommandBuffer} reads it when it records, to place the command where a sequential walk would
 * have recorded it.
 */
public final class Chunk
{
    /** The {@link #from()} of a thread that walks no chunk. */
    public static final int NONE = -1;

    /**
     * Each thread's chunk. The common pool's workers drop their thread-local values after every task, so the value is
     * kept here too and found again: a {@link dev.cairn.command.CommandBuffer} holds on to the object it first got.
     */
    private static final Map<Thread, Chunk> BY_THREAD = Collections.synchronizedMap(new WeakHashMap<>());
    private static final ThreadLocal<Chunk> CURRENT =
        ThreadLocal.withInitial(() -> BY_THREAD.computeIfAbsent(Thread.currentThread(), thread -> new Chunk()));

    long epoch;
    int from = NONE;
    /**
     * The parallel walks whose chunks this thread is walking, outermost first (a parallel walk started in a chunk's
     * action runs on this thread, inside it), and what each one's world defers from this chunk:
     * {@link dev.cairn.internal.Deferred}'s to read.
     */
    private Object[] walkers = new Object[2];
    private Object[] deferred = new Object[2];
    private int depth;

    private Chunk()
    {
    }

    /**
     * This thread's chunk.
     *
     * @return the same object for the life of the thread, also on pools that clear their workers' thread-local
     * values between tasks.
     */
    public static Chunk current()
    {
        return CURRENT.get();
    }

    /**
     * The epoch ({@link Chunks#epoch()}) of the parallel run whose chunk this thread walks.
     *
     * @return the run's epoch; meaningless while {@link #from()} is {@link #NONE}.
     */
    public long epoch()
    {
        return epoch;
    }

    /**
     * The first index of the chunk this thread walks: chunks apply in the order of their first index, as a sequential
     * walk from front to back would make their changes.
     *
     * @return it, or {@link #NONE} outside any chunk.
     */
    public int from()
    {
        return from;
    }

    /**
     * Whether this thread walks a chunk of {@code walker}'s parallel walk now.
     *
     * @param walker what runs the parallel walk: a world's walks.
     * @return true inside one of its chunks.
     */
    public boolean walksFor(final Object walker)
    {
        return slotOf(walker) >= 0;
    }

    /**
     * What {@code walker}'s world deferred from this chunk so far.
     *
     * @param walker the walks of the world.
     * @return what {@link #deferred(Object, Object)} kept, or null.
     */
    public Object deferred(final Object walker)
    {
        final int k = slotOf(walker);
        return k < 0 ? null : deferred[k];
    }

    /**
     * Keeps what {@code walker}'s world defers from this chunk.
     *
     * @param walker the walks of the world, one this thread walks a chunk for.
     * @param queue  what to keep.
     */
    public void deferred(final Object walker, final Object queue)
    {
        final int k = slotOf(walker);
        if (k >= 0)
        {
            deferred[k] = queue;
        }
    }

    /** Where {@code walker}'s chunk stands in this thread's nesting, innermost first; -1 if it is not there. */
    private int slotOf(final Object walker)
    {
        for (int k = depth - 1; k >= 0; k--)
        {
            if (walkers[k] == walker)
            {
                return k;
            }
        }
        return -1;
    }

    /** Enters a chunk of {@code walker}'s parallel walk; {@link #leave} undoes it. */
    void enter(final Object walker)
    {
        if (depth == walkers.length)
        {
            walkers = java.util.Arrays.copyOf(walkers, depth * 2);
            deferred = java.util.Arrays.copyOf(deferred, depth * 2);
        }
        walkers[depth] = walker;
        deferred[depth] = null;
        depth++;
    }

    void leave()
    {
        depth--;
        walkers[depth] = null;
        deferred[depth] = null;
    }

    void set(final long epoch, final int from)
    {
        this.epoch = epoch;
        this.from = from;
    }
}
