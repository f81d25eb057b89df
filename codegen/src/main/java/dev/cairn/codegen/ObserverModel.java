package dev.cairn.codegen;

import javax.lang.model.element.TypeElement;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated {@code @Observer}: the annotated interface and its rule.
 *
 * @param observer the annotated interface.
 * @param added    components whose addition lets an entity enter.
 * @param updated  components whose update lets an entity enter.
 * @param with     components an entity must also have.
 * @param without  components an entity must not have.
 */
record ObserverModel(
    TypeElement observer,
    List<ViewComponent> added,
    List<ViewComponent> updated,
    List<ViewComponent> with,
    List<ViewComponent> without)
{
    /**
     * Every component an observed entity has: the triggers, then {@code with}, each once.
     *
     * @return the required components in declaration order.
     */
    List<ViewComponent> required()
    {
        final List<ViewComponent> required = new ArrayList<>();
        for (final List<ViewComponent> list : List.of(added, updated, with))
        {
            for (final ViewComponent component : list)
            {
                if (required.stream().noneMatch(seen -> seen.record().equals(component.record())))
                {
                    required.add(component);
                }
            }
        }
        return required;
    }
}
