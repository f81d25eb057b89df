package dev.cairn.model;

import dev.cairn.set.IndexComparator;

/**
 * The orders the model-based tests sort a {@link PayloadSet} by, each reading one payload column. Some give every
 * member a distinct key; the others produce ties, which test that the sort is stable.
 */
public enum SortKey
{
    /** Ascending by the 8-byte column: no ties. */
    BY_LONG(true),
    /** Ascending by the 4-byte column: no ties. */
    BY_INT(true),
    /** Descending by the 2-byte column: ties. */
    BY_SHORT_DESCENDING(false),
    /** Ascending by the signed 1-byte column: many ties. */
    BY_BYTE(false),
    /** Every element equal: a stable sort must not change the iteration order. */
    ALL_EQUAL(false);

    private final boolean distinct;

    SortKey(final boolean distinct)
    {
        this.distinct = distinct;
    }

    /**
     * Whether distinct stamps always get distinct keys, so the sorted order does not depend on the order before.
     *
     * @return true if there are no ties.
     */
    public boolean distinct()
    {
        return distinct;
    }

    /**
     * The comparator over packed indices that the set under test is sorted with.
     *
     * @param set the set whose columns are read.
     * @return a comparator reading this key's column.
     */
    public IndexComparator comparator(final PayloadSet set)
    {
        switch (this)
        {
            case BY_LONG:
                return (left, right) -> Long.compare(set.longAt(left), set.longAt(right));
            case BY_INT:
                return (left, right) -> Integer.compare(set.intAt(left), set.intAt(right));
            case BY_SHORT_DESCENDING:
                return (left, right) -> Short.compare(set.shortAt(right), set.shortAt(left));
            case BY_BYTE:
                return (left, right) -> Byte.compare(set.byteAt(left), set.byteAt(right));
            default:
                return (left, right) -> 0;
        }
    }

    /**
     * The same order over the stamps the model keeps.
     *
     * @param left  a stamp.
     * @param right a stamp.
     * @return negative, zero or positive like {@link #comparator(PayloadSet)} for the slots holding these stamps.
     */
    public int compareStamps(final long left, final long right)
    {
        switch (this)
        {
            case BY_LONG:
                return Long.compare(PayloadSet.longOf(left), PayloadSet.longOf(right));
            case BY_INT:
                return Integer.compare(PayloadSet.intOf(left), PayloadSet.intOf(right));
            case BY_SHORT_DESCENDING:
                return Short.compare(PayloadSet.shortOf(right), PayloadSet.shortOf(left));
            case BY_BYTE:
                return Byte.compare(PayloadSet.byteOf(left), PayloadSet.byteOf(right));
            default:
                return 0;
        }
    }
}
