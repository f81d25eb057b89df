package dev.cairn.codegen;

import javax.lang.model.element.Element;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import java.util.HashSet;
import java.util.Set;

/**
 * The names of generated classes, in one place. A generated class is a top-level class in the package of the type
 * it is generated from, named after that type's simple name and those of its enclosing types joined by {@code _}:
 * {@code p.Position} gives {@code p.PositionStorage}, {@code p.Outer.Position} gives {@code p.Outer_PositionStorage},
 * {@code p.Systems.Movers} gives {@code p.Systems_MoversView}. Core finds a record's storage by the same rule
 * ({@code ComponentType.storageClassName}), which a test holds to this one.
 */
final class GeneratedNames
{
    /** The suffix of a component record's storage class. */
    static final String STORAGE_SUFFIX = "Storage";

    /** The suffix of a view interface's view class. */
    static final String VIEW_SUFFIX = "View";

    /** What a generated observer's name adds to its interface's. */
    static final String OBSERVER_SUFFIX = "Observer";

    /** What a generated group's name adds to its interface's. */
    static final String GROUP_SUFFIX = "Group";

    /** The simple name of the flyweight class nested in every storage that has columns. */
    static final String REF = "Ref";

    /** What {@code @Generated} names as the generator of every generated class. */
    static final String GENERATOR = "dev.cairn.codegen.CairnProcessor";

    /** The annotation that marks generated classes; it is in module {@code java.compiler}. */
    static final String GENERATED = "javax.annotation.processing.Generated";

    private GeneratedNames()
    {
    }

    /**
     * The simple name of a record's storage: {@code Outer_PositionStorage} for {@code p.Outer.Position}.
     *
     * @param record a component record.
     * @return the storage's simple name.
     */
    static String storage(final TypeElement record)
    {
        return flatName(record) + STORAGE_SUFFIX;
    }

    /**
     * The simple name of a view interface's view: {@code Systems_MoversView} for {@code p.Systems.Movers}.
     *
     * @param view a view interface.
     * @return the view's simple name.
     */
    static String view(final TypeElement view)
    {
        return flatName(view) + VIEW_SUFFIX;
    }

    /**
     * The simple name of the observer generated for an interface: {@code Moved} gives {@code MovedObserver}.
     *
     * @param observer an interface annotated {@code @Observer}.
     * @return the observer class's simple name.
     */
    static String observer(final TypeElement observer)
    {
        return flatName(observer) + OBSERVER_SUFFIX;
    }

    /**
     * The simple name of the group generated for an interface: {@code Movement} gives {@code MovementGroup}.
     *
     * @param group an interface annotated {@code @Group}.
     * @return the group class's simple name.
     */
    static String group(final TypeElement group)
    {
        return flatName(group) + GROUP_SUFFIX;
    }

    /**
     * A generated class's canonical name: {@code simpleName} in the package of {@code origin}.
     *
     * @param elements   element utilities.
     * @param origin     the type the class is generated from.
     * @param simpleName the generated class's simple name.
     * @return for example {@code p.Outer_PositionStorage}, or just the simple name in the unnamed package.
     */
    static String qualified(final Elements elements, final TypeElement origin, final String simpleName)
    {
        final String packageName = packageOf(elements, origin);
        return packageName.isEmpty() ? simpleName : packageName + "." + simpleName;
    }

    /**
     * The package a generated class goes in: the package of the type it is generated from.
     *
     * @param elements element utilities.
     * @param origin   the type the class is generated from.
     * @return the package's name, empty for the unnamed package.
     */
    static String packageOf(final Elements elements, final TypeElement origin)
    {
        return elements.getPackageOf(origin).getQualifiedName().toString();
    }

    /**
     * Whether a class generated from {@code origin} can carry {@link #GENERATED}: a named module that does not read
     * {@code java.compiler} cannot name it.
     *
     * @param elements element utilities.
     * @param origin   the type the class is generated from.
     * @return true if the generated class should be annotated.
     */
    static boolean canMarkGenerated(final Elements elements, final TypeElement origin)
    {
        if (elements.getTypeElement(GENERATED) == null)
        {
            return false;
        }
        final ModuleElement module = elements.getModuleOf(origin);
        return module == null || module.isUnnamed() || reads(module, "java.compiler");
    }

    /**
     * The annotation that marks a generated class.
     *
     * @param annotationName how the class refers to {@link #GENERATED}: its simple name if imported.
     * @return for example {@code @Generated("dev.cairn.codegen.CairnProcessor")}.
     */
    static String generatedAnnotation(final String annotationName)
    {
        return "@" + annotationName + "(\"" + GENERATOR + "\")";
    }

    /** {@code Position} for a top-level type, {@code Outer_Position} for one nested in {@code Outer}. */
    /**
     * The top-level type a type is declared in: the type itself if it is top-level. Only this name can hide, or be
     * hidden by, another type of the package.
     *
     * @param type a type.
     * @return its outermost enclosing type.
     */
    static TypeElement outermost(final TypeElement type)
    {
        TypeElement outermost = type;
        while (outermost.getEnclosingElement() instanceof TypeElement)
        {
            outermost = (TypeElement)outermost.getEnclosingElement();
        }
        return outermost;
    }

    private static String flatName(final TypeElement type)
    {
        final StringBuilder name = new StringBuilder(type.getSimpleName());
        for (Element outer = type.getEnclosingElement(); outer instanceof TypeElement;
            outer = outer.getEnclosingElement())
        {
            name.insert(0, outer.getSimpleName() + "_");
        }
        return name.toString();
    }

    /** Whether {@code module} reads {@code target}: requires it, or requires a module that implies it. */
    private static boolean reads(final ModuleElement module, final String target)
    {
        for (final ModuleElement.RequiresDirective requires : ElementFilter.requiresIn(module.getDirectives()))
        {
            final ModuleElement dependency = requires.getDependency();
            if (dependency.getQualifiedName().contentEquals(target) || implies(dependency, target, new HashSet<>()))
            {
                return true;
            }
        }
        return false;
    }

    /** Whether reading {@code module} means reading {@code target}, through {@code requires transitive}. */
    private static boolean implies(final ModuleElement module, final String target, final Set<ModuleElement> seen)
    {
        if (!seen.add(module))
        {
            return false;
        }
        for (final ModuleElement.RequiresDirective requires : ElementFilter.requiresIn(module.getDirectives()))
        {
            final ModuleElement dependency = requires.getDependency();
            if (requires.isTransitive() &&
                (dependency.getQualifiedName().contentEquals(target) || implies(dependency, target, seen)))
            {
                return true;
            }
        }
        return false;
    }
}
