package dev.cairn.codegen;

import javax.lang.model.element.TypeElement;
import java.util.List;

/**
 * A validated {@code @View}: the annotated interface and the components it includes and excludes, in declaration
 * order.
 *
 * @param view     the annotated interface.
 * @param included the components an entity must have; 1 to {@link ViewGenerator#MAX_INCLUDED}, distinct.
 * @param excluded the components an entity must not have; 0 to {@link ViewGenerator#MAX_EXCLUDED}, distinct and
 *                 disjoint from {@code included}.
 * @param added    included, tracked components that must have been added after the tick an iteration is given.
 * @param changed  included, tracked components that must have been written after that tick.
 */
record ViewModel(
    TypeElement view,
    List<ViewComponent> included,
    List<ViewComponent> excluded,
    List<ViewComponent> added,
    List<ViewComponent> changed)
{
    /**
     * Whether iterations take a tick: the view filters by additions or changes.
     *
     * @return true if {@code added} or {@code changed} is not empty.
     */
    boolean filtersByTick()
    {
        return !added.isEmpty() || !changed.isEmpty();
    }
}
