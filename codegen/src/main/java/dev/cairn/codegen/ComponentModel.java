package dev.cairn.codegen;

import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import java.util.List;

/**
 * A checked {@code @Component} record, flattened: its columns in declaration order and the tree of records that
 * {@code get} rebuilds from them. Built by {@link ComponentAnalyzer}, read by {@link StorageGenerator}.
 *
 * @param record      the annotated record.
 * @param packageName the package of the record and of its storage.
 * @param storageName the storage's simple name, for example {@code PositionStorage} or {@code Outer_PositionStorage}.
 * @param policy      the name of the {@code DeletionPolicy} constant.
 * @param tracked     whether the storage records change ticks.
 * @param shape       the record as a tree of nested records and columns.
 * @param columns     the leaves of {@code shape}, in order; empty for a tag.
 */
record ComponentModel(
    TypeElement record,
    String packageName,
    String storageName,
    String policy,
    boolean tracked,
    Shape shape,
    List<Column> columns)
{
    /**
     * Whether the record has no components: a tag, whose storage is a sparse set with no columns.
     *
     * @return true for a tag.
     */
    boolean isTag()
    {
        return columns.isEmpty();
    }

    /** A record component in the tree: a column or a nested record. */
    sealed interface Part permits Column, Shape
    {
    }

    /**
     * One primitive or enum field, after flattening.
     *
     * @param name      the column name used for accessors and parameters, for example {@code posX}.
     * @param path      the field as written in the source, for example {@code pos.x}.
     * @param accessors the record accessors that reach the value from the component record, for example
     *                  {@code [pos, x]}.
     * @param type      how the value is stored.
     * @param enumType  the enum for enum columns, else null.
     * @param doc       the {@code @param} text of the top-level component from the record's Javadoc, or null.
     * @param origin    where errors about this column are reported: the field declared by the top-level record
     *                  component the column comes from (see {@code ComponentAnalyzer.position}).
     */
    record Column(
        String name,
        String path,
        List<String> accessors,
        ColumnType type,
        TypeElement enumType,
        String doc,
        Element origin) implements Part
    {
    }

    /**
     * A record and its components in declaration order.
     *
     * @param type  the record.
     * @param parts one part per record component.
     */
    record Shape(TypeElement type, List<Part> parts) implements Part
    {
    }
}
