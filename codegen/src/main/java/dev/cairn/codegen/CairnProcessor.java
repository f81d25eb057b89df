package dev.cairn.codegen;

import dev.cairn.codegen.ComponentAnalyzer.UnresolvedTypeException;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Cairn's annotation processor: each {@code @dev.cairn.Component} record gets a generated off-heap storage, each
 * {@code @dev.cairn.View} interface a generated view, each {@code @dev.cairn.Observer} interface a generated observer,
 * each {@code @dev.cairn.Group} interface a generated group.
 * Isolating: every generated file originates from exactly one annotated element.
 */
public final class CairnProcessor extends AbstractProcessor
{
    static final String COMPONENT = "dev.cairn.Component";
    static final String VIEW = "dev.cairn.View";
    static final String OBSERVER = "dev.cairn.Observer";
    static final String GROUP = "dev.cairn.Group";
    /** Read where a component's fields are analysed; claimed so that -Xlint:processing does not warn about it. */
    static final String ENTITY_REF = "dev.cairn.EntityRef";

    /** Records whose component types were not resolved yet (another processor may generate them), by name. */
    private final Map<String, String> deferredComponents = new LinkedHashMap<>();
    /** Groups whose owned components use a type not resolved yet, by name, with that type. */
    private final Map<String, String> deferredGroups = new LinkedHashMap<>();
    /** Components whose storage was refused with an error: views, observers and groups that list one are not made. */
    private final Set<String> refusedComponents = new HashSet<>();
    private StorageGenerator storages;

    @Override
    public synchronized void init(final ProcessingEnvironment processingEnv)
    {
        super.init(processingEnv);
        storages = new StorageGenerator(processingEnv);
        LocalDeclarations.watch(processingEnv);
    }

    @Override
    public Set<String> getSupportedAnnotationTypes()
    {
        // The processor claims @Generated, which marks the classes it writes, so that javac's -Xlint:processing does
        // not warn in the next round that no processor claimed it.
        return Set.of(COMPONENT, VIEW, OBSERVER, GROUP, ENTITY_REF, GeneratedNames.GENERATED);
    }

    @Override
    public SourceVersion getSupportedSourceVersion()
    {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
    {
        processComponents(annotations, round);
        processViews(annotations, round);
        processDeferredGroups(round);
        processObservers(annotations, round);
        return true;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // @Component: storages (StorageGenerator)
    // ---------------------------------------------------------------------------------------------------------------

    private void processComponents(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
    {
        if (round.processingOver())
        {
            // Nothing new was generated in the last round, so a type still unresolved is missing for good.
            for (final Map.Entry<String, String> entry : deferredComponents.entrySet())
            {
                final TypeElement element = processingEnv.getElementUtils().getTypeElement(entry.getKey());
                processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "cannot generate the storage of " +
                    entry.getKey() + ": type " + entry.getValue() + " could not be resolved",
                    element == null ? null : ComponentAnalyzer.position(element));
            }
            deferredComponents.clear();
            return;
        }
        final Map<String, String> retry = new LinkedHashMap<>(deferredComponents);
        deferredComponents.clear();
        for (final String name : retry.keySet())
        {
            final TypeElement element = processingEnv.getElementUtils().getTypeElement(name);
            if (element != null)
            {
                generateStorage(element);
            }
        }
        for (final TypeElement annotation : annotations)
        {
            if (annotation.getQualifiedName().contentEquals(COMPONENT))
            {
                for (final Element element : round.getElementsAnnotatedWith(annotation))
                {
                    generateStorage((TypeElement)element);
                }
            }
        }
    }

    private void generateStorage(final TypeElement element)
    {
        try
        {
            if (!storages.generate(element))
            {
                refusedComponents.add(element.getQualifiedName().toString());
            }
        }
        catch (final UnresolvedTypeException ex)
        {
            deferredComponents.put(element.getQualifiedName().toString(), ex.getMessage());
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // @View: views (ViewGenerator)
    // ---------------------------------------------------------------------------------------------------------------

    private void processViews(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
    {
        for (final TypeElement annotation : annotations)
        {
            if (annotation.getQualifiedName().contentEquals(VIEW))
            {
                for (final Element element : round.getElementsAnnotatedWith(annotation))
                {
                    new ViewGenerator(processingEnv, refusedComponents).generate(element);
                }
            }
        }
    }

    /** Observers and groups: both are written by the view generator, which knows how to check a rule. */
    private void processObservers(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
    {
        for (final TypeElement annotation : annotations)
        {
            if (annotation.getQualifiedName().contentEquals(OBSERVER))
            {
                for (final Element element : round.getElementsAnnotatedWith(annotation))
                {
                    new ViewGenerator(processingEnv, refusedComponents).generateObserver(element);
                }
            }
            else if (annotation.getQualifiedName().contentEquals(GROUP))
            {
                for (final Element element : round.getElementsAnnotatedWith(annotation))
                {
                    generateGroup((TypeElement)element);
                }
            }
        }
    }

    private void processDeferredGroups(final RoundEnvironment round)
    {
        final Map<String, String> retry = new LinkedHashMap<>(deferredGroups);
        deferredGroups.clear();
        for (final Map.Entry<String, String> entry : retry.entrySet())
        {
            final TypeElement element = processingEnv.getElementUtils().getTypeElement(entry.getKey());
            if (element == null)
            {
                continue;
            }
            if (round.processingOver())
            {
                processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "cannot generate the group of " +
                    entry.getKey() + ": type " + entry.getValue() + ", used by a component it owns, could not be " +
                    "resolved", element);
            }
            else
            {
                generateGroup(element);
            }
        }
    }

    private void generateGroup(final TypeElement element)
    {
        try
        {
            new ViewGenerator(processingEnv, refusedComponents).generateGroup(element);
        }
        catch (final UnresolvedTypeException ex)
        {
            deferredGroups.put(element.getQualifiedName().toString(), ex.getMessage());
        }
    }
}
