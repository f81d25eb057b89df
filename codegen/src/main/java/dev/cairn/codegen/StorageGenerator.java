package dev.cairn.codegen;

import dev.cairn.codegen.ComponentAnalyzer.UnresolvedTypeException;
import dev.cairn.codegen.ComponentModel.Column;
import dev.cairn.codegen.ComponentModel.Part;
import dev.cairn.codegen.ComponentModel.Shape;

import javax.annotation.processing.FilerException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes the storage class of one {@code @Component} record: a final subclass of {@code ComponentStorage} with one
 * off-heap column per flattened field, an accessor pair per column by entity and by packed index, a comparator per
 * column, and a {@code Ref} flyweight. The output is meant to read like hand-written code; see
 * {@code docs/components.md} for its shape.
 */
final class StorageGenerator
{
    private final ProcessingEnvironment env;
    private final ComponentAnalyzer analyzer;

    /**
     * Creates a generator that reports through the environment's messager and writes through its filer.
     *
     * @param env the processing environment.
     */
    StorageGenerator(final ProcessingEnvironment env)
    {
        this.env = env;
        this.analyzer = new ComponentAnalyzer(env);
    }

    /**
     * Checks a {@code @Component} element and writes its storage, or reports why it cannot.
     *
     * @param element an element annotated {@code @dev.cairn.Component}.
     * @throws UnresolvedTypeException if a type it uses is not resolved yet; try again in a later round.
     */
    void generate(final TypeElement element) throws UnresolvedTypeException
    {
        final ComponentModel model = analyzer.analyze(element);
        if (model == null)
        {
            return;
        }
        final String qualifiedName = model.packageName().isEmpty() ?
            model.storageName() : model.packageName() + "." + model.storageName();
        try
        {
            final JavaFileObject file = env.getFiler().createSourceFile(qualifiedName, element);
            try (Writer writer = file.openWriter())
            {
                writer.write(new Source(model).write());
            }
        }
        catch (final FilerException ex)
        {
            env.getMessager().printMessage(Diagnostic.Kind.ERROR, "@Component record " + element.getQualifiedName() +
                " would generate " + qualifiedName + ", which another declaration of this compilation already " +
                "generates (a nested record's storage is named after its enclosing types joined by '_', so " +
                "Outer.Position and a top-level Outer_Position both give Outer_PositionStorage): rename one of them",
                element);
        }
        catch (final IOException ex)
        {
            env.getMessager().printMessage(
                Diagnostic.Kind.ERROR, "cannot write " + qualifiedName + ": " + ex.getMessage(), element);
        }
    }

    /** The text of one storage class. */
    private final class Source
    {
        private final ComponentModel model;
        private final TypeNames names;
        private final StringBuilder out = new StringBuilder(16 * 1024);
        private final Map<TypeElement, String> enumValues = new LinkedHashMap<>();
        private final Map<Column, String> columnConstants = new LinkedHashMap<>();
        private final String record;
        private final String storage;
        private int indent;

        Source(final ComponentModel model)
        {
            this.model = model;
            this.storage = model.storageName();
            this.names = new TypeNames(env.getElementUtils(), model.packageName(), Set.of(storage, "Ref"));
            this.record = names.of(model.record());
            final Set<String> used = new LinkedHashSet<>();
            for (final Column column : model.columns())
            {
                if (column.type().isEnum() && !enumValues.containsKey(column.enumType()))
                {
                    String constant = upperSnake(column.enumType().getSimpleName().toString()) + "_VALUES";
                    for (int n = 2; !used.add(constant); n++)
                    {
                        constant = upperSnake(column.enumType().getSimpleName().toString()) + "_VALUES_" + n;
                    }
                    enumValues.put(column.enumType(), constant);
                }
            }
            for (final Column column : model.columns())
            {
                String constant = upperSnake(column.name()) + "_COLUMN";
                for (int n = 2; !used.add(constant); n++)
                {
                    constant = upperSnake(column.name()) + "_COLUMN_" + n;
                }
                columnConstants.put(column, constant);
            }
        }

        String write()
        {
            final String body = model.isTag() ? tagBody() : storageBody();
            final StringBuilder header = new StringBuilder();
            if (!model.packageName().isEmpty())
            {
                header.append("package ").append(model.packageName()).append(";\n\n");
            }
            for (final String imported : names.imports())
            {
                header.append("import ").append(imported).append(";\n");
            }
            return header.append('\n').append(body).toString();
        }

        private String storageBody()
        {
            final List<Column> columns = model.columns();
            final String typeName = names.of("dev.cairn.storage.ComponentType");
            final String policy = names.of("dev.cairn.DeletionPolicy");
            final String comparator = names.of("dev.cairn.set.IndexComparator");

            final List<String> fieldList = new ArrayList<>();
            for (final Column column : columns)
            {
                fieldList.add("{@code " + column.path() + "} (" + javaType(column) + ")");
            }
            classHeader("One column per field: " + String.join(", ", fieldList) + ".");

            typeConstant(typeName, policy);
            blank();

            final List<String> widths = new ArrayList<>();
            for (int k = 0; k < columns.size(); k++)
            {
                final Column column = columns.get(k);
                widths.add(names.lang(column.type().widthClass()) + ".BYTES");
                line("private static final int " + field(column) + " = " + k + ";");
            }
            final String oneLine = "private static final int[] COLUMN_WIDTHS = {" + String.join(", ", widths) + "};";
            if (indent * 4 + oneLine.length() <= 120)
            {
                line(oneLine);
            }
            else
            {
                line("private static final int[] COLUMN_WIDTHS = {");
                for (int k = 0; k < columns.size(); k++)
                {
                    final String item = widths.get(k) + (k < columns.size() - 1 ? "," : "");
                    line("    " + item + " ".repeat(Math.max(1, 20 - item.length())) + "// " + columns.get(k).path());
                }
                line("};");
            }
            for (final Map.Entry<TypeElement, String> entry : enumValues.entrySet())
            {
                final String enumName = names.of(entry.getKey());
                line("private static final " + enumName + "[] " + entry.getValue() + " = " + enumName + ".values();");
            }
            blank();

            constructorAndCreate();
            emplace(columns);
            add(columns);
            patch(columns);
            get(columns);
            for (final Column column : columns)
            {
                accessors(column, comparator);
            }
            ref(columns);

            closeBrace();
            return out.toString();
        }

        private String tagBody()
        {
            final String typeName = names.of("dev.cairn.storage.ComponentType");
            final String policy = names.of("dev.cairn.DeletionPolicy");
            final String objects = names.of("java.util.Objects");
            classHeader("A tag: the record has no fields, so the storage has no columns and is just the set of " +
                "entities that carry the tag.");

            typeConstant(typeName, policy);
            blank();
            line("private static final " + record + " INSTANCE = new " + record + "();");
            blank();
            constructorAndCreate();

            doc("Adds the tag to an entity.",
                "",
                "@param entity an entity without the tag.",
                "@return the packed index the entity occupies.",
                "@throws IllegalArgumentException if the entity already has the tag, or is not alive or well-formed.",
                "@throws IllegalStateException    if the storage is closed.");
            method("public int emplace(final long entity)", "return insert(entity);");

            doc("Adds the tag to an entity; the same as {@link #emplace(long)}.",
                "",
                "@param entity    an entity without the tag.",
                "@param component any instance of the tag record; not null.",
                "@return the packed index the entity occupies.",
                "@throws IllegalArgumentException if the entity already has the tag, or is not alive or well-formed.");
            line("@Override");
            method("public int add(final long entity, final " + record + " component)",
                objects + ".requireNonNull(component, \"component\");",
                "return insert(entity);");

            doc("Checks that an entity has the tag: a tag has no fields to overwrite.",
                "",
                "@param entity    an entity with the tag.",
                "@param component any instance of the tag record; not null.",
                "@throws IllegalArgumentException if the entity does not have the tag.");
            line("@Override");
            method("public void patch(final long entity, final " + record + " component)",
                objects + ".requireNonNull(component, \"component\");",
                "requireIndex(entity);");

            doc("The tag of an entity that has it.",
                "",
                "@param entity an entity with the tag.",
                "@return a shared instance of the tag record.",
                "@throws IllegalArgumentException if the entity does not have the tag.");
            line("@Override");
            method("public " + record + " get(final long entity)",
                "requireIndex(entity);",
                "return INSTANCE;");

            doc("The tag at a packed index.",
                "",
                "@param index a packed index from 0 to {@link #size()} - 1.",
                "@return a shared instance of the tag record.",
                "@throws IndexOutOfBoundsException if the index is out of range.");
            line("@Override");
            method("public " + record + " getAt(final int index)",
                "checkIndex(index);",
                "return INSTANCE;");
            trimBlank();
            closeBrace();
            return out.toString();
        }

        private void typeConstant(final String typeName, final String policy)
        {
            doc("The {@link " + record + "} component type, with deletion policy {@link " + policy + "#" +
                model.policy() + "}.");
            line("public static final " + typeName + "<" + record + ", " + storage + "> TYPE =");
            indent++;
            wrapped(typeName + ".register(", List.of(record + ".class", policy + "." + model.policy(),
                storage + "::new"), ");");
            indent--;
        }

        private void classHeader(final String summary)
        {
            doc("Off-heap storage of {@link " + record + "} components. " + summary,
                "<p>",
                "Generated by cairn-codegen from {@link " + record + "}; do not edit. Accessors by entity check that",
                "the entity has the component, accessors by packed index check the index; none of them allocates.",
                "Not thread-safe.");
            line("public final class " + storage + " extends " + names.of("dev.cairn.storage.ComponentStorage") +
                "<" + record + ">");
            openBrace();
        }

        private void constructorAndCreate()
        {
            line("private " + storage + "(final " + names.of("dev.cairn.memory.OffHeap") + " offHeap, final " +
                names.of("dev.cairn.entity.EntityPool") + " pool)");
            openBrace();
            line("super(TYPE, offHeap, pool, " + (model.isTag() ? "new int[0]" : "COLUMN_WIDTHS") + ");");
            closeBrace();
            blank();
            doc("Creates a standalone storage that owns its off-heap memory and accepts any well-formed entity",
                "handle; {@link #close()} it when done. A {@link dev.cairn.World}'s storage comes from",
                "{@code world.storage(" + storage + ".TYPE)} instead.",
                "",
                "@return a new, empty storage.");
            method("public static " + storage + " create()", "return new " + storage + "(null, null);");
        }

        private void emplace(final List<Column> columns)
        {
            final List<String> docs = new ArrayList<>(List.of(
                "Adds a {@link " + record + "} to an entity, writing its fields straight into the columns; allocates nothing.",
                ""));
            docs.addAll(params(columns, "an entity without this component."));
            docs.add("@return the packed index the component occupies.");
            docs.add("@throws IllegalArgumentException if the entity already has this component, or is not alive " +
                "or well-formed.");
            docs.add("@throws IllegalStateException    if the storage is closed.");
            if (hasEnum(columns))
            {
                docs.add("@throws NullPointerException     if an enum is null; nothing is added then.");
            }
            doc(docs.toArray(new String[0]));
            signature("public int emplace(", columns);
            openBrace();
            requireEnums(columns);
            line("final int index = insert(entity);");
            for (final Column column : columns)
            {
                line(write(column, "index", column.name()) + ";");
            }
            line("return index;");
            closeBrace();
            blank();
        }

        private void add(final List<Column> columns)
        {
            doc("Adds a {@link " + record + "} to an entity; the same as {@link #emplace} with its fields.",
                "",
                "@param entity    an entity without this component.",
                "@param component the value; neither it nor a nested record in it may be null.",
                "@return the packed index the component occupies.",
                "@throws IllegalArgumentException if the entity already has this component, or is not alive or " +
                    "well-formed.");
            line("@Override");
            line("public int add(final long entity, final " + record + " component)");
            openBrace();
            wrapped("return emplace(", withEntity(fieldsOf("component", columns)), ");");
            closeBrace();
            blank();
        }

        private void patch(final List<Column> columns)
        {
            final List<String> docs = new ArrayList<>(List.of(
                "Overwrites every field of an entity's {@link " + record + "}; allocates nothing.", ""));
            docs.addAll(params(columns, "an entity with this component."));
            docs.add("@throws IllegalArgumentException if the entity does not have this component.");
            if (hasEnum(columns))
            {
                docs.add("@throws NullPointerException     if an enum is null; nothing is written then.");
            }
            doc(docs.toArray(new String[0]));
            signature("public void patch(", columns);
            openBrace();
            requireEnums(columns);
            line("final int index = requireIndex(entity);");
            for (final Column column : columns)
            {
                line(write(column, "index", column.name()) + ";");
            }
            closeBrace();
            blank();

            doc("Overwrites an entity's {@link " + record + "} with the fields of {@code component}.",
                "",
                "@param entity    an entity with this component.",
                "@param component the new value; neither it nor a nested record in it may be null.",
                "@throws IllegalArgumentException if the entity does not have this component.");
            line("@Override");
            line("public void patch(final long entity, final " + record + " component)");
            openBrace();
            wrapped("patch(", withEntity(fieldsOf("component", columns)), ");");
            closeBrace();
            blank();
        }

        private void get(final List<Column> columns)
        {
            doc("Reads an entity's {@link " + record + "} into a new record.",
                "",
                "@param entity an entity with this component.",
                "@return a new record holding its fields.",
                "@throws IllegalArgumentException if the entity does not have this component.");
            line("@Override");
            method("public " + record + " get(final long entity)", "return getAt(requireIndex(entity));");

            doc("Reads the {@link " + record + "} at a packed index into a new record.",
                "",
                "@param index a packed index from 0 to {@link #size()} - 1.",
                "@return a new record holding the fields there.",
                "@throws IndexOutOfBoundsException if the index is out of range.");
            line("@Override");
            line("public " + record + " getAt(final int index)");
            openBrace();
            line("checkIndex(index);");
            final List<String> lines = new ArrayList<>();
            construct(model.shape(), "", lines);
            lines.set(0, "return " + lines.get(0));
            lines.set(lines.size() - 1, lines.get(lines.size() - 1) + ";");
            for (final String text : lines)
            {
                line(text);
            }
            closeBrace();
            blank();
        }

        /** {@code new Transform(new Vec2(..., ...), ...)}, one argument a line. */
        private void construct(final Shape shape, final String prefix, final List<String> lines)
        {
            lines.add(prefix + "new " + names.of(shape.type()) + "(");
            final List<Part> parts = shape.parts();
            for (int i = 0; i < parts.size(); i++)
            {
                final String separator = i < parts.size() - 1 ? "," : ")";
                final Part part = parts.get(i);
                if (part instanceof Column)
                {
                    lines.add(prefix + "    " + read((Column)part, "index") + separator);
                }
                else
                {
                    construct((Shape)part, prefix + "    ", lines);
                    lines.set(lines.size() - 1, lines.get(lines.size() - 1) + separator);
                }
            }
        }

        private void accessors(final Column column, final String comparator)
        {
            final String type = javaType(column);
            final String name = column.name();
            final String what = "the {@code " + column.path() + "} of";
            final String note = column.doc() == null ? "" :
                " ({@code " + column.origin().getSimpleName() + "}: " + column.doc() + ")";
            doc("Reads " + what + " an entity's {@link " + record + "}" + note + ".",
                "",
                "@param entity an entity with this component.",
                "@return the value.",
                "@throws IllegalArgumentException if the entity does not have this component.");
            method("public " + type + " " + name + "(final long entity)",
                "return " + read(column, "requireIndex(entity)") + ";");

            doc("Writes " + what + " an entity's {@link " + record + "}.",
                "",
                "@param entity an entity with this component.",
                "@param value  the new value" + (column.type().isEnum() ? "; not null." : "."),
                "@throws IllegalArgumentException if the entity does not have this component.");
            method("public void " + name + "(final long entity, final " + type + " value)",
                write(column, "requireIndex(entity)", "value") + ";");

            doc("Reads " + what + " the {@link " + record + "} at a packed index" + note + ".",
                "",
                "@param index a packed index from 0 to {@link #size()} - 1.",
                "@return the value.",
                "@throws IndexOutOfBoundsException if the index is out of range.");
            method("public " + type + " " + name + "At(final int index)",
                "return " + read(column, "index") + ";");

            doc("Writes " + what + " the {@link " + record + "} at a packed index.",
                "",
                "@param index a packed index from 0 to {@link #size()} - 1.",
                "@param value the new value" + (column.type().isEnum() ? "; not null." : "."),
                "@throws IndexOutOfBoundsException if the index is out of range.");
            method("public void " + name + "At(final int index, final " + type + " value)",
                write(column, "index", "value") + ";");

            doc("Orders packed indices by {@code " + column.path() + "}, as {@code " +
                    (column.type().isEnum() ? "Enum.compareTo" : column.type().compareClass() + ".compare") +
                    "} does, without boxing; for {@link #sort}.",
                "",
                "@return a comparator over this storage's packed indices.");
            line("public " + comparator + " comparing" + ComponentAnalyzer.capitalise(name) + "()");
            openBrace();
            line("return (left, right) -> " + names.lang(column.type().compareClass()) + ".compare(");
            indent++;
            final String left = column.type().compareKey(field(column), "left");
            final String right = column.type().compareKey(field(column), "right");
            if (indent * 4 + left.length() + right.length() + 8 <= 120)
            {
                line("    " + left + ", " + right + ");");
            }
            else
            {
                line("    " + left + ",");
                line("    " + right + ");");
            }
            indent--;
            closeBrace();
            blank();
        }

        private void ref(final List<Column> columns)
        {
            doc("A new flyweight over this storage's packed slots. Allocate one and reuse it: {@link Ref#moveTo(int)}",
                "positions it without allocating.",
                "",
                "@return a new reference, on no entity until it is moved.");
            method("public Ref ref()", "return new Ref(this);");

            doc("A movable view of one packed slot: {@link #moveTo(int)} positions it on the entity in that slot, the",
                "accessors read and write that entity's fields. Every access checks that the slot still holds the",
                "entity, so a reference kept after the entity was removed, or moved by a swap, sort or compaction,",
                "fails loudly instead of reading or writing the entity that took its place.");
            line("public static final class Ref");
            openBrace();
            line("private final " + storage + " storage;");
            line("private int index;");
            line("private long entity = " + names.of("dev.cairn.Entity") + ".NULL;");
            line("private long layoutVersion = -1;");
            blank();
            line("private Ref(final " + storage + " storage)");
            openBrace();
            line("this.storage = storage;");
            closeBrace();
            blank();
            doc("Positions this reference on the member at a packed index. An index outside the members, or a",
                "tombstone, positions it on no entity: the accessors then throw.",
                "",
                "@param index a packed index.",
                "@return this reference.");
            method("public Ref moveTo(final int index)",
                "this.index = index;",
                "this.entity = storage.memberAt(index);",
                "this.layoutVersion = entity == " + names.of("dev.cairn.Entity") + ".NULL ? -1 : storage.layoutVersion();",
                "return this;");
            doc("The packed index this reference is at.", "", "@return the index.");
            method("public int index()", "return index;");
            doc("The entity this reference was positioned on.",
                "",
                "@return its handle, or {@link " + names.of("dev.cairn.Entity") + "#NULL} if the slot held none.");
            method("public long entity()", "return entity;");
            final String stale = "@throws IllegalStateException if this reference is on no entity, or its entity left the slot.";
            for (final Column column : columns)
            {
                final String type = javaType(column);
                doc("Reads {@code " + column.path() + "} of the entity this reference is on.",
                    "",
                    "@return the value.",
                    stale);
                method("public " + type + " " + column.name() + "()",
                    "return storage." + column.name() + "At(storage.refIndex(index, entity, layoutVersion));");
                doc("Writes {@code " + column.path() + "} of the entity this reference is on.",
                    "",
                    "@param value the new value" + (column.type().isEnum() ? "; not null." : "."),
                    stale);
                method("public void " + column.name() + "(final " + type + " value)",
                    "storage." + column.name() + "At(storage.refIndex(index, entity, layoutVersion), value);");
            }
            doc("Reads the whole component of the entity this reference is on into a new record.",
                "",
                "@return a new record.",
                stale);
            method("public " + record + " get()",
                "return storage.getAt(storage.refIndex(index, entity, layoutVersion));");
            trimBlank();
            closeBrace();
        }

        /** Null enums are refused before anything changes, so a failed emplace or patch leaves no half-written row. */
        private void requireEnums(final List<Column> columns)
        {
            for (final Column column : columns)
            {
                if (column.type().isEnum())
                {
                    line(names.of("java.util.Objects") + ".requireNonNull(" + column.name() + ", \"" + column.name() +
                        "\");");
                }
            }
        }

        private List<String> params(final List<Column> columns, final String entityDoc)
        {
            int width = "entity".length();
            for (final Column column : columns)
            {
                width = Math.max(width, column.name().length());
            }
            final List<String> docs = new ArrayList<>();
            docs.add("@param " + pad("entity", width) + " " + entityDoc);
            for (final Column column : columns)
            {
                docs.add("@param " + pad(column.name(), width) + " the {@code " + column.path() + "} field" +
                    (column.type().isEnum() ? "; not null." : "."));
            }
            return docs;
        }

        private void signature(final String start, final List<Column> columns)
        {
            final List<String> parameters = new ArrayList<>();
            parameters.add("final long entity");
            for (final Column column : columns)
            {
                parameters.add("final " + javaType(column) + " " + column.name());
            }
            wrapped(start, parameters, ")");
        }

        private List<String> fieldsOf(final String variable, final List<Column> columns)
        {
            final List<String> values = new ArrayList<>();
            for (final Column column : columns)
            {
                final StringBuilder value = new StringBuilder(variable);
                for (final String accessor : column.accessors())
                {
                    value.append('.').append(accessor).append("()");
                }
                values.add(value.toString());
            }
            return values;
        }

        private List<String> withEntity(final List<String> values)
        {
            final List<String> all = new ArrayList<>();
            all.add("entity");
            all.addAll(values);
            return all;
        }

        /** The constant holding a column's number, e.g. {@code POS_X_COLUMN}. */
        private String field(final Column column)
        {
            return columnConstants.get(column);
        }

        private String javaType(final Column column)
        {
            return column.type().isEnum() ? names.of(column.enumType()) : column.type().primitive();
        }

        private String read(final Column column, final String index)
        {
            return column.type().read(field(column), index, enumValues.get(column.enumType()));
        }

        private String write(final Column column, final String index, final String value)
        {
            return column.type().write(field(column), index, value);
        }

        /** Writes {@code start + items + end} on one line if it fits in 120 columns, else one item a line. */
        private void wrapped(final String start, final List<String> items, final String end)
        {
            final String joined = start + String.join(", ", items) + end;
            if (indent * 4 + joined.length() <= 120)
            {
                line(joined);
                return;
            }
            line(start);
            for (int i = 0; i < items.size(); i++)
            {
                line("    " + items.get(i) + (i < items.size() - 1 ? "," : end));
            }
        }

        private void method(final String declaration, final String... statements)
        {
            line(declaration);
            openBrace();
            for (final String statement : statements)
            {
                line(statement);
            }
            closeBrace();
            blank();
        }

        /** A Javadoc comment; lines longer than 120 columns are wrapped at spaces. */
        private void doc(final String... lines)
        {
            final int width = 120 - indent * 4 - " * ".length();
            if (lines.length == 1 && lines[0].length() + 4 <= width)
            {
                line("/** " + lines[0] + " */");
                return;
            }
            line("/**");
            for (final String text : lines)
            {
                String rest = text;
                while (rest.length() > width && rest.lastIndexOf(' ', width) > 0)
                {
                    final int cut = rest.lastIndexOf(' ', width);
                    line(" * " + rest.substring(0, cut));
                    rest = rest.substring(cut + 1);
                }
                line(rest.isEmpty() ? " *" : " * " + rest);
            }
            line(" */");
        }

        private void openBrace()
        {
            line("{");
            indent++;
        }

        private void closeBrace()
        {
            trimBlank();
            indent--;
            line("}");
        }

        private void line(final String text)
        {
            out.append("    ".repeat(indent)).append(text).append('\n');
        }

        private void blank()
        {
            out.append('\n');
        }

        private void trimBlank()
        {
            while (out.length() >= 2 && out.charAt(out.length() - 1) == '\n' && out.charAt(out.length() - 2) == '\n')
            {
                out.setLength(out.length() - 1);
            }
        }
    }

    private static boolean hasEnum(final List<Column> columns)
    {
        for (final Column column : columns)
        {
            if (column.type().isEnum())
            {
                return true;
            }
        }
        return false;
    }


    private static String pad(final String text, final int width)
    {
        return text + " ".repeat(width - text.length());
    }

    private static String upperSnake(final String name)
    {
        final StringBuilder snake = new StringBuilder();
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && !Character.isUpperCase(name.charAt(i - 1)))
            {
                snake.append('_');
            }
            snake.append(c);
        }
        return snake.toString().toUpperCase(Locale.ROOT);
    }
}
