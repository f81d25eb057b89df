package dev.cairn.codegen;

import dev.cairn.codegen.ComponentAnalyzer.UnresolvedTypeException;
import dev.cairn.codegen.ComponentModel.Column;
import dev.cairn.codegen.GroupModel.BlockColumn;

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
 * The generated view resolves its storages once, from a {@code World}, and walks without allocating per entity:
 * internally through a generated functional interface {@code Action} that receives positioned storage {@code Ref}s, or
 * externally through a reusable {@code Cursor}. Each walk leads with the smallest included storage, walks it from
 * front to back and probes the others, first at the same packed index (the common case when storages were filled in
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
    private final Set<String> refusedComponents;
    private final ComponentAnalyzer analyzer;

    /**
     * Creates a generator writing through the processor's filer and reporting through its messager.
     *
     * @param processingEnv     the annotation processor's environment.
     * @param refusedComponents the qualified names of the component records whose storage was refused with an error:
     *                          what lists one is not generated either, so that the error is not buried under
     *                          the compiler's complaints about the missing storage.
     */
    ViewGenerator(final ProcessingEnvironment processingEnv, final Set<String> refusedComponents)
    {
        this.processingEnv = processingEnv;
        this.messager = processingEnv.getMessager();
        this.elements = processingEnv.getElementUtils();
        this.refusedComponents = refusedComponents;
        this.analyzer = new ComponentAnalyzer(processingEnv);
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

    /**
     * Validates one element annotated {@code @dev.cairn.Observer} and, if it declares a correct observer, writes its
     * class.
     *
     * @param element an element annotated {@code @dev.cairn.Observer}.
     */
    void generateObserver(final Element element)
    {
        final AnnotationMirror annotation = findAnnotation(element, CairnProcessor.OBSERVER);
        if (annotation == null)
        {
            return;
        }
        if (element.getKind() != ElementKind.INTERFACE)
        {
            error(
                "@Observer goes on an interface, but " + element.getSimpleName() + " is " +
                article(element.getKind()) + "; declare it as 'interface " + element.getSimpleName() + " {}'",
                element, null, null);
            return;
        }
        final TypeElement observer = (TypeElement)element;
        if (observer.getNestingKind() == NestingKind.LOCAL)
        {
            error("@Observer " + observer.getSimpleName() + " is declared inside a method, and the observer class " +
                "generated for it could not name it; move it to a top-level or member declaration", observer, null,
                null);
            return;
        }
        final List<ViewComponent> added = new ArrayList<>();
        final List<ViewComponent> updated = new ArrayList<>();
        final List<ViewComponent> with = new ArrayList<>();
        final List<ViewComponent> without = new ArrayList<>();
        final AnnotationValue addedValue = elementValue(annotation, "added");
        final AnnotationValue updatedValue = elementValue(annotation, "updated");
        boolean valid = collect(observer, annotation, addedValue, "added", added);
        valid &= collect(observer, annotation, updatedValue, "updated", updated);
        valid &= collect(observer, annotation, elementValue(annotation, "with"), "with", with);
        valid &= collect(observer, annotation, elementValue(annotation, "without"), "without", without);
        if (!valid)
        {
            return;
        }
        ViewComponent.nameSharedStoragesInFull(added, updated, with, without);
        if (added.isEmpty() && updated.isEmpty())
        {
            error("@Observer on " + observer.getSimpleName() + " has no trigger: list at least one @Component record " +
                "in 'added' or 'updated'", observer, annotation, null);
            return;
        }
        final ObserverModel model = new ObserverModel(observer, added, updated, with, without);
        final List<ViewComponent> required = model.required();
        if (required.size() > MAX_INCLUDED || without.size() > MAX_EXCLUDED)
        {
            error("@Observer on " + observer.getSimpleName() + " names " + required.size() + " required and " +
                without.size() + " excluded components; a generated observer takes at most " + MAX_INCLUDED +
                " and " + MAX_EXCLUDED + ": use World.observer() for a runtime observer", observer, annotation, null);
            return;
        }
        for (final List<ViewComponent> list : List.of(added, updated, with, without))
        {
            final Set<String> seen = new HashSet<>();
            for (final ViewComponent component : list)
            {
                if (!seen.add(component.record().getQualifiedName().toString()))
                {
                    error(component.record().getQualifiedName() + " is listed twice in one list of @Observer on " +
                        observer.getSimpleName() + "; list it once", observer, annotation, component.value());
                    valid = false;
                }
            }
        }
        final Map<String, ViewComponent> byName = new HashMap<>();
        for (final ViewComponent component : required)
        {
            final ViewComponent clash = byName.putIfAbsent(component.name(), component);
            if (clash != null)
            {
                error(component.record().getQualifiedName() + " and " + clash.record().getQualifiedName() +
                    " would both be called '" + component.name() + "' in the observer generated for " +
                    observer.getSimpleName() + "; give the records different simple names", observer, annotation,
                    component.value());
                valid = false;
            }
            for (final ViewComponent excluded : without)
            {
                if (excluded.record().equals(component.record()))
                {
                    error(component.record().getQualifiedName() + " is both required and in 'without' of @Observer " +
                        "on " + observer.getSimpleName() + ": no entity could ever enter; remove it from one side",
                        observer, annotation, excluded.value());
                    valid = false;
                }
            }
        }
        if (valid)
        {
            final String packageName = GeneratedNames.packageOf(elements, observer);
            final String className = GeneratedNames.observer(observer);
            GeneratedSource.write(processingEnv, observer, "@Observer", GeneratedNames.OBSERVER_SUFFIX,
                GeneratedNames.qualified(elements, observer, className),
                new ObserverSource(model, new JavaLangNames(elements, packageName), packageName, className,
                    GeneratedNames.canMarkGenerated(elements, observer))
                    .render());
        }
    }

    /**
     * Validates one element annotated {@code @dev.cairn.Group} and, if it declares a correct group, writes its class.
     *
     * @param element an element annotated {@code @dev.cairn.Group}.
     * @throws UnresolvedTypeException if a type an owned component uses is not resolved yet; try again in a later
     *                                 round.
     */
    void generateGroup(final Element element) throws UnresolvedTypeException
    {
        final AnnotationMirror annotation = findAnnotation(element, CairnProcessor.GROUP);
        if (annotation == null)
        {
            return;
        }
        if (element.getKind() != ElementKind.INTERFACE)
        {
            error(
                "@Group goes on an interface, but " + element.getSimpleName() + " is " + article(element.getKind()) +
                "; declare it as 'interface " + element.getSimpleName() + " {}'", element, null, null);
            return;
        }
        final TypeElement group = (TypeElement)element;
        if (group.getNestingKind() == NestingKind.LOCAL)
        {
            error("@Group " + group.getSimpleName() + " is declared inside a method, and the group class generated " +
                "for it could not name it; move it to a top-level or member declaration", group, null, null);
            return;
        }
        final List<ViewComponent> owns = new ArrayList<>();
        final List<ViewComponent> with = new ArrayList<>();
        final List<ViewComponent> without = new ArrayList<>();
        boolean valid = collect(group, annotation, elementValue(annotation, "owns"), "owns", owns);
        valid &= collect(group, annotation, elementValue(annotation, "with"), "with", with);
        valid &= collect(group, annotation, elementValue(annotation, "without"), "without", without);
        if (!valid)
        {
            return;
        }
        ViewComponent.nameSharedStoragesInFull(owns, with, without);
        if (owns.isEmpty() && with.isEmpty())
        {
            error("@Group on " + group.getSimpleName() + " requires no component: list at least one @Component " +
                "record in 'owns' or 'with'", group, annotation, null);
            return;
        }
        final int required = owns.size() + with.size();
        if (required > MAX_INCLUDED || without.size() > MAX_EXCLUDED)
        {
            error("@Group on " + group.getSimpleName() + " names " + required + " required and " +
                without.size() + " excluded components; a generated group takes at most " + MAX_INCLUDED + " and " +
                MAX_EXCLUDED + ": use World.group() for a runtime group", group, annotation, null);
            return;
        }
        final Map<String, ViewComponent> byRecord = new HashMap<>();
        final Map<String, ViewComponent> byName = new HashMap<>();
        for (final List<ViewComponent> list : List.of(owns, with, without))
        {
            for (final ViewComponent component : list)
            {
                final String recordName = component.record().getQualifiedName().toString();
                if (byRecord.putIfAbsent(recordName, component) != null)
                {
                    error(recordName + " appears twice in @Group on " + group.getSimpleName() + "; name each " +
                        "component once, in 'owns', 'with' or 'without'", group, annotation, component.value());
                    valid = false;
                }
                else if (list != without)
                {
                    final ViewComponent clash = byName.putIfAbsent(component.name(), component);
                    if (clash != null)
                    {
                        error(recordName + " and " + clash.record().getQualifiedName() + " would both be called '" +
                            component.name() + "' in the group generated for " + group.getSimpleName() + "; give " +
                            "the records different simple names", group, annotation, component.value());
                        valid = false;
                    }
                }
            }
        }
        for (final ViewComponent component : owns)
        {
            final AnnotationMirror componentAnnotation = findAnnotation(component.record(), CairnProcessor.COMPONENT);
            final AnnotationValue policy = elementValue(componentAnnotation, "policy");
            if (policy != null && policy.getValue().toString().equals("IN_PLACE"))
            {
                error(component.record().getQualifiedName() + " in 'owns' of @Group on " + group.getSimpleName() +
                    " uses DeletionPolicy.IN_PLACE, whose tombstones would break the range an owning group keeps at " +
                    "the front of its storages; require it in 'with' instead, or change its policy", group,
                    annotation, component.value());
                valid = false;
            }
        }
        final List<String> hiddenColumns = new ArrayList<>();
        final List<BlockColumn> blockColumns = valid ? blockColumns(group, annotation, owns, hiddenColumns) : null;
        if (blockColumns != null)
        {
            final GroupModel model = new GroupModel(group, owns, with, without, blockColumns, hiddenColumns);
            final String packageName = GeneratedNames.packageOf(elements, group);
            final String className = GeneratedNames.group(group);
            GeneratedSource.write(processingEnv, group, "@Group", GeneratedNames.GROUP_SUFFIX,
                GeneratedNames.qualified(elements, group, className),
                new GroupSource(model, elements, packageName, className,
                    GeneratedNames.canMarkGenerated(elements, group))
                    .render());
        }
    }

    /**
     * The columns of the owned components, named as a block of the group hands them out; null, with an error
     * reported, if two would have the same name, or one the name of a member every block has. A column whose enum
     * type the group's package cannot name is left out and described in {@code hidden}.
     */
    /**
     * Why a generated group of {@code packageName} cannot name an enum type, or null if it can: the enum is not
     * accessible there, or it is in the unnamed package (where it has no name but its simple one) and named like one
     * of the group's nested types, which hide it in the group's code.
     */
    private String unnameableInGroup(final TypeElement enumType, final String packageName)
    {
        final String inaccessible = analyzer.inaccessibility(enumType, packageName);
        if (inaccessible != null || !packageName.isEmpty())
        {
            return inaccessible;
        }
        final String name = GeneratedNames.outermost(enumType).getSimpleName().toString();
        return GroupSource.NESTED_TYPES.contains(name) ?
            "is in the unnamed package, where the group's nested " + name + " hides it" : null;
    }

    private List<BlockColumn> blockColumns(
        final TypeElement group,
        final AnnotationMirror annotation,
        final List<ViewComponent> owns,
        final List<String> hidden)
        throws UnresolvedTypeException
    {
        final String packageName = GeneratedNames.packageOf(elements, group);
        final List<BlockColumn> columns = new ArrayList<>();
        final Map<String, BlockColumn> byName = new HashMap<>();
        for (final ViewComponent component : owns)
        {
            final ComponentModel owned = analyzer.analyze(component.record());
            if (owned == null)
            {
                return null; // its errors are reported on the record
            }
            for (final Column column : owned.columns())
            {
                final String hiddenBecause = column.type().isEnum() ?
                    unnameableInGroup(column.enumType(), packageName) : null;
                if (hiddenBecause != null)
                {
                    hidden.add("{@code " + component.record().getSimpleName() + "." + column.path() + "} (its enum " +
                        column.enumType().getQualifiedName() + " " + hiddenBecause + ")");
                    continue;
                }
                final BlockColumn blockColumn = new BlockColumn(component,
                    column, component.name() + ComponentAnalyzer.capitalise(column.name()));
                for (final String name : List.of(blockColumn.name(), blockColumn.name() + GroupSource.READ_ONLY,
                    blockColumn.name() + GroupSource.FILLED, blockColumn.name() + GroupSource.WRITTEN))
                {
                    final BlockColumn clash = byName.putIfAbsent(name, blockColumn);
                    if (clash != null || GroupSource.BLOCK_MEMBERS.contains(name))
                    {
                        error("the block of the group generated for " + group.getSimpleName() + " would have two " +
                            "members called '" + name + "': one for " + component.record().getSimpleName() + "." +
                            column.path() + " and " + (clash == null ? "one every block has" : "one for " +
                            clash.component().record().getSimpleName() + "." + clash.column().path()) + "; rename " +
                            "the field", group, annotation, component.value());
                        return null;
                    }
                }
                columns.add(blockColumn);
            }
        }
        return columns;
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

        final AnnotationValue withValue = elementValue(annotation, "with");
        final AnnotationValue withoutValue = elementValue(annotation, "without");
        final AnnotationValue addedValue = elementValue(annotation, "added");
        final AnnotationValue changedValue = elementValue(annotation, "changed");

        boolean valid = true;
        final List<ViewComponent> included = new ArrayList<>();
        final List<ViewComponent> excluded = new ArrayList<>();
        final List<ViewComponent> added = new ArrayList<>();
        final List<ViewComponent> changed = new ArrayList<>();
        valid &= collect(view, annotation, withValue, "with", included);
        valid &= collect(view, annotation, withoutValue, "without", excluded);
        valid &= collect(view, annotation, addedValue, "added", added);
        valid &= collect(view, annotation, changedValue, "changed", changed);
        if (!valid)
        {
            return null;
        }
        ViewComponent.nameSharedStoragesInFull(included, excluded, added, changed);

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
        final List<ViewComponent> addedIncluded = trackedIncluded(view, annotation, "added", added, byRecord);
        final List<ViewComponent> changedIncluded = trackedIncluded(view, annotation, "changed", changed, byRecord);
        if (addedIncluded == null || changedIncluded == null)
        {
            return null;
        }
        return valid ? new ViewModel(view, included, excluded, addedIncluded, changedIncluded) : null;
    }

    /**
     * The included components a tick filter names, after checking that each is included, tracked and listed once;
     * null (with the errors reported) if one is not.
     */
    private List<ViewComponent> trackedIncluded(
        final TypeElement view,
        final AnnotationMirror annotation,
        final String listName,
        final List<ViewComponent> listed,
        final Map<String, ViewComponent> includedByRecord)
    {
        final List<ViewComponent> result = new ArrayList<>();
        boolean valid = true;
        for (final ViewComponent component : listed)
        {
            final String recordName = component.record().getQualifiedName().toString();
            final ViewComponent includedComponent = includedByRecord.get(recordName);
            if (includedComponent == null)
            {
                error(recordName + " is in '" + listName + "' of @View on " + view.getSimpleName() + " but not in " +
                    "'with': a view filters by the ticks of components it includes; add it to 'with'",
                    view, annotation, component.value());
                valid = false;
            }
            else if (!isTracked(component.record()))
            {
                error(recordName + " is in '" + listName + "' of @View on " + view.getSimpleName() + " but keeps no " +
                    "change ticks: declare it @Component(tracked = true)", view, annotation, component.value());
                valid = false;
            }
            else if (result.contains(includedComponent))
            {
                error(recordName + " is listed twice in '" + listName + "' of @View on " + view.getSimpleName() +
                    "; list it once", view, annotation, component.value());
                valid = false;
            }
            else
            {
                result.add(includedComponent);
            }
        }
        return valid ? result : null;
    }

    private static boolean isTracked(final TypeElement record)
    {
        final AnnotationMirror component = findAnnotation(record, CairnProcessor.COMPONENT);
        final AnnotationValue tracked = component == null ? null : elementValue(component, "tracked");
        return tracked != null && Boolean.TRUE.equals(tracked.getValue());
    }

    private static String annotationName(final AnnotationMirror annotation)
    {
        return "@" + annotation.getAnnotationType().asElement().getSimpleName();
    }

    private static AnnotationValue elementValue(final AnnotationMirror annotation, final String name)
    {
        for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
            annotation.getElementValues().entrySet())
        {
            if (entry.getKey().getSimpleName().contentEquals(name))
            {
                return entry.getValue();
            }
        }
        return null;
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
                    record.getQualifiedName() + " in '" + listName + "' of " + annotationName(annotation) + " on " +
                    view.getSimpleName() + " is not a record; list @Component records", view, annotation, value);
                valid = false;
                continue;
            }
            if (findAnnotation(record, CairnProcessor.COMPONENT) == null)
            {
                error(
                    record.getQualifiedName() + " in '" + listName + "' of " + annotationName(annotation) + " on " +
                    view.getSimpleName() + " is not a @Component record: annotate it with @dev.cairn.Component so " +
                    "Cairn generates its storage", view, annotation, value);
                valid = false;
                continue;
            }
            if (refusedComponents.contains(record.getQualifiedName().toString()))
            {
                error(
                    view.getSimpleName() + " is not generated: its component " + record.getQualifiedName() + " has " +
                    "errors (reported on it), so it has no storage; fix those first", view, annotation, value);
                valid = false;
                continue;
            }
            into.add(new ViewComponent(
                record, value, accessorName(record.getSimpleName().toString()),
                GeneratedNames.qualified(elements, record, GeneratedNames.storage(record)),
                record.getRecordComponents().isEmpty(), false));
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
            new ViewSource(model, new JavaLangNames(elements, packageName), packageName, viewName, markGenerated)
                .render());
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
