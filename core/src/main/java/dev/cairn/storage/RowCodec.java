package dev.cairn.storage;

import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * The row of a component, which command buffers, deferred adds and snapshot loaders share: its fields back to back in
 * column order, each as its column stores it (native byte order; a boolean a byte 0 or 1, an enum its ordinal, an
 * entity reference its handle). Rows let code that does not know the record class copy components without a record.
 * This class knows the layout, checks the values a row holds and copies rows to and from a storage's columns.
 */
final class RowCodec
{
    /** Where each field starts in a row, in column order, and the row's size at the end. */
    private final int[] offsets;
    /** The row offsets of the entity-reference fields, which loaders and command buffers translate. */
    private final int[] entityOffsets;
    /** The fields whose bytes may hold no value (booleans, enums), where each starts, and the limit of its values. */
    private final Schema.Field[] checkedFields;
    private final int[] checkedOffsets;
    private final int[] checkedLimits;

    RowCodec(final Schema schema, final int[] columnWidths)
    {
        offsets = new int[columnWidths.length + 1];
        for (int k = 0; k < columnWidths.length; k++)
        {
            offsets[k + 1] = offsets[k] + columnWidths[k];
        }
        entityOffsets = schema.fields().stream()
            .filter(field -> field.type() == FieldType.ENTITY)
            .mapToInt(field -> offsets[schema.indexOf(field.name())])
            .toArray();
        checkedFields = schema.fields().stream()
            .filter(field -> field.type() == FieldType.BOOLEAN || field.type() == FieldType.BYTE_ENUM ||
                field.type() == FieldType.SHORT_ENUM)
            .toArray(Schema.Field[]::new);
        checkedOffsets = Arrays.stream(checkedFields)
            .mapToInt(field -> offsets[schema.indexOf(field.name())])
            .toArray();
        checkedLimits = Arrays.stream(checkedFields)
            .mapToInt(field -> field.type() == FieldType.BOOLEAN ? 2 : field.constants().size())
            .toArray();
    }

    int bytes()
    {
        return offsets[offsets.length - 1];
    }

    int fields()
    {
        return offsets.length - 1;
    }

    /** Where field {@code column} starts in a row; the caller checked the column. */
    int offset(final int column)
    {
        return offsets[column];
    }

    int[] entityOffsets()
    {
        return entityOffsets.clone();
    }

    /**
     * Throws if the row at {@code base + at} holds a boolean other than 0 or 1, or an enum ordinal past its constants:
     * the accessors could not read such a value back, and a snapshot holding it would not load.
     */
    void checkValues(final Object base, final long at, final String storageName)
    {
        final int k = invalidValue(base, at);
        if (k >= 0)
        {
            final Schema.Field field = checkedFields[k];
            final int value = value(field, base, at + checkedOffsets[k]);
            throw new IllegalArgumentException(field.type() == FieldType.BOOLEAN ?
                "field " + field.name() + " of a row for " + storageName + " holds " + value + ", where a boolean is " +
                    "0 (false) or 1 (true); nothing was written" :
                "field " + field.name() + " of a row for " + storageName + " holds ordinal " + value + ", where its " +
                    "enum has " + field.constants().size() + " constants (0 to " + (field.constants().size() - 1) +
                    "); write a constant's ordinal(); nothing was written");
        }
    }

    /** The first checked field of the row at {@code base + at} whose bytes hold no value, or -1. */
    int invalidValue(final Object base, final long at)
    {
        for (int k = 0; k < checkedFields.length; k++)
        {
            if (value(checkedFields[k], base, at + checkedOffsets[k]) >= checkedLimits[k])
            {
                return k;
            }
        }
        return -1;
    }

    /** Copies the component at a checked index of {@code storage} into the row at {@code base + at}. */
    void read(final ComponentStorage<?> storage, final int index, final Object base, final long at)
    {
        for (int k = 0; k < fields(); k++)
        {
            final int width = offsets[k + 1] - offsets[k];
            copy(null, storage.columnAddressOf(k) + (long)index * width, base, at + offsets[k], width);
        }
    }

    /** Copies the row at {@code base + at} into the component at a checked index of {@code storage}. */
    void write(final ComponentStorage<?> storage, final int index, final Object base, final long at)
    {
        for (int k = 0; k < fields(); k++)
        {
            final int width = offsets[k + 1] - offsets[k];
            copy(base, at + offsets[k], null, storage.columnAddressOf(k) + (long)index * width, width);
        }
    }

    private static int value(final Schema.Field field, final Object base, final long at)
    {
        return field.type() == FieldType.SHORT_ENUM ?
            UnsafeApi.getShortUnaligned(base, at) & 0xFFFF : UnsafeApi.getByte(base, at) & 0xFF;
    }

    /** Copies one field: a single load and store for the widths fields have, without a native call. */
    private static void copy(
        final Object fromBase, final long from, final Object toBase, final long to, final int width)
    {
        switch (width)
        {
            case Byte.BYTES:
                UnsafeApi.putByte(toBase, to, UnsafeApi.getByte(fromBase, from));
                break;
            case Short.BYTES:
                UnsafeApi.putShortUnaligned(toBase, to, UnsafeApi.getShortUnaligned(fromBase, from));
                break;
            case Integer.BYTES:
                UnsafeApi.putIntUnaligned(toBase, to, UnsafeApi.getIntUnaligned(fromBase, from));
                break;
            case Long.BYTES:
                UnsafeApi.putLongUnaligned(toBase, to, UnsafeApi.getLongUnaligned(fromBase, from));
                break;
            default:
                UnsafeApi.copyMemory(fromBase, from, toBase, to, width);
                break;
        }
    }
}
