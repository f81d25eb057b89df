package dev.cairn.model;

/**
 * A difference between the implementation and the model: names the invariant that failed (so shrinking can keep a
 * sequence failing for the same reason) and says what was seen.
 */
public final class InvariantViolation extends AssertionError
{
    private static final long serialVersionUID = 1L;

    private final String invariant;

    /**
     * Creates a violation.
     *
     * @param invariant short name of the invariant, for example {@code swap_and_pop: last element fills the hole}.
     * @param detail    what was expected and what was found.
     * @param cause     an exception thrown by the implementation, or null.
     */
    public InvariantViolation(final String invariant, final String detail, final Throwable cause)
    {
        super(invariant + ": " + detail, cause);
        this.invariant = invariant;
    }

    /**
     * The invariant's name.
     *
     * @return the name given at construction.
     */
    public String invariant()
    {
        return invariant;
    }
}
