package dev.cairn.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders the Java source of one generated view from a validated {@link ViewModel}: its walks (written by
 * {@link WalkSource}, one loop per possible leading storage), {@code count}, {@code contains} and the lead's choice.
 */
final class ViewSource
{
    private static final String LEAD_ORDINAL = "leadOrdinal";
    private static final String LEAD_STORAGE = "leadStorage";
    private static final String ENSURE_OPEN = "ensureOpen";

    /**
     * The names a component accessor of the cursor must not take: the cursor's own members, and the view's methods
     * the cursor calls by simple name, which a cursor method of the same name would hide.
     */
    static final Set<String> CURSOR_NAMES = union(WalkSource.CURSOR_MEMBERS, Set.of(LEAD_ORDINAL, LEAD_STORAGE,
        ENSURE_OPEN));

    private final ViewModel model;
    private final JavaLangNames lang;
    private final String packageName;
    private final String viewName;
    private final List<ViewComponent> included;
    private final List<ViewComponent> excluded;
    private final List<ViewComponent> passed = new ArrayList<>();
    private final JavaWriter out = new JavaWriter();
    private final boolean markGenerated;
    /** {@code "final int since, "} when walks take a tick, else empty. */
    private final String sinceParameter;
    private final WalkSource walks;

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
        for (final ViewComponent component : included)
        {
            if (!component.tag())
            {
                passed.add(component);
            }
        }
        final List<WalkSource.Lead> leads = new ArrayList<>();
        for (final ViewComponent lead : included)
        {
            leads.add(new WalkSource.Lead()
            {
                @Override
                public String suffix()
                {
                    return included.size() == 1 ? "" : "LedBy" + capitalized(lead.name());
                }

                @Override
                public String extent()
                {
                    return storageField(lead) + ".extent()";
                }

                @Override
                public void step(final JavaWriter out)
                {
                    leadEntity(lead);
                    probes(lead);
                    tickFilters(lead);
                }

                @Override
                public String cursorParameter()
                {
                    return included.size() == 1 ? null : "final " + lead.storageType() + " " + storageField(lead);
                }
            });
        }
        final List<String> locals = new ArrayList<>();
        for (final ViewComponent component : all())
        {
            locals.add("final " + component.storageType() + " " + storageField(component) + " = this." +
                storageField(component) + ";");
        }
        this.walks = new WalkSource(out, lang, viewName, passed, leads, ENSURE_OPEN + "();", locals, sinceParameter);
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
        walks.forEach("Calls {@code action} once for each matching entity.", sinceDoc("only entities whose " +
            filterDescription() + " after it are visited."));
        out.blank();
        walks.parallelForEach(sinceDoc("only entities whose " + filterDescription() + " after it are visited."));
        out.blank();
        walks.cursor(sinceDoc("only entities whose " + filterDescription() + " after it are visited."));
        out.blank();
        count();
        out.blank();
        contains();
        out.blank();
        sizeHint();
        out.blank();
        isOpen();
        walks.loops();
        out.blank();
        leadStorage();
        out.blank();
        ensureOpen();
        out.close();
        return out.toString();
    }

    private String sinceDoc(final String what)
    {
        return model.filtersByTick() ? "@param since  a tick: " + what : null;
    }

    private void header()
    {
        if (!packageName.isEmpty())
        {
            out.line("package " + packageName + ";");
            out.blank();
        }
        final TreeSet<String> imports = new TreeSet<>(WalkSource.imports(true));
        imports.add("dev.cairn.world.World");
        imports.add("dev.cairn.set.SparseSet");
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
            "{@link #forEach(" + (model.filtersByTick() ? "int, " : "") + "Action)} passes each entity with a " +
                "{@code Ref} per component, and {@link #cursor(" + (model.filtersByTick() ? "int" : "") + ")} serves " +
                "an ordinary loop; neither allocates. A walk leads with the smallest included storage, front to " +
                "back, and probes the others. The rules of walks are those of every walk (see {@link " +
                "dev.cairn.View}): the structure holds still, changes are applied when the walk returns, and a " +
                "{@code Ref} is valid during the step it was passed to. Not thread-safe.");
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
        out.line("private final Walks walks;");
        out.line("private final Cursor cursor;");
    }

    private void constructor()
    {
        out.javadoc("Creates a view over a world's storages, creating any that do not exist yet. Keep it and " +
                "walk it as often as needed: each walk sees the storages as they are then.",
            "",
            "@param world the world whose entities to visit.");
        out.line("public " + viewName + "(final World world)");
        out.open();
        for (final ViewComponent component : all())
        {
            out.line(storageField(component) + " = world.storage(" + component.storageType() + ".TYPE);");
        }
        out.line("walks = Access.walks(" + storageField(included.get(0)) + ");");
        out.line("cursor = new Cursor();");
        out.close();
    }

    private void count()
    {
        out.javadoc("Counts the matching entities: the member count of a single-storage view, else by walking the " +
                "leading storage.",
            "",
            sinceDoc("count only entities whose " + filterDescription() + " after it."),
            "@return how many entities a walk started now would visit.");
        out.line("public int count(" + (model.filtersByTick() ? "final int since" : "") + ")");
        out.open();
        out.line(ENSURE_OPEN + "();");
        if (included.size() == 1 && excluded.isEmpty() && !model.filtersByTick())
        {
            out.line("return " + storageField(included.get(0)) + ".memberCount();");
            out.close();
            return;
        }
        // A walk, short as it is: a close from another thread is refused while the loop reads the memory.
        out.line("final int walk = walks.beginWalk(\"" + viewName + ".count\");");
        out.line("try");
        out.open();
        out.line("final SparseSet lead = " + LEAD_STORAGE + "();");
        out.line("int count = 0;");
        out.line("for (int i = 0; i < lead.extent(); i++)");
        out.open();
        out.line("final long entity = lead.entityAt(i);");
        out.line("if (entity == Entity.NULL)");
        skip();
        probes(null);
        tickFilters(null);
        out.line("count++;");
        out.close();
        out.line("return count;");
        out.close();
        out.line("finally");
        out.open();
        out.line("walks.end(walk);");
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

    /**
     * Declares {@code entity}, the member at lead index {@code i}, and skips the step if there is none (a tombstone).
     * A lead with a {@code Ref} is read through the Ref, which is then positioned on it.
     */
    private void leadEntity(final ViewComponent lead)
    {
        out.line("final long entity = " + (lead.tag() ? storageField(lead) + ".entityAt(i)" :
            WalkSource.ref(lead) + ".moveTo(i).entity()") + ";");
        // Not "== Entity.NULL": the JIT folds "< 0" into the storage's own test of the packed value.
        out.line("if (entity < 0) // Entity.NULL: a tombstone");
        skip();
    }

    /**
     * Emits the membership tests of a step for the entity at lead index {@code i}: exclusions first, so that an
     * excluded entity positions no Ref, then the included storages, each hinted at {@code i}. With {@code lead} null
     * (count's loop, where any included storage may lead) every included storage is probed through its storage.
     */
    private void probes(final ViewComponent lead)
    {
        for (final ViewComponent component : excluded)
        {
            out.line("if (" + storageField(component) + ".indexOf(entity) >= 0)");
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
                out.line("if (!" + WalkSource.ref(component) + ".moveToEntity(entity, i))");
            }
            else
            {
                out.line("if (" + storageField(component) + ".indexOf(entity, i) < 0)");
            }
            skip();
        }
    }

    /**
     * Emits the tick tests after the membership tests: each filtered component must have been added (or changed)
     * after {@code since}. Its packed index is {@code i} when it leads, its Ref's index when the step positioned one,
     * else a lookup.
     */
    private void tickFilters(final ViewComponent lead)
    {
        for (final ViewComponent component : model.added())
        {
            tickFilter(component, "addedSince", lead);
        }
        for (final ViewComponent component : model.changed())
        {
            tickFilter(component, "changedSince", lead);
        }
    }

    private void tickFilter(final ViewComponent component, final String test, final ViewComponent lead)
    {
        final String storage = storageField(component);
        final String index = component == lead ? "i" : lead != null && !component.tag() ?
            WalkSource.ref(component) + ".index()" : storage + ".indexOf(entity, i)";
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

    private static String capitalized(final String name)
    {
        return name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

    private static Set<String> union(final Set<String> a, final Set<String> b)
    {
        final Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

}
