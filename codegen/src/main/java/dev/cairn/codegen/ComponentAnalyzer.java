package dev.cairn.codegen;

import dev.cairn.codegen.ComponentModel.Column;
import dev.cairn.codegen.ComponentModel.Part;
import dev.cairn.codegen.ComponentModel.Shape;

import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks a {@code @Component} record and flattens it into columns. Every problem is reported as a compile error on
 * the element to fix: the record component whose type cannot be stored or whose generated names collide, or the type
 * itself when it is not a usable record.
 */
final class ComponentAnalyzer
{
    /** What every unsupported-type message tells the user. */
    static final String SUPPORTED = "a @Component record can store the eight primitive types, enums, and " +
        "non-generic records whose components are themselves supported (flattened into columns)";

    private static final String DEFAULT_POLICY = "SWAP_AND_POP";

    private final Elements elements;
    private final Types types;
    private final Messager messager;

    /** Thrown when a component's type is not resolved yet, for example because another processor generates it. */
    static final class UnresolvedTypeException extends Exception
    {
        private static final long serialVersionUID = 1L;

        UnresolvedTypeException(final String message)
        {
            super(message, null, false, false);
        }
    }

    ComponentAnalyzer(final ProcessingEnvironment env)
    {
        this.elements = env.getElementUtils();
        this.types = env.getTypeUtils();
        this.messager = env.getMessager();
    }

    /**
     * Checks and flattens one annotated element.
     *
     * @param element an element annotated {@code @dev.cairn.Component}.
     * @return the model, or null if errors were reported.
     * @throws UnresolvedTypeException if a type it uses is not resolved yet; try again in a later round.
     */
    ComponentModel analyze(final TypeElement element) throws UnresolvedTypeException
    {
        if (element.getKind() != ElementKind.RECORD)
        {
            error(position(element), "@Component applies to records only, but " + element.getQualifiedName() + " is " +
                article(element.getKind()) + ": declare it as a record, for example record " +
                element.getSimpleName() + "(float x, float y)");
            return null;
        }
        if (element.getNestingKind() == NestingKind.LOCAL)
        {
            error(position(element), LocalDeclarations.localComponent(element.getSimpleName()));
            return null;
        }
        if (!element.getTypeParameters().isEmpty())
        {
            error(position(element), "@Component record " + element.getQualifiedName() + " must not be generic: its " +
                "storage has one fixed column per field, so remove the type parameters " + element.getTypeParameters());
            return null;
        }
        final String packageName = elements.getPackageOf(element).getQualifiedName().toString();
        final String storageName = GeneratedNames.storage(element);
        final String hidden = inaccessibility(element, packageName);
        if (hidden != null)
        {
            error(position(element), "@Component record " + element.getQualifiedName() + " " + hidden + ": the " +
                "generated storage " + storageName + " is a top-level class in " + displayPackage(packageName) +
                " and must be able to use it; make it a top-level or member record that is not private");
            return null;
        }

        final Map<String, String> docs = paramDocs(elements.getDocComment(element));
        final List<Column> columns = new ArrayList<>();
        final List<Part> parts = new ArrayList<>();
        final Deque<TypeElement> enclosing = new ArrayDeque<>();
        enclosing.push(element);
        boolean ok = true;
        for (final RecordComponentElement component : element.getRecordComponents())
        {
            final String name = component.getSimpleName().toString();
            final Flattening flattening = new Flattening(element, component, packageName, docs.get(name), columns);
            ok &= flattening.flatten(component.asType(), name, name, List.of(name), enclosing, parts,
                isEntityRef(component));
        }
        if (!ok || !namesAreDistinct(element, columns))
        {
            return null;
        }
        return new ComponentModel(
            element, packageName, storageName, policy(element), tracked(element), new Shape(element, parts),
            List.copyOf(columns));
    }

    /**
     * {@code name} with its first character upper-cased: {@code x} gives {@code X}.
     *
     * @param name an identifier.
     * @return the capitalised identifier.
     */
    static String capitalise(final String name)
    {
        return name.isEmpty() ? name : name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

    /** Flattens one top-level record component into columns, reporting errors on it. */
    private final class Flattening
    {
        private final TypeElement record;
        private final RecordComponentElement origin;
        private final String packageName;
        private final String doc;
        private final List<Column> columns;

        Flattening(
            final TypeElement record,
            final RecordComponentElement origin,
            final String packageName,
            final String doc,
            final List<Column> columns)
        {
            this.record = record;
            this.origin = origin;
            this.packageName = packageName;
            this.doc = doc;
            this.columns = columns;
        }

        boolean flatten(
            final TypeMirror type,
            final String name,
            final String path,
            final List<String> accessors,
            final Deque<TypeElement> enclosing,
            final List<Part> parts,
            final boolean entityRef) throws UnresolvedTypeException
        {
            final ColumnType primitive = primitive(type.getKind());
            if (entityRef && primitive != ColumnType.LONG)
            {
                error(position(origin), "@EntityRef marks an entity handle, which is a long, but " + path + " is " +
                    type + ": declare it 'long " + path.substring(path.lastIndexOf('.') + 1) + "' or remove " +
                    "@EntityRef");
                return false;
            }
            if (primitive != null)
            {
                addColumn(name, path, accessors, entityRef ? ColumnType.ENTITY : primitive, null, parts);
                return true;
            }
            if (type.getKind() == TypeKind.ERROR)
            {
                throw new UnresolvedTypeException(type + " (used by " + path + ")");
            }
            if (type.getKind() != TypeKind.DECLARED)
            {
                return unsupported(type, path, type.getKind() == TypeKind.TYPEVAR ? " (a type parameter)" : "");
            }

            final TypeElement typeElement = (TypeElement)((DeclaredType)type).asElement();
            if (typeElement.getKind() == ElementKind.ENUM)
            {
                return accessible(typeElement, type, path) && addEnumColumn(typeElement, type, name, path,
                    accessors, parts);
            }
            if (typeElement.getKind() != ElementKind.RECORD)
            {
                return unsupported(type, path, boxHint(type));
            }
            if (!typeElement.getTypeParameters().isEmpty())
            {
                return unsupported(type, path, ": record " + typeElement.getQualifiedName() + " is generic");
            }
            if (enclosing.contains(typeElement))
            {
                error(position(origin), "Record " + typeElement.getQualifiedName() + " refers to itself through " +
                    path + ": a @Component record cannot contain itself, directly or through nested records, because " +
                    "its fields are flattened into a fixed set of columns; store the other entity's handle " +
                    "(a long) instead");
                return false;
            }
            if (!accessible(typeElement, type, path))
            {
                return false;
            }

            final List<Part> nested = new ArrayList<>();
            enclosing.push(typeElement);
            boolean ok = true;
            for (final RecordComponentElement component : typeElement.getRecordComponents())
            {
                final String componentName = component.getSimpleName().toString();
                final List<String> chain = new ArrayList<>(accessors);
                chain.add(componentName);
                ok &= flatten(component.asType(), name + capitalise(componentName),
                    path + "." + componentName, List.copyOf(chain), enclosing, nested, isEntityRef(component));
            }
            enclosing.pop();
            parts.add(new Shape(typeElement, List.copyOf(nested)));
            return ok;
        }

        private boolean addEnumColumn(
            final TypeElement enumType,
            final TypeMirror type,
            final String name,
            final String path,
            final List<String> accessors,
            final List<Part> parts)
        {
            int constants = 0;
            for (final Element member : enumType.getEnclosedElements())
            {
                if (member.getKind() == ElementKind.ENUM_CONSTANT)
                {
                    constants++;
                }
            }
            if (constants == 0)
            {
                return unsupported(type, path, ": enum " + enumType.getQualifiedName() + " has no constants, so " +
                    "no value of it can be stored");
            }
            if (constants > ColumnType.SHORT_ENUM_LIMIT)
            {
                return unsupported(type, path, ": enum " + enumType.getQualifiedName() + " has " + constants +
                    " constants, more than the " + ColumnType.SHORT_ENUM_LIMIT + " a short column can number");
            }
            addColumn(name, path, accessors, ColumnType.forEnum(constants), enumType, parts);
            return true;
        }

        private void addColumn(
            final String name,
            final String path,
            final List<String> accessors,
            final ColumnType type,
            final TypeElement enumType,
            final List<Part> parts)
        {
            final Column column = new Column(name, path, accessors, type, enumType, doc, position(origin));
            columns.add(column);
            parts.add(column);
        }

        private boolean accessible(final TypeElement typeElement, final TypeMirror type, final String path)
        {
            final String hidden = inaccessibility(typeElement, packageName);
            if (hidden != null)
            {
                error(position(origin), "Type " + type + " of " + describe(path) + " " + hidden + ", so the storage " +
                    "generated in " + displayPackage(packageName) + " cannot use it: make it public (or move it to " +
                    "that package)");
                return false;
            }
            return true;
        }

        private boolean unsupported(final TypeMirror type, final String path, final String detail)
        {
            error(position(origin), "Unsupported type " + type + " for " + describe(path) + detail + "; " + SUPPORTED);
            return false;
        }

        private String describe(final String path)
        {
            final String component = origin.getSimpleName().toString();
            return path.equals(component) ?
                "component " + component + " of " + record.getSimpleName() :
                path + " (component " + component + " of " + record.getSimpleName() + ")";
        }

        private String boxHint(final TypeMirror type)
        {
            try
            {
                return ": use the primitive " + types.unboxedType(type) + " instead";
            }
            catch (final IllegalArgumentException notABox)
            {
                return "";
            }
        }
    }

    /**
     * Where to report a problem with a record component. JDK 17's javac attaches no source position to diagnostics on
     * a {@link RecordComponentElement}, but it does to the private field the component declares, whose position is
     * the component's own; so errors go on that field, and fall back to the component.
     */
    private static Element position(final RecordComponentElement component)
    {
        for (final Element member : component.getEnclosingElement().getEnclosedElements())
        {
            if (member.getKind() == ElementKind.FIELD && !member.getModifiers().contains(Modifier.STATIC) &&
                member.getSimpleName().contentEquals(component.getSimpleName()))
            {
                return member;
            }
        }
        return component;
    }

    /**
     * Where to report a problem with a record as a whole. The Eclipse compiler attaches no source position to
     * diagnostics on a record (it does on classes, interfaces and enums), but it does to the record's canonical
     * constructor, whose position is the record's own under both compilers; so errors go on that constructor, and on
     * the type itself when it is not a record.
     *
     * @param type the annotated type.
     * @return the element to report on.
     */
    static Element position(final TypeElement type)
    {
        if (type.getKind() == ElementKind.RECORD)
        {
            for (final Element member : type.getEnclosedElements())
            {
                if (member.getKind() == ElementKind.CONSTRUCTOR &&
                    ((ExecutableElement)member).getParameters().size() == type.getRecordComponents().size())
                {
                    return member;
                }
            }
        }
        return type;
    }

    private boolean namesAreDistinct(final TypeElement record, final List<Column> columns)
    {
        final Map<String, Column> byName = new HashMap<>();
        boolean ok = true;
        for (final Column column : columns)
        {
            final Column other = byName.putIfAbsent(column.name(), column);
            if (other != null)
            {
                error(column.origin(), "Component " + column.origin().getSimpleName() + " of " +
                    record.getSimpleName() + " generates the column " + column.name() + " (for " + column.path() +
                    "), which " + other.path() + " also generates (nested record fields are named by joining " +
                    "their path, so pos.x becomes posX): rename one of them");
                ok = false;
            }
        }
        return ok;
    }

    private static ColumnType primitive(final TypeKind kind)
    {
        switch (kind)
        {
            case BOOLEAN:
                return ColumnType.BOOLEAN;
            case BYTE:
                return ColumnType.BYTE;
            case SHORT:
                return ColumnType.SHORT;
            case CHAR:
                return ColumnType.CHAR;
            case INT:
                return ColumnType.INT;
            case FLOAT:
                return ColumnType.FLOAT;
            case LONG:
                return ColumnType.LONG;
            case DOUBLE:
                return ColumnType.DOUBLE;
            default:
                return null;
        }
    }

    private static String policy(final TypeElement record)
    {
        final Object value = componentElement(record, "policy");
        return value instanceof VariableElement ? ((VariableElement)value).getSimpleName().toString() : DEFAULT_POLICY;
    }

    private static boolean tracked(final TypeElement record)
    {
        final Object value = componentElement(record, "tracked");
        return value instanceof Boolean && (Boolean)value;
    }

    /** The value of an element set explicitly on the record's {@code @Component}, or null. */
    private static Object componentElement(final TypeElement record, final String name)
    {
        for (final AnnotationMirror annotation : record.getAnnotationMirrors())
        {
            final TypeElement annotationType = (TypeElement)annotation.getAnnotationType().asElement();
            if (annotationType.getQualifiedName().contentEquals(CairnProcessor.COMPONENT))
            {
                for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
                    annotation.getElementValues().entrySet())
                {
                    if (entry.getKey().getSimpleName().contentEquals(name))
                    {
                        return entry.getValue().getValue();
                    }
                }
            }
        }
        return null;
    }

    private static boolean isEntityRef(final RecordComponentElement component)
    {
        for (final AnnotationMirror annotation : component.getAnnotationMirrors())
        {
            if (((TypeElement)annotation.getAnnotationType().asElement()).getQualifiedName()
                .contentEquals("dev.cairn.EntityRef"))
            {
                return true;
            }
        }
        return false;
    }

    /** Why {@code type} cannot be used from a class in {@code packageName}, or null if it can. */
    String inaccessibility(final TypeElement type, final String packageName)
    {
        for (Element element = type; element instanceof TypeElement; element = element.getEnclosingElement())
        {
            final TypeElement current = (TypeElement)element;
            final NestingKind nesting = current.getNestingKind();
            if (nesting == NestingKind.LOCAL || nesting == NestingKind.ANONYMOUS)
            {
                return current == type ? "is local to a method" : "is nested in a local class";
            }
            if (current.getModifiers().contains(Modifier.PRIVATE))
            {
                return current == type ? "is private" : "is nested in private " + current.getQualifiedName();
            }
            final boolean samePackage =
                elements.getPackageOf(current).getQualifiedName().contentEquals(packageName);
            if (!samePackage && !current.getModifiers().contains(Modifier.PUBLIC))
            {
                return current == type ? "is not public" : "is nested in non-public " + current.getQualifiedName();
            }
        }
        return null;
    }

    /** The {@code @param} descriptions of a record's Javadoc, by component name. */
    static Map<String, String> paramDocs(final String docComment)
    {
        final Map<String, String> docs = new HashMap<>();
        if (docComment == null)
        {
            return docs;
        }
        String name = null;
        StringBuilder text = null;
        for (final String rawLine : docComment.split("\\R"))
        {
            final String line = rawLine.strip();
            if (line.startsWith("@"))
            {
                if (name != null)
                {
                    docs.put(name, clean(text));
                    name = null;
                }
                final String[] words = line.split("\\s+", 3);
                if (words[0].equals("@param") && words.length == 3)
                {
                    name = words[1];
                    text = new StringBuilder(words[2]);
                }
            }
            else if (name != null && !line.isEmpty())
            {
                text.append(' ').append(line);
            }
        }
        if (name != null)
        {
            docs.put(name, clean(text));
        }
        return docs;
    }

    /** Links in copied Javadoc resolve against the record's imports, not the storage's: keep them as code. */
    private static String clean(final StringBuilder text)
    {
        String doc = text.toString()
            .replaceAll("\\{@link(?:plain)?\\s+[^\\s}]+\\s+([^}]+)}", "$1")
            .replaceAll("\\{@link(?:plain)?\\s+([^}]*)}", "{@code $1}")
            .strip();
        while (doc.endsWith("."))
        {
            doc = doc.substring(0, doc.length() - 1);
        }
        return doc;
    }

    private static String article(final ElementKind kind)
    {
        switch (kind)
        {
            case ENUM:
                return "an enum";
            case INTERFACE:
                return "an interface";
            case ANNOTATION_TYPE:
                return "an annotation type";
            default:
                return "a " + kind.name().toLowerCase(Locale.ROOT);
        }
    }

    private static String displayPackage(final String packageName)
    {
        return packageName.isEmpty() ? "the unnamed package" : "package " + packageName;
    }

    private void error(final Element element, final String message)
    {
        messager.printMessage(Diagnostic.Kind.ERROR, message, element);
    }
}
