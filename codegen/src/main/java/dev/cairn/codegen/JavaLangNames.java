package dev.cairn.codegen;

import javax.lang.model.util.Elements;

/**
 * How one generated compilation unit names {@code java.lang} types, which it never imports: by simple name, or in
 * full where a type of the unit's own package has the same simple name and so hides the {@code java.lang} one (a user's
 * {@code q.Thread} or {@code q.Override} beside the generated {@code q.MovementGroup}).
 */
final class JavaLangNames
{
    private final Elements elements;
    private final String packageName;

    /**
     * The names for a unit of a package.
     *
     * @param elements    element utilities, to look the package's types up.
     * @param packageName the package of the generated class; empty for the unnamed package.
     */
    JavaLangNames(final Elements elements, final String packageName)
    {
        this.elements = elements;
        this.packageName = packageName;
    }

    /**
     * How to refer to a {@code java.lang} type.
     *
     * @param simpleName for example {@code Thread}.
     * @return {@code Thread}, or {@code java.lang.Thread} if a type of the package hides it.
     */
    String of(final String simpleName)
    {
        return isHidden(simpleName) ? "java.lang." + simpleName : simpleName;
    }

    /**
     * How to write an annotation of {@code java.lang}.
     *
     * @param simpleName for example {@code Override}.
     * @return {@code @Override}, or {@code @java.lang.Override} if a type of the package hides it.
     */
    String annotation(final String simpleName)
    {
        return "@" + of(simpleName);
    }

    /**
     * Whether a type of the package hides the {@code java.lang} type of this simple name.
     *
     * @param simpleName for example {@code Thread}.
     * @return true if the package declares a type of that name.
     */
    boolean isHidden(final String simpleName)
    {
        final String sibling = packageName.isEmpty() ? simpleName : packageName + "." + simpleName;
        return elements.getTypeElement(sibling) != null;
    }
}
