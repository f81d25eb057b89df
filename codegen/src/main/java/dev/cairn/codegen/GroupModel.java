package dev.cairn.codegen;

import javax.lang.model.element.TypeElement;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated {@code @Group}: the annotated interface and its rule.
 *
 * @param group   the annotated interface.
 * @param owns    the components the group owns; none for a non-owning group.
 * @param with    the components it requires without owning.
 * @param without the components an entity must not have.
 */
record GroupModel(TypeElement group, List<ViewComponent> owns, List<ViewComponent> with, List<ViewComponent> without)
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
}
