package dev.cairn.codegen;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.cairn.codegen.fixture.Deep;
import dev.cairn.codegen.fixture.Everything;
import dev.cairn.codegen.fixture.Position;
import dev.cairn.codegen.fixture.Tags;
import dev.cairn.storage.ComponentType;
import org.junit.jupiter.api.Test;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The processor names a storage as core looks it up: {@code ComponentType.storageClassName} and one rule agree. */
final class GeneratedNamesTest
{
    private static final List<Class<?>> RECORDS = List.of(
        Position.class, Everything.SwapAndPop.class, Tags.InPlace.class, Deep.Inner.Point.class);

    @Test
    void theProcessorsStorageNameIsTheOneCoreLooksUpForTopLevelAndNestedRecords()
    {
        final NameProbe probe = new NameProbe();
        final Compilation compilation = javac().withProcessors(probe).compile(
            JavaFileObjects.forSourceLines("q.Empty", "package q;", "final class Empty {}"));
        assertThat(compilation).succeeded();
        for (final Class<?> record : RECORDS)
        {
            assertEquals(ComponentType.storageClassName(record), probe.names.get(record.getCanonicalName()),
                record.getName());
        }
    }

    @Test
    void coreFindsTheStorageGeneratedForARecordNestedTwoDeep()
    {
        assertEquals("dev.cairn.codegen.fixture.Deep_Inner_PointStorage",
            ComponentType.storageClassName(Deep.Inner.Point.class));
        assertEquals(Deep.Inner.Point.class, ComponentType.of(Deep.Inner.Point.class).recordClass());
    }

    @Test
    void generatedClassesAreMarkedUnlessTheirNamedModuleCannotReadTheAnnotation()
    {
        assertEquals(true, canMarkGenerated(null));
        assertEquals(false, canMarkGenerated("module m { }"));
        assertEquals(true, canMarkGenerated("module m { requires java.compiler; }"));
        assertEquals(true, canMarkGenerated("module m { requires java.se; }"));
    }

    /** What {@link GeneratedNames#canMarkGenerated} says of a class in a module declared by {@code moduleInfo}. */
    private static boolean canMarkGenerated(final String moduleInfo)
    {
        final boolean[] answer = new boolean[1];
        final AbstractProcessor probe = new AbstractProcessor()
        {
            @Override
            public Set<String> getSupportedAnnotationTypes()
            {
                return Set.of("*");
            }

            @Override
            public SourceVersion getSupportedSourceVersion()
            {
                return SourceVersion.latestSupported();
            }

            @Override
            public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
            {
                if (!round.processingOver())
                {
                    final TypeElement type = processingEnv.getElementUtils().getTypeElement("p.T");
                    answer[0] = GeneratedNames.canMarkGenerated(processingEnv.getElementUtils(), type);
                }
                return false;
            }
        };
        try
        {
            final Path root = Files.createTempDirectory("cairn-module");
            Files.createDirectories(root.resolve("p"));
            final List<Path> sources = new ArrayList<>();
            sources.add(Files.writeString(root.resolve("p/T.java"), "package p; public final class T {}"));
            if (moduleInfo != null)
            {
                sources.add(Files.writeString(root.resolve("module-info.java"), moduleInfo));
            }
            // The JDK's compiler itself: compile-testing's in-memory files do not compile a module declaration.
            final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
            try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null))
            {
                final JavaCompiler.CompilationTask task = compiler.getTask(null, files, null,
                    List.of("-proc:only", "-d", root.toString()), null, files.getJavaFileObjectsFromPaths(sources));
                task.setProcessors(List.of(probe));
                assertTrue(task.call(), "compiles");
            }
            return answer[0];
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Asks {@link GeneratedNames} for the storage name of each record in {@link #RECORDS}. */
    private static final class NameProbe extends AbstractProcessor
    {
        private final Map<String, String> names = new LinkedHashMap<>();

        @Override
        public Set<String> getSupportedAnnotationTypes()
        {
            return Set.of("*");
        }

        @Override
        public SourceVersion getSupportedSourceVersion()
        {
            return SourceVersion.latestSupported();
        }

        @Override
        public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
        {
            for (final Class<?> record : RECORDS)
            {
                final TypeElement element = processingEnv.getElementUtils().getTypeElement(record.getCanonicalName());
                names.put(record.getCanonicalName(), GeneratedNames.qualified(
                    processingEnv.getElementUtils(), element, GeneratedNames.storage(element)));
            }
            return false;
        }
    }
}
