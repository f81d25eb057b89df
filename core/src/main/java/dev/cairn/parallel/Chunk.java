package dev.cairn.parallel;

/**
 * Which chunk of which parallel run the current thread is walking, if any: one per thread, reused. A
 * {@link dev.cairn.command.CommandBuffer} reads it when it records, to place the command where a sequential iteration
 * would have recorded it.
 */
public final class Chunk
{
    /** The {@link #from()} of a thread that walks no chunk. */
    public static final int NONE = -1;

    private static final ThreadLocal<Chunk> CURRENT = ThreadLocal.withInitial(Chunk::new);

    long epoch;
    int from = NONE;

    private Chunk()
    {
    }

    /**
     * This thread's chunk.
     *
     * @return the same object for the life of the thread.
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
     * The first packed index of the chunk this thread walks.
     *
     * @return it, or {@link #NONE} outside any chunk.
     */
    public int from()
    {
        return from;
    }

    void set(final long epoch, final int from)
    {
        this.epoch = epoch;
        this.from = from;
    }
}
