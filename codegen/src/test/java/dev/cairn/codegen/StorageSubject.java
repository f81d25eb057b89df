package dev.cairn.codegen;

import dev.cairn.set.IndexComparator;
import dev.cairn.storage.ComponentStorage;

/**
 * One generated storage driven through its typed, generated API with model values: what the model-based tests
 * exercise. Every read goes through a different generated path (accessors by entity, by packed index, through a
 * {@code Ref}, and the record-level {@code get}/{@code getAt}) and comes back as a {@link Row} of raw bits.
 */
interface StorageSubject
{
    /**
     * The storage under test.
     *
     * @return the storage.
     */
    ComponentStorage<?> storage();

    /**
     * Whether the storage has columns (tags do not: their rows are always {@link #TAG_ROW}).
     *
     * @return true for a storage with columns.
     */
    boolean hasColumns();

    /** The row a tag reads back as. */
    Row TAG_ROW = Row.random(new java.util.SplittableRandom(0));

    void emplace(long entity, Row row);

    void add(long entity, Row row);

    void patch(long entity, Row row);

    void patchRecord(long entity, Row row);

    Row read(long entity);

    Row readAt(int index);

    Row readRef(int index);

    Row get(long entity);

    Row getAt(int index);

    void write(long entity, Row row, int mask);

    void writeAt(int index, Row row, int mask);

    void writeRef(int index, Row row, int mask);

    IndexComparator comparing(Row.Column column);
}
