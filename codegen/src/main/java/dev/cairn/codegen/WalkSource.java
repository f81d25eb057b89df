package dev.cairn.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes the walks every generated view, group and observer has: {@code forEach}, the two {@code parallelForEach},
 * the private loop they share (one per possible lead, over a range {@code [from, to)} with {@code Ref}s of its own)
 * and the cursor. What differs between views, groups and observers is how a step finds its entity and positions the
 * {@code Ref}s, which each passes in as a {@link Lead}.
 * <p>
 * The code written follows one pattern: a walk begins on the world's walks and ends there, so that the structure holds
 * still meanwhile and what the action changes is applied when it returns; the loop runs front to back over a range
 * fixed when the walk began, with no check per step; each loop allocates its {@code Ref}s, which the JIT scalar
 * replaces when it inlines the action, so a step stores nothing but the fields the action writes.
 */
final class WalkSource
{
    /** The names the cursor's own members take, which a component accessor of the cursor must not. */
    static final Set<String> CURSOR_MEMBERS = Set.of("entity", "next", "close", "reset", "nextLedBy");

    /** How one possible lead walks: the end of its range, and the statements of one step at index {@code i}. */
    interface Lead
    {
        /**
         * What the lead's loop method is called after "walk" and the cursor's after "next": {@code "LedByPosition"},
         * or empty when there is a single lead.
         *
         * @return the suffix.
         */
        String suffix();

        /**
         * The expression of the end of the range, read when a walk begins.
         *
         * @return for example {@code "positionStorage.extent()"}.
         */
        String extent();

        /**
         * Writes the statements of one step at index {@code i}: they declare {@code entity}, position every
         * {@code Ref} (named {@code <component>Ref}) and {@code continue} when the index holds no matching entity.
         *
         * @param out where the statements go.
         */
        void step(JavaWriter out);

        /**
         * The declaration of the lead's storage for the cursor's step method, which takes it as a parameter so that
         * each lead's step is an overload no component accessor (which takes none) can clash with; null when there
         * is a single lead.
         *
         * @return for example {@code "final PositionStorage positionStorage"}.
         */
        String cursorParameter();
    }

    private final JavaWriter out;
    private final JavaLangNames lang;
    private final String className;
    private final List<ViewComponent> passed;
    private final List<Lead> leads;
    /** The statement that throws if the walked structure is closed. */
    private final String openCheck;
    /** The locals every loop declares first: the storages it reads, copied from fields. */
    private final List<String> locals;
    private final String sinceParameter;
    private final String sinceArgument;

    /**
     * Describes the walks of one generated class.
     *
     * @param out            where the code goes.
     * @param lang           how the class's package names {@code java.lang} types.
     * @param className      the generated class, for the names of walks in messages.
     * @param passed         the components handed to the action, each with a {@code Ref}.
     * @param leads          the possible leads; with several, the class has {@code leadOrdinal()} choosing one.
     * @param openCheck      the statement that throws if the walked structure is closed.
     * @param locals         the declarations every loop starts with.
     * @param sinceParameter {@code "final int since, "} for walks filtered by a tick, else empty.
     */
    WalkSource(
        final JavaWriter out,
        final JavaLangNames lang,
        final String className,
        final List<ViewComponent> passed,
        final List<Lead> leads,
        final String openCheck,
        final List<String> locals,
        final String sinceParameter)
    {
        this.out = out;
        this.lang = lang;
        this.className = className;
        this.passed = passed;
        this.leads = leads;
        this.openCheck = openCheck;
        this.locals = locals;
        this.sinceParameter = sinceParameter;
        this.sinceArgument = sinceParameter.isEmpty() ? "" : "since, ";
    }

    /**
     * The imports the walks need.
     *
     * @param all whether the class has every walk (views and groups), or {@code forEach} alone (observers).
     * @return qualified names.
     */
    static List<String> imports(final boolean all)
    {
        final List<String> imports = new ArrayList<>(List.of(
            "dev.cairn.internal.Access", "dev.cairn.internal.Failures", "dev.cairn.internal.Walks"));
        if (all)
        {
            imports.addAll(List.of("dev.cairn.Entity", "dev.cairn.parallel.Chunks",
                "java.util.concurrent.ForkJoinPool"));
        }
        return imports;
    }

    /**
     * Writes {@code forEach}.
     *
     * @param summary   the first sentence of its Javadoc.
     * @param sinceDoc  the {@code @param since} line, or null.
     */
    void forEach(final String summary, final String sinceDoc)
    {
        out.javadoc(summary + " A walk: see {@link dev.cairn.View}.", "", sinceDoc);
        out.line("public void forEach(" + sinceParameter + "final Action action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each entity\");");
        out.line(openCheck);
        out.line("final int walk = walks.beginWalk(\"" + className + ".forEach\");");
        out.line("try");
        out.open();
        dispatch((lead, indent) -> out.line(indent + "walk" + lead.suffix() + "(0, " + lead.extent() + ", " +
            sinceArgument + "action);"));
        out.close();
        out.line("catch (final " + lang.of("Throwable") + " failure)");
        out.open();
        out.line("throw Failures.propagate(walks.end(walk, failure));");
        out.close();
        out.line("walks.end(walk);");
        out.close();
    }

    /**
     * Writes the two {@code parallelForEach}.
     *
     * @param sinceDoc the {@code @param since} line, or null.
     */
    void parallelForEach(final String sinceDoc)
    {
        out.javadoc("As {@link #parallelForEach(ForkJoinPool, int, " + (sinceArgument.isEmpty() ? "" : "int, ") +
                "Action)} on the common pool.", "", sinceDoc);
        out.line("public void parallelForEach(" + sinceParameter + "final Action action)");
        out.open();
        out.line("parallelForEach(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, " + sinceArgument + "action);");
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} once for each entity {@code forEach} would visit, in chunks that run on {@code pool} " +
                "(see {@link dev.cairn.View}).", "",
            sinceDoc);
        out.line("public void parallelForEach(");
        out.line("    final ForkJoinPool pool, final int chunkSize, " + sinceParameter + "final Action action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line(openCheck);
        dispatch((lead, indent) ->
        {
            out.line(indent + "walks.runParallel(\"" + className + ".parallelForEach\", pool, " + lead.extent() +
                ", chunkSize,");
            out.line(indent + "    (from, to) -> walk" + lead.suffix() + "(from, to, " + sinceArgument + "action));");
        });
        out.close();
    }

    /**
     * Writes the loop of each lead: the indices {@code [from, to)}, front to back, with {@code Ref}s of its own.
     */
    void loops()
    {
        for (final Lead lead : leads)
        {
            out.blank();
            out.line("private void walk" + lead.suffix() + "(final int from, final int to, " + sinceParameter +
                "final Action action)");
            out.open();
            for (final String local : locals)
            {
                out.line(local);
            }
            for (final ViewComponent component : passed)
            {
                out.line("final " + component.refType() + " " + ref(component) + " = new " + component.refType() + "(" +
                    storage(component) + ");");
            }
            // The Refs stay on the heap unless every call that takes them is inlined: nothing is called with them
            // after the loop (a Ref an action keeps stays on the entity it was last positioned on).
            out.line("for (int i = from; i < to; i++)");
            out.open();
            lead.step(out);
            final List<String> arguments = new ArrayList<>();
            arguments.add("entity");
            for (final ViewComponent component : passed)
            {
                arguments.add(ref(component));
            }
            out.list("action.accept(", arguments, ");");
            out.close();
            out.close();
        }
    }

    /**
     * Writes {@code cursor()} and the {@code Cursor} class.
     *
     * @param sinceDoc the {@code @param since} line, or null.
     */
    void cursor(final String sinceDoc)
    {
        final boolean since = !sinceArgument.isEmpty();
        out.javadoc("This object's cursor, started on a new walk (see {@link dev.cairn.View}).", "", sinceDoc);
        out.line("public Cursor cursor(" + (since ? "final int since" : "") + ")");
        out.open();
        out.line("return cursor.reset(" + (since ? "since" : "") + ");");
        out.close();
        out.blank();
        out.javadoc("An external walk: {@link #next()} moves to the next entity and positions the component accessors on it.");
        out.line("public final class Cursor implements " + lang.of("AutoCloseable"));
        out.open();
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.refType() + " " + ref(component) + " = new " + component.refType() +
                "(" + storage(component) + ");");
        }
        if (leads.size() > 1)
        {
            out.line("private int lead;");
        }
        out.line("private int index;");
        out.line("private int end;");
        out.line("private long entity = Entity.NULL;");
        out.line("private int walk = -1;");
        out.line("private final java.lang.Runnable close = this::close;");
        if (since)
        {
            out.line("private int since;");
        }
        out.blank();
        out.line("private Cursor()");
        out.open();
        out.close();
        out.blank();
        out.javadoc("Moves to the next entity; at the end, ends the walk and returns false.");
        out.line("public boolean next()");
        out.open();
        if (leads.size() == 1)
        {
            nextBody(leads.get(0));
        }
        else
        {
            out.line("switch (lead)");
            out.open();
            for (int k = 0; k < leads.size(); k++)
            {
                final String parameter = leads.get(k).cursorParameter();
                out.line(k < leads.size() - 1 ? "case " + k + ":" : "default:");
                out.line("    return nextLedBy(" + parameter.substring(parameter.lastIndexOf(' ') + 1) + ");");
            }
            out.close();
        }
        out.close();
        if (leads.size() > 1)
        {
            for (final Lead lead : leads)
            {
                out.blank();
                out.line("private boolean nextLedBy(" + lead.cursorParameter() + ")");
                out.open();
                nextBody(lead);
                out.close();
            }
        }
        out.blank();
        out.javadoc("Ends the cursor's walk, applying what was deferred during it; a no-op if it ended.");
        out.line(lang.annotation("Override"));
        out.line("public void close()");
        out.open();
        out.line("entity = Entity.NULL;");
        out.line("index = end;");
        for (final ViewComponent component : passed)
        {
            out.line(ref(component) + ".leave();");
        }
        out.line("if (walk != -1)");
        out.open();
        out.line("final int ended = walk;");
        out.line("walk = -1;");
        out.line("walks.endIfOpen(ended);");
        out.close();
        out.close();
        out.blank();
        out.javadoc("The entity the cursor is on, {@link Entity#NULL} before the first and after the last.");
        out.line("public long entity()");
        out.open();
        out.line("return entity;");
        out.close();
        for (final ViewComponent component : passed)
        {
            out.blank();
            out.javadoc("The current entity's {@link " + component.record().getQualifiedName() + "}, the same accessor at every step.");
            out.line("public " + component.refType() + " " + component.name() + "()");
            out.open();
            out.line("return " + ref(component) + ";");
            out.close();
        }
        out.blank();
        out.line("private Cursor reset(" + (since ? "final int since" : "") + ")");
        out.open();
        out.line("close();");
        out.line(openCheck);
        // Begun before the state is set: a refused walk leaves a cursor that is at its end.
        out.line("walk = walks.beginCursorWalk(\"" + className + ".cursor()\", close);");
        if (since)
        {
            out.line("this.since = since;");
        }
        if (leads.size() > 1)
        {
            out.line("lead = leadOrdinal();");
        }
        dispatch((lead, indent) -> out.line(indent + "end = " + lead.extent() + ";"), "lead");
        out.line("index = 0;");
        out.line("return this;");
        out.close();
        out.close();
    }

    /**
     * The cursor's step: resume at the index after the last, find the next entity, or end the walk. The end is written
     * out here rather than called, so that the step's loop state stays in registers.
     */
    private void nextBody(final Lead lead)
    {
        out.line("int i = index;");
        out.line("for (; i < end; i++)");
        out.open();
        lead.step(out);
        out.line("this.index = i + 1;");
        out.line("this.entity = entity;");
        out.line("return true;");
        out.close();
        out.line("close();");
        out.line("return false;");
    }

    /** Writes a statement per lead, in a switch on {@code leadOrdinal()} when there are several. */
    private void dispatch(final java.util.function.BiConsumer<Lead, String> statement)
    {
        dispatch(statement, "leadOrdinal()");
    }

    private void dispatch(final java.util.function.BiConsumer<Lead, String> statement, final String ordinal)
    {
        if (leads.size() == 1)
        {
            statement.accept(leads.get(0), "");
            return;
        }
        out.line("switch (" + ordinal + ")");
        out.open();
        for (int k = 0; k < leads.size(); k++)
        {
            out.line(k < leads.size() - 1 ? "case " + k + ":" : "default:");
            statement.accept(leads.get(k), "    ");
            out.line("    break;");
        }
        out.close();
    }

    static String ref(final ViewComponent component)
    {
        return component.name() + "Ref";
    }

    static String storage(final ViewComponent component)
    {
        return component.name() + "Storage";
    }
}
