package dev.cairn.codegen;

import dev.cairn.codegen.ComponentModel.Column;

import javax.lang.model.element.TypeElement;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated {@code @Group}: the annotated interface, its rule, and the owned columns its block walk hands out.
 *
 * @param group        the annotated interface.
 * @param owns         the components the group owns; none for a non-owning group.
 * @param with         the components it requires without owning.
 * @param without      the components an entity must not have.
 * @param blockColumns every column of the owned components that the group's package can name, in declaration order.
 * @param hiddenColumns the others, described for the block's Javadoc: columns of an enum type the group's package
 *                      cannot see.
 */
record GroupModel(
    TypeElement group,
    List<ViewComponent> owns,
    List<ViewComponent> with,
    List<ViewComponent> without,
    List<BlockColumn> blockColumns,
    List<String> hiddenColumns)
{
    /**
     * The components an entity of the group has: the owned ones, then {@code with}.
     *
     * @return the required components in declaration order.
     */
    List<ViewComponent> required()
    {
        final List<ViewComponent> required = new ArrayList<>(owns);
        required.addAll(with);
        return required;
    }

    /**
     * One column of an owned component, as a block of the group holds it in a heap array.
     *
     * @param component the owned component.
     * @param column    the column, as its storage declares it.
     * @param name      the block's accessor: the component's name and the column's, for example {@code positionX}.
     */
    record BlockColumn(ViewComponent component, Column column, String name)
    {
        /**
         * The Java type of one element of the block's array.
         *
         * @return for example {@code float}, or an enum's canonical name.
         */
        String elementType()
        {
            return column.type().isEnum() ? column.enumType().getQualifiedName().toString() :
                column.type().primitive();
        }

        /**
         * The storage's bulk accessors' name part for the column.
         *
         * @return for example {@code X}, so that the storage declares {@code readXAt} and {@code writeXAt}.
         */
        String storagePart()
        {
            return ComponentAnalyzer.capitalise(column.name());
        }
    }
}
