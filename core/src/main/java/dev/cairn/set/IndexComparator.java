package dev.cairn.set;

/**
 * Orders two elements of a sparse set by their packed indices, without boxing.
 * <p>
 * During a sort the indices always refer to the layout the set had when the sort started, so a comparator may read
 * any payload column at those indices. The indices are the sorted set's: a comparator that reads another set's columns
 * at them compares the wrong elements. The generated {@code comparingX()} of a storage say which set they read
 * ({@link #set()}), and a sort refuses one of another set.
 */
@FunctionalInterface
public interface IndexComparator
{
    /**
     * Compares the elements at packed indices {@code left} and {@code right}.
     *
     * @param left  packed index of the first element.
     * @param right packed index of the second element.
     * @return negative, zero or positive as the first element orders before, with, or after the second.
     */
    int compare(int left, int right);

    /**
     * The set whose packed indices this comparator reads, if it says.
     *
     * @return the set, or null for a comparator that does not say (a lambda of your own).
     */
    default SparseSet set()
    {
        return null;
    }

    /**
     * The opposite order, reading the same set: after a sort by it, walks visit the elements in descending order of
     * this comparator, from index 0.
     *
     * @return a comparator with the arguments swapped and the same {@link #set()}.
     */
    default IndexComparator reversed()
    {
        final IndexComparator forward = this;
        return of(set(), (left, right) -> forward.compare(right, left));
    }

    /**
     * A comparator that says it reads the packed indices of {@code set}.
     *
     * @param set        the set whose columns {@code comparator} reads, or null for one that does not say.
     * @param comparator the comparison.
     * @return the comparator, with {@link #set()} returning {@code set}.
     */
    static IndexComparator of(final SparseSet set, final IndexComparator comparator)
    {
        return new IndexComparator()
        {
            @Override
            public int compare(final int left, final int right)
            {
                return comparator.compare(left, right);
            }

            @Override
            public SparseSet set()
            {
                return set;
            }
        };
    }

    /**
     * Throws unless {@code comparator} reads one of {@code sets} or does not say which set it reads: what a sort
     * checks before it compares anything.
     *
     * @param comparator a comparator passed to a sort.
     * @param sorted     what is sorted, for the message.
     * @param sets       the sets whose packed indices the sort compares.
     * @throws NullPointerException     if {@code comparator} is null.
     * @throws IllegalArgumentException if it reads another set.
     */
    static void requireReading(final IndexComparator comparator, final Object sorted, final SparseSet... sets)
    {
        final SparseSet read = java.util.Objects.requireNonNull(comparator, "comparator").set();
        if (read == null)
        {
            return;
        }
        for (final SparseSet set : sets)
        {
            if (read == set)
            {
                return;
            }
        }
        for (final SparseSet set : sets)
        {
            if (read.name().equals(set.name()))
            {
                throw new IllegalArgumentException("the comparator reads the " + read.name() + " of another World " +
                    "(or a standalone one): sort " + sorted + " with a comparator of this World's " + set.name());
            }
        }
        throw new IllegalArgumentException("the comparator reads " + read.name() + " at the packed indices of " +
            sorted + ", which hold other entities there: sort by a component of " + sorted + ", or compare " +
            "through the entity, reading " + read.name() + " by the handle " + sorted + " holds at each index: " +
            "(l, r) -> compare(other.x(sorted.entityAt(l)), other.x(sorted.entityAt(r))), with other and sorted " +
            "your two storages");
    }
}
