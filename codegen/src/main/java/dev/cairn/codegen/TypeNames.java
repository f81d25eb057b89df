package dev.cairn.codegen;

import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides how generated source refers to each type: by simple name with an import where that is unambiguous, by
 * canonical name where a simple name would be shadowed (by the nested {@code Ref} class, the generated class itself,
 * another type of the same simple name, or a same-package type hiding {@code java.lang}).
 */
final class TypeNames
{
    private final Elements elements;
    private final String packageName;
    private final Set<String> reserved;
    private final Map<String, String> claimed = new HashMap<>();
    private final Set<String> imports = new TreeSet<>();

    /**
     * Creates an empty set of names for one generated compilation unit.
     *
     * @param elements    element utilities.
     * @param packageName the package of the generated class.
     * @param reserved    simple names the generated class declares itself (its own name, nested classes).
     */
    TypeNames(final Elements elements, final String packageName, final Set<String> reserved)
    {
        this.elements = elements;
        this.packageName = packageName;
        this.reserved = reserved;
    }

    /**
     * How to refer to a library type, importing it if possible.
     *
     * @param canonicalName for example {@code dev.cairn.DeletionPolicy}.
     * @return the simple or canonical name.
     */
    String of(final String canonicalName)
    {
        final String simpleName = canonicalName.substring(canonicalName.lastIndexOf('.') + 1);
        if (claim(simpleName, canonicalName))
        {
            imports.add(canonicalName);
            return simpleName;
        }
        return canonicalName;
    }

    /**
     * How to refer to a {@code java.lang} class, which needs no import.
     *
     * @param simpleName for example {@code Float}.
     * @return {@code Float}, or {@code java.lang.Float} if a same-package type or another import would hide it.
     */
    String lang(final String simpleName)
    {
        final String canonicalName = "java.lang." + simpleName;
        final boolean hidden = elements.getTypeElement(qualify(simpleName)) != null;
        return !hidden && claim(simpleName, canonicalName) ? simpleName : canonicalName;
    }

    /**
     * How to refer to a user type (a record or enum): same-package types by their name relative to the package
     * ({@code Outer.Position}), others by an import.
     *
     * @param type the type.
     * @return the name to write.
     */
    String of(final TypeElement type)
    {
        final String canonicalName = type.getQualifiedName().toString();
        final String typePackage = elements.getPackageOf(type).getQualifiedName().toString();
        if (!typePackage.equals(packageName))
        {
            return of(canonicalName);
        }
        final TypeElement outermost = GeneratedNames.outermost(type);
        final String outerName = outermost.getSimpleName().toString();
        final String relativeName = packageName.isEmpty() ? canonicalName : canonicalName.substring(
            packageName.length() + 1);
        return claim(outerName, outermost.getQualifiedName().toString()) || packageName.isEmpty() ?
            relativeName : canonicalName;
    }

    /**
     * The import declarations needed by every name handed out so far, sorted.
     *
     * @return the imported canonical names.
     */
    List<String> imports()
    {
        return List.copyOf(imports);
    }

    private boolean claim(final String simpleName, final String canonicalName)
    {
        if (reserved.contains(simpleName))
        {
            return false;
        }
        final String holder = claimed.putIfAbsent(simpleName, canonicalName);
        return holder == null || holder.equals(canonicalName);
    }

    private String qualify(final String simpleName)
    {
        return packageName.isEmpty() ? simpleName : packageName + "." + simpleName;
    }
}
