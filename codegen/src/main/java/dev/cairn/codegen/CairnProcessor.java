package dev.cairn.codegen;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import java.util.Set;

/**
 * Cairn's annotation processor: each {@code @dev.cairn.Component} record gets a generated off-heap storage, each
 * {@code @dev.cairn.View} interface a generated view. Isolating: every generated file originates from exactly one
 * annotated element.
 */
public final class CairnProcessor extends AbstractProcessor
{
    static final String COMPONENT = "dev.cairn.Component";
    static final String VIEW = "dev.cairn.View";

    @Override
    public Set<String> getSupportedAnnotationTypes()
    {
        return Set.of(COMPONENT, VIEW);
    }

    @Override
    public SourceVersion getSupportedSourceVersion()
    {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round)
    {
        // Storage generation: StorageGenerator. View generation: ViewGenerator.
        new ViewGenerator(processingEnv).generate(round);
        return false;
    }
}
