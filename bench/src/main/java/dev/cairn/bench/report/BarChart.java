package dev.cairn.bench.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws the results as a horizontal grouped bar chart in plain SVG, built as a string: one group per workload and
 * size, one row per library, nanoseconds per entity on a logarithmic axis (the libraries span three orders of
 * magnitude). Lower is better. Each bar carries a whisker for JMH's 99.9% confidence interval (none when the profile
 * had too few samples), and a library without a result in a group keeps its row, marked {@code n/a}, so a missing
 * result is visible instead of silently absent.
 */
public final class BarChart
{
    private static final int WIDTH = 1100;
    private static final int LABEL_WIDTH = 330;
    private static final int PLOT_LEFT = LABEL_WIDTH + 10;
    private static final int PLOT_RIGHT = WIDTH - 130;
    private static final int TOP = 104;
    private static final int BAR = 9;
    private static final int BAR_GAP = 2;
    private static final int GROUP_GAP = 14;
    private static final String NOT_AVAILABLE = "n/a";

    private BarChart()
    {
    }

    /**
     * Renders the chart.
     *
     * @param results  the run.
     * @param subtitle a line under the title, for example the machine and JDK.
     * @return a standalone SVG document.
     */
    public static String svg(final ResultSet results, final String subtitle)
    {
        final List<Workloads> groupWorkloads = new ArrayList<>();
        final List<Integer> groupSizes = new ArrayList<>();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (final Workloads workload : Workloads.values())
        {
            for (final int size : results.sizes(workload))
            {
                groupWorkloads.add(workload);
                groupSizes.add(size);
                for (final Library library : Library.values())
                {
                    final Result result = drawable(results.find(library, workload, size));
                    if (result != null)
                    {
                        min = Math.min(min, result.nanos());
                        max = Math.max(max, result.nanos() + errorOf(result));
                    }
                }
            }
        }
        if (max == 0)
        {
            min = 1;
            max = 10;
        }
        final int lowDecade = (int)Math.floor(Math.log10(min));
        final int highDecade = Math.max(lowDecade + 1, (int)Math.ceil(Math.log10(max)));

        final int rows = Library.values().length;
        final int plotHeight = groupWorkloads.size() * (rows * (BAR + BAR_GAP) + GROUP_GAP);
        final int height = TOP + plotHeight + 40;

        final StringBuilder svg = new StringBuilder(64 * 1024);
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append(String.format(Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" " +
            "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">%n", WIDTH, height, WIDTH, height));
        svg.append(String.format(Locale.ROOT,
            "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, height));
        svg.append("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">")
            .append(escape("Nanoseconds per entity (log scale, lower is better)")).append("</text>\n");
        svg.append("<text x=\"10\" y=\"40\" fill=\"#555555\">").append(escape(subtitle)).append("</text>\n");

        int legendX = 10;
        for (final Library library : Library.values())
        {
            svg.append(String.format(Locale.ROOT,
                "<rect x=\"%d\" y=\"52\" width=\"12\" height=\"12\" fill=\"%s\"/>" +
                "<text x=\"%d\" y=\"62\">%s</text>%n",
                legendX, library.colour(), legendX + 16, escape(library.label())));
            legendX += 28 + 7 * library.label().length();
        }
        svg.append("<text x=\"10\" y=\"82\" fill=\"#555555\">")
            .append(escape("Whiskers: JMH's 99.9% confidence interval (none when the profile has too few samples). " +
                NOT_AVAILABLE + ": no result for that library (not measured, or missing from the run)."))
            .append("</text>\n");

        final int plotBottom = TOP + plotHeight;
        for (int decade = lowDecade; decade <= highDecade; decade++)
        {
            final double x = xOf(Math.pow(10, decade), lowDecade, highDecade);
            svg.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>%n",
                x, TOP - 6, x, plotBottom));
            svg.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%s</text>%n",
                x, plotBottom + 16, escape(tick(decade))));
        }
        svg.append(String.format(Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">ns per entity</text>%n",
            (PLOT_LEFT + PLOT_RIGHT) / 2, plotBottom + 32));

        int y = TOP;
        for (int group = 0; group < groupWorkloads.size(); group++)
        {
            final Workloads workload = groupWorkloads.get(group);
            final int size = groupSizes.get(group);
            final int groupHeight = rows * (BAR + BAR_GAP);
            svg.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                LABEL_WIDTH, y + groupHeight / 2 + 4, escape(workload.label() + ", " + Result.sizeLabel(size))));
            for (final Library library : Library.values())
            {
                final Result result = drawable(results.find(library, workload, size));
                if (result == null)
                {
                    svg.append(String.format(Locale.ROOT,
                        "<text class=\"missing\" x=\"%d\" y=\"%d\" font-size=\"9\" fill=\"#555555\">%s" +
                        "<title>%s</title></text>%n",
                        PLOT_LEFT + 3, y + BAR - 1, escape(NOT_AVAILABLE + " (" + library.label() + ")"),
                        escape(library.label() + ": no result")));
                }
                else
                {
                    bar(svg, result, y, lowDecade, highDecade);
                }
                y += BAR + BAR_GAP;
            }
            y += GROUP_GAP;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void bar(
        final StringBuilder svg, final Result result, final int y, final int lowDecade, final int highDecade)
    {
        final double x = xOf(result.nanos(), lowDecade, highDecade);
        final double error = errorOf(result);
        final String value = Goal.ns(result.nanos()) + (error > 0 ? " ± " + Goal.ns(error) : "");
        svg.append(String.format(Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">" +
            "<title>%s</title></rect>%n",
            PLOT_LEFT, y, Math.max(1, x - PLOT_LEFT), BAR, result.library().colour(),
            escape(result.library().label() + ": " + value + " ns/entity")));
        double labelX = x;
        if (error > 0)
        {
            // The interval's low end can fall at or below zero, off a log axis: the whisker then starts at the axis.
            final double low = result.nanos() - error;
            final double x0 = low > 0 ? Math.max(PLOT_LEFT, xOf(low, lowDecade, highDecade)) : PLOT_LEFT;
            final double x1 = xOf(result.nanos() + error, lowDecade, highDecade);
            final double middle = y + BAR / 2.0;
            svg.append(String.format(Locale.ROOT,
                "<path class=\"error\" d=\"M%.1f %.1fH%.1fM%.1f %dV%dM%.1f %dV%d\" stroke=\"#222222\" " +
                "stroke-width=\"1\" fill=\"none\"/>%n",
                x0, middle, x1, x0, y + 1, y + BAR - 1, x1, y + 1, y + BAR - 1));
            labelX = Math.max(x, x1);
        }
        svg.append(String.format(Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#333333\">%s</text>%n",
            labelX + 3, y + BAR - 1, escape(value)));
    }

    /** A result the log axis can show (a positive, finite time), or null. */
    private static Result drawable(final Result result)
    {
        return result != null && result.nanos() > 0 && Double.isFinite(result.nanos()) ? result : null;
    }

    /** The confidence half-width, or 0 when JMH gave none. */
    private static double errorOf(final Result result)
    {
        final double error = result.error();
        return Double.isFinite(error) && error > 0 ? error : 0;
    }

    private static double xOf(final double nanos, final int lowDecade, final int highDecade)
    {
        final double fraction = (Math.log10(nanos) - lowDecade) / (highDecade - lowDecade);
        return PLOT_LEFT + fraction * (PLOT_RIGHT - PLOT_LEFT);
    }

    private static String tick(final int decade)
    {
        if (decade >= 0)
        {
            return Long.toString((long)Math.pow(10, decade));
        }
        return BigDecimal.ONE.scaleByPowerOfTen(decade).toPlainString();
    }

    /**
     * Escapes text for SVG content and attribute values.
     *
     * @param text any text.
     * @return the text with XML special characters escaped.
     */
    public static String escape(final String text)
    {
        final StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '<':
                    out.append("&lt;");
                    break;
                case '>':
                    out.append("&gt;");
                    break;
                case '&':
                    out.append("&amp;");
                    break;
                case '"':
                    out.append("&quot;");
                    break;
                case '\'':
                    out.append("&apos;");
                    break;
                default:
                    out.append(c);
            }
        }
        return out.toString();
    }
}
