package dev.cairn.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One performance goal and how a run did against it.
 *
 * @param goal     what was promised.
 * @param measured what the run measured, in words.
 * @param met      whether the run meets the goal; false also when it was not measured.
 * @param verdict  "met" or "missed" (or "not measured") and by how much.
 */
public record Goal(String goal, String measured, boolean met, String verdict)
{
    /** Allocation per entity below this counts as none: it prints as 0.00 and is JMH's own noise. */
    public static final double ZERO_BYTES = 0.01;

    /**
     * Judges a run against Cairn's goals: a 2-component view at most 2.0 ns per entity at 1M; iteration at least 3x
     * faster than Artemis-odb and 4x faster than Dominion; create at most 20 ns and destroy at most 12 ns per entity;
     * no allocation in any Cairn iteration benchmark; and the group's: a full-owning 2-component group at 1M within
     * 2x the {@code float[]} loop and no slower than the {@code UnsafeBuffer} loop (walked with Refs, by index, then
     * by block),
     * the exclusion workload through a group faster than Artemis-odb and Dominion at every size, and add + remove of
     * an owned component within 2x of the same without a group.
     *
     * @param results the run.
     * @return one entry per goal, in that order.
     */
    public static List<Goal> evaluate(final ResultSet results)
    {
        final List<Goal> goals = new ArrayList<>();
        goals.add(atMost(results, "2-component view at 1M entities <= 2.0 ns/entity",
            List.of(Workloads.ITERATE2), List.of(1_000_000), 2.0));
        goals.add(fasterThan(results, Library.ARTEMIS, 3.0));
        goals.add(fasterThan(results, Library.DOMINION, 4.0));
        goals.add(atMost(results, "create <= 20 ns/entity", List.of(Workloads.CREATE), null, 20.0));
        goals.add(atMost(results, "destroy <= 12 ns/entity", List.of(Workloads.DESTROY), null, 12.0));
        goals.add(noAllocation(results));
        for (final Library walk : List.of(Library.CAIRN_GROUP, Library.CAIRN_GROUP_INDEX, Library.CAIRN_GROUP_BLOCK))
        {
            final String group = walk == Library.CAIRN_GROUP ? "full-owning group" :
                walk == Library.CAIRN_GROUP_INDEX ? "full-owning group by index" : "full-owning group by block";
            goals.add(groupAgainst(results, walk, group + ", 2 components at 1M <= 2x the float[] loop",
                Workloads.ITERATE2, 1_000_000, Library.ARRAYS, 2.0));
            goals.add(groupAgainst(results, walk, group + ", 2 components at 1M <= the UnsafeBuffer loop",
                Workloads.ITERATE2, 1_000_000, Library.BUFFERS, 1.0));
        }
        for (final Library peer : List.of(Library.ARTEMIS, Library.DOMINION))
        {
            for (final int size : results.sizes(Workloads.VIEW_EXCLUDE))
            {
                goals.add(groupAgainst(results, Library.CAIRN_GROUP, "exclusion through a group faster than " +
                    peer.label() + " at " + Result.sizeLabel(size), Workloads.VIEW_EXCLUDE, size, peer, 1.0));
            }
        }
        goals.add(groupAgainst(results, Library.CAIRN_GROUP,
            "add + remove of an owned component with the group <= 2x without",
            Workloads.ADD_REMOVE, 1_000_000, Library.CAIRN, 2.0));
        goals.add(destroyAgainstArtemis(results));
        return goals;
    }

    /**
     * Cairn's fastest way to destroy entities against Artemis-odb's, whose deletes are applied together in
     * {@code world.process()}: {@code World.destroy(long[], int)} at 1M, with the one-by-one destroy shown beside it.
     */
    private static Goal destroyAgainstArtemis(final ResultSet results)
    {
        final String goal = "destroy faster than Artemis-odb at 1M";
        final Result many = results.find(Library.CAIRN, Workloads.DESTROY_ALL, 1_000_000);
        final Result one = results.find(Library.CAIRN, Workloads.DESTROY, 1_000_000);
        final Result artemis = results.find(Library.ARTEMIS, Workloads.DESTROY, 1_000_000);
        if (many == null || one == null || artemis == null)
        {
            return new Goal(goal, "no Cairn and Artemis-odb destroy results at 1M", false, "not measured");
        }
        final String measured = String.format(Locale.ROOT,
            "%s ns in one call, %s ns one by one, against %s ns (%s, %s)",
            ns(many.nanos()), ns(one.nanos()), ns(artemis.nanos()), ratio(many.nanos() / artemis.nanos()),
            ratio(one.nanos() / artemis.nanos()));
        if (many.nanos() < artemis.nanos())
        {
            return new Goal(goal, measured, true, String.format(Locale.ROOT, "met in one call, %.0f%% faster%s",
                100 * (artemis.nanos() - many.nanos()) / artemis.nanos(),
                one.nanos() < artemis.nanos() ? " (and one by one)" : "; one by one is slower"));
        }
        return new Goal(goal, measured, false, String.format(Locale.ROOT, "missed, %.0f%% slower",
            100 * (many.nanos() - artemis.nanos()) / artemis.nanos()));
    }

    /** A group's time, walked as {@code walk} measures it, against {@code factor} times another's. */
    private static Goal groupAgainst(
        final ResultSet results,
        final Library walk,
        final String goal,
        final Workloads workload,
        final int size,
        final Library other,
        final double factor)
    {
        final Result group = results.find(walk, workload, size);
        final Result against = results.find(other, workload, size);
        if (group == null || against == null)
        {
            return new Goal(goal, "no pair of results", false, "not measured");
        }
        final double limit = factor * against.nanos();
        final String measured = String.format(Locale.ROOT, "%s ns against %s's %s ns (%s)", ns(group.nanos()),
            other.label(), ns(against.nanos()), ratio(group.nanos() / against.nanos()));
        if (group.nanos() <= limit)
        {
            return new Goal(goal, measured, true,
                String.format(Locale.ROOT, "met, %.0f%% under the limit", 100 * (limit - group.nanos()) / limit));
        }
        return new Goal(goal, measured, false, String.format(Locale.ROOT, "missed, %.0f%% over the limit",
            100 * (group.nanos() - limit) / limit));
    }

    private static Goal atMost(
        final ResultSet results,
        final String goal,
        final List<Workloads> workloads,
        final List<Integer> onlySizes,
        final double limit)
    {
        Result worst = null;
        for (final Workloads workload : workloads)
        {
            for (final int size : onlySizes != null ? onlySizes : results.sizes(workload))
            {
                final Result result = results.find(Library.CAIRN, workload, size);
                if (result != null && (worst == null || result.nanos() > worst.nanos()))
                {
                    worst = result;
                }
            }
        }
        if (worst == null)
        {
            return new Goal(goal, "no Cairn result", false, "not measured");
        }
        final String where = worst.workload().label() + " at " + Result.sizeLabel(worst.entities());
        final String measured = "worst " + ns(worst.nanos()) + " ns (" + where + ")";
        if (worst.nanos() <= limit)
        {
            return new Goal(goal, measured, true,
                String.format(Locale.ROOT, "met, %.0f%% under the limit", 100 * (limit - worst.nanos()) / limit));
        }
        return new Goal(goal, measured, false,
            String.format(Locale.ROOT, "missed, %.0f%% over the limit (%s ns too slow)",
                100 * (worst.nanos() - limit) / limit, ns(worst.nanos() - limit)));
    }

    private static Goal fasterThan(final ResultSet results, final Library peer, final double factor)
    {
        final String goal = String.format(Locale.ROOT, ">= %.0fx faster than %s on iteration", factor, peer.label());
        double worstRatio = Double.POSITIVE_INFINITY;
        String worstWhere = null;
        int cases = 0;
        int reached = 0;
        for (final Workloads workload : Workloads.ITERATION)
        {
            for (final int size : results.sizes(workload))
            {
                final Result cairn = results.find(Library.CAIRN, workload, size);
                final Result other = results.find(peer, workload, size);
                if (cairn == null || other == null)
                {
                    continue;
                }
                final double ratio = other.nanos() / cairn.nanos();
                cases++;
                if (ratio >= factor)
                {
                    reached++;
                }
                if (ratio < worstRatio)
                {
                    worstRatio = ratio;
                    worstWhere = workload.label() + " at " + Result.sizeLabel(size);
                }
            }
        }
        if (cases == 0)
        {
            return new Goal(goal, "no pair of Cairn and " + peer.label() + " results", false, "not measured");
        }
        final String measured = String.format(Locale.ROOT, "smallest ratio %s (%s); %d of %d cases reach %.0fx",
            ratio(worstRatio), worstWhere, reached, cases, factor);
        if (reached == cases)
        {
            return new Goal(goal, measured, true, String.format(Locale.ROOT,
                "met, with %.0f%% to spare in the closest case", 100 * (worstRatio - factor) / factor));
        }
        return new Goal(goal, measured, false, String.format(Locale.ROOT,
            "missed, %.0f%% short of %.0fx in the worst case", 100 * (factor - worstRatio) / factor, factor));
    }

    private static Goal noAllocation(final ResultSet results)
    {
        final String goal = "0 B/op in every Cairn view and group iteration benchmark";
        Result worst = null;
        int cases = 0;
        for (final Workloads workload : Workloads.ITERATION)
        {
            for (final int size : results.sizes(workload))
            {
                for (final Library library : List.of(Library.CAIRN, Library.CAIRN_GROUP, Library.CAIRN_GROUP_INDEX))
                {
                    final Result result = results.find(library, workload, size);
                    if (result == null || Double.isNaN(result.bytes()))
                    {
                        continue;
                    }
                    cases++;
                    if (worst == null || result.bytes() > worst.bytes())
                    {
                        worst = result;
                    }
                }
            }
        }
        if (worst == null)
        {
            return new Goal(goal, "no Cairn allocation figures (run with -prof gc)", false, "not measured");
        }
        final String measured = String.format(Locale.ROOT, "largest %s B/entity (%s at %s) over %d benchmarks",
            bytes(worst.bytes()), worst.workload().label(), Result.sizeLabel(worst.entities()), cases);
        if (worst.bytes() < ZERO_BYTES)
        {
            return new Goal(goal, measured, true, "met");
        }
        return new Goal(goal, measured, false, String.format(Locale.ROOT,
            "missed, by %s B/entity (%s B per invocation)", bytes(worst.bytes()),
            bytes(worst.bytes() * worst.entities())));
    }

    /**
     * Formats nanoseconds with precision that suits their size.
     *
     * @param nanos the value.
     * @return for example {@code 1.23}, {@code 45.6}, {@code 789}.
     */
    public static String ns(final double nanos)
    {
        if (Double.isNaN(nanos))
        {
            return "n/a";
        }
        final double magnitude = Math.abs(nanos);
        if (magnitude < 10)
        {
            return String.format(Locale.ROOT, "%.2f", nanos);
        }
        if (magnitude < 100)
        {
            return String.format(Locale.ROOT, "%.1f", nanos);
        }
        return String.format(Locale.ROOT, "%.0f", nanos);
    }

    /**
     * Formats a speed ratio.
     *
     * @param ratio the other library's time divided by Cairn's.
     * @return for example {@code 3.40x}.
     */
    public static String ratio(final double ratio)
    {
        if (Double.isNaN(ratio) || Double.isInfinite(ratio))
        {
            return "n/a";
        }
        return String.format(Locale.ROOT, ratio < 10 ? "%.2fx" : ratio < 100 ? "%.1fx" : "%.0fx", ratio);
    }

    /**
     * Formats bytes per entity.
     *
     * @param bytes the value.
     * @return for example {@code 0.00}, {@code 48.0}.
     */
    public static String bytes(final double bytes)
    {
        if (Double.isNaN(bytes))
        {
            return "n/a";
        }
        return String.format(Locale.ROOT, bytes < 100 ? "%.2f" : "%.0f", bytes);
    }
}
