package dev.cairn.codegen;

import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import java.util.ArrayList;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Generates a view class for each interface annotated {@code @dev.cairn.View}: {@code @View(with = {Position.class,
 * Velocity.class}) interface Movers {}} gives {@code MoversView} in the same package (a nested {@code Outer.Movers}
 * gives {@code Outer_MoversView}).
 * <p>
 * The generated view resolves its storages once, from a {@code World}, and iterates without allocating: internally
 * through a generated functional interface {@code Action} that receives positioned storage {@code Ref}s, or
 * externally through a reusable {@code Cursor}. Each iteration leads with the smallest included storage, walks it from
 * back to front and probes the others, first at the same packed index (the common case when storages were filled in
 * step or sorted alike) and then through their sparse arrays.
 * <p>
 * A view lists 1 to {@value #MAX_INCLUDED} included and 0 to {@value #MAX_EXCLUDED} excluded components; anything the
 * generator cannot turn into a correct view is reported as a compile error on the offending element or array entry.
 */
final class ViewGenerator
{
    /** The most components a generated view can include; a bigger set is better served by a RuntimeView. */
    static final int MAX_INCLUDED = 8;

    /** The most components a generated view can exclude. */
    static final int MAX_EXCLUDED = 8;


    /** The names a component accessor must not take: those of {@link ViewSource#CURSOR_NAMES} and Object's. */
    private static final Set<String> RESERVED = reserved();

    private final ProcessingEnvironment processingEnv;
    private final Messager messager;
    private final Elements elements;

    /**
     * Creates a generator writing through the processor's filer and reporting through its messager.
     *
     * @param processingEnv the annotation processor's environment.
     */
    ViewGenerator(final ProcessingEnvironment processingEnv)
    {
        this.processingEnv = processingEnv;
        this.messager = processingEnv.getMessager();
        this.elements = processingEnv.getElementUtils();
    }

    /**
     * Validates one annotated element and, if it declares a correct view, writes its class.
     *
     * @param element an element annotated {@code @dev.cairn.View}.
     */
    void generate(final Element element)
    {
        final ViewModel model = validate(element);
        if (model != null)
        {
            write(model);
        }
    }

    private ViewModel validate(final Element element)
    {
        final AnnotationMirror annotation = findAnnotation(element, CairnProcessor.VIEW);
        if (annotation == null)
        {
            return null;
        }
        if (element.getKind() != ElementKind.INTERFACE)
        {
            error(
                "@View goes on an interface, but " + element.getSimpleName() + " is " + article(element.getKind()) +
                "; declare it as 'interface " + element.getSimpleName() + " {}'", element, null, null);
            return null;
        }
        final TypeElement view = (TypeElement)element;
        if (view.getNestingKind() == NestingKind.LOCAL)
        {
            error(LocalDeclarations.localView(view.getSimpleName()), view, null, null);
            return null;
        }

        AnnotationValue withValue = null;
        AnnotationValue withoutValue = null;
        for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
            annotation.getElementValues().entrySet())
        {
            final String name = entry.getKey().getSimpleName().toString();
            if ("with".equals(name))
            {
                withValue = entry.getValue();
            }
            else if ("without".equals(name))
            {
                withoutValue = entry.getValue();
            }
        }

        boolean valid = true;
        final List<ViewComponent> included = new ArrayList<>();
        final List<ViewComponent> excluded = new ArrayList<>();
        valid &= collect(view, annotation, withValue, "with", included);
        valid &= collect(view, annotation, withoutValue, "without", excluded);
        if (!valid)
        {
            return null;
        }

        if (included.isEmpty())
        {
            error(
                "@View on " + view.getSimpleName() + " includes no component: list at least one @Component record " +
                "in 'with'", view, annotation, withValue);
            return null;
        }
        if (included.size() > MAX_INCLUDED)
        {
            error(
                "@View on " + view.getSimpleName() + " includes " + included.size() + " components; a generated " +
                "view includes at most " + MAX_INCLUDED + ": split it, or use World.view(...) for a runtime view",
                view, annotation, withValue);
            return null;
        }
        if (excluded.size() > MAX_EXCLUDED)
        {
            error(
                "@View on " + view.getSimpleName() + " excludes " + excluded.size() + " components; a generated " +
                "view excludes at most " + MAX_EXCLUDED + ": use World.view(...).without(...) for a runtime view",
                view, annotation, withoutValue);
            return null;
        }

        final Map<String, ViewComponent> byRecord = new HashMap<>();
        final Map<String, ViewComponent> byName = new HashMap<>();
        for (final ViewComponent component : included)
        {
            final String recordName = component.record().getQualifiedName().toString();
            if (byRecord.putIfAbsent(recordName, component) != null)
            {
                error(
                    recordName + " is listed twice in 'with' of @View on " + view.getSimpleName() + "; list it once",
                    view, annotation, component.value());
                valid = false;
                continue;
            }
            final ViewComponent clash = byName.putIfAbsent(component.name(), component);
            if (clash != null)
            {
                error(
                    recordName + " and " + clash.record().getQualifiedName() + " would both be called '" +
                    component.name() + "' in the view generated for " + view.getSimpleName() + "; give the records " +
                    "different simple names", view, annotation, component.value());
                valid = false;
            }
        }
        final Map<String, ViewComponent> excludedByRecord = new HashMap<>();
        for (final ViewComponent component : excluded)
        {
            final String recordName = component.record().getQualifiedName().toString();
            if (byRecord.containsKey(recordName))
            {
                error(
                    recordName + " is both in 'with' and in 'without' of @View on " + view.getSimpleName() +
                    ": no entity can match; remove it from one of them", view, annotation, component.value());
                valid = false;
            }
            else if (excludedByRecord.putIfAbsent(recordName, component) != null)
            {
                error(
                    recordName + " is listed twice in 'without' of @View on " + view.getSimpleName() +
                    "; list it once", view, annotation, component.value());
                valid = false;
            }
        }
        return valid ? new ViewModel(view, included, excluded) : null;
    }

    private boolean collect(
        final TypeElement view,
        final AnnotationMirror annotation,
        final AnnotationValue listValue,
        final String listName,
        final List<ViewComponent> into)
    {
        if (listValue == null)
        {
            return true;
        }
        final Object raw = listValue.getValue();
        if (!(raw instanceof List))
        {
            return false;
        }
        boolean valid = true;
        for (final Object item : (List<?>)raw)
        {
            if (!(item instanceof AnnotationValue))
            {
                return false;
            }
            final AnnotationValue value = (AnnotationValue)item;
            final Object type = value.getValue();
            if (!(type instanceof DeclaredType) || ((TypeMirror)type).getKind() == TypeKind.ERROR)
            {
                // javac has already reported the unresolvable class.
                valid = false;
                continue;
            }
            final TypeElement record = (TypeElement)((DeclaredType)type).asElement();
            if (record.getKind() != ElementKind.RECORD)
            {
                error(
                    record.getQualifiedName() + " in '" + listName + "' of @View on " + view.getSimpleName() +
                    " is not a record; a view lists @Component records", view, annotation, value);
                valid = false;
                continue;
            }
            if (findAnnotation(record, CairnProcessor.COMPONENT) == null)
            {
                error(
                    record.getQualifiedName() + " in '" + listName + "' of @View on " + view.getSimpleName() +
                    " is not a @Component record: annotate it with @dev.cairn.Component so Cairn generates its " +
                    "storage", view, annotation, value);
                valid = false;
                continue;
            }
            into.add(new ViewComponent(
                record, value, accessorName(record.getSimpleName().toString()),
                GeneratedNames.qualified(elements, record, GeneratedNames.storage(record)),
                record.getRecordComponents().isEmpty()));
        }
        return valid;
    }

    private void write(final ViewModel model)
    {
        final TypeElement view = model.view();
        final String packageName = GeneratedNames.packageOf(elements, view);
        final String viewName = GeneratedNames.view(view);
        final boolean markGenerated = GeneratedNames.canMarkGenerated(elements, view);
        GeneratedSource.write(processingEnv, view, "@View", GeneratedNames.VIEW_SUFFIX,
            GeneratedNames.qualified(elements, view, viewName),
            new ViewSource(model, packageName, viewName, markGenerated).render());
    }

    /**
     * The name a component gets in a view: the simple name with its leading capital (or leading run of capitals, for
     * an acronym) in lower case; {@code Component} is appended to a Java keyword or a reserved member name.
     *
     * @param simpleName a record's simple name.
     * @return the accessor name.
     */
    static String accessorName(final String simpleName)
    {
        int upper = 0;
        while (upper < simpleName.length() && Character.isUpperCase(simpleName.charAt(upper)))
        {
            upper++;
        }
        final String name;
        if (upper == 0)
        {
            name = simpleName;
        }
        else if (upper == 1 || upper == simpleName.length())
        {
            name = simpleName.substring(0, upper).toLowerCase(java.util.Locale.ROOT) + simpleName.substring(upper);
        }
        else
        {
            // "HPBar": lower "HP" but keep the capital that starts the next word.
            name = simpleName.substring(0, upper - 1).toLowerCase(java.util.Locale.ROOT) +
                simpleName.substring(upper - 1);
        }
        return SourceVersion.isKeyword(name) || RESERVED.contains(name) ? name + "Component" : name;
    }

    private static Set<String> reserved()
    {
        final Set<String> reserved = new HashSet<>(ViewSource.CURSOR_NAMES);
        for (final Method method : Object.class.getDeclaredMethods())
        {
            if (!java.lang.reflect.Modifier.isPrivate(method.getModifiers()))
            {
                reserved.add(method.getName());
            }
        }
        return Set.copyOf(reserved);
    }

    private static AnnotationMirror findAnnotation(final Element element, final String annotationName)
    {
        for (final AnnotationMirror mirror : element.getAnnotationMirrors())
        {
            final Element type = mirror.getAnnotationType().asElement();
            if (type instanceof TypeElement && ((TypeElement)type).getQualifiedName().contentEquals(annotationName))
            {
                return mirror;
            }
        }
        return null;
    }

    private static String article(final ElementKind kind)
    {
        switch (kind)
        {
            case CLASS:
                return "a class";
            case ENUM:
                return "an enum";
            case RECORD:
                return "a record";
            case ANNOTATION_TYPE:
                return "an annotation type";
            default:
                return "a " + kind.toString().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private void error(
        final String message, final Element element, final AnnotationMirror annotation, final AnnotationValue value)
    {
        if (value != null)
        {
            messager.printMessage(Diagnostic.Kind.ERROR, message, element, annotation, value);
        }
        else if (annotation != null)
        {
            messager.printMessage(Diagnostic.Kind.ERROR, message, element, annotation);
        }
        else
        {
            messager.printMessage(Diagnostic.Kind.ERROR, message, element);
        }
    }
}
