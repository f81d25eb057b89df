package dev.cairn.codegen;

import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One component listed in a {@code @View}: the record, where it was listed (for error positions), and the names the
 * generated view uses for it.
 *
 * @param record      the {@code @Component} record.
 * @param value       the annotation value that named it, so errors point at the right array element.
 * @param name        the accessor and lambda parameter name: the record's simple name decapitalised
 *                    ({@code Position} gives {@code position}, {@code HPBar} gives {@code hpBar}), with
 *                    {@code Component} appended when that would be a Java keyword or clash with a member every view
 *                    has ({@code entity}, {@code next}, the methods of {@code Object}).
 * @param storageName the canonical name of the record's generated storage ({@code p.PositionStorage},
 *                    {@code p.Outer_PositionStorage} for a nested record).
 * @param tag         whether the record has no components: its storage has no columns and no {@code Ref}.
 * @param storageInFull whether generated code writes the storage by its canonical name, not imported: another
 *                    component of the same declaration has a storage of the same simple name
 *                    ({@code p.Outer_Pos} and {@code r.Outer.Pos} both have an {@code Outer_PosStorage}).
 */
record ViewComponent(
    TypeElement record, AnnotationValue value, String name, String storageName, boolean tag, boolean storageInFull)
{
    /**
     * How generated code writes the storage's type: its simple name (in the same package, or imported), or its
     * canonical name where another storage of the declaration has that simple name.
     *
     * @return for example {@code PositionStorage}.
     */
    String storageType()
    {
        return storageInFull ? storageName : simpleStorageName();
    }

    /**
     * Whether generated code in {@code packageName} imports the storage.
     *
     * @param packageName the generated class's package.
     * @return true if the storage is in another named package and written by its simple name.
     */
    boolean storageImported(final String packageName)
    {
        final int dot = storageName.lastIndexOf('.');
        return !storageInFull && dot > 0 && !storageName.substring(0, dot).equals(packageName);
    }

    /**
     * Marks, in each list, the components whose storages share a simple name with the storage of another component
     * in any of the lists, so that the generated class writes those storages in full: an import of one would make
     * the simple name mean that one wherever the other is meant.
     *
     * @param lists every list of components of one declaration; each is changed in place.
     */
    @SafeVarargs
    static void nameSharedStoragesInFull(final List<ViewComponent>... lists)
    {
        final Map<String, String> storageBySimpleName = new HashMap<>();
        final Set<String> shared = new HashSet<>();
        for (final List<ViewComponent> list : lists)
        {
            for (final ViewComponent component : list)
            {
                final String first = storageBySimpleName.putIfAbsent(component.simpleStorageName(),
                    component.storageName());
                if (first != null && !first.equals(component.storageName()))
                {
                    shared.add(component.simpleStorageName());
                }
            }
        }
        for (final List<ViewComponent> list : lists)
        {
            list.replaceAll(component -> shared.contains(component.simpleStorageName()) ? new ViewComponent(
                component.record, component.value, component.name, component.storageName, component.tag, true) :
                component);
        }
    }

    private String simpleStorageName()
    {
        final int dot = storageName.lastIndexOf('.');
        return dot < 0 ? storageName : storageName.substring(dot + 1);
    }

    /**
     * The type of the storage's flyweight.
     *
     * @return for example {@code PositionStorage.Ref}.
     */
    String refType()
    {
        return storageType() + ".Ref";
    }

    /**
     * Javadoc links to components, joined as prose: {@code {@link A}, {@link B} and {@link C}}.
     *
     * @param components  the components.
     * @param conjunction the word before the last one, {@code and} or {@code or}.
     * @return the text.
     */
    static String links(final List<ViewComponent> components, final String conjunction)
    {
        final StringBuilder text = new StringBuilder();
        for (int k = 0; k < components.size(); k++)
        {
            if (k > 0)
            {
                text.append(k == components.size() - 1 ? " " + conjunction + " " : ", ");
            }
            text.append("{@link ").append(components.get(k).record().getQualifiedName()).append('}');
        }
        return text.toString();
    }
}
