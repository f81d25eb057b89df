package dev.cairn.codegen;

import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import java.util.List;

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
 */
record ViewComponent(TypeElement record, AnnotationValue value, String name, String storageName, boolean tag)
{
    /**
     * The storage's simple name, as generated code in the same or an importing package writes it.
     *
     * @return for example {@code PositionStorage}.
     */
    String storageType()
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
