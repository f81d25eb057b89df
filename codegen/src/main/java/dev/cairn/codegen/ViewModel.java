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
 */
record ViewModel(TypeElement view, List<ViewComponent> included, List<ViewComponent> excluded)
{
}
