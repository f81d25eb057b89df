package dev.cairn.codegen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Keeps the pages of {@code docs/} runnable: every {@code ```java} block of a page is a whole source file whose first
 * line names its path; a page's blocks are compiled together through the annotation processor under
 * {@code -Xlint:all -Werror}, every class with a {@code main} method is run, and each {@code ```text} block announced
 * by an {@code <!-- output of demo.Main -->} comment must be exactly what that class prints.
 */
final class DocPagesTest
{
    private static final Path DOCS = Path.of("..", "docs");
    private static final Path DOC = DOCS.resolve("getting-started.md");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern OUTPUT_BLOCK =
        Pattern.compile("<!-- output of ([\\w.]+) -->\\s*```text\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PATH_LINE = Pattern.compile("// src/main/java/([\\w/]+)\\.java");

    @ParameterizedTest
    @ValueSource(strings = {"getting-started.md", "signals.md", "groups.md", "snapshots.md", "threads.md"})
    void theSnippetsCompileThroughTheProcessorAndPrintWhatThePageSays(final String page, @TempDir final Path dir)
        throws Exception
    {
        final String doc = Files.readString(DOCS.resolve(page));
        final Map<String, Path> sources = writeSources(doc, dir.resolve("src"));

        final Path classes = Files.createDirectories(dir.resolve("classes"));
        compile(sources, classes, Files.createDirectories(dir.resolve("generated")));

        final Map<String, String> expected = new LinkedHashMap<>();
        final Matcher outputs = OUTPUT_BLOCK.matcher(doc);
        while (outputs.find())
        {
            expected.put(outputs.group(1), outputs.group(2));
        }
        assertFalse(expected.isEmpty(), page + " shows the output of no class");
        for (final String className : expected.keySet())
        {
            assertTrue(sources.containsKey(className), page + " shows the output of " + className + ", which it lacks");
        }

        try (URLClassLoader loader = new URLClassLoader(
            new URL[]{classes.toUri().toURL()}, DocPagesTest.class.getClassLoader()))
        {
            for (final String className : sources.keySet())
            {
                final Method main = mainOf(loader.loadClass(className));
                if (main != null)
                {
                    final String printed = run(main);
                    if (expected.containsKey(className))
                    {
                        assertEquals(expected.get(className), printed, "what " + className + " prints");
                    }
                }
            }
        }
    }

    @Test
    void theBuildSnippetsNameTheArtifactsTheProcessorPathAndTheJvmFlag() throws IOException
    {
        final String doc = Files.readString(DOC);
        assertTrue(doc.contains("mvn install -DskipTests"));
        assertTrue(doc.contains("<artifactId>cairn-core</artifactId>"));
        assertTrue(doc.contains("<annotationProcessorPaths>"));
        assertTrue(doc.contains("<artifactId>cairn-codegen</artifactId>"));
        assertTrue(doc.contains("implementation(\"dev.cairn:cairn-core:0.1.0-SNAPSHOT\")"));
        assertTrue(doc.contains("annotationProcessor(\"dev.cairn:cairn-codegen:0.1.0-SNAPSHOT\")"));
        assertTrue(doc.contains("--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"));
        assertTrue(doc.contains("## 5. Iterating with a view"));
    }

    private static Map<String, Path> writeSources(final String doc, final Path root) throws IOException
    {
        final Map<String, Path> sources = new LinkedHashMap<>();
        final Matcher blocks = JAVA_BLOCK.matcher(doc);
        while (blocks.find())
        {
            final String code = blocks.group(1);
            final Matcher path = PATH_LINE.matcher(code.lines().findFirst().orElse(""));
            if (!path.matches())
            {
                fail("a ```java block does not start with its path, e.g. " +
                    "'// src/main/java/demo/Main.java':\n" + code);
            }
            final Path file = root.resolve(path.group(1) + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, code);
            sources.put(path.group(1).replace('/', '.'), file);
        }
        assertFalse(sources.isEmpty(), "no ```java blocks");
        return sources;
    }

    private static void compile(final Map<String, Path> sources, final Path classes, final Path generated)
        throws IOException
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8))
        {
            final List<String> options = List.of(
                "-Xlint:all", "-Werror", "--release", "17",
                "-classpath", System.getProperty("java.class.path"),
                "-d", classes.toString(), "-s", generated.toString());
            final JavaCompiler.CompilationTask task = javac.getTask(
                null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources.values()));
            task.setProcessors(List.of(new CairnProcessor()));
            final boolean compiled = task.call();
            final List<String> messages = new ArrayList<>();
            for (final Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics())
            {
                if (diagnostic.getKind() != Diagnostic.Kind.NOTE)
                {
                    messages.add(diagnostic.toString());
                }
            }
            assertTrue(compiled && messages.isEmpty(), "the snippets do not compile cleanly:\n" +
                String.join("\n", messages));
        }
    }

    private static Method mainOf(final Class<?> type)
    {
        try
        {
            final Method main = type.getMethod("main", String[].class);
            return Modifier.isStatic(main.getModifiers()) ? main : null;
        }
        catch (final NoSuchMethodException ex)
        {
            return null;
        }
    }

    private static String run(final Method main) throws IllegalAccessException
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try
        {
            main.invoke(null, (Object)new String[0]);
        }
        catch (final InvocationTargetException ex)
        {
            throw new AssertionError(main.getDeclaringClass().getName() + ".main threw " + ex.getCause(),
                ex.getCause());
        }
        finally
        {
            System.setOut(out);
        }
        return printed.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
