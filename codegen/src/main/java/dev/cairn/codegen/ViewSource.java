package dev.cairn.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders the Java source of one generated view from a validated {@link ViewModel}. The output is meant to read like
 * a hand-written loop over the storages: one private loop per possible leading storage for {@code forEach}, one
 * compact loop for the cursor, everything it touches copied into locals first.
 */
final class ViewSource
{
    private static final String ENTITY = "entity";
    private static final String NEXT = "next";
    private static final String RESET = "reset";
    private static final String LEAD_ORDINAL = "leadOrdinal";
    private static final String LEAD_STORAGE = "leadStorage";
    private static final String ENSURE_OPEN = "ensureOpen";

    /**
     * The names a component accessor of the cursor must not take: the cursor's own methods, and the view's methods
     * the cursor calls by simple name, which a cursor method of the same name would hide. These are the constants the
     * source is written with, so the list follows the generated code.
     */
    static final Set<String> CURSOR_NAMES =
        Set.of(ENTITY, NEXT, RESET, LEAD_ORDINAL, LEAD_STORAGE, ENSURE_OPEN);

    private final ViewModel model;
    private final JavaLangNames lang;
    private final String packageName;
    private final String viewName;
    private final List<ViewComponent> included;
    private final List<ViewComponent> excluded;
    private final List<ViewComponent> passed = new ArrayList<>();
    private final JavaWriter out = new JavaWriter();
    private final boolean markGenerated;
    /** {@code "final int since, "} when iterations take a tick, else empty: the leading parameter of each walk. */
    private final String sinceParameter;
    /** {@code "since, "} or empty: the matching argument. */
    private final String sinceArgument;

    ViewSource(
        final ViewModel model,
        final JavaLangNames lang,
        final String packageName,
        final String viewName,
        final boolean markGenerated)
    {
        this.lang = lang;
        this.markGenerated = markGenerated;
        this.model = model;
        this.packageName = packageName;
        this.viewName = viewName;
        this.included = model.included();
        this.excluded = model.excluded();
        this.sinceParameter = model.filtersByTick() ? "final int since, " : "";
        this.sinceArgument = model.filtersByTick() ? "since, " : "";
        for (final ViewComponent component : included)
        {
            if (!component.tag())
            {
                passed.add(component);
            }
        }
    }

    String render()
    {
        header();
        classJavadoc();
        if (markGenerated)
        {
            out.line(GeneratedNames.generatedAnnotation("Generated"));
        }
        out.line("public final class " + viewName);
        out.open();
        action();
        out.blank();
        fields();
        out.blank();
        constructor();
        out.blank();
        forEach();
        out.blank();
        parallelForEach();
        out.blank();
        cursorMethod();
        out.blank();
        count();
        out.blank();
        contains();
        out.blank();
        sizeHint();
        out.blank();
        isOpen();
        for (final ViewComponent lead : included)
        {
            out.blank();
            forEachLedBy(lead);
            out.blank();
            walkLedBy(lead);
        }
        out.blank();
        leadStorage();
        out.blank();
        ensureOpen();
        out.blank();
        cursorClass();
        out.close();
        return out.toString();
    }

    private void header()
    {
        if (!packageName.isEmpty())
        {
            out.line("package " + packageName + ";");
            out.blank();
        }
        final TreeSet<String> imports = new TreeSet<>();
        imports.add("dev.cairn.Entity");
        imports.add("dev.cairn.World");
        imports.add("dev.cairn.parallel.Chunks");
        imports.add("dev.cairn.set.SparseSet");
        imports.add("java.util.concurrent.ForkJoinPool");
        if (markGenerated)
        {
            imports.add(GeneratedNames.GENERATED);
        }
        for (final ViewComponent component : all())
        {
            if (component.storageImported(packageName))
            {
                imports.add(component.storageName());
            }
        }
        for (final String name : imports)
        {
            out.line("import " + name + ";");
        }
        out.blank();
    }

    private void classJavadoc()
    {
        final String interfaceName = model.view().getQualifiedName().toString();
        out.javadoc("Iterates the entities that have " + ViewComponent.links(included, "and") +
                (excluded.isEmpty() ? "" : " but not " + ViewComponent.links(excluded, "or")) +
                ". Generated from {@link " + interfaceName + "} by cairn-codegen; do not edit.",
            "<p>",
            "Two forms, neither allocating: {@link #forEach(Action)} passes each entity with a positioned " +
                "{@code Ref} per component, and the reusable {@link #cursor()} serves an ordinary loop:",
            "<pre>{@code",
            "for (" + viewName + ".Cursor c = view.cursor(); c.next(); )",
            "{",
            "    long entity = c.entity();" + (passed.isEmpty() ? "" : " // and c." + passed.get(0).name() + "() ..."),
            "}",
            "}</pre>",
            "Each iteration leads with the included storage that is smallest when the iteration starts, walks it " +
                "from back to front and probes the other storages, first at the same packed index and then through " +
                "their sparse arrays; each {@code Ref} is positioned by the storage it belongs to. Removing the " +
                "current entity, or any of its components, while iterating is safe: the rest of the iteration visits exactly the remaining matching entities once. Entities that " +
                "start to match during an iteration are visited if their leading component already sat in the part " +
                "not yet walked (see views.md). Removing the leading component of an entity not yet visited from a " +
                "swapping storage would move one from the part walked into its place: {@code forEach} then stops with an " +
                "{@link IllegalStateException}; a cursor cannot tell, and may visit that entity again.",
            "<p>",
            "The {@code Ref}s given to an action, and the cursor's, belong to this view and stay positioned only " +
                "until the next step; nest loops over two view objects, not one. Once the world is closed every " +
                "method but {@link #sizeHint()} and {@link #isOpen()} throws {@link IllegalStateException}. Not " +
                "thread-safe.");
    }

    private void action()
    {
        out.javadoc("What {@link #forEach(Action)} calls for each matching entity.");
        out.line(lang.annotation("FunctionalInterface"));
        out.line("public interface Action");
        out.open();
        final List<String> doc = new ArrayList<>(List.of("Receives one matching entity.", "",
            "@param entity the entity."));
        for (final ViewComponent component : passed)
        {
            doc.add("@param " + component.name() + " its {@link " + component.record().getQualifiedName() + "}.");
        }
        out.javadoc(doc.toArray(new String[0]));
        final List<String> parameters = new ArrayList<>();
        parameters.add("long entity");
        for (final ViewComponent component : passed)
        {
            parameters.add(component.refType() + " " + component.name());
        }
        out.list("void accept(", parameters, ");");
        out.close();
    }

    private void fields()
    {
        for (final ViewComponent component : all())
        {
            out.line("private final " + component.storageType() + " " + storageField(component) + ";");
        }
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.refType() + " " + refField(component) + ";");
        }
        out.line("private final Cursor cursor;");
        IterationGuard.field(out, lang);
    }

    private void constructor()
    {
        out.javadoc("Creates a view over a world's storages, creating any that do not exist yet. Keep it and " +
                "iterate it as often as needed: each iteration sees the storages as they are then.",
            "",
            "@param world the world whose entities to visit.");
        out.line("public " + viewName + "(final World world)");
        out.open();
        for (final ViewComponent component : all())
        {
            out.line(storageField(component) + " = world.storage(" + component.storageType() + ".TYPE);");
        }
        for (final ViewComponent component : passed)
        {
            out.line(refField(component) + " = " + storageField(component) + ".ref();");
        }
        out.line("cursor = new Cursor();");
        out.close();
    }

    private void forEach()
    {
        final List<String> doc = new ArrayList<>(List.of("Calls {@code action} once for each matching entity.", ""));
        if (model.filtersByTick())
        {
            doc.add("@param since  a tick: only entities whose " + filterDescription() + " after it are visited.");
        }
        doc.add("@param action receives each entity and its components.");
        doc.add("@throws IllegalStateException if called from inside an action of this same view, or if the world is " +
            "closed; from {@code action}, closing the world or reordering the leading storage throws too.");
        out.javadoc(doc.toArray(new String[0]));
        out.line("public void forEach(" + sinceParameter + "final Action action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each entity\");");
        out.line(ENSURE_OPEN + "();");
        IterationGuard.enter(out, lang, viewName, "a second " + viewName + " (new " + viewName + "(world))");
        out.line("try");
        out.open();
        if (included.size() == 1)
        {
            out.line(forEachMethod(included.get(0)) + "(" + sinceArgument + "action);");
        }
        else
        {
            out.line("switch (" + LEAD_ORDINAL + "())");
            out.open();
            for (int k = 0; k < included.size(); k++)
            {
                out.line(k < included.size() - 1 ? "case " + k + ":" : "default:");
                out.line("    " + forEachMethod(included.get(k)) + "(" + sinceArgument + "action);");
                out.line("    break;");
            }
            out.close();
        }
        out.close();
        out.line("finally");
        out.open();
        IterationGuard.exit(out, passed.stream().map(ViewSource::refField).toList());
        out.close();
        out.close();
    }

    private void parallelForEach()
    {
        final String since = model.filtersByTick() ? "since, " : "";
        final List<String> doc = new ArrayList<>(List.of(
            "Calls {@code action} once for each matching entity, on the {@linkplain ForkJoinPool#commonPool() common " +
                "pool} in chunks of an automatic size; see {@link #parallelForEach(ForkJoinPool, int, " +
                (since.isEmpty() ? "" : "int, ") + "Action)}.", ""));
        if (model.filtersByTick())
        {
            doc.add("@param since  a tick: only entities whose " + filterDescription() + " after it are visited.");
        }
        doc.add("@param action receives each entity and its components, on any of the pool's threads.");
        doc.add("@throws IllegalStateException if the world is closed or a parallel iteration of it runs already.");
        out.javadoc(doc.toArray(new String[0]));
        out.line("public void parallelForEach(" + sinceParameter + "final Action action)");
        out.open();
        out.line("parallelForEach(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, " + since + "action);");
        out.close();
        out.blank();

        final List<String> full = new ArrayList<>(List.of(
            "Calls {@code action} once for each matching entity, splitting the leading storage into chunks that run " +
                "on {@code pool}: the same entities as {@code forEach}, each exactly once, back to front within a " +
                "chunk and in no particular order across chunks. Each chunk has {@code Ref}s of its own; nothing is " +
                "allocated per entity.",
            "<p>",
            "Until it returns, the world's structure is locked: the action may read any component and write the " +
                "fields of the entity it visits (two actions writing one component of another entity race), and " +
                "every structural change (create, destroy, add, remove, clear, sort, compact, groups, listeners) " +
                "throws {@link IllegalStateException}: record those in a {@link dev.cairn.command.CommandBuffer} and " +
                "apply it afterwards. The first exception an action throws reaches the caller once every started " +
                "chunk has returned, later ones suppressed in it.",
            "",
            "@param pool      where the chunks run; the calling thread waits.",
            "@param chunkSize packed indices per chunk, 1 or more, or {@link Chunks#AUTOMATIC}."));
        if (model.filtersByTick())
        {
            full.add("@param since     a tick: only entities whose " + filterDescription() + " after it are visited.");
        }
        full.add("@param action    receives each entity and its components, on any of the pool's threads.");
        full.add("@throws IllegalStateException    if the world is closed or a parallel iteration of it runs already.");
        full.add("@throws IllegalArgumentException if {@code chunkSize} is negative.");
        out.javadoc(full.toArray(new String[0]));
        out.line("public void parallelForEach(");
        out.line("    final ForkJoinPool pool, final int chunkSize, " + sinceParameter + "final Action action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line(ENSURE_OPEN + "();");
        if (included.size() == 1)
        {
            parallelCall(included.get(0), since, "");
        }
        else
        {
            out.line("switch (" + LEAD_ORDINAL + "())");
            out.open();
            for (int k = 0; k < included.size(); k++)
            {
                out.line(k < included.size() - 1 ? "case " + k + ":" : "default:");
                parallelCall(included.get(k), since, "    ");
                out.line("    break;");
            }
            out.close();
        }
        out.close();
    }

    private void parallelCall(final ViewComponent lead, final String since, final String indent)
    {
        final String storage = storageField(lead);
        out.line(indent + storage + ".forEachChunk(" + storage + ".extent(), pool, chunkSize, \"" + viewName +
            ".parallelForEach\",");
        out.line(indent + "    (from, to) -> " + walkMethod(lead) + "(from, to, " + since + "action));");
    }

    private void cursorMethod()
    {
        out.javadoc("This view's cursor, reset to the start of a new iteration: the same object every time. Unlike " +
                "{@code forEach}, a cursor loop cannot announce itself, so closing the world from another thread " +
                "while one runs is a data race that may read freed memory: stop the loop first.",
            "",
            model.filtersByTick() ? "@param since a tick: only entities whose " + filterDescription() +
                " after it are visited." : null,
            "@return the cursor, before the first entity: call {@link Cursor#next()} first.");
        out.line("public Cursor cursor(" + (model.filtersByTick() ? "final int since" : "") + ")");
        out.open();
        out.line("return cursor." + RESET + "(" + (model.filtersByTick() ? "since" : "") + ");");
        out.close();
    }

    private void count()
    {
        out.javadoc("Counts the matching entities: the member count of a single-storage view, else by walking the " +
                "leading storage.",
            "",
            model.filtersByTick() ? "@param since a tick: count only entities whose " + filterDescription() +
                " after it." : null,
            "@return how many entities an iteration started now would visit.");
        out.line("public int count(" + (model.filtersByTick() ? "final int since" : "") + ")");
        out.open();
        out.line(ENSURE_OPEN + "();");
        if (included.size() == 1 && excluded.isEmpty() && !model.filtersByTick())
        {
            out.line("return " + storageField(included.get(0)) + ".memberCount();");
            out.close();
            return;
        }
        out.line("final SparseSet lead = " + LEAD_STORAGE + "();");
        localStorages(null);
        out.line("lead.beginIteration(); // as forEach does: a close from another thread is refused meanwhile");
        out.line("try");
        out.open();
        out.line("int count = 0;");
        out.line("for (int i = lead.extent() - 1; i >= 0; i--)");
        out.open();
        out.line("final long entity = lead.entityAt(i);");
        out.line("if (entity == Entity.NULL)");
        skip();
        probes(null, false);
        tickFilters(null, null);
        out.line("count++;");
        out.close();
        out.line("return count;");
        out.close();
        out.line("finally");
        out.open();
        out.line("lead.endIteration();");
        out.close();
        out.close();
    }

    private void contains()
    {
        out.javadoc("Whether an entity would be visited now: it has every included component and no excluded one.",
            "",
            "@param entity any value.",
            model.filtersByTick() ? "@param since  a tick, as {@code forEach} takes it." : null,
            "@return true if it would be visited.");
        out.line("public boolean contains(final long entity" + (model.filtersByTick() ? ", final int since" : "") +
            ")");
        out.open();
        final List<String> terms = new ArrayList<>();
        for (final ViewComponent component : included)
        {
            terms.add(storageField(component) + ".contains(entity)");
        }
        for (final ViewComponent component : excluded)
        {
            terms.add("!" + storageField(component) + ".contains(entity)");
        }
        for (final ViewComponent component : model.added())
        {
            terms.add(storageField(component) + ".addedSince(" + storageField(component) + ".indexOf(entity), since)");
        }
        for (final ViewComponent component : model.changed())
        {
            terms.add(storageField(component) + ".changedSince(" + storageField(component) +
                ".indexOf(entity), since)");
        }
        out.chain("return ", terms, "&&", ";");
        out.close();
    }

    private void sizeHint()
    {
        out.javadoc("An upper bound of the entities an iteration started now would visit: the extent of the smallest " +
                "included storage.",
            "",
            "@return the bound; 0 once the world is closed.");
        out.line("public int sizeHint()");
        out.open();
        out.line("return " + LEAD_STORAGE + "().extent();");
        out.close();
    }

    private void isOpen()
    {
        out.javadoc("Whether the world of this view is still open.",
            "",
            "@return false once the world is closed.");
        out.line("public boolean isOpen()");
        out.open();
        final List<String> terms = new ArrayList<>();
        for (final ViewComponent component : all())
        {
            terms.add("!" + storageField(component) + ".isClosed()");
        }
        out.chain("return ", terms, "&&", ";");
        out.close();
    }

    /** The loop {@code forEach} runs when {@code lead} is the smallest included storage. */
    private void forEachLedBy(final ViewComponent lead)
    {
        out.line("private void " + forEachMethod(lead) + "(" + sinceParameter + "final Action action)");
        out.open();
        localStorages(null);
        for (final ViewComponent component : passed)
        {
            out.line("final " + component.refType() + " " + refLocal(component) + " = this." + refField(component) +
                ";");
        }
        out.line(storageLocal(lead) + ".beginIteration();");
        out.line("try");
        out.open();
        out.line("int i = " + storageLocal(lead) + ".extent();");
        out.line("long moves = " + storageLocal(lead) + ".moveCount();");
        out.line("while (--i >= 0)");
        out.open();
        leadEntity(lead, refLocal(lead));
        probes(lead, true);
        tickFilters(lead, true);
        final List<String> arguments = new ArrayList<>();
        arguments.add("entity");
        for (final ViewComponent component : passed)
        {
            arguments.add(refLocal(component));
        }
        out.list("action.accept(", arguments, ");");
        out.line("if (" + storageLocal(lead) + ".moveCount() != moves)");
        out.open();
        out.line(storageLocal(lead) + ".checkWalk(moves, i);");
        out.line("moves = " + storageLocal(lead) + ".moveCount();");
        out.close();
        out.line("final int end = " + storageLocal(lead) + ".extent();");
        out.line("if (i > end)");
        out.open();
        out.line("i = end;");
        out.close();
        out.close();
        out.close();
        out.line("finally");
        out.open();
        out.line(storageLocal(lead) + ".endIteration();");
        out.close();
        out.close();
    }

    /** One chunk of a parallel iteration: the loop of {@link #forEachLedBy} over {@code [from, to)}, with its own Refs. */
    private void walkLedBy(final ViewComponent lead)
    {
        out.line("private void " + walkMethod(lead) + "(final int from, final int to, " + sinceParameter +
            "final Action action)");
        out.open();
        localStorages(null);
        for (final ViewComponent component : passed)
        {
            out.line("final " + component.refType() + " " + refLocal(component) + " = " + storageLocal(component) +
                ".ref();");
        }
        out.line("try");
        out.open();
        out.line("int i = to;");
        out.line("while (--i >= from)");
        out.open();
        leadEntity(lead, refLocal(lead));
        probes(lead, true);
        tickFilters(lead, true);
        final List<String> arguments = new ArrayList<>();
        arguments.add("entity");
        for (final ViewComponent component : passed)
        {
            arguments.add(refLocal(component));
        }
        out.list("action.accept(", arguments, ");");
        out.close();
        out.close();
        out.line("finally");
        out.open();
        for (final ViewComponent component : passed)
        {
            out.line(refLocal(component) + ".moveTo(-1);");
        }
        out.close();
        out.close();
    }

    private void leadStorage()
    {
        out.line("private SparseSet " + LEAD_STORAGE + "()");
        out.open();
        if (included.size() == 1)
        {
            out.line("return " + storageField(included.get(0)) + ";");
        }
        else
        {
            out.line("switch (" + LEAD_ORDINAL + "())");
            out.open();
            for (int k = 0; k < included.size(); k++)
            {
                out.line(k < included.size() - 1 ? "case " + k + ":" : "default:");
                out.line("    return " + storageField(included.get(k)) + ";");
            }
            out.close();
        }
        out.close();
        if (included.size() > 1)
        {
            out.blank();
            out.javadoc("Which included storage leads: the one with the smallest extent, the first listed on a tie.");
            out.line("private int " + LEAD_ORDINAL + "()");
            out.open();
            out.line("int lead = 0;");
            out.line("int extent = " + storageField(included.get(0)) + ".extent();");
            for (int k = 1; k < included.size(); k++)
            {
                final String field = storageField(included.get(k));
                out.line("if (" + field + ".extent() < extent)");
                out.open();
                out.line("lead = " + k + ";");
                if (k < included.size() - 1)
                {
                    out.line("extent = " + field + ".extent();");
                }
                out.close();
            }
            out.line("return lead;");
            out.close();
        }
    }

    private void ensureOpen()
    {
        out.line("private void " + ENSURE_OPEN + "()");
        out.open();
        for (final ViewComponent component : all())
        {
            out.line(storageField(component) + "." + ENSURE_OPEN + "();");
        }
        out.close();
    }

    private void cursorClass()
    {
        out.javadoc("An external iteration over the view: {@link #next()} moves to the next matching entity and " +
            "positions the component accessors on it. There is one per view, reset by {@link " + viewName +
            "#cursor()}.");
        out.line("public final class Cursor");
        out.open();
        for (final ViewComponent component : all())
        {
            out.assign("private final " + component.storageType() + " " + storageField(component),
                viewName + ".this." + storageField(component) + ";");
        }
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.refType() + " " + refField(component) + " = " +
                storageField(component) + ".ref();");
        }
        if (included.size() > 1)
        {
            out.line("private int lead;");
        }
        out.line("private int index;");
        out.line("private long entity = Entity.NULL;");
        out.line("private int reorders;");
        if (model.filtersByTick())
        {
            out.line("private int since;");
        }
        out.blank();
        out.line("private Cursor()");
        out.open();
        for (final ViewComponent component : passed)
        {
            out.line(refField(component) + ".moveTo(-1);");
        }
        out.close();
        out.blank();
        out.javadoc("Moves to the next matching entity.",
            "",
            "@return true if on an entity; false at the end, where it stays.");
        out.line("public boolean " + NEXT + "()");
        out.open();
        if (included.size() == 1)
        {
            nextBody(included.get(0), false);
        }
        else
        {
            out.line("switch (lead)");
            out.open();
            for (int k = 0; k < included.size(); k++)
            {
                out.line(k < included.size() - 1 ? "case " + k + ":" : "default:");
                out.line("    return nextLedBy(" + storageLocal(included.get(k)) + ");");
            }
            out.close();
        }
        out.close();
        if (included.size() > 1)
        {
            for (final ViewComponent lead : included)
            {
                out.blank();
                out.line("private boolean nextLedBy(final " + lead.storageType() + " " + storageLocal(lead) + ")");
                out.open();
                nextBody(lead, true);
                out.close();
            }
        }
        out.blank();
        out.javadoc("The entity the cursor is on.",
            "",
            "@return its handle, or {@link Entity#NULL} before the first and after the last entity.");
        out.line("public long " + ENTITY + "()");
        out.open();
        out.line("return entity;");
        out.close();
        for (final ViewComponent component : passed)
        {
            out.blank();
            out.javadoc("The current entity's {@link " + component.record().getQualifiedName() + "}.", "",
                "@return its accessor, positioned on the current entity: the same object at every step.");
            out.line("public " + component.refType() + " " + component.name() + "()");
            out.open();
            out.line("return " + refField(component) + ";");
            out.close();
        }
        out.blank();
        out.line("private Cursor " + RESET + "(" + (model.filtersByTick() ? "final int since" : "") + ")");
        out.open();
        out.line(ENSURE_OPEN + "();");
        if (model.filtersByTick())
        {
            out.line("this.since = since;");
        }
        if (included.size() > 1)
        {
            out.line("lead = " + LEAD_ORDINAL + "();");
        }
        out.line("index = " + lang.of("Integer") + ".MAX_VALUE;");
        out.line("reorders = " + LEAD_STORAGE + "().reorderCount();");
        out.line("entity = Entity.NULL;");
        for (final ViewComponent component : passed)
        {
            out.line(refField(component) + ".moveTo(-1);");
        }
        out.line("return this;");
        out.close();
        out.close();
    }

    /**
     * The cursor's step when {@code lead} leads: resume below the last index, clamped to the lead's extent. The lead's
     * storage is the step method's parameter when there are several possible leads, so that each lead's step is an
     * overload no component accessor (which takes no parameter) can clash with.
     */
    private void nextBody(final ViewComponent lead, final boolean leadIsParameter)
    {
        localStorages(leadIsParameter ? lead : null);
        out.line("if (" + storageLocal(lead) + ".reorderCount() != reorders)");
        out.open();
        out.line(ENSURE_OPEN + "();");
        out.line("throw new " + lang.of("IllegalStateException") + "(");
        out.line("    " + storageLocal(lead) + ".name() + \" was sorted, swapped or compacted while this cursor walked \" +");
        out.line("    \"it (or rebuilt: by World.reset() or a snapshot load); the rest of the walk would visit some \" +");
        out.line("    \"entities twice and others never: start again with cursor()\");");
        out.close();
        out.line("int i = index;");
        out.line("final int end = " + storageLocal(lead) + ".extent();");
        out.line("if (i > end)");
        out.open();
        out.line("i = end;");
        out.close();
        out.line("while (--i >= 0)");
        out.open();
        leadEntity(lead, refField(lead));
        probes(lead, false);
        tickFilters(lead, false);
        out.line("this.index = i;");
        out.line("this.entity = entity;");
        out.line("return true;");
        out.close();
        // The end of the iteration is written out here rather than called: a call that is not inlined, even on this
        // rarely taken path, stops the JIT from keeping the caller's loop state across steps (2.5x slower loops).
        out.line("index = 0;");
        out.line("entity = Entity.NULL;");
        for (final ViewComponent component : passed)
        {
            out.line(refField(component) + ".moveTo(-1);");
        }
        final List<String> closed = new ArrayList<>();
        for (final ViewComponent component : all())
        {
            closed.add(storageLocal(component) + ".isClosed()");
        }
        out.chain("if (", closed, "||", ")");
        out.open();
        out.line(ENSURE_OPEN + "();");
        out.close();
        out.line("return false;");
    }

    /**
     * Declares {@code entity}, the member at lead index {@code i}, and skips the step if there is none (a tombstone).
     * A lead with a {@code Ref} is read through the Ref, which is then positioned on it.
     */
    private void leadEntity(final ViewComponent lead, final String ref)
    {
        out.line("final long entity = " + (lead.tag() ? storageLocal(lead) + ".entityAt(i)" :
            ref + ".moveTo(i).entity()") + ";");
        // Not "== Entity.NULL": the JIT folds "< 0" into the storage's own test of the packed value.
        out.line("if (entity < 0) // Entity.NULL: a tombstone");
        skip();
    }

    /**
     * Emits the membership tests of the loop body for the entity at lead index {@code i}: exclusions first, so that an
     * excluded entity positions no Ref, then the included storages, each hinted at {@code i} (excluded storages rarely
     * hold an entity at the lead's index, so they are not hinted). With {@code lead} null (count's loop, where any
     * included storage may lead) every included storage is probed through its storage, the lead too, where the hint
     * finds the entity at once. Otherwise a component with a Ref is probed by positioning its Ref: the loop's local
     * ({@code refLocals}) or the cursor's field.
     */
    private void probes(final ViewComponent lead, final boolean refLocals)
    {
        for (final ViewComponent component : excluded)
        {
            out.line("if (" + storageLocal(component) + ".indexOf(entity) >= 0)");
            skip();
        }
        for (final ViewComponent component : included)
        {
            if (component == lead || (lead == null && included.size() == 1))
            {
                continue;
            }
            if (lead != null && !component.tag())
            {
                out.line("if (!" + (refLocals ? refLocal(component) : refField(component)) +
                    ".moveToEntity(entity, i))");
            }
            else
            {
                out.line("if (" + storageLocal(component) + ".indexOf(entity, i) < 0)");
            }
            skip();
        }
    }

    /**
     * Emits the tick tests after the membership tests: each filtered component must have been added (or changed)
     * after {@code since}. Its packed index is {@code i} when it leads, its Ref's index when the loop positioned one
     * ({@code refLocals}: the walk's locals, false: the cursor's fields, null: none, as in count), else a lookup.
     */
    private void tickFilters(final ViewComponent lead, final Boolean refLocals)
    {
        for (final ViewComponent component : model.added())
        {
            tickFilter(component, "addedSince", lead, refLocals);
        }
        for (final ViewComponent component : model.changed())
        {
            tickFilter(component, "changedSince", lead, refLocals);
        }
    }

    private void tickFilter(
        final ViewComponent component, final String test, final ViewComponent lead, final Boolean refLocals)
    {
        final String storage = storageLocal(component);
        final String index = component == lead ? "i" : refLocals != null && !component.tag() ?
            (refLocals ? refLocal(component) : refField(component)) + ".index()" : storage + ".indexOf(entity, i)";
        out.line("if (!" + storage + "." + test + "(" + index + ", since))");
        skip();
    }

    /** What the tick filters ask, for Javadoc: "Position was added and Velocity changed". */
    private String filterDescription()
    {
        final List<String> parts = new ArrayList<>();
        for (final ViewComponent component : model.added())
        {
            parts.add("{@link " + component.record().getQualifiedName() + "} was added");
        }
        for (final ViewComponent component : model.changed())
        {
            parts.add("{@link " + component.record().getQualifiedName() + "} was written");
        }
        return String.join(" and ", parts);
    }

    private void localStorages(final ViewComponent except)
    {
        for (final ViewComponent component : all())
        {
            if (component != except)
            {
                out.line("final " + component.storageType() + " " + storageLocal(component) + " = this." +
                    storageField(component) + ";");
            }
        }
    }

    private void skip()
    {
        out.open();
        out.line("continue;");
        out.close();
    }

    private List<ViewComponent> all()
    {
        final List<ViewComponent> all = new ArrayList<>(included);
        all.addAll(excluded);
        return all;
    }

    private static String storageField(final ViewComponent component)
    {
        return component.name() + "Storage";
    }

    private static String storageLocal(final ViewComponent component)
    {
        return component.name() + "Storage";
    }

    private static String refField(final ViewComponent component)
    {
        return component.name() + "Ref";
    }

    private static String refLocal(final ViewComponent component)
    {
        return component.name() + "Ref";
    }

    private static String walkMethod(final ViewComponent lead)
    {
        final String name = lead.name();
        return "walkLedBy" + name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

    private static String forEachMethod(final ViewComponent lead)
    {
        final String name = lead.name();
        return "forEachLedBy" + name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

}
