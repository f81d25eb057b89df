package dev.cairn.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regenerates the results page and chart from an existing JMH JSON file, without rerunning anything:
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.cairn.bench.report.ReportGenerator bench/results/quick.json \
 *     [--page docs/benchmarks.md] [--svg docs/benchmarks.svg]
 * </pre>
 * The machine and command come from the {@code .properties} file beside the JSON ({@link Machine#sidecar}); without
 * one, the page says so and describes the current machine.
 */
public final class ReportGenerator
{
    /** Where the page goes unless {@code --page} says otherwise. */
    public static final Path DEFAULT_PAGE = Path.of("docs", "benchmarks.md");

    /** Where the chart goes unless {@code --svg} says otherwise. */
    public static final Path DEFAULT_SVG = Path.of("docs", "benchmarks.svg");

    private ReportGenerator()
    {
    }

    /**
     * Command line entry point.
     *
     * @param args the JSON file, then optional {@code --page FILE} and {@code --svg FILE}.
     * @throws IOException if a file cannot be read or written.
     */
    public static void main(final String[] args) throws IOException
    {
        Path json = null;
        Path page = DEFAULT_PAGE;
        Path svg = DEFAULT_SVG;
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (("--page".equals(arg) || "--svg".equals(arg)) && i + 1 < args.length)
            {
                final Path value = Path.of(args[++i]);
                if ("--page".equals(arg))
                {
                    page = value;
                }
                else
                {
                    svg = value;
                }
            }
            else if (!arg.startsWith("--") && json == null)
            {
                json = Path.of(arg);
            }
            else
            {
                usage("unexpected argument '" + arg + "'");
                return;
            }
        }
        if (json == null)
        {
            usage("name the JMH JSON results file");
            return;
        }
        if (!Files.isRegularFile(json))
        {
            usage("results file " + json + " does not exist; run bench/run-benchmarks.sh quick first");
            return;
        }
        generate(json, page, svg);
        System.out.println("wrote " + page + " and " + svg + " from " + json);
    }

    /**
     * Writes the page and the chart for a results file.
     *
     * @param json the JMH JSON results.
     * @param page the Markdown page to write.
     * @param svg  the SVG chart to write; the page links to it by file name, so keep them in one directory.
     * @throws IOException if a file cannot be read or written.
     */
    public static void generate(final Path json, final Path page, final Path svg) throws IOException
    {
        final ResultSet results = ResultSet.read(json);
        final Path sidecar = Machine.sidecar(json);
        final Machine machine = Files.isRegularFile(sidecar) ?
            Machine.read(sidecar) :
            Machine.current("unknown: no " + sidecar.getFileName() + " beside the results", "unknown", "unknown",
                "unknown");
        final String name = json.getFileName().toString();
        final String profile = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        final String jsonPath = json.normalize().toString().replace('\\', '/');

        final String subtitle = profile + " profile; " + machine.cpu() + ", " + machine.cores() + " cores; JDK " +
            results.setting("jdkVersion");
        write(svg, BarChart.svg(results, subtitle));
        final String kept = Files.isRegularFile(page) ? handWritten(Files.readString(page, StandardCharsets.UTF_8)) : "";
        write(page, ResultsPage.markdown(results, machine, profile, jsonPath, svg.getFileName().toString()) + kept);
    }

    /**
     * The part of a page written by hand, which regenerating keeps: from the line {@link ResultsPage#HAND_WRITTEN}
     * to the end, or nothing if the page has no such line.
     *
     * @param page the page as it is.
     * @return the hand-written part, with a blank line before it.
     */
    static String handWritten(final String page)
    {
        final int at = page.indexOf(ResultsPage.HAND_WRITTEN);
        if (at < 0)
        {
            return "";
        }
        final int lineStart = page.lastIndexOf('\n', at) + 1;
        return "\n" + page.substring(lineStart);
    }

    private static void write(final Path file, final String text) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void usage(final String problem)
    {
        System.err.println("ReportGenerator: " + problem);
        System.err.println(
            "usage: ReportGenerator RESULTS.json [--page docs/benchmarks.md] [--svg docs/benchmarks.svg]");
        System.exit(2);
    }
}
