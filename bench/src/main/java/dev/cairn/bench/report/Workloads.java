package dev.cairn.bench.report;

import java.util.List;

/**
 * The workloads, in report order, with the words the report uses for them. A benchmark method named
 * {@code <workload>_<size>} belongs to the workload whose {@link #method()} matches.
 */
public enum Workloads
{
    /** Create entities with two components. */
    CREATE("create", "create entity + 2 components"),
    /** The same in a world cleared since its last fill, whose memory is mapped already. */
    CREATE_REUSED("createReused", "create entity + 2 components, memory mapped (cleared world)"),
    /** Destroy entities with two components. */
    DESTROY("destroy", "destroy entity (2 components)"),
    /** Destroy every entity with two components in one call ({@code World.destroy(long[], int)}). */
    DESTROY_ALL("destroyAll", "destroy many in one call (2 components)"),
    /** Add one component to every entity, then remove it. */
    ADD_REMOVE("addRemove", "add + remove 1 component"),
    /** Iterate one component. */
    ITERATE1("iterate1", "iterate 1 component"),
    /** Iterate two components. */
    ITERATE2("iterate2", "iterate 2 components"),
    /** Iterate three components. */
    ITERATE3("iterate3", "iterate 3 components"),
    /** Two-component view with one exclusion that excludes half the entities. */
    VIEW_EXCLUDE("viewExclude", "2-component view, 1 exclusion (half excluded)"),
    /** Sort a 150,000-entity storage by a field. */
    SORT("sort", "sort 150K-entity storage by a field"),
    /** Random-access read of one component by entity. */
    RANDOM_GET("randomGet", "random get by entity");

    /** The workloads the iteration goals and the zero-allocation goal cover. */
    public static final List<Workloads> ITERATION = List.of(ITERATE1, ITERATE2, ITERATE3, VIEW_EXCLUDE);

    private final String method;
    private final String label;

    Workloads(final String method, final String label)
    {
        this.method = method;
        this.label = label;
    }

    /**
     * The benchmark method name before the size suffix.
     *
     * @return for example {@code "iterate2"}.
     */
    public String method()
    {
        return method;
    }

    /**
     * What the report calls this workload.
     *
     * @return a short description.
     */
    public String label()
    {
        return label;
    }

    /**
     * The workload a benchmark method measures.
     *
     * @param method the method's name before {@code _<size>}.
     * @return the workload.
     * @throws IllegalArgumentException if none matches.
     */
    public static Workloads ofMethod(final String method)
    {
        for (final Workloads workload : values())
        {
            if (workload.method.equals(method))
            {
                return workload;
            }
        }
        throw new IllegalArgumentException("benchmark method " + method + " names no known workload");
    }
}
