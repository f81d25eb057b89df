package dev.cairn;

/**
 * An operation needed off-heap memory that could not be had: the owner's byte budget would be exceeded, or the native
 * allocator refused (then the JDK's {@link OutOfMemoryError} is the cause). The operation changed nothing; the
 * structures it touched are as they were and usable.
 * <p>
 * It is an exception rather than an {@link OutOfMemoryError} because it concerns one world's memory, not the JVM's:
 * the caller can free entities, raise the budget, or give up on the operation, and frameworks that treat an
 * {@code OutOfMemoryError} as fatal keep running.
 */
public final class OffHeapExhaustedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what could not be allocated, for whom, and what to do.
     * @param cause   the native allocator's error, or null when the budget refused.
     */
    public OffHeapExhaustedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
