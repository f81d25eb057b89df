package dev.cairn.codegen;

import dev.cairn.set.IndexComparator;
import dev.cairn.storage.ComponentStorage;

import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * Drives a tag storage: the typed {@code emplace(long)}, {@code add} and {@code get}; every member reads back as
 * {@link StorageSubject#TAG_ROW} as long as {@code get} returns the shared instance.
 *
 * @param <R> the tag record.
 */
final class TagSubject<R extends Record> implements StorageSubject
{
    private final ComponentStorage<R> storage;
    private final LongConsumer emplace;
    private final R instance;
    private final LongFunction<R> get;
    private final IntFunction<R> getAt;
    private R shared;

    TagSubject(final ComponentStorage<R> storage, final LongConsumer emplace, final R instance)
    {
        this.storage = storage;
        this.emplace = emplace;
        this.instance = instance;
        this.get = storage::get;
        this.getAt = storage::getAt;
    }

    @Override
    public ComponentStorage<?> storage()
    {
        return storage;
    }

    @Override
    public boolean hasColumns()
    {
        return false;
    }

    @Override
    public void emplace(final long entity, final Row row)
    {
        emplace.accept(entity);
    }

    @Override
    public void add(final long entity, final Row row)
    {
        storage.add(entity, instance);
    }

    @Override
    public void patch(final long entity, final Row row)
    {
        storage.patch(entity, instance);
    }

    @Override
    public void patchRecord(final long entity, final Row row)
    {
        storage.patch(entity, instance);
    }

    @Override
    public Row read(final long entity)
    {
        return shared(get.apply(entity));
    }

    @Override
    public Row readAt(final int index)
    {
        return shared(getAt.apply(index));
    }

    @Override
    public Row readRef(final int index)
    {
        return shared(getAt.apply(index));
    }

    @Override
    public Row get(final long entity)
    {
        return shared(get.apply(entity));
    }

    @Override
    public Row getAt(final int index)
    {
        return shared(getAt.apply(index));
    }

    @Override
    public void write(final long entity, final Row row, final int mask)
    {
        throw new UnsupportedOperationException("a tag has no columns");
    }

    @Override
    public void writeAt(final int index, final Row row, final int mask)
    {
        throw new UnsupportedOperationException("a tag has no columns");
    }

    @Override
    public void writeRef(final int index, final Row row, final int mask)
    {
        throw new UnsupportedOperationException("a tag has no columns");
    }

    @Override
    public IndexComparator comparing(final Row.Column column)
    {
        throw new UnsupportedOperationException("a tag has no columns");
    }

    private Row shared(final R tag)
    {
        if (shared == null)
        {
            shared = tag;
        }
        if (tag != shared)
        {
            throw new AssertionError(storage.name() + " returned " + tag + ", not its shared instance");
        }
        return TAG_ROW;
    }
}
