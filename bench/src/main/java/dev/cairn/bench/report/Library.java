package dev.cairn.bench.report;

/**
 * The libraries and baselines in the suite, in report order. A benchmark belongs to the library whose
 * {@link #classPrefix()} starts its class's simple name ({@code CairnIteration}, {@code ArraySort}).
 */
public enum Library
{
    /** Cairn, through generated storages and views. */
    CAIRN("Cairn", "Cairn", "#d95f02"),
    /** Cairn, through a generated full-owning group ({@code CairnGroupIteration}). */
    CAIRN_GROUP("CairnGroup", "Cairn group", "#fdae61"),
    /** Cairn, through the same groups walked by index ({@code CairnGroupIndexIteration}). */
    CAIRN_GROUP_INDEX("CairnGroupIndex", "Cairn group by index", "#fee08b"),
    /** Cairn, through the same groups walked by block ({@code CairnGroupBlockIteration}). */
    CAIRN_GROUP_BLOCK("CairnGroupBlock", "Cairn group by block", "#ffffbf"),
    /** Dominion 0.9.0. */
    DOMINION("Dominion", "Dominion", "#1b9e77"),
    /** Artemis-odb 2.3.0. */
    ARTEMIS("Artemis", "Artemis-odb", "#7570b3"),
    /** Ashley 1.7.4. */
    ASHLEY("Ashley", "Ashley", "#e7298a"),
    /** Hand-written loop over float[] columns. */
    ARRAYS("Array", "float[] loop", "#666666"),
    /** Hand-written loop over off-heap UnsafeBuffer columns. */
    BUFFERS("Buffer", "UnsafeBuffer loop", "#a6a6a6");

    private final String classPrefix;
    private final String label;
    private final String colour;

    Library(final String classPrefix, final String label, final String colour)
    {
        this.classPrefix = classPrefix;
        this.label = label;
        this.colour = colour;
    }

    /**
     * The start of the simple class name of this library's benchmarks.
     *
     * @return for example {@code "Cairn"}.
     */
    public String classPrefix()
    {
        return classPrefix;
    }

    /**
     * The name shown in tables and the chart.
     *
     * @return for example {@code "Artemis-odb"}.
     */
    public String label()
    {
        return label;
    }

    /**
     * The bar colour in the chart.
     *
     * @return a CSS hex colour.
     */
    public String colour()
    {
        return colour;
    }

    /**
     * Whether this is one of the two hand-written baselines.
     *
     * @return true for {@link #ARRAYS} and {@link #BUFFERS}.
     */
    public boolean isBaseline()
    {
        return this == ARRAYS || this == BUFFERS;
    }

    /**
     * The library a benchmark class belongs to.
     *
     * @param simpleClassName the benchmark's class, without package or enclosing class.
     * @return the library.
     * @throws IllegalArgumentException if no library's prefix matches.
     */
    public static Library ofClass(final String simpleClassName)
    {
        Library longest = null;
        for (final Library library : values())
        {
            if (simpleClassName.startsWith(library.classPrefix) &&
                (longest == null || library.classPrefix.length() > longest.classPrefix.length()))
            {
                longest = library;
            }
        }
        if (longest != null)
        {
            return longest;
        }
        throw new IllegalArgumentException(
            "benchmark class " + simpleClassName + " belongs to no known library: start its name with one of " +
            "Cairn, Dominion, Artemis, Ashley, Array or Buffer");
    }
}
