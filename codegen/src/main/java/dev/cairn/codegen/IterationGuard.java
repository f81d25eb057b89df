package dev.cairn.codegen;

import java.util.List;

/**
 * The guard generated views, groups and observers put around {@code forEach}: their {@code Ref}s serve one loop at a
 * time, so a {@code forEach} from inside its own action, or from a second thread while one runs, throws instead of
 * moving the Refs under the running loop. The second-thread check is best effort (a plain field, no lock): it catches
 * the mistake, it does not make sharing safe.
 */
final class IterationGuard
{
    /** The field holding the thread that iterates, null when none does. */
    static final String FIELD = "iteratedBy";

    private IterationGuard()
    {
    }

    /** Declares the field; {@code lang} names {@code Thread}. */
    static void field(final JavaWriter out, final JavaLangNames lang)
    {
        out.line("private " + lang.of("Thread") + " " + FIELD + ";");
    }

    /**
     * Checks that no loop of this object runs, then records the current thread. The field is read once: another
     * thread may clear it at any moment.
     *
     * @param out       where the statements go.
     * @param lang      how the unit names {@code java.lang} types.
     * @param className the generated class, for the messages.
     * @param inner     what to iterate in an inner loop instead, for example {@code "a second MovementGroup"}.
     */
    static void enter(final JavaWriter out, final JavaLangNames lang, final String className, final String inner)
    {
        enter(out, lang, className, inner, null);
    }

    /**
     * {@link #enter(JavaWriter, JavaLangNames, String, String)} after the walk was announced: {@code undo} (for example
     * {@code "group.endIteration();"}) ends that announcement before the guard throws. Announcing first means a walk
     * that cannot start (its world is closed) throws before the field is set, not with the field left set.
     *
     * @param out       where the statements go.
     * @param lang      how the unit names {@code java.lang} types.
     * @param className the generated class, for the messages.
     * @param inner     what to iterate in an inner loop instead.
     * @param undo      the statement that ends the announcement, or null if there is none.
     */
    static void enter(
        final JavaWriter out, final JavaLangNames lang, final String className, final String inner, final String undo)
    {
        final String thread = lang.of("Thread");
        out.line("final " + thread + " thread = " + thread + ".currentThread();");
        out.line("final " + thread + " iterating = " + FIELD + ";");
        out.line("if (iterating != null)");
        out.open();
        if (undo != null)
        {
            out.line(undo);
        }
        out.line("throw new " + lang.of("IllegalStateException") + "(iterating == thread ?");
        out.line("    \"" + className + ".forEach was called from inside its own action, \" +");
        out.line("    \"which would move the Refs of the outer loop: \" +");
        out.line("    \"iterate " + inner + " in the inner loop\" :");
        out.line("    \"" + className + ".forEach was called on \" + thread.getName() + \" while \" +");
        out.line("    iterating.getName() + \" iterates it: its Refs serve one thread at a time; \" +");
        out.line("    \"give each thread its own " + className + ", or use parallelForEach\");");
        out.close();
        out.line(FIELD + " = thread;");
    }

    /**
     * Forgets the thread and moves the loop's Refs to no entity, so that a Ref kept after the loop throws on use; goes
     * in the {@code finally} block.
     *
     * @param out  where the statements go.
     * @param refs the fields holding the Refs the loop positioned.
     */
    static void exit(final JavaWriter out, final List<String> refs)
    {
        out.line(FIELD + " = null;");
        for (final String ref : refs)
        {
            out.line(ref + ".moveTo(-1);");
        }
    }
}
