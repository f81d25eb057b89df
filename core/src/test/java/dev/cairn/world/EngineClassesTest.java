package dev.cairn.world;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The first world initialises every class of the engine that has a static initialiser, so that none is first
 * initialised by a call made where the stack runs out, which would leave it unusable for the JVM's life.
 */
final class EngineClassesTest
{
    @Test
    void theWorldInitialisesEveryClassOfTheEngineThatHasAStaticInitialiser() throws IOException, URISyntaxException
    {
        final Path classes = Path.of(World.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Set<String> withInitialiser = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes))
        {
            for (final Path file : files.filter(path -> path.toString().endsWith(".class")).collect(Collectors.toList()))
            {
                // A class file names "<clinit>" in its constant pool only if it declares a static initialiser.
                if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains("<clinit>"))
                {
                    final String relative = classes.relativize(file).toString();
                    withInitialiser.add(relative.substring(0, relative.length() - ".class".length())
                        .replace(file.getFileSystem().getSeparator(), "."));
                }
            }
        }

        assertEquals(withInitialiser, new TreeSet<>(List.of(World.engineClasses())),
            "World.engineClasses() must name every class of the engine with a static initialiser");
    }
}
