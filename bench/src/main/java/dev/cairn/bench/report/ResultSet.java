package dev.cairn.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The results of one JMH run, read from its JSON output ({@code -rf json}), with the run's settings.
 * <p>
 * Benchmarks are identified by name: {@code <package>.<LibraryClass>.<workload>_<size>}, where the class's simple
 * name starts with a {@link Library#classPrefix()} and the method is a {@link Workloads#method()} and an entity count
 * suffix. Benchmarks that do not follow the convention are skipped and listed in {@link #skipped()}.
 */
public final class ResultSet
{
    private final List<Result> results;
    private final List<String> skipped;
    private final Map<String, Object> first;

    private ResultSet(final List<Result> results, final List<String> skipped, final Map<String, Object> first)
    {
        this.results = results;
        this.skipped = skipped;
        this.first = first;
    }

    /**
     * Reads a JMH JSON result file.
     *
     * @param file the file JMH wrote with {@code -rf json -rff file}.
     * @return the results.
     * @throws IOException              if it cannot be read.
     * @throws IllegalArgumentException if it is not a JMH result file.
     */
    public static ResultSet read(final Path file) throws IOException
    {
        try
        {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Parses the text of a JMH JSON result file.
     *
     * @param json the text.
     * @return the results.
     * @throws IllegalArgumentException if it is not a JMH result array.
     */
    @SuppressWarnings("unchecked")
    public static ResultSet parse(final String json)
    {
        final Object root = Json.parse(json);
        if (!(root instanceof List))
        {
            throw new IllegalArgumentException("a JMH result file is a JSON array of benchmark objects");
        }
        final List<Result> results = new ArrayList<>();
        final List<String> skipped = new ArrayList<>();
        Map<String, Object> first = Map.of();
        for (final Object element : (List<Object>)root)
        {
            if (!(element instanceof Map))
            {
                throw new IllegalArgumentException("a JMH result file is a JSON array of benchmark objects");
            }
            final Map<String, Object> benchmark = (Map<String, Object>)element;
            if (first.isEmpty())
            {
                first = benchmark;
            }
            final String name = String.valueOf(benchmark.get("benchmark"));
            final Result result = toResult(name, benchmark);
            if (result == null)
            {
                skipped.add(name);
            }
            else
            {
                results.add(result);
            }
        }
        return new ResultSet(List.copyOf(results), List.copyOf(skipped), first);
    }

    @SuppressWarnings("unchecked")
    private static Result toResult(final String name, final Map<String, Object> benchmark)
    {
        final int methodDot = name.lastIndexOf('.');
        final int classDot = name.lastIndexOf('.', methodDot - 1);
        final int underscore = name.lastIndexOf('_');
        if (methodDot < 0 || classDot < 0 || underscore < methodDot)
        {
            return null;
        }
        final Library library;
        final Workloads workload;
        final int entities;
        try
        {
            library = Library.ofClass(name.substring(classDot + 1, methodDot));
            workload = Workloads.ofMethod(name.substring(methodDot + 1, underscore));
            entities = Result.parseSize(name.substring(underscore + 1));
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
        final Map<String, Object> primary = (Map<String, Object>)benchmark.get("primaryMetric");
        final String unit = String.valueOf(primary.get("scoreUnit"));
        final double scale = nanosPerUnit(unit);
        final double score = number(primary.get("score")) * scale;
        final double error = number(primary.get("scoreError")) * scale;
        double bytes = Double.NaN;
        final Object secondary = benchmark.get("secondaryMetrics");
        if (secondary instanceof Map)
        {
            final Object alloc = ((Map<String, Object>)secondary).get("gc.alloc.rate.norm");
            if (alloc instanceof Map)
            {
                bytes = number(((Map<String, Object>)alloc).get("score"));
            }
        }
        double fastestFork = score;
        double slowestFork = score;
        final Object raw = primary.get("rawData");
        if (raw instanceof List && !((List<Object>)raw).isEmpty())
        {
            fastestFork = Double.POSITIVE_INFINITY;
            slowestFork = Double.NEGATIVE_INFINITY;
            for (final Object fork : (List<Object>)raw)
            {
                final double mean = mean((List<Object>)fork) * scale;
                fastestFork = Math.min(fastestFork, mean);
                slowestFork = Math.max(slowestFork, mean);
            }
        }
        return new Result(library, workload, entities, score, error, bytes, fastestFork, slowestFork);
    }

    private static double mean(final List<Object> iterations)
    {
        double sum = 0;
        for (final Object iteration : iterations)
        {
            sum += number(iteration);
        }
        return iterations.isEmpty() ? Double.NaN : sum / iterations.size();
    }

    private static double nanosPerUnit(final String unit)
    {
        switch (unit)
        {
            case "ns/op":
                return 1;
            case "us/op":
                return 1e3;
            case "ms/op":
                return 1e6;
            case "s/op":
                return 1e9;
            default:
                throw new IllegalArgumentException(
                    "score unit " + unit + " is not a time per operation: run JMH in average-time mode (-bm avgt)");
        }
    }

    private static double number(final Object value)
    {
        return value instanceof Number ? ((Number)value).doubleValue() : Double.NaN;
    }

    /**
     * Every result that follows the naming convention, in file order.
     *
     * @return the results.
     */
    public List<Result> results()
    {
        return results;
    }

    /**
     * Names of benchmarks in the file that do not follow the naming convention.
     *
     * @return the names.
     */
    public List<String> skipped()
    {
        return skipped;
    }

    /**
     * The result of one library on one workload and size.
     *
     * @param library  the library.
     * @param workload the workload.
     * @param entities the size.
     * @return the result, or null if it was not measured.
     */
    public Result find(final Library library, final Workloads workload, final int entities)
    {
        for (final Result result : results)
        {
            if (result.library() == library && result.workload() == workload && result.entities() == entities)
            {
                return result;
            }
        }
        return null;
    }

    /**
     * The sizes a workload was measured at, ascending.
     *
     * @param workload the workload.
     * @return the entity counts.
     */
    public List<Integer> sizes(final Workloads workload)
    {
        final TreeSet<Integer> sizes = new TreeSet<>();
        for (final Result result : results)
        {
            if (result.workload() == workload)
            {
                sizes.add(result.entities());
            }
        }
        return Collections.unmodifiableList(new ArrayList<>(sizes));
    }

    /**
     * A run-level field of the first benchmark, such as {@code jdkVersion}, {@code vmName}, {@code jmhVersion},
     * {@code forks}, {@code warmupIterations}, {@code warmupTime}, {@code measurementIterations},
     * {@code measurementTime}.
     *
     * @param key the JMH JSON field.
     * @return its value as text, or "?" if absent.
     */
    public String setting(final String key)
    {
        final Object value = first.get(key);
        if (value == null)
        {
            return "?";
        }
        if (value instanceof Double && (Double)value == Math.rint((Double)value))
        {
            return Long.toString(((Double)value).longValue());
        }
        return String.valueOf(value);
    }

    /**
     * The JVM arguments the forks ran with.
     *
     * @return the list from the first benchmark, or an empty list.
     */
    @SuppressWarnings("unchecked")
    public List<String> jvmArgs()
    {
        final Object value = first.get("jvmArgs");
        if (value instanceof List)
        {
            final List<String> args = new ArrayList<>();
            for (final Object arg : (List<Object>)value)
            {
                args.add(String.valueOf(arg));
            }
            return args;
        }
        return List.of();
    }
}
