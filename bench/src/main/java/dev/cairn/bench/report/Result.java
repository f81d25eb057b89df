package dev.cairn.bench.report;

/**
 * One benchmark's outcome, per entity.
 *
 * @param library     who was measured.
 * @param workload    what was measured.
 * @param entities    how many entities the workload ran over.
 * @param nanos       mean nanoseconds per entity.
 * @param error       half-width of JMH's 99.9% confidence interval, in the same unit; NaN with too few samples.
 * @param bytes       bytes allocated on the heap per entity ({@code gc.alloc.rate.norm}); NaN without -prof gc.
 * @param fastestFork the mean of the fastest fork (a fresh JVM), in the same unit; {@code nanos} if not recorded.
 * @param slowestFork the mean of the slowest fork, in the same unit; {@code nanos} if not recorded.
 */
public record Result(
    Library library,
    Workloads workload,
    int entities,
    double nanos,
    double error,
    double bytes,
    double fastestFork,
    double slowestFork)
{
    /** Forks whose means differ by more than this factor ran in different steady states. */
    public static final double DISAGREEING_FORKS = 1.5;

    /**
     * Whether the forks settled in different steady states: the slowest fork's mean is more than
     * {@link #DISAGREEING_FORKS} times the fastest's, as when the JIT inlines the measured action in some JVMs and not
     * in others. The mean then describes neither.
     *
     * @return true if the forks disagree.
     */
    public boolean forksDisagree()
    {
        return slowestFork > DISAGREEING_FORKS * fastestFork;
    }

    /**
     * The benchmark method suffix for an entity count: {@code 10K}, {@code 1M}, {@code 150K}.
     *
     * @param entities the count.
     * @return the suffix.
     */
    public static String sizeLabel(final int entities)
    {
        if (entities % 1_000_000 == 0)
        {
            return entities / 1_000_000 + "M";
        }
        if (entities % 1_000 == 0)
        {
            return entities / 1_000 + "K";
        }
        return Integer.toString(entities);
    }

    /**
     * The entity count a size suffix stands for.
     *
     * @param label {@code 10K}, {@code 1M}, or a plain number.
     * @return the count.
     * @throws IllegalArgumentException if the label is not a count.
     */
    public static int parseSize(final String label)
    {
        try
        {
            if (label.endsWith("M"))
            {
                return Math.multiplyExact(Integer.parseInt(label.substring(0, label.length() - 1)), 1_000_000);
            }
            if (label.endsWith("K"))
            {
                return Math.multiplyExact(Integer.parseInt(label.substring(0, label.length() - 1)), 1_000);
            }
            return Integer.parseInt(label);
        }
        catch (final NumberFormatException | ArithmeticException ex)
        {
            throw new IllegalArgumentException(
                "benchmark size suffix '" + label + "' is not an entity count such as 10K, 1M or 150000", ex);
        }
    }
}
