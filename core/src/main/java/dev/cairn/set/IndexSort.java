package dev.cairn.set;

/**
 * Stable merge sort of an {@code int[]} of packed indices under an {@link IndexComparator}; the primitive sort the
 * JDK does not offer.
 */
final class IndexSort
{
    private static final int INSERTION_THRESHOLD = 24;

    private IndexSort()
    {
    }

    static void sort(final int[] values, final int length, final IndexComparator comparator)
    {
        if (length < 2)
        {
            return;
        }
        final int[] scratch = new int[length];
        System.arraycopy(values, 0, scratch, 0, length);
        mergeSort(scratch, values, 0, length, comparator);
    }

    /** Sorts {@code dst[from, to)}, using {@code src} (which holds the same values) as scratch. */
    private static void mergeSort(
        final int[] src, final int[] dst, final int from, final int to, final IndexComparator comparator)
    {
        if (to - from <= INSERTION_THRESHOLD)
        {
            insertionSort(dst, from, to, comparator);
            return;
        }
        final int mid = (from + to) >>> 1;
        mergeSort(dst, src, from, mid, comparator);
        mergeSort(dst, src, mid, to, comparator);
        if (comparator.compare(src[mid - 1], src[mid]) <= 0)
        {
            System.arraycopy(src, from, dst, from, to - from);
            return;
        }
        int left = from;
        int right = mid;
        for (int out = from; out < to; out++)
        {
            if (right >= to || (left < mid && comparator.compare(src[left], src[right]) <= 0))
            {
                dst[out] = src[left++];
            }
            else
            {
                dst[out] = src[right++];
            }
        }
    }

    private static void insertionSort(final int[] values, final int from, final int to, final IndexComparator comparator)
    {
        for (int i = from + 1; i < to; i++)
        {
            final int value = values[i];
            int j = i - 1;
            while (j >= from && comparator.compare(values[j], value) > 0)
            {
                values[j + 1] = values[j];
                j--;
            }
            values[j + 1] = value;
        }
    }
}
