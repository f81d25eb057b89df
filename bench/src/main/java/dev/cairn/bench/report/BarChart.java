package dev.cairn.bench.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws the results as a horizontal grouped bar chart in plain SVG, built as a string: one group per workload and
 * size, one bar per library, nanoseconds per entity on a logarithmic axis (the libraries span three orders of
 * magnitude). Lower is better.
 */
public final class BarChart
{
    private static final int WIDTH = 1040;
    private static final int LABEL_WIDTH = 330;
    private static final int PLOT_LEFT = LABEL_WIDTH + 10;
    private static final int PLOT_RIGHT = WIDTH - 70;
    private static final int TOP = 90;
    private static final int BAR = 9;
    private static final int BAR_GAP = 2;
    private static final int GROUP_GAP = 14;

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
        final List<List<Result>> groups = new ArrayList<>();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (final Workloads workload : Workloads.values())
        {
            for (final int size : results.sizes(workload))
            {
                final List<Result> group = new ArrayList<>();
                for (final Library library : Library.values())
                {
                    final Result result = results.find(library, workload, size);
                    if (result != null && result.nanos() > 0 && Double.isFinite(result.nanos()))
                    {
                        group.add(result);
                        min = Math.min(min, result.nanos());
                        max = Math.max(max, result.nanos());
                    }
                }
                if (!group.isEmpty())
                {
                    groups.add(group);
                }
            }
        }
        if (groups.isEmpty())
        {
            min = 1;
            max = 10;
        }
        final int lowDecade = (int)Math.floor(Math.log10(min));
        final int highDecade = Math.max(lowDecade + 1, (int)Math.ceil(Math.log10(max)));

        int plotHeight = 0;
        for (final List<Result> group : groups)
        {
            plotHeight += group.size() * (BAR + BAR_GAP) + GROUP_GAP;
        }
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
        for (final List<Result> group : groups)
        {
            final Result head = group.get(0);
            final int groupHeight = group.size() * (BAR + BAR_GAP);
            svg.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                LABEL_WIDTH, y + groupHeight / 2 + 4,
                escape(head.workload().label() + ", " + Result.sizeLabel(head.entities()))));
            for (final Result result : group)
            {
                final double x = xOf(result.nanos(), lowDecade, highDecade);
                svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">" +
                    "<title>%s</title></rect>%n",
                    PLOT_LEFT, y, Math.max(1, x - PLOT_LEFT), BAR, result.library().colour(),
                    escape(result.library().label() + ": " + Goal.ns(result.nanos()) + " ns/entity")));
                svg.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#333333\">%s</text>%n",
                    x + 3, y + BAR - 1, escape(Goal.ns(result.nanos()))));
                y += BAR + BAR_GAP;
            }
            y += GROUP_GAP;
        }
        svg.append("</svg>\n");
        return svg.toString();
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
