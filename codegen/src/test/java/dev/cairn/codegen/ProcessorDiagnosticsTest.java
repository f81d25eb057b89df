package dev.cairn.codegen;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import com.google.testing.compile.Compiler;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticListener;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the processor accepts and rejects in a {@code @Component}, compiled with compile-testing under javac and under
 * the Eclipse compiler. Every unsupported declaration is an error on the record component to fix (or on the type,
 * when the type itself is the problem) whose message says what is supported; every supported one compiles without a
 * warning under javac's {@code -Xlint:all -Werror}.
 */
final class ProcessorDiagnosticsTest
{
    private static final String SUPPORTED = "a @Component record can store the eight primitive types, enums, and " +
        "non-generic records whose components are themselves supported (flattened into columns)";

    @TempDir
    Path sources;

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aStringComponentIsAnErrorOnThatComponent(final Tool tool)
    {
        final JavaFileObject source = source("Player",
            "@Component",
            "record Player(int score,",
            "    String name) {}");
        assertThat(compile(tool, source)).hadErrorContaining(
            "Unsupported type java.lang.String for component name of Player; " + SUPPORTED)
            .inFile(source).onLineContaining("String name");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void anObjectComponentIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Holder",
            "@Component",
            "record Holder(",
            "    Object value) {}");
        assertThat(compile(tool, source))
            .hadErrorContaining("Unsupported type java.lang.Object for component value of " +
            "Holder; " + SUPPORTED).inFile(source).onLineContaining("Object value");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void anArrayComponentIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Samples",
            "@Component",
            "record Samples(int count,",
            "    float[] values) {}");
        assertThat(compile(tool, source)).hadErrorContaining("Unsupported type float[] for component values of Samples")
            .inFile(source).onLineContaining("float[] values");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aCollectionComponentIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Inventory",
            "@Component",
            "record Inventory(",
            "    java.util.List<Integer> items) {}");
        assertThat(compile(tool, source)).hadErrorContaining(
            "Unsupported type java.util.List<java.lang.Integer> for component items of Inventory; " + SUPPORTED)
            .inFile(source).onLineContaining("items");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aBoxedComponentIsAnErrorThatNamesThePrimitive(final Tool tool)
    {
        final JavaFileObject source = source("Health",
            "@Component",
            "record Health(",
            "    Integer points) {}");
        assertThat(compile(tool, source)).hadErrorContaining(
            "Unsupported type java.lang.Integer for component points of Health: use the primitive int instead")
            .inFile(source).onLineContaining("Integer points");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aGenericComponentRecordIsAnErrorOnTheType(final Tool tool)
    {
        final JavaFileObject source = source("Box",
            "@Component",
            "record Box<T>(T value) {}");
        assertThat(compile(tool, source)).hadErrorContaining("@Component record q.Box must not be generic")
            .inFile(source).onLineContaining("record Box");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aComponentOfAGenericRecordTypeIsAnErrorOnThatComponent(final Tool tool)
    {
        final JavaFileObject source = source("Holder",
            "record Pair<T>(T first, T second) {}",
            "@Component",
            "record Holder(int id,",
            "    Pair<Integer> pair) {}");
        assertThat(compile(tool, source))
            .hadErrorContaining("Unsupported type q.Pair<java.lang.Integer> for component " +
            "pair of Holder: record q.Pair is generic; " + SUPPORTED).inFile(source).onLineContaining("pair)");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aComponentClassIsAnErrorOnTheClass(final Tool tool)
    {
        final JavaFileObject source = source("Velocity",
            "@Component",
            "final class Velocity { float dx; }");
        assertThat(compile(tool, source))
            .hadErrorContaining("@Component applies to records only, but q.Velocity is a " +
            "class: declare it as a record").inFile(source).onLineContaining("class Velocity");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aComponentEnumOrInterfaceIsAnErrorOnTheType(final Tool tool)
    {
        final JavaFileObject source = source("Kinds",
            "@Component",
            "enum Kind { A }",
            "@Component",
            "interface Shape {}");
        final Compilation compilation = compile(tool, source);
        assertThat(compilation).hadErrorContaining("q.Kind is an enum").inFile(source).onLineContaining("enum Kind");
        assertThat(compilation).hadErrorContaining("q.Shape is an interface").inFile(source)
            .onLineContaining("interface Shape");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aRecordContainingItselfIsAnErrorOnTheComponent(final Tool tool)
    {
        final JavaFileObject source = source("Node",
            "@Component",
            "record Node(int value,",
            "    Node next) {}");
        assertThat(compile(tool, source))
            .hadErrorContaining("Record q.Node refers to itself through next: a @Component " +
            "record cannot contain itself").inFile(source).onLineContaining("Node next");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aRecordContainingItselfThroughNestingIsAnErrorOnTheOuterComponent(final Tool tool)
    {
        final JavaFileObject source = source("Parent",
            "@Component",
            "record Parent(int id,",
            "    Child child) {}",
            "record Child(float weight, Parent parent) {}");
        assertThat(compile(tool, source)).hadErrorContaining("Record q.Parent refers to itself through child.parent")
            .inFile(source).onLineContaining("Child child");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void anUnsupportedFieldOfANestedRecordIsAnErrorOnTheOuterComponentNamingThePath(final Tool tool)
    {
        final JavaFileObject source = source("Sign",
            "record Label(int size, String text) {}",
            "@Component",
            "record Sign(float x,",
            "    Label label) {}");
        assertThat(compile(tool, source)).hadErrorContaining("Unsupported type java.lang.String for label.text " +
            "(component label of Sign); " + SUPPORTED).inFile(source).onLineContaining("Label label");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void componentsWhoseFlattenedNamesCollideAreAnErrorOnTheLaterOne(final Tool tool)
    {
        final JavaFileObject source = source("R",
            "record Vec2(float x, float y) {}",
            "@Component",
            "record R(Vec2 pos,",
            "    float posX) {}");
        assertThat(compile(tool, source))
            .hadErrorContaining("Component posX of R generates the column posX (for posX), " +
            "which pos.x also generates").inFile(source).onLineContaining("float posX");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void componentsWhoseAccessorsCollideAreAnError(final Tool tool)
    {
        final JavaFileObject source = source("Size",
            "@Component",
            "record Size(float x,",
            "    float X) {}");
        assertThat(compile(tool, source)).hadErrorContaining("Component X of Size generates the method comparingX(), " +
            "which clashes with component x").inFile(source).onLineContaining("float X");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aComponentWhoseAccessorClashesWithAnInheritedMethodIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Link",
            "@Component",
            "record Link(float weight,",
            "    long entity) {}");
        assertThat(compile(tool, source)).hadErrorContaining("Component entity of Link generates the method " +
            "entityAt(int), which clashes with entityAt(int) inherited from dev.cairn.set.SparseSet: rename the " +
            "component").inFile(source).onLineContaining("long entity");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void twoColumnsWhoseBlockAccessorsWouldShareANameAreAnErrorOnTheGroupsEntry(final Tool tool)
    {
        final JavaFileObject pos = source("Pos",
            "@Component",
            "record Pos(float x, float xReadOnly) {}");
        final JavaFileObject group = file("q.Moving",
            "package q;",
            "@dev.cairn.Group(owns = Pos.class)",
            "interface Moving {}");

        final Compilation compilation = compile(tool, pos, group);

        assertThat(compilation).hadErrorContaining("the block of the group generated for Moving would have two " +
            "members called 'posXReadOnly': one for Pos.xReadOnly and one for Pos.x; rename the field")
            .inFile(group).onLineContaining("@dev.cairn.Group");
        if (tool == Tool.JAVAC) // ECJ adds that it cannot read back the storage generated in the failed round
        {
            assertThat(compilation).hadErrorCount(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aColumnNamedLikeAPrivateMemberOfTheBlockIsAnError(final Tool tool)
    {
        final JavaFileObject require = source("Require",
            "@Component",
            "record Require(float valid) {}");
        final JavaFileObject group = file("q.Checked",
            "package q;",
            "@dev.cairn.Group(owns = Require.class)",
            "interface Checked {}");

        assertThat(compile(tool, require, group)).hadErrorContaining("the block of the group generated for Checked " +
            "would have two members called 'requireValid': one for Require.valid and one every block has; rename " +
            "the field").inFile(group).onLineContaining("@dev.cairn.Group");
    }

    @Test
    void aGroupCompilesBesideClassesOfItsPackageNamedLikeJavaLangOnes()
    {
        final List<JavaFileObject> sources = new ArrayList<>();
        for (final String name : List.of("Math", "String", "Object", "Integer", "NullPointerException",
            "IndexOutOfBoundsException"))
        {
            sources.add(file("q." + name, "package q;", "public final class " + name + " {}"));
        }
        sources.add(source("Pos",
            "@Component",
            "record Pos(float x, Mood mood) {",
            "    enum Mood { CALM, ANGRY }",
            "}"));
        sources.add(file("q.Moving",
            "package q;",
            "@dev.cairn.Group(owns = Pos.class)",
            "interface Moving {}"));

        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(sources);

        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generated(compilation, "q.MovingGroup").contains("java.lang.Math.min("));
    }

    @Test
    void everythingGeneratedCompilesBesideClassesOfItsPackageNamedLikeEveryJavaLangType() throws IOException
    {
        final List<JavaFileObject> sources = new ArrayList<>();
        for (final String name : publicJavaLangTypes())
        {
            // Two of them are components, which the generated classes name too.
            sources.add(name.equals("Thread") || name.equals("Override") ?
                source(name, "@Component", "record " + name + "(int value) {}") :
                file("q." + name, "package q;", "public final class " + name + " {}"));
        }
        sources.add(source("Pos",
            "@Component(tracked = true)",
            "record Pos(float x, double y, int i, long l, short s, byte b, char c, boolean on, Mood mood, Inner inner,",
            "    @dev.cairn.EntityRef long target, int java) {",
            "    enum Mood { CALM, ANGRY }",
            "    record Inner(int a, float b) {}",
            "}"));
        sources.add(source("Vel",
            "@Component(policy = dev.cairn.DeletionPolicy.IN_PLACE)",
            "record Vel(float dx) {}"));
        sources.add(source("Frozen",
            "@Component",
            "record Frozen() {}"));
        // A field called java would hide the package in a name written java.lang.Float.
        sources.add(source("Java",
            "@Component",
            "record Java(float java, double value) {}"));
        sources.add(source("Kinds",
            "final class Kinds {",
            "    @dev.cairn.View(with = {Pos.class, Vel.class, Thread.class, Java.class}, without = Frozen.class)",
            "    interface Moving {}",
            "    @dev.cairn.View(with = Pos.class, changed = Pos.class)",
            "    interface Changed {}",
            "    @dev.cairn.Group(owns = {Pos.class, Override.class, Java.class}, without = Frozen.class)",
            "    interface Owned {}",
            "    @dev.cairn.Group(with = {Pos.class, Vel.class})",
            "    interface Watched {}",
            "    @dev.cairn.Observer(added = {Pos.class, Java.class}, updated = Vel.class, without = Frozen.class)",
            "    interface Arrivals {}",
            "}"));

        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(sources);

        assertThat(compilation).succeededWithoutWarnings();
    }

    /** The public top-level types of {@code java.lang} of the running JDK, which a generated file sees unimported. */
    private static List<String> publicJavaLangTypes() throws IOException
    {
        final java.nio.file.FileSystem jrt = java.nio.file.FileSystems.getFileSystem(java.net.URI.create("jrt:/"));
        final List<String> names = new ArrayList<>();
        try (java.util.stream.Stream<Path> files = Files.list(jrt.getPath("/modules/java.base/java/lang")))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                final String name = file.getFileName().toString();
                if (name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class"))
                {
                    final String simpleName = name.substring(0, name.length() - ".class".length());
                    try
                    {
                        if (java.lang.reflect.Modifier.isPublic(Class.forName("java.lang." + simpleName).getModifiers()))
                        {
                            names.add(simpleName);
                        }
                    }
                    catch (final ClassNotFoundException ex)
                    {
                        throw new AssertionError(ex);
                    }
                }
            }
        }
        assertTrue(names.contains("Thread") && names.contains("Override"), names.toString());
        return names;
    }

    @Test
    void storagesOfTwoPackagesWithOneSimpleNameAreWrittenInFullByTheViewsGroupsAndObserversNamingBoth()
    {
        final JavaFileObject outerPos = file("p.Outer_Pos",
            "package p;",
            "@dev.cairn.Component",
            "public record Outer_Pos(float x) {}");
        final JavaFileObject nestedPos = file("r.Outer",
            "package r;",
            "public class Outer {",
            "    @dev.cairn.Component",
            "    public record Pos(float y) {}",
            "}");
        final JavaFileObject declarations = file("r.Both",
            "package r;",
            "final class Both {",
            "    @dev.cairn.View(with = {p.Outer_Pos.class, Outer.Pos.class})",
            "    interface Moving {}",
            "    @dev.cairn.Group(owns = p.Outer_Pos.class, with = Outer.Pos.class)",
            "    interface Grouped {}",
            "    @dev.cairn.Observer(added = {p.Outer_Pos.class, Outer.Pos.class})",
            "    interface Arrivals {}",
            "}");

        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(outerPos, nestedPos, declarations);

        assertThat(compilation).succeededWithoutWarnings();
        for (final String generated : List.of("r.Both_MovingView", "r.Both_GroupedGroup", "r.Both_ArrivalsObserver"))
        {
            final String source = generated(compilation, generated);
            // Both in full: an import of p's storage would make the simple name mean it where r's is meant.
            assertTrue(source.contains("world.storage(p.Outer_PosStorage.TYPE)"), generated);
            assertTrue(source.contains("world.storage(r.Outer_PosStorage.TYPE)"), generated);
            assertFalse(source.contains("import p.Outer_PosStorage;"), generated);
        }
    }

    @Test
    void aComponentOfTheUnnamedPackageThatNamesATypeCalledRefIsAnErrorOnIt()
    {
        final JavaFileObject ref = file("Ref",
            "@dev.cairn.Component",
            "public record Ref(float x) {}");
        assertThat(compile(Tool.JAVAC, ref)).hadErrorContaining("@Component record Ref is in the unnamed package " +
            "and names Ref, which its storage RefStorage could not tell from its own nested class Ref: move them " +
            "into a package, or rename Ref").inFile(ref).onLineContaining("record Ref");

        final JavaFileObject kind = file("Ref",
            "public enum Ref { A, B }");
        final JavaFileObject pos = file("Pos",
            "@dev.cairn.Component",
            "public record Pos(float x, Ref kind) {}");
        assertThat(compile(Tool.JAVAC, kind, pos)).hadErrorContaining("@Component record Pos is in the unnamed " +
            "package and names Ref").inFile(pos).onLineContaining("record Pos");
    }

    @Test
    void aGroupOfTheUnnamedPackageLeavesOutOfItsBlockAnEnumCalledLikeOneOfItsNestedTypes()
    {
        final JavaFileObject block = file("Block",
            "public enum Block { STONE, GLASS }");
        final JavaFileObject pos = file("Pos",
            "@dev.cairn.Component",
            "public record Pos(float x, Block kind) {}");
        final JavaFileObject moving = file("Moving",
            "@dev.cairn.Group(owns = Pos.class)",
            "interface Moving {}");

        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(block, pos, moving);

        assertThat(compilation).succeededWithoutWarnings();
        final String group = generated(compilation, "MovingGroup");
        assertTrue(group.contains("public float[] posX()"), group);
        assertFalse(group.contains("posKind()"), group);
        assertTrue(group.contains("where the group's nested Block hides it"), group);
    }

    @Test
    void aBlockLeavesOutAColumnWhoseEnumTheGroupsPackageCannotName()
    {
        final JavaFileObject mood = file("p.Mood",
            "package p;",
            "enum Mood { CALM, ANGRY }");
        final JavaFileObject body = file("p.Body",
            "package p;",
            "@dev.cairn.Component",
            "public record Body(float x, Mood mood) {}");
        final JavaFileObject group = file("r.Bodies",
            "package r;",
            "@dev.cairn.Group(owns = p.Body.class)",
            "interface Bodies {}");

        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(mood, body, group);

        assertThat(compilation).succeededWithoutWarnings();
        final String generated = generated(compilation, "r.BodiesGroup");
        assertTrue(generated.contains("public float[] bodyX()"), "the accessible column is there");
        assertFalse(generated.contains("bodyMood"), "the enum column is not");
        assertTrue(generated.replaceAll("\\s*\\n\\s*\\* ", " ").contains("Left out, because this group's package " +
            "cannot name their enum types: {@code Body.mood} (its enum p.Mood is not public)"),
            "the block's Javadoc says so");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aGroupOrViewOfARefusedComponentIsNotGeneratedSoTheComponentsErrorIsTheOneToRead(final Tool tool)
    {
        final JavaFileObject target = source("Target",
            "@Component",
            "record Target(",
            "    long entity) {}");
        final JavaFileObject group = file("q.Hunting",
            "package q;",
            "@dev.cairn.Group(owns = Target.class)",
            "interface Hunting {}");
        final JavaFileObject view = file("q.Hunters",
            "package q;",
            "@dev.cairn.View(with = Target.class)",
            "interface Hunters {}");

        final Compilation compilation = compile(tool, target, group, view);

        assertThat(compilation).hadErrorContaining("Component entity of Target generates the method entityAt(int)")
            .inFile(target).onLineContaining("long entity");
        assertThat(compilation).hadErrorContaining("Hunting is not generated: its component q.Target has errors")
            .inFile(group);
        assertThat(compilation).hadErrorContaining("Hunters is not generated: its component q.Target has errors")
            .inFile(view);
        assertThat(compilation).hadErrorCount(3);
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aComponentWhoseRefAccessorClashesIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Slot",
            "@Component",
            "record Slot(",
            "    int index) {}");
        assertThat(compile(tool, source)).hadErrorContaining("Component index of Slot generates the method " +
            "SlotStorage.Ref.index(), which clashes with the generated SlotStorage.Ref.index()")
            .inFile(source).onLineContaining("int index");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aSingleComponentNamedLikeAGeneratedMethodIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Fix",
            "@Component",
            "record Fix(",
            "    float patch) {}");
        assertThat(compile(tool, source)).hadErrorContaining("generates the method patch(long, float), which clashes " +
            "with the generated patch(long, float) that writes the whole Fix")
            .inFile(source).onLineContaining("float patch");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void singleComponentsNamedLikeTheStoragesLookupsAreErrorsNamingTheClash(final Tool tool)
    {
        for (final String name : new String[] {"get", "contains", "remove"})
        {
            final JavaFileObject source = source("Odd", "@Component", "record Odd(", "    int " + name + ") {}");
            final Compilation compilation = compile(tool, source);
            assertThat(compilation).hadErrorContaining("Component " + name + " of Odd generates the method ")
                .inFile(source).onLineContaining("int " + name);
            assertThat(compilation).hadErrorContaining("which clashes with");
        }
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void anEnumWithoutConstantsIsAnError(final Tool tool)
    {
        final JavaFileObject source = source("Holder",
            "enum Nothing {}",
            "@Component",
            "record Holder(",
            "    Nothing nothing) {}");
        assertThat(compile(tool, source)).hadErrorContaining("enum q.Nothing has no constants").inFile(source)
            .onLineContaining("Nothing nothing");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aPrivateComponentRecordIsAnErrorOnTheType(final Tool tool)
    {
        final JavaFileObject source = source("Outer",
            "final class Outer {",
            "    @Component",
            "    private record Hidden(int x) {}",
            "}");
        assertThat(compile(tool, source))
            .hadErrorContaining("@Component record q.Outer.Hidden is private").inFile(source)
            .onLineContaining("record Hidden");
    }

    @Test
    void aLocalObserverOrGroupInterfaceIsAnErrorOnTheInterface()
    {
        final JavaFileObject component = source("Pos",
            "@Component",
            "record Pos(int x) {}");
        final JavaFileObject source = source("Outer",
            "final class Outer {",
            "    void run() {",
            "        @dev.cairn.Observer(added = Pos.class)",
            "        interface Arrivals {}",
            "        @dev.cairn.Group(owns = Pos.class)",
            "        interface Grouped {}",
            "    }",
            "}");
        assertThat(compile(Tool.JAVAC, component, source))
            .hadErrorContaining("@Observer interface Arrivals is declared inside a method: a local interface cannot " +
            "be an observer").inFile(source).onLineContaining("interface Arrivals");
        assertThat(compile(Tool.JAVAC, component, source))
            .hadErrorContaining("@Group interface Grouped is declared inside a method").inFile(source)
            .onLineContaining("interface Grouped");
    }

    @Test
    void aLocalComponentRecordIsAnErrorOnTheRecord()
    {
        final JavaFileObject source = source("Outer",
            "final class Outer {",
            "    void run() {",
            "        @Component",
            "        record Local(int x) {}",
            "    }",
            "}");
        assertThat(compile(Tool.JAVAC, source))
            .hadErrorContaining("@Component record Local is declared inside a method: a " +
            "local record cannot be a component because the generated storage cannot name it; move the record to a " +
            "top-level or member declaration").inFile(source).onLineContaining("record Local");
    }

    @Test
    void aLocalComponentRecordIsAnErrorEvenWhenItIsTheOnlyAnnotatedDeclaration()
    {
        final JavaFileObject source = source("Outer",
            "final class Outer {",
            "    void run() {",
            "        @Component",
            "        record Local(int x) {}",
            "    }",
            "}");
        final JavaFileObject other = source("Other",
            "@Component",
            "record Other(int y) {}");
        assertThat(compile(Tool.JAVAC, source, other))
            .hadErrorContaining("@Component record Local is declared inside a " +
            "method").inFile(source).onLineContaining("record Local");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aFieldTypeTheStorageCannotSeeIsAnErrorOnTheComponent(final Tool tool)
    {
        final JavaFileObject source = source("Outer",
            "public final class Outer {",
            "    private enum Mode { ON, OFF }",
            "    @Component",
            "    record Switch(int id,",
            "        Mode mode) {}",
            "}");
        assertThat(compile(tool, source))
            .hadErrorContaining("Type q.Outer.Mode of component mode of Switch is private, " +
            "so the storage generated in package q cannot use it").inFile(source).onLineContaining("Mode mode");

        final JavaFileObject base = file("other.Base",
            "package other;",
            "public class Base {",
            "    protected enum Level { LOW, HIGH }",
            "}");
        final JavaFileObject sub = source("Sub",
            "class Sub extends other.Base {",
            "    @Component",
            "    record Gauge(",
            "        Level level) {}",
            "}");
        assertThat(compile(tool, base, sub))
            .hadErrorContaining("Type other.Base.Level of component level of Gauge is " +
            "not public, so the storage generated in package q cannot use it")
            .inFile(sub).onLineContaining("Level level");
    }

    @Test
    void packagePrivateRecordsOfTheSamePackageAreFine()
    {
        final JavaFileObject source = source("Panel",
            "@Component",
            "record Panel(Secret secret, Outer.Inner inner) {}",
            "record Secret(int code) {}",
            "final class Outer { record Inner(byte b) {} }");
        assertThat(compile(Tool.JAVAC, source)).succeededWithoutWarnings();
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void twoRecordsThatWouldGenerateTheSameStorageAreAnError(final Tool tool)
    {
        final JavaFileObject nested = source("Outer",
            "final class Outer {",
            "    private Outer() {}",
            "    @Component record Position(float x) {}",
            "}");
        final JavaFileObject flat = source("Outer_Position",
            "@Component",
            "record Outer_Position(float x) {}");
        final Compilation compilation = compile(tool, nested, flat);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("would generate q.Outer_PositionStorage, which another " +
            "declaration of this compilation already generates (a nested type's class is named after its enclosing " +
            "types joined by '_', so Outer.Position and a top-level Outer_Position both give " +
            "Outer_PositionStorage): rename one of them");
        final Diagnostic<? extends JavaFileObject> clash = compilation.errors().stream()
            .filter(error -> error.getMessage(null).contains("would generate")).findFirst().orElseThrow();
        assertTrue(clash.getSource() != null && clash.getLineNumber() > 0, "the error has no position: " + clash);
    }

    @Test
    void aRecordWhoseStorageNameIsDeclaredByHandIsAnErrorSayingSo()
    {
        final JavaFileObject handWritten = file("q.PosStorage",
            "package q;",
            "public final class PosStorage {}");
        final JavaFileObject pos = source("Pos",
            "@Component",
            "public record Pos(float x) {}");

        assertThat(compile(Tool.JAVAC, handWritten, pos)).hadErrorContaining("@Component record q.Pos would " +
            "generate q.PosStorage, but a class of that name is declared already (in the sources or on the class " +
            "path): rename one of them").inFile(pos).onLineContaining("record Pos");
    }

    @Test
    void fieldsNamedLikeTheRefsInternalsAreFine()
    {
        final JavaFileObject source = source("Slot",
            "@Component",
            "record Slot(int slot, long layoutVersion, short refIndex, byte checkSlot, char memberInSlot,",
            "    boolean storage) {}");
        assertThat(compile(Tool.JAVAC, source)).succeededWithoutWarnings();
    }

    @Test
    void everySupportedKindCompilesWithoutWarningsUnderXlintAllAndWerror() throws IOException
    {
        final List<JavaFileObject> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("src/test/java/dev/cairn/codegen/fixture")))
        {
            for (final Path file : (Iterable<Path>)files.sorted()::iterator)
            {
                // Another package: the test classpath already holds the storages generated for the originals.
                sources.add(file("copy." + file.getFileName().toString().replace(".java", ""),
                    Files.readString(file).replace("package dev.cairn.codegen.fixture;", "package copy;")));
            }
        }
        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(sources);
        assertThat(compilation).succeededWithoutWarnings();
        final String shades = generated(compilation, "copy.ShadesStorage");
        assertTrue(shades.contains("putByte(this.colourAddress + index, (byte)colour.ordinal());"), shades);
        assertTrue(shades.contains("putShort(this.wideAddress + (long)index * Short.BYTES, (short)wide.ordinal());"),
            shades);
        assertTrue(shades.contains("{Byte.BYTES, Short.BYTES}"), shades);
    }

    @Test
    void namesThatWouldBeShadowedAreWrittenInFull()
    {
        final JavaFileObject source = file("q.Ref",
            "package q;",
            "import dev.cairn.Component;",
            "@Component",
            "public record Ref(Float weight, int id) {",
            "}");
        final JavaFileObject floatType = file("q.Float",
            "package q;",
            "public record Float(float value) {}");
        final JavaFileObject policy = file("q.DeletionPolicy",
            "package q;",
            "public enum DeletionPolicy { KEEP }");
        final JavaFileObject user = file("q.Item",
            "package q;",
            "import dev.cairn.Component;",
            "@Component",
            "public record Item(DeletionPolicy policy, Ref ref, float f) {",
            "}");
        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(source, floatType, policy, user);
        assertThat(compilation).succeededWithoutWarnings();
        final String ref = generated(compilation, "q.RefStorage");
        assertTrue(ref.contains("extends ComponentStorage<q.Ref>"), ref);
        // The width as a number: java.lang.Float.BYTES would mean a field or parameter called java, if there were one.
        assertTrue(ref.contains("COLUMN_WIDTHS = {4, Integer.BYTES}"), ref);
        assertFalse(ref.matches("(?s).*[^.]Float\\.BYTES.*"), ref);
        final String item = generated(compilation, "q.ItemStorage");
        assertTrue(item.contains("public q.DeletionPolicy policy(final long entity)"), item);
        assertTrue(item.contains("DeletionPolicy.SWAP_AND_POP"), item);
    }

    @Test
    void componentsInTheUnnamedPackageAndNestedThreeDeepCompile()
    {
        final JavaFileObject source = file("World3",
            "import dev.cairn.Component;",
            "public final class World3 {",
            "    public static final class Inner {",
            "        @Component public record Deep(long a, boolean b) {}",
            "    }",
            "    @Component record Mark() {}",
            "}");
        final Compilation compilation = javac()
            .withProcessors(new CairnProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(source);
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation).generatedSourceFile("World3_Inner_DeepStorage");
        assertThat(compilation).generatedSourceFile("World3_MarkStorage");
    }

    @Test
    void aFieldTypeGeneratedByAnotherProcessorIsWaitedFor()
    {
        final JavaFileObject source = source("Carrier",
            "@Component",
            "record Carrier(int id, GeneratedVec vec) {}");
        final Compilation compilation = javac()
            .withProcessors(new VecGenerator(), new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(source);
        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generated(compilation, "q.CarrierStorage").contains("public float vecX(final long entity)"));
    }

    @Test
    void aGroupOwningAComponentThatWaitsForAGeneratedTypeWaitsWithIt()
    {
        final JavaFileObject source = source("Carrier",
            "@Component",
            "record Carrier(int id, GeneratedVec vec) {}");
        final JavaFileObject group = file("q.Carrying",
            "package q;",
            "@dev.cairn.Group(owns = Carrier.class)",
            "interface Carrying {}");
        final Compilation compilation = javac()
            .withProcessors(new VecGenerator(), new CairnProcessor())
            .withOptions("-Xlint:all,-processing", "-Werror")
            .compile(source, group);
        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generated(compilation, "q.CarryingGroup").contains("public float[] carrierVecX()"),
            "the block has the generated record's columns");
    }

    @ParameterizedTest
    @EnumSource(Tool.class)
    void aFieldTypeThatNeverExistsIsReportedOnce(final Tool tool)
    {
        final JavaFileObject source = source("Orphan",
            "@Component",
            "record Orphan(int id, Missing missing) {}");
        final Compilation compilation = compile(tool, source);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("Missing");
    }

    /** Generates the record {@code q.GeneratedVec(float x, float y)} in the first round. */
    private static final class VecGenerator extends AbstractProcessor
    {
        private boolean done;

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
            if (!done)
            {
                done = true;
                try (Writer writer = processingEnv.getFiler().createSourceFile("q.GeneratedVec").openWriter())
                {
                    writer.write("package q; public record GeneratedVec(float x, float y) {}");
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            }
            return false;
        }
    }

    /**
     * The compilers the processor is tested under. Tests whose generated sources must compile run under javac only:
     * compile-testing keeps generated files in memory, where the Eclipse compiler cannot read them back. A local
     * record is reported under javac only: no compiler shows local classes to processors, and only javac lets the
     * processor look at the compilation after analysis.
     */
    enum Tool
    {
        JAVAC
        {
            @Override
            Compiler compiler()
            {
                return Compiler.javac();
            }
        },
        ECJ
        {
            @Override
            Compiler compiler()
            {
                return Compiler.compiler(new QuietEclipseCompiler()).withOptions("--release", "17");
            }
        };

        /** The compiler, compiling for Java 17. */
        abstract Compiler compiler();
    }

    /** The Eclipse compiler, printing its diagnostics nowhere: compile-testing collects them. */
    private static final class QuietEclipseCompiler implements JavaCompiler
    {
        private final JavaCompiler compiler = new EclipseCompiler();

        @Override
        public CompilationTask getTask(
            final Writer out,
            final JavaFileManager fileManager,
            final DiagnosticListener<? super JavaFileObject> diagnosticListener,
            final Iterable<String> options,
            final Iterable<String> classes,
            final Iterable<? extends JavaFileObject> compilationUnits)
        {
            return compiler.getTask(out == null ? Writer.nullWriter() : out, fileManager, diagnosticListener, options,
                classes, compilationUnits);
        }

        @Override
        public StandardJavaFileManager getStandardFileManager(
            final DiagnosticListener<? super JavaFileObject> diagnosticListener,
            final Locale locale,
            final Charset charset)
        {
            return compiler.getStandardFileManager(diagnosticListener, locale, charset);
        }

        @Override
        public int isSupportedOption(final String option)
        {
            return compiler.isSupportedOption(option);
        }

        @Override
        public int run(final InputStream in, final OutputStream out, final OutputStream err, final String... arguments)
        {
            return compiler.run(in, out, err, arguments);
        }

        @Override
        public Set<SourceVersion> getSourceVersions()
        {
            return compiler.getSourceVersions();
        }
    }

    private JavaFileObject source(final String name, final String... lines)
    {
        final String[] all = new String[lines.length + 2];
        all[0] = "package q;";
        all[1] = "import dev.cairn.Component;";
        System.arraycopy(lines, 0, all, 2, lines.length);
        return file("q." + name, all);
    }

    /**
     * A source file on disk: the Eclipse compiler reads compilation units from files, not from compile-testing's
     * in-memory sources.
     */
    private JavaFileObject file(final String className, final String... lines)
    {
        try
        {
            final Path file = Files.createTempDirectory(sources, "src").resolve(className.replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.join("\n", lines));
            return JavaFileObjects.forResource(file.toUri().toURL());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static Compilation compile(final Tool tool, final JavaFileObject... sources)
    {
        return tool.compiler().withProcessors(new CairnProcessor()).compile(sources);
    }

    private static String generated(final Compilation compilation, final String className)
    {
        try
        {
            return compilation.generatedSourceFile(className).orElseThrow().getCharContent(true).toString();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
