package dev.cairn.bench.report;

import java.util.List;
import java.util.Locale;

/**
 * Writes {@code docs/benchmarks.md}: the run's machine and command, the goals with met/missed verdicts, nanoseconds
 * per entity for every workload and library, Cairn's speed-up over each peer and baseline, heap bytes per entity, the
 * chart, and how each library was used.
 */
public final class ResultsPage
{
    /**
     * The line from which a page is written by hand (measurements of features and of earlier commits): regenerating
     * the page keeps it and everything after it.
     */
    static final String HAND_WRITTEN = "<!-- Written by hand from here on: regenerating the page keeps it. -->";

    private static final String METHOD = String.join("\n",
        "## How each library is used",
        "",
        "Every library is used the way its own documentation recommends for speed; the benchmark sources are in",
        "`bench/src/main/java/dev/cairn/bench/<library>/`.",
        "",
        "- **Cairn**: `@Component` records (`Position`, `Velocity`, `Acceleration`, tag `Frozen`) compiled into",
        "  generated off-heap storages (`PositionStorage`...), used through a `World`. Create: `world.create()` then",
        "  `emplace` on each storage; destroy: `world.destroy(e)`; add-remove: `AccelerationStorage.emplace`/`erase`.",
        "  Iteration through generated `@View` classes (`MoversView.forEach((e, position, velocity) -> ...)`, with the",
        "  positioned `Ref` flyweights); the exclusion view is `@View(with = {Position, Velocity}, without = Frozen)`.",
        "  Sort: `positions.sort(positions.comparingX())`. Random get: `indexOf(e)` then `xAt`/`yAt`.",
        "- **Dominion 0.9.0**: plain mutable component objects; `createEntity(position, velocity)`,",
        "  `deleteEntity`, `Entity.add`/`removeType`; iteration with `findCompositionsWith(...)` (no entity",
        "  materialised) walked with its iterator each invocation, exclusion with `.without(Frozen.class)`; random",
        "  get `entity.get(Position.class)`.",
        "  No storage sort API: not measured. Dominion registers every instance in a fixed table of 1024",
        "  (`Logging.registerLoggingLevel`), so a fork that creates more than 1024 worlds fails: the create workload",
        "  builds one world per invocation, and at 10K the full profile's one-second iterations run past that limit,",
        "  so that cell can be missing from a full run.",
        "- **Artemis-odb 2.3.0** (plain, no weaver): worlds built through `WorldConfigurationBuilder`, entities",
        "  created from an `Archetype`, fields set through `ComponentMapper`s; one `IteratingSystem` per iteration",
        "  workload with injected mappers (`Aspect.all(...)`, `.exclude(Frozen.class)`), measured as one",
        "  `world.process()`; one `world.process()` runs before measuring to flush subscriptions. Create, destroy and",
        "  add-remove include the `world.process()` that applies them. Random get `mapper.get(id)`. No storage sort",
        "  API: not measured.",
        "- **Ashley 1.7.4**: a `PooledEngine` with pools sized for every entity; `createEntity`/`createComponent`/",
        "  `addEntity`/`removeEntity`, `Entity.add`/`remove`; iteration over the engine's live `ImmutableArray` for a",
        "  `Family`, components read through `ComponentMapper`s; sort is a `SortedIteratingSystem` (`forceSort()` then",
        "  `engine.update(0)`, an empty `processEntity`). No `destroy` at 1M: Ashley removes an entity by a linear",
        "  search of the engine's entity array, so a million removals take minutes per invocation. No 10M",
        "  workloads: ten million pooled `Entity` objects with their component objects and family bookkeeping do not",
        "  fit the forks' 3 GiB heap, and creating them takes longer than a profile's whole budget.",
        "- **float[] loop**: structure-of-arrays `float[]` columns and a hand-written indexed loop; exclusion tests a",
        "  `boolean[]`. Sort packs (sortable x bits, row) into `long`s, `Arrays.sort`s them and gathers every column.",
        "- **UnsafeBuffer loop**: the same over off-heap Agrona `UnsafeBuffer` columns, bounds checks on, one",
        "  `boundsCheck(0, bytes)` per column hoisted before the loop.",
        "",
        "## What is measured",
        "",
        "- Times are JMH average time divided by the entities each invocation touches (`@OperationsPerInvocation`),",
        "  so every figure is **nanoseconds per entity**; `±` is JMH's 99.9% confidence half-width (blank when the",
        "  profile has too few samples). Bytes per entity are JMH's `gc.alloc.rate.norm` (`-prof gc`).",
        "- Components: `Position(float x, float y)`, `Velocity(float dx, float dy)`, `Acceleration(float ax, float",
        "  ay)` and a tag `Frozen`.",
        "- *create*: create N entities with Position and Velocity in a new, empty world (one per invocation).",
        "  *memory mapped*: the same in a world cleared before each invocation (Cairn only), whose memory its last",
        "  fill touched already; the difference is the kernel mapping fresh pages on first touch.",
        "  *destroy*: destroy all N of them (the world is refilled before each invocation, not timed).",
        "  *add + remove*: add Acceleration to each of N entities, then remove it from each.",
        "- *iterate 1/2/3*: over N entities that have all three components: `p += (1, 1)`; `p += v`; `p += v; v += a`.",
        "- *2-component view, 1 exclusion*: `p += v` over Position and Velocity without Frozen; every other entity is",
        "  Frozen. Per entity of the world (N), not per entity visited.",
        "- *sort*: sort a 150,000-entity storage by `x` (re-randomised before each invocation, not timed).",
        "- *random get*: read one entity's Position (both fields) for all N entities in a pre-shuffled order.",
        "- Sizes: N = 10,000 and 1,000,000 for every workload, and 10,000,000 for the iteration and exclusion",
        "  workloads (creating, destroying and re-randomising 10M entities per invocation would take several seconds",
        "  an invocation for the peers).",
        "- Ratios are the other library's time divided by Cairn's: above 1 Cairn is faster, below 1 it is slower.");

    private ResultsPage()
    {
    }

    /**
     * Renders the page.
     *
     * @param results  the run.
     * @param machine  where and how it ran.
     * @param profile  the profile name ({@code quick}, {@code full}), or a file name for other runs.
     * @param jsonPath the results file, as the page should name it.
     * @param svgName  the chart's file name, relative to the page.
     * @return Markdown text.
     */
    public static String markdown(
        final ResultSet results,
        final Machine machine,
        final String profile,
        final String jsonPath,
        final String svgName)
    {
        final StringBuilder md = new StringBuilder(32 * 1024);
        md.append("# Benchmarks\n\n");
        md.append("<!-- Generated by dev.cairn.bench.report.ReportGenerator from ").append(jsonPath)
            .append(": do not edit by hand, regenerate (see the end of this page). -->\n\n");
        md.append("Cairn against Dominion 0.9.0, Artemis-odb 2.3.0 and Ashley 1.7.4, and against two hand-written\n")
            .append("baselines (a loop over `float[]` columns and one over off-heap `UnsafeBuffer` columns), all in\n")
            .append("the same JMH run. Every figure is **nanoseconds per entity**; lower is better.\n\n");
        if ("quick".equals(profile))
        {
            md.append("> These numbers come from the **quick** profile (one fork, a few short iterations): good for\n")
                .append("> spotting a regression, not for publishing. Run the full profile for tighter numbers.\n\n");
        }

        md.append("## Run\n\n");
        md.append("| | |\n|---|---|\n");
        row(md, "profile", profile + " (" + results.setting("forks") + " fork(s), " +
            results.setting("warmupIterations") + " x " + results.setting("warmupTime") + " warmup, " +
            results.setting("measurementIterations") + " x " + results.setting("measurementTime") +
            " measurement, `-prof gc`)");
        row(md, "machine", machine.cpu() + ", " + machine.cores() + " cores (nproc), " + machine.memory() + " RAM");
        row(md, "OS", machine.os());
        row(md, "JDK", results.setting("jdkVersion") + ", " + results.setting("vmName") + " " +
            results.setting("vmVersion"));
        row(md, "JMH", results.setting("jmhVersion"));
        row(md, "fork JVM arguments", "`" + String.join(" ", results.jvmArgs()) + "`");
        row(md, "finished", machine.date());
        row(md, "code", "commit " + machine.commit());
        row(md, "machine load", machine.load() + " on " + machine.cores() + " cores (a JMH run alone adds about " +
            "1 to 2; more means other work shared the CPUs and the numbers are noisier)");
        final Result reference = results.find(Library.ARRAYS, Workloads.ITERATE2, 10_000);
        if (reference != null)
        {
            row(md, "host speed", String.format(Locale.ROOT, "%.3f", reference.nanos()) + " ns per entity " +
                "for the float[] loop over 2 components of 10K entities, which runs in cache on one core: hosts of " +
                "this machine's kind differ from day to day, so compare this row between runs to tell a slower host " +
                "from slower code, and compare libraries within one run");
        }
        row(md, "command", "`" + machine.command() + "`");
        row(md, "raw results", "[`" + jsonPath + "`](../" + jsonPath + ")");
        md.append('\n');

        md.append("## Goals\n\n");
        md.append("| goal | measured | verdict |\n|---|---|---|\n");
        for (final Goal goal : Goal.evaluate(results))
        {
            md.append("| ").append(goal.goal()).append(" | ").append(goal.measured()).append(" | ")
                .append(boldFirstWord(goal.verdict())).append(" |\n");
        }
        md.append('\n');

        md.append("## Nanoseconds per entity\n\n");
        md.append("In each row the fastest library is in **bold**: the lowest mean among Cairn, Dominion,\n")
            .append("Artemis-odb and Ashley, whichever library it is (the `±` intervals tell whether the lead is\n")
            .append("larger than the noise). The two baselines are hand-written loops, not libraries, and are\n")
            .append("never bold.\n\n");
        header(md, "", List.of(Library.values()));
        for (final Workloads workload : Workloads.values())
        {
            for (final int size : results.sizes(workload))
            {
                md.append("| ").append(workload.label()).append(" | ").append(Result.sizeLabel(size));
                final double fastest = fastestLibrary(results, workload, size);
                for (final Library library : Library.values())
                {
                    final Result result = results.find(library, workload, size);
                    md.append(" | ");
                    if (result == null)
                    {
                        md.append('-');
                    }
                    else
                    {
                        final String value = Goal.ns(result.nanos());
                        md.append(!library.isBaseline() && result.nanos() == fastest ? "**" + value + "**" : value);
                        if (!Double.isNaN(result.error()))
                        {
                            md.append(" ± ").append(Goal.ns(result.error()));
                        }
                        if (result.forksDisagree())
                        {
                            md.append(" †");
                        }
                    }
                }
                md.append(" |\n");
            }
        }
        md.append("\n`-`: not measured (the library has no such operation, or see below).\n\n");
        disagreeingForks(md, results);

        md.append("## Cairn's speed-up\n\n");
        md.append("Each cell is the other's time divided by Cairn's: above 1 Cairn is faster, below 1 slower.\n\n");
        final List<Library> others = List.of(
            Library.DOMINION, Library.ARTEMIS, Library.ASHLEY, Library.ARRAYS, Library.BUFFERS);
        header(md, "vs ", others);
        for (final Workloads workload : Workloads.values())
        {
            for (final int size : results.sizes(workload))
            {
                final Result cairn = results.find(Library.CAIRN, workload, size);
                md.append("| ").append(workload.label()).append(" | ").append(Result.sizeLabel(size));
                for (final Library library : others)
                {
                    final Result other = results.find(library, workload, size);
                    md.append(" | ");
                    md.append(cairn == null || other == null ? "-" : Goal.ratio(other.nanos() / cairn.nanos()));
                }
                md.append(" |\n");
            }
        }
        md.append('\n');

        md.append("## Heap bytes allocated per entity\n\n");
        md.append("JMH's `gc.alloc.rate.norm` divided by entities; Cairn keeps component data off-heap.\n\n");
        header(md, "", List.of(Library.values()));
        for (final Workloads workload : Workloads.values())
        {
            for (final int size : results.sizes(workload))
            {
                md.append("| ").append(workload.label()).append(" | ").append(Result.sizeLabel(size));
                for (final Library library : Library.values())
                {
                    final Result result = results.find(library, workload, size);
                    md.append(" | ").append(result == null ? "-" : Goal.bytes(result.bytes()));
                }
                md.append(" |\n");
            }
        }
        md.append('\n');

        md.append("## Chart\n\n");
        md.append("![Nanoseconds per entity, log scale](").append(svgName).append(")\n\n");
        md.append(METHOD).append("\n\n");

        if (!results.skipped().isEmpty())
        {
            md.append("Benchmarks in the results file that the page does not show (not named ")
                .append("`<Library>*.<workload>_<size>`): ")
                .append(String.join(", ", results.skipped())).append(".\n\n");
        }

        md.append("## Feature workloads\n\n");
        md.append("Signals, groups, snapshots, parallel iteration and command buffers are measured in runs of their own, ")
            .append("each against its baseline in the same run, and reported with the command on their pages: ")
            .append("[signals](signals.md#what-it-costs), [groups](groups.md#what-it-costs), [snapshots](snapshots.md#costs), ")
            .append("[threads](threads.md#costs).");
        if (results.find(Library.CAIRN, Workloads.DESTROY_ALL, 1_000_000) == null)
        {
            md.append(" Destroying many entities in one call (`destroyAll`, the destroy goal's workload) is not in ")
                .append("this run; a run of its own is under [earlier measurements](#earlier-measurements).");
        }
        md.append("\n\n");
        md.append("## Reproduce\n\n");
        md.append("```bash\n");
        md.append("mvn -q -Pbench -DskipTests package             # builds bench/target/benchmarks.jar\n");
        md.append("bench/run-benchmarks.sh quick                  # about 5 minutes on 2 cores; or: full\n");
        md.append("bench/run-benchmarks.sh report ").append(jsonPath)
            .append("   # regenerate this page and the chart from existing results\n");
        md.append("```\n\n");
        md.append(String.format(Locale.ROOT,
            "The runner writes the raw JMH JSON to `bench/results/<profile>.json` and the machine and command to%n" +
            "`bench/results/<profile>.properties`, then regenerates this page and `%s`.%n", svgName));
        return md.toString();
    }

    /** Lists the results marked † in the table: forks that settled in different steady states. */
    private static void disagreeingForks(final StringBuilder md, final ResultSet results)
    {
        final StringBuilder list = new StringBuilder();
        for (final Result result : results.results())
        {
            if (result.forksDisagree())
            {
                list.append("- ").append(result.workload().label()).append(" at ")
                    .append(Result.sizeLabel(result.entities())).append(", ").append(result.library().label())
                    .append(": forks from ").append(Goal.ns(result.fastestFork())).append(" to ")
                    .append(Goal.ns(result.slowestFork())).append(" ns\n");
            }
        }
        if (list.length() > 0)
        {
            md.append("†: the forks disagree. Each benchmark runs in fresh JVMs (forks); where the slowest ")
                .append("fork's mean is more than ").append(Result.DISAGREEING_FORKS)
                .append(" times the fastest's, the benchmark has two steady states, usually a JIT decision ")
                .append("(such as inlining the measured action or not) that differs from one JVM start to the ")
                .append("next, and the mean describes neither:\n\n").append(list).append('\n');
        }
    }

    private static void header(final StringBuilder md, final String prefix, final List<Library> libraries)
    {
        md.append("| workload | entities");
        for (final Library library : libraries)
        {
            md.append(" | ").append(prefix).append(library.label());
        }
        md.append(" |\n|---|---:");
        for (int i = 0; i < libraries.size(); i++)
        {
            md.append("|---:");
        }
        md.append("|\n");
    }

    /**
     * The lowest mean time of a row among the libraries (not the baselines): the cell the table puts in bold.
     *
     * @param results  the run.
     * @param workload the row's workload.
     * @param size     the row's entity count.
     * @return nanoseconds per entity, or NaN if no library has a result in the row.
     */
    static double fastestLibrary(final ResultSet results, final Workloads workload, final int size)
    {
        double fastest = Double.NaN;
        for (final Library library : Library.values())
        {
            final Result result = results.find(library, workload, size);
            if (!library.isBaseline() && result != null && (Double.isNaN(fastest) || result.nanos() < fastest))
            {
                fastest = result.nanos();
            }
        }
        return fastest;
    }

    private static String boldFirstWord(final String text)
    {
        final int end = text.indexOf(',');
        return end < 0 ? "**" + text + "**" : "**" + text.substring(0, end) + "**" + text.substring(end);
    }

    private static void row(final StringBuilder md, final String name, final String value)
    {
        md.append("| ").append(name).append(" | ").append(value.replace("|", "\\|")).append(" |\n");
    }
}
