package dev.cairn.storage;

/**
 * How a component field is kept in its column: what a {@link Schema} records for each field, and what a snapshot
 * writes so that a later version of the component can read it.
 */
public enum FieldType
{
    /** A boolean, stored as a byte 0 or 1. */
    BOOLEAN(1),
    /** A byte. */
    BYTE(1),
    /** A short. */
    SHORT(2),
    /** A char. */
    CHAR(2),
    /** An int. */
    INT(4),
    /** A float. */
    FLOAT(4),
    /** A long. */
    LONG(8),
    /** A double. */
    DOUBLE(8),
    /** An enum of up to 256 constants, stored as its ordinal in a byte. */
    BYTE_ENUM(1),
    /** An enum of up to 65,536 constants, stored as its ordinal in a short. */
    SHORT_ENUM(2),
    /** An entity handle ({@code @EntityRef long}). */
    ENTITY(8);

    private static final FieldType[] VALUES = values();

    private final int width;

    FieldType(final int width)
    {
        this.width = width;
    }

    /**
     * The bytes one value takes in its column.
     *
     * @return 1, 2, 4 or 8.
     */
    public int width()
    {
        return width;
    }

    /**
     * Whether values are enum ordinals.
     *
     * @return true for {@link #BYTE_ENUM} and {@link #SHORT_ENUM}.
     */
    public boolean isEnum()
    {
        return this == BYTE_ENUM || this == SHORT_ENUM;
    }

    /**
     * The type with a given ordinal, as snapshots store it.
     *
     * @param ordinal a value from {@link #ordinal()}.
     * @return the type, or null if none has that ordinal.
     */
    public static FieldType ofOrdinal(final int ordinal)
    {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
