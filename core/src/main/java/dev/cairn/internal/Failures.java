package dev.cairn.internal;

/**
 * How Cairn reports several failures of one call: the first is thrown once everything has run, the later ones
 * attached to it as suppressed (at most {@link #MAX_SUPPRESSED}, so a loop of failures cannot exhaust the heap).
 */
public final class Failures
{
    /** The most failures attached to the first one. */
    public static final int MAX_SUPPRESSED = 100;

    private Failures()
    {
    }

    /**
     * Adds {@code thrown} to the failures collected so far.
     *
     * @param first  the first failure, or null if none yet.
     * @param thrown the new one.
     * @return the failure to throw at the end: {@code first}, or {@code thrown} if it is the first.
     */
    public static Throwable collect(final Throwable first, final Throwable thrown)
    {
        if (first == null)
        {
            return thrown;
        }
        if (first != thrown && first.getSuppressed().length < MAX_SUPPRESSED)
        {
            first.addSuppressed(thrown);
        }
        return first;
    }

    /**
     * Throws the collected failure, unchecked, if there is one.
     *
     * @param failure what {@link #collect} returned, or null.
     */
    public static void rethrow(final Throwable failure)
    {
        if (failure != null)
        {
            Failures.<RuntimeException>sneakyThrow(failure);
        }
    }

    /**
     * Throws any throwable unchecked: for code that caught a {@code Throwable} only to do something before it leaves.
     *
     * @param failure what to throw.
     * @return never; declared so that callers can write {@code throw Failures.propagate(failure)}.
     */
    public static RuntimeException propagate(final Throwable failure)
    {
        Failures.<RuntimeException>sneakyThrow(failure);
        return null;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(final Throwable failure) throws T
    {
        throw (T)failure;
    }
}
