package dev.cairn.codegen;

import javax.annotation.processing.FilerException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import java.io.IOException;
import java.io.Writer;

/**
 * Writes a generated compilation unit through the filer, reporting a failure as a compile error on the type it was
 * generated from, never as an exception out of the processor.
 */
final class GeneratedSource
{
    private GeneratedSource()
    {
    }

    /**
     * Writes one generated class.
     *
     * @param env           the processing environment.
     * @param origin        the annotated type the class is generated from: its originating element, and where a
     *                      failure is reported.
     * @param what          how the error names the origin, for example {@code @Component record}.
     * @param suffix        what the generated class's name adds to the origin's, for example {@code Storage}.
     * @param qualifiedName the generated class's canonical name.
     * @param source        its text.
     */
    static void write(
        final ProcessingEnvironment env,
        final TypeElement origin,
        final String what,
        final String suffix,
        final String qualifiedName,
        final String source)
    {
        try
        {
            try (Writer writer = env.getFiler().createSourceFile(qualifiedName, origin).openWriter())
            {
                writer.write(source);
            }
        }
        catch (final FilerException ex)
        {
            env.getMessager().printMessage(Diagnostic.Kind.ERROR, what + " " + origin.getQualifiedName() +
                " would generate " + qualifiedName + ", " + whyTaken(env, origin, suffix, qualifiedName) +
                ": rename one of them", ComponentAnalyzer.position(origin));
        }
        catch (final IOException ex)
        {
            env.getMessager().printMessage(
                Diagnostic.Kind.ERROR, "cannot write " + qualifiedName + ": " + ex.getMessage(),
                ComponentAnalyzer.position(origin));
        }
    }

    /** Why the filer refused {@code qualifiedName}: a class of that name exists, or another origin generates it. */
    private static String whyTaken(
        final ProcessingEnvironment env, final TypeElement origin, final String suffix, final String qualifiedName)
    {
        if (env.getElementUtils().getTypeElement(qualifiedName) != null)
        {
            return "but a class of that name is declared already (in the sources or on the class path)";
        }
        final String generated = qualifiedName.substring(qualifiedName.lastIndexOf('.') + 1);
        final String joined = generated.substring(0, generated.length() - suffix.length());
        final String nested = origin.getEnclosingElement() instanceof TypeElement ?
            origin.getQualifiedName().toString().substring(origin.getQualifiedName().length() -
                joined.length()) : joined.replace('_', '.');
        return "which another declaration of this compilation already generates (a nested type's class is named " +
            "after its enclosing types joined by '_', so " + nested + " and a top-level " + joined + " both give " +
            generated + ")";
    }
}
