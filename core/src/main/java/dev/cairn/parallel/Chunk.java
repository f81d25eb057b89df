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
    /** What a world defers from this chunk, kept for the chunk: {@link dev.cairn.internal.Deferred}'s to read. */
    private Object deferred;

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
     * What the world being walked defers from this chunk, if it has started to.
     *
     * @return the object {@link #deferred(Object)} last set in this chunk, or null.
     */
    public Object deferred()
    {
        return deferred;
    }

    /**
     * Keeps what the world being walked defers from this chunk.
     *
     * @param deferred the world's queue for the chunk.
     */
    public void deferred(final Object deferred)
    {
        this.deferred = deferred;
    }

    void set(final long epoch, final int from)
    {
        this.epoch = epoch;
        this.from = from;
        this.deferred = null;
    }
}
