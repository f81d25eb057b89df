package dev.cairn.codegen;

import dev.cairn.world.World;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every member of Cairn's core that generated code calls is on the one list {@code dev.cairn.internal}'s
 * package-info gives, and everything on that list is called: the list is what a change of core must keep working
 * for generated code, and nothing else is. The calls are read from the bytecode of every class the processor
 * generated for this module's tests, inherited members resolved to the class that declares them.
 */
final class GeneratedCodeCallsTest
{
    /** A reference in javap's listing; the owner is left out where it is the class listed. */
    private static final Pattern REFERENCE =
        Pattern.compile("// (?:Method|InterfaceMethod|Field) (?:([\\w/$]+)\\.)?([\\w$<>\"]+):");
    private static final Pattern LISTED = Pattern.compile("<li>\\{@code (\\w+)}: ([\\w, ]+)</li>");

    @Test
    void generatedCodeCallsExactlyTheMembersTheInternalPackageLists() throws Exception
    {
        final Path testClasses = Path.of(GeneratedCodeCallsTest.class.getProtectionDomain().getCodeSource()
            .getLocation().toURI());
        final Path generated = testClasses.getParent().resolve("generated-test-sources/test-annotations");
        final List<Path> classFiles = generatedClassFiles(generated, testClasses);
        assertFalse(classFiles.isEmpty(), "no generated class found under " + generated);

        final Set<String> called = new TreeSet<>();
        for (final Path classFile : classFiles)
        {
            final String listed = testClasses.relativize(classFile).toString().replace(".class", "")
                .replace(java.io.File.separatorChar, '.');
            final Matcher matcher = REFERENCE.matcher(javap(List.of(classFile)));
            while (matcher.find())
            {
                final String owner = matcher.group(1) == null ? listed : matcher.group(1).replace('/', '.');
                final String member = matcher.group(2).replace("\"", "");
                final Class<?> declaring = declaring(Class.forName(owner, false, getClass().getClassLoader()), member);
                if (declaring != null && isCore(declaring))
                {
                    called.add(declaring.getSimpleName() + "." + (member.equals("<init>") ? "new" : member));
                }
            }
        }
        assertEquals(listed(), called, "what generated code calls (right) and what dev.cairn.internal's " +
            "package-info lists (left) must agree: list a new call there, or drop one no longer made");
    }

    private static List<Path> generatedClassFiles(final Path generated, final Path testClasses) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> sources = Files.walk(generated))
        {
            for (final Path source : sources.filter(path -> path.toString().endsWith(".java")).toList())
            {
                final Path relative = generated.relativize(source);
                final String name = relative.getFileName().toString().replace(".java", "");
                final Path directory = testClasses.resolve(relative).getParent();
                try (Stream<Path> classes = Files.list(directory))
                {
                    classes.filter(path -> path.getFileName().toString().equals(name + ".class") ||
                        path.getFileName().toString().startsWith(name + "$")).forEach(files::add);
                }
            }
        }
        return files;
    }

    private static String javap(final List<Path> classFiles)
    {
        final ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        final StringWriter out = new StringWriter();
        final List<String> arguments = new ArrayList<>(List.of("-c", "-p"));
        classFiles.forEach(file -> arguments.add(file.toString()));
        final int status = javap.run(new PrintWriter(out), new PrintWriter(out), arguments.toArray(new String[0]));
        assertEquals(0, status, out.toString());
        return out.toString();
    }

    /** The class that declares {@code member}, looking up from {@code owner}; null if none (an array's clone). */
    private static Class<?> declaring(final Class<?> owner, final String member)
    {
        for (Class<?> type = owner; type != null; type = type.getSuperclass())
        {
            for (final Method method : type.getDeclaredMethods())
            {
                if (method.getName().equals(member))
                {
                    return type;
                }
            }
            for (final Field field : type.getDeclaredFields())
            {
                if (field.getName().equals(member))
                {
                    return type;
                }
            }
            if (member.equals("<init>"))
            {
                return type;
            }
        }
        for (final Class<?> type : owner.getInterfaces())
        {
            final Class<?> found = declaring(type, member);
            if (found != null)
            {
                return found;
            }
        }
        return null;
    }

    /** Whether a class is part of Cairn's core library, rather than generated, a test fixture or the JDK's. */
    private static boolean isCore(final Class<?> type) throws URISyntaxException
    {
        return type.getProtectionDomain().getCodeSource() != null && type.getProtectionDomain().getCodeSource()
            .getLocation().equals(World.class.getProtectionDomain().getCodeSource().getLocation());
    }

    private static Set<String> listed() throws IOException
    {
        final Path packageInfo = Path.of("..", "core", "src", "main", "java", "dev", "cairn", "internal",
            "package-info.java");
        final String text = Files.readString(packageInfo);
        final Set<String> listed = new TreeSet<>();
        final Matcher matcher = LISTED.matcher(text.replaceAll("\\n\\s*\\*\\s*", " "));
        while (matcher.find())
        {
            for (final String member : matcher.group(2).split(",\\s*"))
            {
                listed.add(matcher.group(1) + "." + member.trim());
            }
        }
        return listed.stream().collect(Collectors.toCollection(TreeSet::new));
    }
}
