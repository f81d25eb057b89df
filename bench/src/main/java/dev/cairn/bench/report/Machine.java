package dev.cairn.bench.report;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What a benchmark run ran on and how it was started, kept next to its JSON ({@code quick.json} gets
 * {@code quick.properties}) so the results page can be regenerated later, elsewhere, without losing it.
 *
 * @param cpu     CPU model from {@code /proc/cpuinfo}.
 * @param cores   processors available to the JVM ({@code nproc}).
 * @param memory  total memory from {@code /proc/meminfo}.
 * @param os      operating system name, version and architecture.
 * @param command the exact command that produced the results.
 * @param date    when the run finished (UTC, ISO-8601).
 * @param commit  the git commit the benchmarked code was built from, with a note if the tree had changes.
 * @param load    the 1-minute load average before and after the run: other work on the machine skews results.
 */
public record Machine(
    String cpu, int cores, String memory, String os, String command, String date, String commit, String load)
{
    /**
     * Describes the machine this JVM runs on.
     *
     * @param command the command to record.
     * @param date    the date to record.
     * @param commit  the commit to record.
     * @param load    the load averages to record.
     * @return the description.
     */
    public static Machine current(final String command, final String date, final String commit, final String load)
    {
        return new Machine(
            cpuModel(Path.of("/proc/cpuinfo")),
            Runtime.getRuntime().availableProcessors(),
            memTotal(Path.of("/proc/meminfo")),
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
                System.getProperty("os.arch"),
            command,
            date,
            commit,
            load);
    }

    /**
     * The properties file that belongs to a JSON result file.
     *
     * @param json {@code .../quick.json}.
     * @return {@code .../quick.properties}.
     */
    public static Path sidecar(final Path json)
    {
        final String name = json.getFileName().toString();
        final String base = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return json.resolveSibling(base + ".properties");
    }

    /**
     * Reads a description written by {@link #write(Path)}.
     *
     * @param file the properties file.
     * @return the description.
     * @throws IOException if it cannot be read.
     */
    public static Machine read(final Path file) throws IOException
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        int cores;
        try
        {
            cores = Integer.parseInt(properties.getProperty("cores", "0"));
        }
        catch (final NumberFormatException ex)
        {
            cores = 0;
        }
        return new Machine(
            properties.getProperty("cpu", "unknown"),
            cores,
            properties.getProperty("memory", "unknown"),
            properties.getProperty("os", "unknown"),
            properties.getProperty("command", "unknown"),
            properties.getProperty("date", "unknown"),
            properties.getProperty("commit", "unknown"),
            properties.getProperty("load", "unknown"));
    }

    /**
     * Writes this description as a properties file.
     *
     * @param file where to write.
     * @throws IOException if it cannot be written.
     */
    public void write(final Path file) throws IOException
    {
        final Properties properties = new Properties();
        properties.setProperty("cpu", cpu);
        properties.setProperty("cores", Integer.toString(cores));
        properties.setProperty("memory", memory);
        properties.setProperty("os", os);
        properties.setProperty("command", command);
        properties.setProperty("date", date);
        properties.setProperty("commit", commit);
        properties.setProperty("load", load);
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            properties.store(writer, "Machine and command of the benchmark run beside this file");
        }
    }

    /**
     * The commit checked out in the current directory, from {@code git}.
     *
     * @return the short hash, followed by a note if tracked files have uncommitted changes; "unknown" without git.
     */
    public static String gitCommit()
    {
        final String hash = git("rev-parse", "--short", "HEAD");
        if (hash.isEmpty())
        {
            return "unknown";
        }
        return git("status", "--porcelain", "--untracked-files=no").isEmpty() ?
            hash : hash + " (with uncommitted changes)";
    }

    private static String git(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor() == 0 ? out : "";
        }
        catch (final IOException ex)
        {
            return "";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /**
     * The 1-minute load average from {@code /proc/loadavg}.
     *
     * @return the value as text, or "unknown".
     */
    public static String loadAverage()
    {
        final List<String> lines = lines(Path.of("/proc/loadavg"));
        return lines.isEmpty() ? "unknown" : lines.get(0).split("\\s+")[0];
    }

    static String cpuModel(final Path cpuinfo)
    {
        for (final String line : lines(cpuinfo))
        {
            if (line.startsWith("model name"))
            {
                final int colon = line.indexOf(':');
                return line.substring(colon + 1).trim();
            }
        }
        return "unknown (no model name in " + cpuinfo + ")";
    }

    static String memTotal(final Path meminfo)
    {
        for (final String line : lines(meminfo))
        {
            if (line.startsWith("MemTotal:"))
            {
                final String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
                try
                {
                    final long kib = Long.parseLong(parts[0]);
                    return String.format("%.1f GiB", kib / (1024.0 * 1024.0));
                }
                catch (final NumberFormatException ex)
                {
                    return line;
                }
            }
        }
        return "unknown (no MemTotal in " + meminfo + ")";
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return List.of();
        }
    }
}
