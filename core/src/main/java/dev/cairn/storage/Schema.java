package dev.cairn.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fields of a component in column order: each with its name (the path through nested records, {@code pos.x}),
 * its {@link FieldType} and, for an enum, its constants' names. Generated storages declare their schema when they
 * register their type; snapshots write it so that a later version of the component can map its fields by name.
 */
public final class Schema
{
    private final List<Field> fields;

    /**
     * One field.
     *
     * @param name      the field's path, for example {@code x} or {@code transform.angle}.
     * @param type      how it is stored.
     * @param constants an enum's constant names in ordinal order; empty for other types.
     */
    public record Field(String name, FieldType type, List<String> constants)
    {
        /**
         * Checks and copies the parts.
         *
         * @param name      the field's path.
         * @param type      how it is stored.
         * @param constants an enum's constant names in ordinal order; empty for other types.
         */
        public Field
        {
            constants = List.copyOf(constants);
        }
    }

    private Schema(final List<Field> fields)
    {
        this.fields = List.copyOf(fields);
    }

    /**
     * A schema of fields in column order.
     *
     * @param fields the fields.
     * @return the schema.
     */
    public static Schema of(final Field... fields)
    {
        return new Schema(Arrays.asList(fields));
    }

    /**
     * A field that is not an enum.
     *
     * @param name its path.
     * @param type how it is stored; not an enum type.
     * @return the field.
     * @throws IllegalArgumentException if {@code type} is an enum type.
     */
    public static Field field(final String name, final FieldType type)
    {
        if (type.isEnum())
        {
            throw new IllegalArgumentException("field " + name + " is an enum: declare it with enumField(...)");
        }
        return new Field(name, type, List.of());
    }

    /**
     * An enum field.
     *
     * @param name      its path.
     * @param enumClass the enum.
     * @return the field, a {@link FieldType#BYTE_ENUM} or {@link FieldType#SHORT_ENUM} by the number of constants.
     */
    public static Field enumField(final String name, final Class<? extends Enum<?>> enumClass)
    {
        final List<String> names = new ArrayList<>();
        for (final Enum<?> constant : enumClass.getEnumConstants())
        {
            names.add(constant.name());
        }
        return new Field(name, names.size() <= 256 ? FieldType.BYTE_ENUM : FieldType.SHORT_ENUM, names);
    }

    /**
     * The fields in column order.
     *
     * @return an unmodifiable list.
     */
    public List<Field> fields()
    {
        return fields;
    }

    /**
     * The column of the field with a name.
     *
     * @param name a field's path.
     * @return its column number, or -1 if there is none.
     */
    public int indexOf(final String name)
    {
        for (int k = 0; k < fields.size(); k++)
        {
            if (fields.get(k).name().equals(name))
            {
                return k;
            }
        }
        return -1;
    }

    @Override
    public String toString()
    {
        return "Schema" + fields;
    }
}
