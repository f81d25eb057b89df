package dev.cairn.codegen;

import dev.cairn.codegen.ComponentAnalyzer.UnresolvedTypeException;
import dev.cairn.codegen.ComponentModel.Column;
import dev.cairn.codegen.ComponentModel.Part;
import dev.cairn.codegen.ComponentModel.Shape;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.tools.Diagnostic;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Writes the storage class of one {@code @Component} record: a final subclass of {@code ComponentStorage} with one
 * off-heap column per flattened field, an accessor pair per column by entity and by packed index, a comparator per
 * column, and a {@code Ref} flyweight. The output is meant to read like hand-written code; see
 * {@code docs/components.md} for its shape.
 * <p>
 * Every method the storage and its {@code Ref} declare is recorded as it is written, and a storage is only written
 * if none of them has the signature of another or of an inherited method: the names a component may not take are
 * those the generated code declares, not a list kept beside it.
 */
final class StorageGenerator
{
    private static final String COMPONENT_STORAGE = "dev.cairn.storage.ComponentStorage";

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
    boolean generate(final TypeElement element) throws UnresolvedTypeException
    {
        final ComponentModel model = analyzer.analyze(element);
        if (model == null || !namesInUnnamedPackageAreFree(model))
        {
            return false;
        }
        final Source source = new Source(model);
        final String text = source.render();
        if (!source.membersAreDistinct())
        {
            return false;
        }
        GeneratedSource.write(env, element, "@Component record", GeneratedNames.STORAGE_SUFFIX,
            GeneratedNames.qualified(env.getElementUtils(), element, model.storageName()), text);
        return true;
    }

    /**
     * In the unnamed package a type has no other name than its simple one, so a type the storage names that is called
     * like the storage's nested {@code Ref}, or like the storage itself, cannot be told from it there: an error on the
     * type's use, not a storage that does not compile.
     */
    private boolean namesInUnnamedPackageAreFree(final ComponentModel model)
    {
        if (!model.packageName().isEmpty())
        {
            return true;
        }
        final Set<TypeElement> named = new LinkedHashSet<>();
        collectNamedTypes(model.shape(), named);
        for (final Column column : model.columns())
        {
            if (column.enumType() != null)
            {
                named.add(column.enumType());
            }
        }
        for (final TypeElement type : named)
        {
            final String name = GeneratedNames.outermost(type).getSimpleName().toString();
            if (name.equals(GeneratedNames.REF) || name.equals(model.storageName()))
            {
                error(model.record(), "@Component record " + model.record().getQualifiedName() + " is in the " +
                    "unnamed package and names " + type.getQualifiedName() + ", which its storage " +
                    model.storageName() + " could not tell from its own " + (name.equals(GeneratedNames.REF) ?
                    "nested class Ref" : "name") + ": move them into a package, or rename " + name);
                return false;
            }
        }
        return true;
    }

    private static void collectNamedTypes(final Shape shape, final Set<TypeElement> into)
    {
        into.add(shape.type());
        for (final Part part : shape.parts())
        {
            if (part instanceof Shape)
            {
                collectNamedTypes((Shape)part, into);
            }
        }
    }

    /** The class a generated method is declared in. */
    private enum Owner
    {
        STORAGE, REF
    }

    /**
     * A method the generated code declares.
     *
     * @param owner       the storage or its {@code Ref}.
     * @param signature   name and erased parameter types, for example {@code xAt(int,float)}.
     * @param column      the column it was generated for, or null for a method every storage has.
     * @param description how a clash message names it.
     */
    private record Member(Owner owner, String signature, Column column, String description)
    {
    }

    /** A parameter of a generated method: its type as written, its erasure as a signature names it, its name. */
    private record Parameter(String type, String erasure, String name)
    {
        String declaration()
        {
            return "final " + type + " " + name;
        }
    }

    /** The text of one storage class, and the methods it declares. */
    private final class Source
    {
        private final ComponentModel model;
        private final TypeNames names;
        private final JavaWriter out = new JavaWriter();
        private final Map<TypeElement, String> enumValues = new LinkedHashMap<>();
        private final Map<Column, String> columnConstants = new LinkedHashMap<>();
        /** The private field holding each column's address. */
        private final Map<Column, String> columnAddresses = new LinkedHashMap<>();
        private final List<Member> members = new ArrayList<>();
        private final String record;
        private final String storage;

        Source(final ComponentModel model)
        {
            this.model = model;
            this.storage = model.storageName();
            this.names = new TypeNames(env.getElementUtils(), model.packageName(), Set.of(storage, GeneratedNames.REF));
            this.record = names.of(model.record());
            final Set<String> used = new LinkedHashSet<>();
            for (final Column column : model.columns())
            {
                if (column.type().isEnum() && !enumValues.containsKey(column.enumType()))
                {
                    enumValues.put(column.enumType(),
                        unique(upperSnake(column.enumType().getSimpleName().toString()) + "_VALUES", used));
                }
            }
            final Set<String> fields = new HashSet<>();
            for (final Column column : model.columns())
            {
                columnConstants.put(column, unique(upperSnake(column.name()) + "_COLUMN", used));
                columnAddresses.put(column, unique(column.name() + "Address", fields));
            }
        }

        String render()
        {
            final String typeName = names.of("dev.cairn.storage.ComponentType");
            final String policy = names.of("dev.cairn.DeletionPolicy");
            final String base = names.of(COMPONENT_STORAGE);
            final String generated = GeneratedNames.canMarkGenerated(env.getElementUtils(), model.record()) ?
                GeneratedNames.generatedAnnotation(names.of(GeneratedNames.GENERATED)) : null;

            classComment();
            if (generated != null)
            {
                out.line(generated);
            }
            out.line("public final class " + storage + " extends " + base + "<" + record + ">");
            out.open();
            out.javadoc("The component type: {@link " + record + "} with deletion policy {@link " + policy + "#" +
                model.policy() + "}.");
            out.line("public static final " + typeName + "<" + record + ", " + storage + "> TYPE = " + typeName +
                ".register(");
            final List<String> arguments = List.of(record + ".class", policy + "." + model.policy(),
                typeName + "." + (model.tracked() ? "TRACKED" : "UNTRACKED"), storage + "::new");
            final String argumentLine = "    " + String.join(", ", arguments) + ",";
            if (argumentLine.length() + 4 <= 120)
            {
                out.line(argumentLine);
            }
            else
            {
                for (final String argument : arguments)
                {
                    out.line("    " + argument + ",");
                }
            }
            final String schema = names.of("dev.cairn.storage.Schema");
            final String fieldType = names.of("dev.cairn.storage.FieldType");
            final List<String> fields = new ArrayList<>();
            for (final Column column : model.columns())
            {
                fields.add(column.type().isEnum() ?
                    schema + ".enumField(\"" + column.path() + "\", " + names.of(column.enumType()) + ".class)" :
                    schema + ".field(\"" + column.path() + "\", " + fieldType + "." + column.type().name() + ")");
            }
            final String oneLine = "    " + schema + ".of(" + String.join(", ", fields) + "));";
            if (oneLine.length() + 4 <= 120)
            {
                out.line(oneLine);
            }
            else
            {
                out.line("    " + schema + ".of(");
                for (int k = 0; k < fields.size(); k++)
                {
                    out.line("        " + fields.get(k) + (k == fields.size() - 1 ? "));" : ","));
                }
            }
            out.blank();
            if (model.isTag())
            {
                out.line("private static final " + record + " INSTANCE = new " + record + "();");
            }
            else
            {
                columnConstants();
            }
            out.blank();
            constructorAndCreate();
            if (model.isTag())
            {
                tagMethods();
                recordedRemoval();
            }
            else
            {
                columnsMoved();
                movePayload();
                swapPayload();
                writeRow();
                emplaceAndPatch();
                recordedRemoval();
                recordMethods();
                for (final Column column : model.columns())
                {
                    accessors(column);
                }
                ref();
            }
            out.close();

            final JavaWriter file = new JavaWriter();
            if (!model.packageName().isEmpty())
            {
                file.line("package " + model.packageName() + ";").blank();
            }
            for (final String imported : names.imports())
            {
                file.line("import " + imported + ";");
            }
            return file.blank() + out.toString();
        }

        /** The storage's rules, said once here so that member comments only say what is particular to them. */
        private void classComment()
        {
            if (model.isTag())
            {
                out.javadoc("Off-heap storage of the tag {@link " + record + "}: the record has no fields, so the " +
                    "storage has no columns and is the set of entities that carry the tag. Generated from {@link " +
                    record + "} by cairn-codegen; do not edit.",
                    "<p>",
                    "A method taking an entity throws {@link IllegalArgumentException} if the entity does not have " +
                    "the tag (or, when adding, already has it or is not alive), one taking a packed index throws " +
                    "{@link IndexOutOfBoundsException} if it is not from 0 to {@link #size()} - 1, and every accessor " +
                    "throws {@link IllegalStateException} once the storage is closed. Nothing allocates. Not " +
                    "thread-safe.");
                return;
            }
            final List<String> fields = new ArrayList<>();
            for (final Column column : model.columns())
            {
                fields.add("{@code " + column.path() + "} (" + javaType(column) + ")");
            }
            final Column first = model.columns().get(0);
            final String base = names.of("dev.cairn.storage.ComponentStorage");
            out.javadoc("Off-heap storage of {@link " + record + "} components, one column per field: " +
                String.join(", ", fields) + ". Generated from {@link " + record + "} by cairn-codegen; do not edit. " +
                "Each field has accessors by entity ({@code " + first.name() + "(entity)}), by packed index ({@code " +
                first.name() + "At(index)}), in bulk ({@code read" + ComponentAnalyzer.capitalise(first.name()) +
                "At}) and through a {@link Ref}; what they check and throw, and what a walk defers, is said once on " +
                "{@link " + base + "}." + (hasEnum() ? " An enum field must not be null." : ""));
        }

        private void columnConstants()
        {
            final List<Column> columns = model.columns();
            final List<String> widths = new ArrayList<>();
            for (int k = 0; k < columns.size(); k++)
            {
                final Column column = columns.get(k);
                widths.add(bytes(column.type()));
                out.line("private static final int " + columnConstants.get(column) + " = " + k + ";");
            }
            out.list("private static final int[] COLUMN_WIDTHS = {", widths, "};");
            for (final Map.Entry<TypeElement, String> entry : enumValues.entrySet())
            {
                final String enumName = names.of(entry.getKey());
                out.line("private static final " + enumName + "[] " + entry.getValue() + " = " + enumName +
                    ".values();");
            }
            out.blank();
            for (final Column column : columns)
            {
                out.line("private long " + columnAddresses.get(column) + ";");
            }
        }

        private void columnsMoved()
        {
            final List<String> refresh = new ArrayList<>();
            refresh.add("super.columnsMoved();");
            for (final Column column : model.columns())
            {
                refresh.add(columnAddresses.get(column) + " = columnAddress(" + columnConstants.get(column) + ");");
            }
            override("protected void columnsMoved()", body(refresh));
        }

        /** The move of one slot's fields to another slot, one load and store per field. */
        private void movePayload()
        {
            slotMethod("protected void movePayload(final int from, final int to)",
                column -> column.type().copy(memory(), address(column, "", "to"), address(column, "", "from")),
                "moveTicks(from, to);");
        }

        /** The exchange of two slots' fields, two loads and two stores per field. */
        private void swapPayload()
        {
            slotMethod("protected void swapPayload(final int a, final int b)",
                column -> column.type().swap(memory(), address(column, "", "a"), address(column, "", "b")),
                "swapTicks(a, b);");
        }

        /** An override with one statement per column and, for a tracked component, the same done to its ticks. */
        private void slotMethod(
            final String signature, final Function<Column, String> perColumn, final String ticks)
        {
            final List<String> statements = new ArrayList<>();
            for (final Column column : model.columns())
            {
                statements.add(perColumn.apply(column) + ";");
            }
            if (model.tracked())
            {
                statements.add(ticks);
            }
            override(signature, body(statements.toArray(new String[0])));
        }

        /** The copy of a row held in a byte array into the columns, one load and store per field. */
        private void writeRow()
        {
            final List<String> copies = new ArrayList<>();
            int offset = 0;
            for (final Column column : model.columns())
            {
                copies.add(column.type().copyFromRow(memory(), address(column, "", "index"), "row",
                    offset == 0 ? "offset" : "offset + " + offset) + ";");
                offset += column.type().width();
            }
            override("protected void writeRow(final int index, final byte[] row, final int offset)",
                body(copies.toArray(new String[0])));
        }

        private void constructorAndCreate()
        {
            final String clock = names.of("dev.cairn.storage.Clock");
            out.list("private " + storage + "(", List.of("final " + names.of("dev.cairn.internal.OffHeap") + " offHeap",
                "final " + names.of("dev.cairn.internal.Walks") + " walks",
                "final " + names.of("dev.cairn.internal.EntityPool") + " pool", "final " + clock + " clock"), ")");
            out.open();
            out.line("super(TYPE, offHeap, walks, pool, clock, " + (model.isTag() ? "new int[0]" : "COLUMN_WIDTHS") +
                ");");
            out.close();
            out.blank();
            out.javadoc("A standalone storage, owning its memory until {@link #close()}.");
            method(Owner.STORAGE, null, "public static " + storage, "create", List.of(),
                body("return new " + storage + "(null, null, null, new " + clock + "());"));
        }

        private void tagMethods()
        {
            final String objects = names.of("java.util.Objects");
            final Parameter entity = new Parameter("long", "long", "entity");
            out.javadoc("Adds the tag to an entity (recorded for the end of the walk inside walks and listeners).", "",
                "@param entity an entity without the tag.");
            method(Owner.STORAGE, null, "public void", "emplace", List.of(entity), body(
                "if (isDeferring())",
                "{",
                "    deferAdd(entity);",
                "    return;",
                "}",
                "added(entity, insertMember(entity));"));
            override("public void add(final long entity, final " + record + " component)",
                body(objects + ".requireNonNull(component, \"component\");", "emplace(entity);"));
            override("public void patch(final long entity, final " + record + " component)",
                body(objects + ".requireNonNull(component, \"component\");",
                    "updated(entity, indexForPatch(entity));"));
            final String commands = names.of("dev.cairn.command.CommandBuffer");
            out.javadoc("Records adding the tag to an entity, for {@code commands} to make when applied; thread-safe.", "",
                "@param commands the command buffer.",
                "@param entity   an entity of this storage's world, or a placeholder {@code commands.create()} returned.");
            method(Owner.STORAGE, null, "public void", "emplace",
                List.of(new Parameter(commands, commands, "commands"), entity), body("commands.add(entity, this);"));
            override("public " + record + " get(final long entity)", body("requireIndex(entity);", "return INSTANCE;"));
            override("public " + record + " getAt(final int index)", body("checkIndex(index);", "return INSTANCE;"));
        }

        private void emplaceAndPatch()
        {
            final List<Column> columns = model.columns();
            final Set<String> taken = new HashSet<>();
            columns.forEach(column -> taken.add(column.name()));
            final String row = unused("row", taken);
            final List<String> emplaceDoc = new ArrayList<>(List.of(
                "Adds the component to an entity with these fields.", ""));
            emplaceDoc.addAll(params(columns, "an entity without the component."));
            out.javadoc(emplaceDoc.toArray(new String[0]));
            final List<String> emplace = new ArrayList<>(requireEnums());
            emplace.add("if (isDeferring())");
            emplace.add("{");
            emplace.add("    " + rowWriterName() + "(deferAdd(entity), " + String.join(", ", fieldNames()) + ");");
            emplace.add("    return;");
            emplace.add("}");
            emplace.add("final int index = insertMember(entity);");
            for (final Column column : columns)
            {
                emplace.add(writeParameter(column) + ";");
            }
            emplace.add("added(entity, index);");
            method(Owner.STORAGE, null, "public void", "emplace", fieldParameters(), body(emplace));
            override("public void add(final long entity, final " + record + " component)",
                () -> out.list("emplace(", fieldsOf("component"), ");"));

            final List<String> patchDoc = new ArrayList<>(List.of(
                "Overwrites every field of an entity's component.", ""));
            patchDoc.addAll(params(columns, "an entity with the component."));
            out.javadoc(patchDoc.toArray(new String[0]));
            final List<String> patch = new ArrayList<>(requireEnums());
            patch.add("final int index = indexForPatch(entity);");
            for (final Column column : columns)
            {
                patch.add(writeParameter(column) + ";");
            }
            patch.add("updated(entity, index);");
            method(Owner.STORAGE, null, "public void", "patch", fieldParameters(), body(patch),
                " that writes the whole " + model.record().getSimpleName());
            override("public void patch(final long entity, final " + record + " component)",
                () -> out.list("patch(", fieldsOf("component"), ");"));
            recorded(false);
            recorded(true);
            final List<Parameter> writerParameters = new ArrayList<>();
            writerParameters.add(new Parameter(names.of("dev.cairn.internal.Row"), names.of("dev.cairn.internal.Row"),
                row));
            writerParameters.addAll(fieldParameters().subList(1, fieldParameters().size()));
            final List<String> writes = new ArrayList<>();
            int offset = 0;
            for (final Column column : columns)
            {
                writes.add(column.type().writeRow(row, String.valueOf(offset), column.name()) + ";");
                offset += column.type().width();
            }
            out.javadoc("Writes the fields into a row recorded for later.");
            method(Owner.STORAGE, null, "private static void", rowWriterName(), writerParameters, body(writes),
                " that writes a row");
        }

        /** The name of the private method that writes the fields into a row: not a field's accessor's name. */
        private String rowWriterName()
        {
            final Set<String> taken = new HashSet<>();
            model.columns().forEach(column -> taken.add(column.name()));
            return unused("writeFields", taken);
        }

        private List<String> fieldNames()
        {
            final List<String> fieldNames = new ArrayList<>();
            for (final Parameter parameter : fieldParameters().subList(1, fieldParameters().size()))
            {
                fieldNames.add(parameter.name());
            }
            return fieldNames;
        }

        private void recordMethods()
        {
            override("public " + record + " get(final long entity)", body("return getAt(requireIndex(entity));"));
            final List<String> getAt = new ArrayList<>();
            getAt.add("checkIndex(index);");
            construct(model.shape(), "", getAt);
            getAt.set(1, "return " + getAt.get(1));
            getAt.set(getAt.size() - 1, getAt.get(getAt.size() - 1) + ";");
            override("public " + record + " getAt(final int index)", body(getAt));
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

        private void accessors(final Column column)
        {
            final String type = javaType(column);
            final String name = column.name();
            final String field = "{@code " + column.path() + "}";
            final Parameter entity = new Parameter("long", "long", "entity");
            final Parameter index = new Parameter("int", "int", "index");
            final Parameter value = new Parameter(type, erasure(column), "value");

            out.javadoc("The " + field + " of an entity" + meaning(column) + ".");
            method(Owner.STORAGE, column, "public " + type, name, List.of(entity),
                body("return " + read(column, "requireIndex(entity)") + ";"));
            out.javadoc("Sets the " + field + " of an entity.");
            method(Owner.STORAGE, column, "public void", name, List.of(entity, value), model.tracked() ?
                body("final int index = requireIndex(entity);", write(column, "index", "value") + ";",
                    "stampChanged(index);") :
                body(write(column, "requireIndex(entity)", "value") + ";"));
            out.javadoc("The " + field + " at a packed index" + meaning(column) + ".");
            method(Owner.STORAGE, column, "public " + type, name + "At", List.of(index),
                body("return " + read(column, "checkIndex(index)") + ";"));
            out.javadoc("Sets the " + field + " at a packed index.");
            method(Owner.STORAGE, column, "public void", name + "At", List.of(index, value), model.tracked() ?
                body(write(column, "checkIndex(index)", "value") + ";", "stampChanged(index);") :
                body(write(column, "checkIndex(index)", "value") + ";"));

            out.javadoc("The " + field + " column over {@code [0, size())}, for bulk processing (see {@link " +
                names.of("dev.cairn.storage.Column") + "}).");
            method(Owner.STORAGE, column, "public " + names.of("dev.cairn.storage.Column"), name + "Column",
                List.of(), body("return column(" + columnConstants.get(column) + ", " +
                    bytes(column.type()) + ");"));

            final String order = column.type().isEnum() ? "Enum.compareTo" : column.type().compareClass() +
                ".compare";
            out.javadoc("Orders packed indices by " + field + " as {@code " + order + "} does, without boxing.");
            method(Owner.STORAGE, column, "public " + names.of("dev.cairn.set.IndexComparator"),
                "comparing" + ComponentAnalyzer.capitalise(name), List.of(),
                () -> out.list("return " + names.of("dev.cairn.set.IndexComparator") + ".of(this, (left, right) -> " +
                        names.lang(column.type().compareClass()) + ".compare(",
                    List.of(column.type().compareKey(memory(), address(column, "", "checkIndex(left)")),
                        column.type().compareKey(memory(), address(column, "", "checkIndex(right)"))),
                    "));"));

            bulkAccessors(column);
        }

        /**
         * The bulk accessors of a column: {@code readXAt} copies a range of packed indices into an array and
         * {@code writeXAt} copies an array back, one bulk copy each for a primitive column and an element loop for a
         * boolean or an enum, which the column stores as a byte or an ordinal.
         */
        private void bulkAccessors(final Column column)
        {
            final String type = javaType(column);
            final String capitalised = ComponentAnalyzer.capitalise(column.name());
            final String field = "{@code " + column.path() + "}";
            final boolean raw = column.type() != ColumnType.BOOLEAN && !column.type().isEnum();
            final Parameter index = new Parameter("int", "int", "index");
            final Parameter offset = new Parameter("int", "int", "offset");
            final Parameter length = new Parameter("int", "int", "length");
            out.javadoc("Copies " + field + " of indices {@code [index, index + length)} into {@code target} from {@code offset}.");
            final List<String> read = new ArrayList<>();
            if (raw)
            {
                read.add("checkCopyOut(index, target, offset, length);");
                read.add(memory() + ".copyOut(" + address(column, "", "index") + ", target, offset, length);");
            }
            else
            {
                read.add("checkCopyOut(index, target, offset, length);");
                read.addAll(loop("target[offset + i] = " + read(column, "(index + i)") + ";"));
            }
            method(Owner.STORAGE, column, "public void", "read" + capitalised + "At", List.of(index,
                new Parameter(type + "[]", erasure(column) + "[]", "target"), offset, length), body(read));

            out.javadoc("Copies {@code source} from {@code offset} into " + field + " of indices {@code [index, index + length)}.");
            final List<String> write = new ArrayList<>();
            if (raw)
            {
                write.add("checkCopyIn(index, source, offset, length);");
                write.add(memory() + ".copyIn(source, offset, " + address(column, "", "index") + ", length);");
            }
            else
            {
                write.add("checkCopyIn(index, source, offset, length);");
                if (column.type().isEnum())
                {
                    write.add("requireConstants(source, offset, length, \"" + column.path() + "\");");
                }
                write.addAll(loop(write(column, "(index + i)", "source[offset + i]") + ";"));
            }
            if (model.tracked())
            {
                write.add("stampChanged(index, length);");
            }
            method(Owner.STORAGE, column, "public void", "write" + capitalised + "At", List.of(index,
                new Parameter(type + "[]", erasure(column) + "[]", "source"), offset, length), body(write));
        }

        /** {@code for (int i = 0; i < length; i++) { statement }}, as lines of a body. */
        private List<String> loop(final String statement)
        {
            return List.of("for (int i = 0; i < length; i++)", "{", "    " + statement, "}");
        }

        private void ref()
        {
            final String entityType = names.of("dev.cairn.Entity");
            out.javadoc("A flyweight on one entity's component, positioned by walks (see {@link " +
                names.of("dev.cairn.storage.ComponentStorage") + "}).");
            out.line("public static final class Ref");
            out.open();
            out.line("private final " + storage + " storage;");
            out.line("private int index;");
            out.line("private long entity = " + entityType + ".NULL;");
            out.line("private long layout = -1;");
            out.blank();
            out.javadoc("Creates a reference on no entity, over {@code storage}.");
            out.block("public Ref(final " + storage + " storage)", List.of("this.storage = storage;"));
            out.blank();
            final Parameter index = new Parameter("int", "int", "index");
            final Parameter entityParameter = new Parameter("long", "long", "entity");
            final Parameter hint = new Parameter("int", "int", "hint");
            out.javadoc("Positions this reference on the member at a packed index (on no entity where none is).");
            method(Owner.REF, null, "public Ref", "moveTo", List.of(index), body(
                "final long entity = storage.memberAt(index);",
                "this.index = index;",
                "this.entity = entity;",
                "this.layout = entity == " + entityType + ".NULL ? -1 : storage.layoutVersion();",
                "return this;"));
            out.javadoc("Positions this reference on {@code entity}, which the caller knows is at {@code index}.");
            method(Owner.REF, null, "public void", "moveTo", List.of(index, entityParameter), body(
                "this.index = storage.checkIndex(index);",
                "this.entity = entity;",
                "this.layout = entity == " + entityType + ".NULL ? -1 : storage.layoutVersion();"));
            out.javadoc("Positions this reference on an entity, looking at {@code hint} first; false if it lacks the " +
                "component.");
            method(Owner.REF, null, "public boolean", "moveToEntity", List.of(entityParameter, hint), body(
                "final int index = storage.indexOf(entity, hint);",
                "this.index = index;",
                "this.entity = index < 0 ? " + entityType + ".NULL : entity;",
                "this.layout = index < 0 ? -1 : storage.layoutVersion();",
                "return index >= 0;"));
            out.javadoc("Puts this reference on no entity: its accessors throw until it is positioned again.");
            method(Owner.REF, null, "public void", "leave", List.of(), body(
                "this.entity = " + entityType + ".NULL;",
                "this.layout = -1;"));
            out.javadoc("The packed index this reference was positioned at.");
            method(Owner.REF, null, "public int", "index", List.of(), body("return index;"));
            out.javadoc("The entity this reference was positioned on, or {@link " + entityType + "#NULL}.");
            method(Owner.REF, null, "public long", "entity", List.of(), body("return entity;"));
            final String slot = "storage.refIndex(index, entity, layout)";
            for (final Column column : model.columns())
            {
                final String field = "{@code " + column.path() + "}";
                out.javadoc("The " + field + " of the entity" + meaning(column) + ".");
                method(Owner.REF, column, "public " + javaType(column), column.name(), List.of(),
                    body("return " + column.type().read(memory(), address(column, "storage.", slot),
                        enumValues.get(column.enumType())) + ";"));
                out.javadoc("Sets the " + field + " of the entity.");
                method(Owner.REF, column, "public void", column.name(),
                    List.of(new Parameter(javaType(column), erasure(column), "value")), model.tracked() ?
                    body("final int at = " + slot + ";", column.type().write(memory(), address(column, "storage.", "at"),
                        "value") + ";", "storage.stampChanged(at);") :
                    body(column.type().write(memory(), address(column, "storage.", slot), "value") + ";"));
            }
            out.javadoc("Reads the entity's component into a new record.");
            method(Owner.REF, null, "public " + record, "get", List.of(), body("return storage.getAt(" + slot + ");"));
            out.close();
        }

        /** Writes a generated method and records it, so that clashes are found among what is really declared. */
        private void method(
            final Owner owner,
            final Column column,
            final String modifiersAndType,
            final String name,
            final List<Parameter> parameters,
            final Runnable body)
        {
            method(owner, column, modifiersAndType, name, parameters, body, "");
        }

        private void method(
            final Owner owner,
            final Column column,
            final String modifiersAndType,
            final String name,
            final List<Parameter> parameters,
            final Runnable body,
            final String purpose)
        {
            final List<String> erasures = new ArrayList<>();
            final List<String> declarations = new ArrayList<>();
            for (final Parameter parameter : parameters)
            {
                erasures.add(parameter.erasure());
                declarations.add(parameter.declaration());
            }
            final String signature = name + "(" + String.join(",", erasures) + ")";
            final String description = column != null ?
                "component " + column.origin().getSimpleName() + " (for " + column.path() + ")" :
                "the generated " + qualify(owner, display(signature)) + purpose;
            members.add(new Member(owner, signature, column, description));
            out.list(modifiersAndType + " " + name + "(", declarations, ")");
            out.open();
            body.run();
            out.close();
            out.blank();
        }

        /** An implementation of a {@code ComponentStorage} method, which takes its comment from there. */
        private void override(final String declaration, final Runnable body)
        {
            out.line("@" + names.lang("Override"));
            out.line(declaration);
            out.open();
            body.run();
            out.close();
            out.blank();
        }

        /** A method body of the given statements. */
        private Runnable body(final String... statements)
        {
            return body(List.of(statements));
        }

        private Runnable body(final List<String> statements)
        {
            return () ->
            {
                for (final String statement : statements)
                {
                    out.line(statement);
                }
            };
        }

        /**
         * Reports, on the record component responsible, every generated method whose signature another generated
         * or inherited method already has.
         *
         * @return true if there is none.
         */
        boolean membersAreDistinct()
        {
            if (model.isTag())
            {
                return true;
            }
            final TypeElement base = env.getElementUtils().getTypeElement(COMPONENT_STORAGE);
            if (base == null)
            {
                error(ComponentAnalyzer.position(model.record()), COMPONENT_STORAGE + " is not on the compile " +
                    "classpath: add the dependency dev.cairn:cairn-core");
                return false;
            }
            final Map<String, Member> declared = new LinkedHashMap<>();
            inherited(Owner.STORAGE, base, declared);
            inherited(Owner.REF, env.getElementUtils().getTypeElement("java.lang.Object"), declared);
            final Set<Column> reported = new HashSet<>();
            for (final Member member : members)
            {
                final Member holder = declared.putIfAbsent(member.owner() + " " + member.signature(), member);
                if (holder == null)
                {
                    continue;
                }
                final Member blamed = member.column() != null ? member : holder;
                final Member other = blamed == member ? holder : member;
                if (blamed.column() == null)
                {
                    throw new IllegalStateException("the generator declares " + member.signature() + " twice");
                }
                if (reported.add(blamed.column()))
                {
                    final Column column = blamed.column();
                    error(column.origin(), "Component " + column.origin().getSimpleName() + " of " +
                        model.record().getSimpleName() + " generates the method " +
                        qualify(blamed.owner(), display(blamed.signature())) + ", which clashes with " +
                        other.description() + ": rename the component");
                }
            }
            return reported.isEmpty();
        }

        private void inherited(final Owner owner, final TypeElement type, final Map<String, Member> declared)
        {
            for (final Element member : env.getElementUtils().getAllMembers(type))
            {
                if (member.getKind() == ElementKind.METHOD && !member.getModifiers().contains(Modifier.PRIVATE))
                {
                    final ExecutableElement method = (ExecutableElement)member;
                    final List<String> parameters = new ArrayList<>();
                    for (final VariableElement parameter : method.getParameters())
                    {
                        parameters.add(env.getTypeUtils().erasure(parameter.asType()).toString());
                    }
                    final String signature = method.getSimpleName() + "(" + String.join(",", parameters) + ")";
                    declared.putIfAbsent(owner + " " + signature, new Member(owner, signature, null,
                        display(signature) + " inherited from " +
                        ((TypeElement)method.getEnclosingElement()).getQualifiedName()));
                }
            }
        }

        private String qualify(final Owner owner, final String signature)
        {
            return owner == Owner.REF ? storage + "." + GeneratedNames.REF + "." + signature : signature;
        }

        /**
         * {@code emplace(commands, entity, fields...)} or {@code patch(commands, ...)}: records the command with its
         * fields written into the buffer's row, at offsets that follow {@code ComponentStorage.rowOffset}.
         */
        private void recorded(final boolean patch)
        {
            final List<Column> columns = model.columns();
            final String commandBuffer = names.of("dev.cairn.command.CommandBuffer");
            final Set<String> taken = new HashSet<>();
            columns.forEach(column -> taken.add(column.name()));
            final String commands = unused("commands", taken);
            final String row = unused("row", taken);
            out.javadoc("Records {@code " + (patch ? "patch" : "emplace") + "} for {@code " + commands + "} to make " +
                "when applied; thread-safe.");
            final List<String> statements = new ArrayList<>(requireEnums());
            statements.add(rowWriterName() + "(" + commands + ".record(" + patch + ", this, entity), " +
                String.join(", ", fieldNames()) + ");");
            final List<Parameter> parameters = new ArrayList<>();
            parameters.add(new Parameter(commandBuffer, commandBuffer, commands));
            parameters.addAll(fieldParameters());
            method(Owner.STORAGE, null, "public void", patch ? "patch" : "emplace", parameters, body(statements),
                " that records");
        }

        /** {@code remove(commands, entity)}, spelled like the recording {@code emplace} and {@code patch}. */
        private void recordedRemoval()
        {
            final String commands = names.of("dev.cairn.command.CommandBuffer");
            out.javadoc("Records {@code remove} for {@code commands} to make when applied; thread-safe.");
            method(Owner.STORAGE, null, "public void", "remove",
                List.of(new Parameter(commands, commands, "commands"), new Parameter("long", "long", "entity")),
                body("commands.remove(entity, this);"));
        }

        /** Pads the names of {@code @param} lines to one width, as {@link #params} does for its own. */
        private static void alignParams(final List<String> doc)
        {
            int width = 0;
            for (final String line : doc)
            {
                if (line.startsWith("@param "))
                {
                    width = Math.max(width, line.split(" ")[1].length());
                }
            }
            for (int k = 0; k < doc.size(); k++)
            {
                final String line = doc.get(k);
                if (line.startsWith("@param "))
                {
                    final String[] parts = line.split(" +", 3);
                    doc.set(k, "@param " + pad(parts[1], width) + " " + parts[2]);
                }
            }
        }

        private static String unused(final String name, final Set<String> taken)
        {
            String candidate = name;
            while (taken.contains(candidate))
            {
                candidate = candidate + "_";
            }
            return candidate;
        }

        /** Null enums are refused before anything changes, so a failed emplace or patch leaves no half-written row. */
        private List<String> requireEnums()
        {
            final List<String> statements = new ArrayList<>();
            for (final Column column : model.columns())
            {
                if (column.type().isEnum())
                {
                    statements.add(names.of("java.util.Objects") + ".requireNonNull(" + column.name() + ", \"" +
                        model.record().getSimpleName() + "." + column.path() + " is null; an enum field holds one of " +
                        column.enumType().getSimpleName() + "'s constants\");");
                }
            }
            return statements;
        }

        /** The {@code @param} lines of a method taking an entity and every field, names aligned. */
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
                final boolean topLevel = column.path().equals(column.origin().getSimpleName().toString());
                final String doc = topLevel && column.doc() != null ? column.doc() + "." :
                    "the {@code " + column.path() + "} field.";
                docs.add("@param " + pad(column.name(), width) + " " + doc);
            }
            return docs;
        }

        private List<Parameter> fieldParameters()
        {
            final List<Parameter> parameters = new ArrayList<>();
            parameters.add(new Parameter("long", "long", "entity"));
            for (final Column column : model.columns())
            {
                parameters.add(new Parameter(javaType(column), erasure(column), column.name()));
            }
            return parameters;
        }

        /** {@code entity} and the accessor chains that read every field of {@code variable}. */
        private List<String> fieldsOf(final String variable)
        {
            final List<String> values = new ArrayList<>();
            values.add("entity");
            for (final Column column : model.columns())
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

        /** What the record's Javadoc says about the component a column comes from, as a suffix; or nothing. */
        private String meaning(final Column column)
        {
            if (column.doc() == null)
            {
                return "";
            }
            final String component = column.origin().getSimpleName().toString();
            return column.path().equals(component) ? ": " + column.doc() :
                " (in {@code " + component + "}: " + column.doc() + ")";
        }

        private boolean hasEnum()
        {
            for (final Column column : model.columns())
            {
                if (column.type().isEnum())
                {
                    return true;
                }
            }
            return false;
        }

        private String javaType(final Column column)
        {
            return column.type().isEnum() ? names.of(column.enumType()) : column.type().primitive();
        }

        /** Reads a column at an index expression that checks (or has checked) the index. */
        private String read(final Column column, final String index)
        {
            return column.type().read(memory(), address(column, "", index), enumValues.get(column.enumType()));
        }

        /**
         * Writes the parameter named after a column at {@code index}, reading the column's address field through
         * {@code this}: a parameter may bear the name of another column's address field ({@code xAddress} for a
         * component {@code x}) and would hide it.
         */
        private String writeParameter(final Column column)
        {
            return column.type().write(memory(), address(column, "this.", "index"), column.name());
        }

        private String write(final Column column, final String index, final String value)
        {
            return column.type().write(memory(), address(column, "", index), value);
        }

        /** How the storage names {@code dev.cairn.internal.Memory}, whose raw reads and writes it makes. */
        private String memory()
        {
            return names.of("dev.cairn.internal.Memory");
        }

        /** {@code xAddress + (long)index * Float.BYTES}, with the column field read through {@code owner}. */
        private String address(final Column column, final String owner, final String index)
        {
            final String widthClass = column.type().widthClass();
            final String field = owner + columnAddresses.get(column);
            return widthClass.equals("Byte") ? field + " + " + index :
                field + " + (long)" + index + " * " + bytes(column.type());
        }

        /**
         * A column's width: {@code Float.BYTES}, or the number where a type of the package hides the {@code java.lang}
         * class, since {@code java.lang.Float.BYTES} would mean a field or parameter called {@code java} if the record
         * has one.
         */
        private String bytes(final ColumnType type)
        {
            final String widthClass = names.lang(type.widthClass());
            return widthClass.startsWith("java.lang.") ? Integer.toString(type.width()) : widthClass + ".BYTES";
        }
    }

    private void error(final Element element, final String message)
    {
        env.getMessager().printMessage(Diagnostic.Kind.ERROR, message, element);
    }

    private static String erasure(final Column column)
    {
        return column.type().isEnum() ? column.enumType().getQualifiedName().toString() : column.type().primitive();
    }

    private static String display(final String signature)
    {
        return signature.replace(",", ", ");
    }

    private static String unique(final String name, final Set<String> used)
    {
        String unique = name;
        for (int n = 2; !used.add(unique); n++)
        {
            unique = name + "_" + n;
        }
        return unique;
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
