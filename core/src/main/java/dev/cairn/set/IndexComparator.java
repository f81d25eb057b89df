package dev.cairn.set;

/**
 * Orders two elements of a sparse set by their packed indices, without boxing.
 * <p>
 * During a sort the indices always refer to the layout the set had when the sort started, so a comparator may read
 * any payload column at those indices.
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
}
