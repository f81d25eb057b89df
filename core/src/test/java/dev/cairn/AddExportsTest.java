package dev.cairn;

import dev.cairn.world.World;
import dev.cairn.internal.OffHeap;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM started without Agrona's required flag gets a Cairn exception that names the flag, not a bare
 * IllegalAccessError from deep inside Agrona.
 */
class AddExportsTest
{
    /** Entry point of the child JVM: tries to create a World and prints what happened. */
    public static final class Probe
    {
        public static void main(final String[] args)
        {
            try (World world = new World())
            {
                System.out.println("CREATED " + world.aliveCount());
            }
            catch (final IllegalStateException ex)
            {
                System.out.println("REFUSED " + ex.getMessage());
            }
        }
    }

    /** Entry point of a child JVM that loads the classes generated code and command buffers touch first. */
    public static final class ClassProbe
    {
        public static void main(final String[] args) throws ClassNotFoundException
        {
            for (final String name : new String[] {"dev.cairn.storage.ComponentStorage",
                "dev.cairn.command.CommandBuffer", "dev.cairn.storage.ComponentType"})
            {
                Class.forName(name, true, ClassProbe.class.getClassLoader());
            }
            System.out.println("LOADED");
            Probe.main(args);
        }
    }

    @Test
    void withoutTheFlagTheEngineClassesStillLoadSoTheFirstWorldNamesTheFlag() throws IOException, InterruptedException
    {
        final String output = run(List.of(), System.getProperty("java.class.path"), ClassProbe.class);
        assertTrue(output.startsWith("LOADED"), "a generated storage's TYPE can be read: " + output);
        assertTrue(output.contains("REFUSED ") && output.contains(OffHeap.REQUIRED_FLAG), output);
    }

    @Test
    void worldInJvmWithoutAddExportsThrowsExceptionNamingTheFlag() throws IOException, InterruptedException
    {
        final String output = runProbe(List.of());
        assertTrue(output.startsWith("REFUSED "), output);
        assertTrue(output.contains(OffHeap.REQUIRED_FLAG), output);
    }

    @Test
    void worldInJvmWithAddExportsWorks() throws IOException, InterruptedException
    {
        final String output = runProbe(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        assertEquals("CREATED 0", output.strip());
    }

    @Test
    void withAgronaOnTheModulePathTheMessageNamesTheExportToItsModule() throws IOException, InterruptedException
    {
        final String output = runModularProbe(List.of());
        assertTrue(output.startsWith("REFUSED "), output);
        assertTrue(output.contains("--add-exports java.base/jdk.internal.misc=org.agrona"), output);
    }

    @Test
    void withAgronaOnTheModulePathTheExportToItsModuleWorks() throws IOException, InterruptedException
    {
        final String output = runModularProbe(List.of("--add-exports", "java.base/jdk.internal.misc=org.agrona"));
        assertEquals("CREATED 0", output.strip());
    }

    /** Runs the probe with Agrona's jar on the module path (a named module) and the rest on the class path. */
    private static String runModularProbe(final List<String> flags) throws IOException, InterruptedException
    {
        final List<String> modulePath = new java.util.ArrayList<>();
        final List<String> classPath = new java.util.ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        {
            (entry.contains("agrona") ? modulePath : classPath).add(entry);
        }
        assertEquals(1, modulePath.size(), "exactly one Agrona jar on the test class path: " + modulePath);
        final List<String> arguments = new java.util.ArrayList<>(flags);
        arguments.addAll(List.of("--module-path", modulePath.get(0), "--add-modules", "org.agrona"));
        return run(arguments, String.join(java.io.File.pathSeparator, classPath), Probe.class);
    }

    private static String runProbe(final List<String> flags) throws IOException, InterruptedException
    {
        return run(flags, System.getProperty("java.class.path"), Probe.class);
    }

    private static String run(final List<String> flags, final String classPath, final Class<?> probe)
        throws IOException, InterruptedException
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new java.util.ArrayList<>();
        command.add(java);
        command.addAll(flags);
        command.addAll(List.of("-cp", classPath, probe.getName()));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "probe JVM did not finish");
        return output;
    }
}
