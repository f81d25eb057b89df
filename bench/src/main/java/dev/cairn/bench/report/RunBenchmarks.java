package dev.cairn.bench.report;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the whole suite under a named profile with {@code -prof gc}, writes the raw JMH JSON to
 * {@code bench/results/<profile>.json} and the machine and command beside it, then regenerates
 * {@code docs/benchmarks.md} and {@code docs/benchmarks.svg}. Run it from the repository root (the script
 * {@code bench/run-benchmarks.sh} does):
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.cairn.bench.report.RunBenchmarks quick|full [more JMH options]
 * </pre>
 * Extra arguments go to JMH after the profile's, so they can narrow the run (a benchmark regex) or override a
 * setting.
 */
public final class RunBenchmarks
{
    /**
     * About five minutes on two cores: one fork, three short warmups (enough for C2 to compile the loops at a million
     * entities) and two short measurements.
     */
    public static final List<String> QUICK = List.of("-f", "1", "-wi", "3", "-w", "400ms", "-i", "2", "-r", "250ms");

    /** Tighter numbers: two forks, five one-second warmups, five one-second measurements. */
    public static final List<String> FULL = List.of("-f", "2", "-wi", "5", "-w", "1s", "-i", "5", "-r", "1s");

    /** Where results go, relative to the repository root. */
    public static final Path RESULTS = Path.of("bench", "results");

    private RunBenchmarks()
    {
    }

    /**
     * Command line entry point.
     *
     * @param args the profile, {@code quick} or {@code full}, then optional JMH options.
     * @throws IOException      if results cannot be written.
     * @throws RunnerException  if JMH fails.
     */
    public static void main(final String[] args) throws IOException, RunnerException
    {
        if (args.length == 0 || !("quick".equals(args[0]) || "full".equals(args[0])))
        {
            System.err.println("RunBenchmarks: name a profile, quick (about 5 minutes on 2 cores) or full");
            System.err.println("usage: RunBenchmarks quick|full [JMH options, e.g. a benchmark regex]");
            System.exit(2);
            return;
        }
        final String profile = args[0];
        final List<String> extra = Arrays.asList(args).subList(1, args.length);
        final Path json = RESULTS.resolve(profile + ".json");
        final List<String> jmhArgs = jmhArguments(profile, json, extra);

        final CommandLineOptions options;
        try
        {
            options = new CommandLineOptions(jmhArgs.toArray(new String[0]));
        }
        catch (final CommandLineOptionException ex)
        {
            System.err.println("RunBenchmarks: JMH rejected the options " + jmhArgs + ": " + ex.getMessage());
            System.exit(2);
            return;
        }
        Files.createDirectories(RESULTS);
        final String commit = Machine.gitCommit();
        final String loadBefore = Machine.loadAverage();
        new Runner(options).run();
        final String load = loadBefore + " before, " + Machine.loadAverage() + " after (1-minute load average)";

        final String command = "bench/run-benchmarks.sh " + String.join(" ", args) +
            "  (= java -jar bench/target/benchmarks.jar " + String.join(" ", jmhArgs) + ")";
        Machine.current(command, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), commit, load)
            .write(Machine.sidecar(json));
        ReportGenerator.generate(json, ReportGenerator.DEFAULT_PAGE, ReportGenerator.DEFAULT_SVG);
        System.out.println("wrote " + json + ", " + ReportGenerator.DEFAULT_PAGE + " and " +
            ReportGenerator.DEFAULT_SVG);
    }

    /**
     * The JMH arguments of a profile.
     *
     * @param profile {@code quick} or {@code full}.
     * @param json    where JMH writes its JSON.
     * @param extra   arguments appended at the end.
     * @return the argument list.
     */
    public static List<String> jmhArguments(final String profile, final Path json, final List<String> extra)
    {
        final List<String> jmhArgs = new ArrayList<>("quick".equals(profile) ? QUICK : FULL);
        jmhArgs.addAll(List.of("-prof", "gc", "-rf", "json", "-rff", json.toString().replace('\\', '/')));
        jmhArgs.addAll(extra);
        return jmhArgs;
    }
}
