package dev.cairn.views;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.cairn.codegen.CairnProcessor;
import org.junit.jupiter.api.Test;

import javax.tools.JavaFileObject;
import java.io.IOException;
import java.io.UncheckedIOException;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the processor accepts and rejects in a {@code @View}, compiled with compile-testing: each mistake is an error
 * on the offending element or array entry, with a message that says what to do.
 */
final class ViewCompileTest
{
    private static final JavaFileObject COMPONENTS = JavaFileObjects.forSourceLines(
        "c.Components",
        "package c;",
        "import dev.cairn.Component;",
        "public final class Components {",
        "    @Component public record P(float x) {}",
        "    @Component public record Q(int y) {}",
        "    @Component public record R(long z) {}",
        "    @Component public record S(double w) {}",
        "    @Component public record T(byte v) {}",
        "    @Component public record U(short u) {}",
        "    @Component public record V(char t) {}",
        "    @Component public record W(boolean s) {}",
        "    @Component public record X() {}",
        "    @Component public record Y() {}",
        "    @Component(tracked = true) public record Tracked(float a) {}",
        "    public record Plain(int a) {}",
        "}");

    @Test
    void viewOnAClassIsAnErrorOnTheClass()
    {
        final JavaFileObject view = source(
            "@View(with = P.class)",
            "class Movers {}");
        final Compilation compilation = compile(view);
        assertThat(compilation).hadErrorContaining("@View goes on an interface, but Movers is a class")
            .inFile(view).onLineContaining("class Movers");
    }

    @Test
    void viewOnARecordIsAnError()
    {
        final JavaFileObject view = source(
            "@View(with = P.class)",
            "record Movers() {}");
        assertThat(compile(view)).hadErrorContaining("Movers is a record").inFile(view)
            .onLineContaining("record Movers");
    }

    @Test
    void emptyWithIsAnErrorOnTheList()
    {
        final JavaFileObject view = source(
            "@View(",
            "    with = {})",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("includes no component").inFile(view)
            .onLineContaining("with = {}");
    }

    @Test
    void aRecordThatIsNotAComponentIsAnErrorOnItsEntry()
    {
        final JavaFileObject view = source(
            "@View(with = {P.class,",
            "    Plain.class})",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("c.Components.Plain in 'with' of @View on Movers is not a " +
            "@Component record: annotate it with @dev.cairn.Component").inFile(view).onLineContaining("Plain.class");
    }

    @Test
    void aTickFilterOnAComponentThatIsNotIncludedOrNotTrackedIsAnErrorOnItsEntry()
    {
        final JavaFileObject notIncluded = source(
            "@View(with = P.class,",
            "    changed = Tracked.class)",
            "interface Moved {}");
        assertThat(compile(notIncluded)).hadErrorContaining("c.Components.Tracked is in 'changed' of @View on Moved " +
            "but not in 'with'").inFile(notIncluded).onLineContaining("changed = Tracked.class");
        final JavaFileObject untracked = source(
            "@View(with = {P.class, Tracked.class},",
            "    added = P.class)",
            "interface Fresh {}");
        assertThat(compile(untracked)).hadErrorContaining("c.Components.P is in 'added' of @View on Fresh but keeps " +
            "no change ticks: declare it @Component(tracked = true)").inFile(untracked).onLineContaining("added = P");
    }

    @Test
    void aViewFilteredByTicksTakesTheTickInEveryIteratingMethod()
    {
        final JavaFileObject view = source(
            "@View(with = {P.class, Tracked.class}, changed = Tracked.class)",
            "interface Moved {}");
        final Compilation compilation = compile(view);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.MovedView");
        assertTrue(source.contains("public void forEach(final int since, final Action action)"), source);
        assertTrue(source.contains("public Cursor cursor(final int since)"), source);
        assertTrue(source.contains("public int count(final int since)"), source);
        assertTrue(source.contains("public boolean contains(final long entity, final int since)"), source);
    }

    @Test
    void observerMistakesAreErrorsOnTheDeclarationOrTheEntry()
    {
        final JavaFileObject onClass = JavaFileObjects.forSourceLines("q.A", "package q;",
            "import c.Components.*;", "@dev.cairn.Observer(added = P.class) class A {}");
        assertThat(compile(onClass)).hadErrorContaining("@Observer goes on an interface, but A is a class")
            .inFile(onClass);
        final JavaFileObject noTrigger = JavaFileObjects.forSourceLines("q.B", "package q;",
            "import c.Components.*;", "@dev.cairn.Observer(with = P.class) interface B {}");
        assertThat(compile(noTrigger)).hadErrorContaining("@Observer on B has no trigger").inFile(noTrigger);
        final JavaFileObject both = JavaFileObjects.forSourceLines("q.C", "package q;",
            "import c.Components.*;", "@dev.cairn.Observer(updated = P.class,", "    without = P.class)",
            "interface C {}");
        assertThat(compile(both)).hadErrorContaining("c.Components.P is both required and in 'without' of @Observer " +
            "on C").inFile(both).onLineContaining("without = P.class");
        final JavaFileObject plain = JavaFileObjects.forSourceLines("q.D", "package q;",
            "import c.Components.*;", "@dev.cairn.Observer(added = Plain.class) interface D {}");
        assertThat(compile(plain)).hadErrorContaining("c.Components.Plain in 'added' of @Observer on D is not a " +
            "@Component record").inFile(plain);
    }

    @Test
    void anObserverIsGeneratedUnderItsInterfacesNameAndPassesItsRequiredComponents()
    {
        final JavaFileObject observer = JavaFileObjects.forSourceLines("q.Moves", "package q;",
            "import c.Components.*;", "@dev.cairn.Observer(added = P.class, updated = {P.class, Q.class},",
            "    with = {X.class, R.class}, without = Y.class)", "interface Moves {}");
        final Compilation compilation = compile(observer);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.MovesObserver");
        assertTrue(source.contains("void accept(long entity, Components_PStorage.Ref p, Components_QStorage.Ref q, " +
            "Components_RStorage.Ref r);"), source);
        assertTrue(source.contains(".onUpdated(pStorage, qStorage)"), source);
    }

    @Test
    void groupMistakesAreErrorsOnTheDeclarationOrTheEntry()
    {
        final JavaFileObject components = JavaFileObjects.forSourceLines("g.Parts", "package g;",
            "import dev.cairn.Component;", "import dev.cairn.DeletionPolicy;", "public final class Parts {",
            "    @Component(policy = DeletionPolicy.IN_PLACE) public record Holey(int a) {}",
            "    @Component public record Solid(int b) {}", "}");
        final JavaFileObject inPlace = JavaFileObjects.forSourceLines("g.A", "package g;",
            "@dev.cairn.Group(owns = {Parts.Solid.class,", "    Parts.Holey.class})", "interface A {}");
        final Compilation owned = javac().withProcessors(new CairnProcessor()).compile(components, inPlace);
        assertThat(owned).hadErrorContaining("g.Parts.Holey in 'owns' of @Group on A uses DeletionPolicy.IN_PLACE")
            .inFile(inPlace).onLineContaining("Parts.Holey.class");
        final JavaFileObject empty = JavaFileObjects.forSourceLines("g.B", "package g;",
            "@dev.cairn.Group(without = Parts.Solid.class) interface B {}");
        assertThat(javac().withProcessors(new CairnProcessor()).compile(components, empty))
            .hadErrorContaining("@Group on B requires no component");
        final JavaFileObject twice = JavaFileObjects.forSourceLines("g.C", "package g;",
            "@dev.cairn.Group(owns = Parts.Solid.class,", "    with = Parts.Solid.class)", "interface C {}");
        assertThat(javac().withProcessors(new CairnProcessor()).compile(components, twice))
            .hadErrorContaining("g.Parts.Solid appears twice in @Group on C").inFile(twice)
            .onLineContaining("with = Parts.Solid.class");
    }

    @Test
    void aGroupIsGeneratedUnderItsInterfacesNameAndAnOwningOneCanBeSorted()
    {
        final JavaFileObject group = JavaFileObjects.forSourceLines("q.Moving", "package q;",
            "import c.Components.*;", "@dev.cairn.Group(owns = {P.class, Q.class}, with = R.class, without = X.class)",
            "interface Moving {}");
        final Compilation compilation = compile(group);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.MovingGroup");
        assertTrue(source.contains("void accept(long entity, Components_PStorage.Ref p, Components_QStorage.Ref q, " +
            "Components_RStorage.Ref r);"), source);
        assertTrue(source.contains("public void sort(final IndexComparator comparator)"), source);
        assertTrue(source.contains("pRef.moveTo(i).entity()"), "the first owned storage gives the entity");
        assertTrue(source.contains("qRef.moveTo(i, entity);"), "the other owned storages are read at the loop's index");
        assertTrue(source.contains("rRef.moveToEntity(entity, i)"), "the others are looked up");
    }

    @Test
    void aClassThatIsNotARecordIsAnError()
    {
        final JavaFileObject view = source(
            "@View(with = P.class,",
            "    without = Record.class)",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("java.lang.Record in 'without' of @View on Movers is not a " +
            "record").inFile(view).onLineContaining("Record.class");
    }

    @Test
    void aComponentListedTwiceIsAnErrorOnTheSecondEntry()
    {
        final JavaFileObject view = source(
            "@View(with = {P.class,",
            "    Q.class,",
            "    P.class})",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("c.Components.P is listed twice in 'with'").inFile(view)
            .onLine(6);
    }

    @Test
    void aComponentExcludedTwiceIsAnError()
    {
        final JavaFileObject view = source(
            "@View(with = P.class,",
            "    without = {X.class,",
            "    X.class})",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("c.Components.X is listed twice in 'without'").inFile(view)
            .onLine(6);
    }

    @Test
    void aComponentBothIncludedAndExcludedIsAnErrorOnTheExclusion()
    {
        final JavaFileObject view = source(
            "@View(with = {P.class, Q.class},",
            "    without = Q.class)",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("c.Components.Q is both in 'with' and in 'without'")
            .inFile(view).onLineContaining("without = Q.class");
    }

    @Test
    void moreThanEightIncludedIsAnError()
    {
        final JavaFileObject view = source(
            "@View(with = {P.class, Q.class, R.class, S.class, T.class, U.class, V.class, W.class, X.class})",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("includes 9 components; a generated view includes at most 8");
    }

    @Test
    void moreThanEightExcludedIsAnError()
    {
        final JavaFileObject view = source(
            "@View(with = P.class,",
            "    without = {Q.class, R.class, S.class, T.class, U.class, V.class, W.class, X.class, Y.class})",
            "interface Movers {}");
        assertThat(compile(view)).hadErrorContaining("excludes 9 components; a generated view excludes at most 8");
    }

    @Test
    void twoComponentsWithTheSameSimpleNameAreAnError()
    {
        final JavaFileObject other = JavaFileObjects.forSourceLines(
            "d.P",
            "package d;",
            "@dev.cairn.Component public record P(int other) {}");
        final JavaFileObject view = source(
            "@View(with = {P.class,",
            "    d.P.class})",
            "interface Movers {}");
        assertThat(compile(view, other)).hadErrorContaining("would both be called 'p'").inFile(view)
            .onLineContaining("d.P.class");
    }

    @Test
    void eightIncludedAndEightExcludedCompileAndNameTheirAccessors()
    {
        final JavaFileObject view = source(
            "@View(with = {P.class, Q.class, R.class, S.class, T.class, U.class, V.class, X.class},",
            "    without = {W.class, Y.class})",
            "interface Many {}");
        final Compilation compilation = compile(view);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.ManyView");
        assertTrue(source.contains("void accept(\n"), source);
        assertTrue(source.contains("            long entity,\n            Components_PStorage.Ref p,\n"), source);
        assertTrue(source.contains("public Components_VStorage.Ref v()"), source);
        assertTrue(!source.contains("Components_XStorage.Ref"), "tags are not passed");
        assertTrue(!source.contains("Components_WStorage.Ref"), "excluded components are not passed");
    }

    @Test
    void keywordsAndReservedNamesGetAComponentSuffix()
    {
        final JavaFileObject records = JavaFileObjects.forSourceLines(
            "k.Int",
            "package k;",
            "public final class Int {",
            "    private Int() {}",
            "    @dev.cairn.Component public record Entity(int a) {}",
            "    @dev.cairn.Component public record Class(int b) {}",
            "    @dev.cairn.Component public record HPBar(int c) {}",
            "}");
        final JavaFileObject view = JavaFileObjects.forSourceLines(
            "q.Odd",
            "package q;",
            "import dev.cairn.View;",
            "import k.Int;",
            "@View(with = {Int.Entity.class, Int.Class.class, Int.HPBar.class})",
            "interface Odd {}");
        final Compilation compilation = javac().withProcessors(new CairnProcessor()).compile(records, view);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.OddView");
        assertTrue(source.contains("public Int_EntityStorage.Ref entityComponent()"), source);
        assertTrue(source.contains("public Int_ClassStorage.Ref classComponent()"), source);
        assertTrue(source.contains("public Int_HPBarStorage.Ref hpBar()"), source);
    }

    @Test
    void componentsNamedLikeTheGeneratedHelpersCompileUnderASuffix()
    {
        final JavaFileObject records = JavaFileObjects.forSourceLines(
            "k.Odd",
            "package k;",
            "public final class Odd {",
            "    private Odd() {}",
            "    @dev.cairn.Component public record Reset(int a) {}",
            "    @dev.cairn.Component public record LeadOrdinal(int b) {}",
            "    @dev.cairn.Component public record IndexIn(int c) {}",
            "    @dev.cairn.Component public record EnsureOpen(int d) {}",
            "    @dev.cairn.Component public record LeadStorage(int e) {}",
            "    @dev.cairn.Component public record NextLedByReset(int f) {}",
            "    @dev.cairn.Component public record Next(int g) {}",
            "    @dev.cairn.Component public record Close(int h) {}",
            "    @dev.cairn.Component public record NextLedBy(int i) {}",
            "}");
        final JavaFileObject view = JavaFileObjects.forSourceLines(
            "q.Helpers",
            "package q;",
            "import dev.cairn.View;",
            "import k.Odd;",
            "@View(with = {Odd.Reset.class, Odd.LeadOrdinal.class, Odd.IndexIn.class, Odd.EnsureOpen.class,",
            "    Odd.LeadStorage.class, Odd.NextLedByReset.class})",
            "interface Helpers {}");
        final JavaFileObject cursorNames = JavaFileObjects.forSourceLines(
            "q.CursorNames",
            "package q;",
            "import dev.cairn.View;",
            "import k.Odd;",
            "@View(with = {Odd.Next.class, Odd.Close.class, Odd.NextLedBy.class})",
            "interface CursorNames {}");
        final Compilation compilation =
            javac().withProcessors(new CairnProcessor()).compile(records, view, cursorNames);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.HelpersView");
        assertTrue(source.contains("public Odd_ResetStorage.Ref resetComponent()"), source);
        assertTrue(source.contains("public Odd_IndexInStorage.Ref indexIn()"), source);
        assertTrue(source.contains("public Odd_NextLedByResetStorage.Ref nextLedByReset()"), source);
        // The cursor's own members (entity, next, close, reset, nextLedBy) and the view's helpers it calls.
        assertTrue(source.contains("public Odd_LeadOrdinalStorage.Ref leadOrdinalComponent()"), source);
        assertTrue(source.contains("public Odd_EnsureOpenStorage.Ref ensureOpenComponent()"), source);
        assertTrue(source.contains("public Odd_LeadStorageStorage.Ref leadStorageComponent()"), source);
        final String cursor = generated(compilation, "q.CursorNamesView");
        assertTrue(cursor.contains("public Odd_NextStorage.Ref nextComponent()"), cursor);
        assertTrue(cursor.contains("public Odd_CloseStorage.Ref closeComponent()"), cursor);
        assertTrue(cursor.contains("public Odd_NextLedByStorage.Ref nextLedByComponent()"), cursor);
    }

    @Test
    void twoViewsThatWouldGenerateTheSameClassAreAnErrorOnTheSecond()
    {
        final JavaFileObject nested = JavaFileObjects.forSourceLines(
            "q.Outer",
            "package q;",
            "import dev.cairn.View;",
            "import c.Components.P;",
            "public final class Outer {",
            "    private Outer() {}",
            "    @View(with = P.class) public interface Alive {}",
            "}");
        final JavaFileObject flat = JavaFileObjects.forSourceLines(
            "q.Outer_Alive",
            "package q;",
            "import dev.cairn.View;",
            "import c.Components.P;",
            "@View(with = P.class)",
            "public interface Outer_Alive {}");
        final Compilation compilation = compile(nested, flat);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("would generate q.Outer_AliveView, which another declaration of " +
            "this compilation already generates");
    }

    @Test
    void aSingleComponentViewWalksItsStorageWithoutProbing()
    {
        final JavaFileObject view = source(
            "@View(with = P.class)",
            "interface Single {}");
        final Compilation compilation = compile(view);
        assertThat(compilation).succeededWithoutWarnings();
        final String source = generated(compilation, "q.SingleView");
        assertTrue(!source.contains("moveToEntity") && !source.contains("indexOf("), source);
        assertTrue(source.contains("return pStorage.memberCount();"), "count() is the member count");
    }

    @Test
    void aNestedViewIsGeneratedUnderItsFlattenedName()
    {
        final JavaFileObject view = source(
            "final class Systems {",
            "    @View(with = P.class, without = X.class)",
            "    interface Movers {}",
            "}");
        final Compilation compilation = compile(view);
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation).generatedSourceFile("q.Systems_MoversView");
    }

    private static JavaFileObject source(final String... lines)
    {
        final String[] all = new String[lines.length + 3];
        all[0] = "package q;";
        all[1] = "import dev.cairn.View;";
        all[2] = "import c.Components.*;";
        System.arraycopy(lines, 0, all, 3, lines.length);
        return JavaFileObjects.forSourceLines("q.Source", all);
    }

    private static Compilation compile(final JavaFileObject... sources)
    {
        final JavaFileObject[] all = new JavaFileObject[sources.length + 1];
        all[0] = COMPONENTS;
        System.arraycopy(sources, 0, all, 1, sources.length);
        return javac().withProcessors(new CairnProcessor()).compile(all);
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
