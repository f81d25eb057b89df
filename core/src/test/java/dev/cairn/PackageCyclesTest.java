package dev.cairn;

import dev.cairn.world.World;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packages of core depend on each other without a cycle, as jdeps reads them from the bytecode: each can be
 * understood, and changed, from the packages below it. The root package, the vocabulary every other uses, depends on
 * none of them.
 */
final class PackageCyclesTest
{
    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.cairn[\\w.]*)\\s+->\\s+(dev\\.cairn[\\w.]*)\\s",
        Pattern.MULTILINE);

    @Test
    void corePackagesFormNoCycle() throws Exception
    {
        final Map<String, Set<String>> uses = dependencies();
        assertTrue(uses.size() > 5, "jdeps found the packages: " + uses);
        for (final String start : uses.keySet())
        {
            final List<String> cycle = cycleFrom(start, start, uses, new ArrayList<>(), new TreeSet<>());
            assertEquals(List.of(), cycle, "package " + start + " depends on itself through " + cycle);
        }
        assertEquals(Set.of(), uses.getOrDefault("dev.cairn", Set.of()), "the root package depends on no other");
    }

    private static Map<String, Set<String>> dependencies() throws Exception
    {
        final Path classes = Path.of(World.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        final StringWriter out = new StringWriter();
        final int status = jdeps.run(new PrintWriter(out), new PrintWriter(out),
            "-verbose:package", "-filter:none", classes.toString());
        assertEquals(0, status, out.toString());
        final Map<String, Set<String>> uses = new TreeMap<>();
        final Matcher matcher = EDGE.matcher(out.toString());
        while (matcher.find())
        {
            uses.computeIfAbsent(matcher.group(1), key -> new TreeSet<>());
            if (!matcher.group(1).equals(matcher.group(2)))
            {
                uses.get(matcher.group(1)).add(matcher.group(2));
            }
        }
        return uses;
    }

    /** A path from {@code at} back to {@code start}, or an empty list if there is none. */
    private static List<String> cycleFrom(final String start, final String at, final Map<String, Set<String>> uses,
        final List<String> path, final Set<String> seen)
    {
        for (final String next : uses.getOrDefault(at, Set.of()))
        {
            final List<String> extended = new ArrayList<>(path);
            extended.add(next);
            if (next.equals(start))
            {
                return extended;
            }
            if (seen.add(next))
            {
                final List<String> cycle = cycleFrom(start, next, uses, extended, seen);
                if (!cycle.isEmpty())
                {
                    return cycle;
                }
            }
        }
        return List.of();
    }
}
