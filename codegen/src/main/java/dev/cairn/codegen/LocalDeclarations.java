package dev.cairn.codegen;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Reports {@code @Component} records and {@code @View}, {@code @Observer} and {@code @Group} interfaces declared
 * inside a method. Annotation processors are
 * not shown local classes, so the processor cannot see them; without this a local component would only fail at run
 * time, with a message about its missing storage. Under javac the processor listens to the compilation and reports
 * them, on the declaration, once it is analysed; under other compilers this does nothing.
 */
final class LocalDeclarations implements TaskListener
{
    private final Trees trees;

    private LocalDeclarations(final Trees trees)
    {
        this.trees = trees;
    }

    /**
     * Starts listening to the javac compilation behind {@code env}, if there is one.
     *
     * @param env the processing environment.
     */
    static void watch(final ProcessingEnvironment env)
    {
        final JavacTask task;
        final Trees trees;
        try
        {
            task = JavacTask.instance(env);
            trees = Trees.instance(env);
        }
        catch (final RuntimeException | LinkageError notJavac)
        {
            return;
        }
        task.addTaskListener(new LocalDeclarations(trees));
    }

    /**
     * The error for a local {@code @Component} record.
     *
     * @param name the record's name.
     * @return the message.
     */
    static String localComponent(final CharSequence name)
    {
        return "@Component record " + name + " is declared inside a method: a local record cannot be a component " +
            "because the generated storage cannot name it; move the record to a top-level or member declaration";
    }

    /**
     * The error for a local {@code @View} interface.
     *
     * @param name the interface's name.
     * @return the message.
     */
    static String localView(final CharSequence name)
    {
        return localInterface("@View", name, "view");
    }

    /**
     * The error for a local interface annotated {@code @Observer} ({@code what} "observer") or {@code @Group}
     * ({@code what} "group"), and for {@code @View} ({@code what} "view").
     *
     * @param annotation the annotation, with its {@code @}.
     * @param name       the interface's name.
     * @param what       what the processor generates from it.
     * @return the message.
     */
    static String localInterface(final String annotation, final CharSequence name, final String what)
    {
        final String article = "aeiou".indexOf(what.charAt(0)) >= 0 ? "an " : "a ";
        return annotation + " interface " + name + " is declared inside a method: a local interface cannot be " +
            article + what + " because the generated " + what + " cannot name it; move the interface to a top-level or member " +
            "declaration";
    }

    @Override
    public void started(final TaskEvent event)
    {
    }

    @Override
    public void finished(final TaskEvent event)
    {
        if (event.getKind() != TaskEvent.Kind.ANALYZE || event.getTypeElement() == null)
        {
            return;
        }
        final TreePath path = trees.getPath(event.getTypeElement());
        if (path == null)
        {
            return;
        }
        final CompilationUnitTree unit = path.getCompilationUnit();
        new TreePathScanner<Void, Void>()
        {
            @Override
            public Void visitClass(final ClassTree tree, final Void unused)
            {
                final Element element = trees.getElement(getCurrentPath());
                if (element instanceof TypeElement && ((TypeElement)element).getNestingKind() == NestingKind.LOCAL)
                {
                    final CharSequence name = element.getSimpleName();
                    if (annotated(element, CairnProcessor.COMPONENT))
                    {
                        trees.printMessage(Diagnostic.Kind.ERROR, localComponent(name), tree, unit);
                    }
                    if (annotated(element, CairnProcessor.VIEW))
                    {
                        trees.printMessage(Diagnostic.Kind.ERROR, localView(name), tree, unit);
                    }
                    if (annotated(element, CairnProcessor.OBSERVER))
                    {
                        trees.printMessage(Diagnostic.Kind.ERROR, localInterface("@Observer", name, "observer"), tree,
                            unit);
                    }
                    if (annotated(element, CairnProcessor.GROUP))
                    {
                        trees.printMessage(Diagnostic.Kind.ERROR, localInterface("@Group", name, "group"), tree, unit);
                    }
                }
                return super.visitClass(tree, unused);
            }
        }.scan(path, null);
    }

    private static boolean annotated(final Element element, final String annotation)
    {
        for (final AnnotationMirror mirror : element.getAnnotationMirrors())
        {
            if (((TypeElement)mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(annotation))
            {
                return true;
            }
        }
        return false;
    }
}
