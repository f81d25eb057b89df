package dev.cairn.codegen;

/**
 * How one flattened record field is kept in an off-heap column: its width, the {@code UnsafeBuffer} methods that read
 * and write it, and how a comparator orders two values without boxing.
 * <p>
 * Every value is stored in the smallest type that holds it exactly: booleans as a byte 0 or 1, enums as their
 * ordinal in a byte (up to {@value #BYTE_ENUM_LIMIT} constants) or a short (up to {@value #SHORT_ENUM_LIMIT}).
 */
enum ColumnType
{
    BOOLEAN("boolean", "Byte", "Byte", "Boolean", null, 0),
    BYTE("byte", "Byte", "Byte", "Byte", null, 0),
    SHORT("short", "Short", "Short", "Short", "SHORT_SHIFT", 1),
    CHAR("char", "Character", "Char", "Character", "CHAR_SHIFT", 1),
    INT("int", "Integer", "Int", "Integer", "INT_SHIFT", 2),
    FLOAT("float", "Float", "Float", "Float", "FLOAT_SHIFT", 2),
    LONG("long", "Long", "Long", "Long", "LONG_SHIFT", 3),
    DOUBLE("double", "Double", "Double", "Double", "DOUBLE_SHIFT", 3),
    BYTE_ENUM(null, "Byte", "Byte", "Integer", null, 0),
    SHORT_ENUM(null, "Short", "Short", "Integer", "SHORT_SHIFT", 1);

    /** Most enum constants whose ordinals fit an unsigned byte. */
    static final int BYTE_ENUM_LIMIT = 256;

    /** Most enum constants whose ordinals fit an unsigned short. */
    static final int SHORT_ENUM_LIMIT = 65536;

    private final String primitive;
    private final String widthClass;
    private final String bufferType;
    private final String compareClass;
    private final String shiftConstant;
    private final int shift;

    ColumnType(
        final String primitive,
        final String widthClass,
        final String bufferType,
        final String compareClass,
        final String shiftConstant,
        final int shift)
    {
        this.primitive = primitive;
        this.widthClass = widthClass;
        this.bufferType = bufferType;
        this.compareClass = compareClass;
        this.shiftConstant = shiftConstant;
        this.shift = shift;
    }

    /**
     * The column type for an enum with {@code constants} constants.
     *
     * @param constants how many constants the enum declares, 1 to {@link #SHORT_ENUM_LIMIT}.
     * @return {@link #BYTE_ENUM} or {@link #SHORT_ENUM}.
     */
    static ColumnType forEnum(final int constants)
    {
        return constants <= BYTE_ENUM_LIMIT ? BYTE_ENUM : SHORT_ENUM;
    }

    /**
     * Whether the column holds an enum ordinal.
     *
     * @return true for enum columns.
     */
    boolean isEnum()
    {
        return primitive == null;
    }

    /**
     * The Java primitive type of the field, or null for enums (whose Java type is the enum).
     *
     * @return for example {@code "float"}.
     */
    String primitive()
    {
        return primitive;
    }

    /**
     * The {@code java.lang} class whose {@code BYTES} constant is the column width.
     *
     * @return for example {@code "Float"}.
     */
    String widthClass()
    {
        return widthClass;
    }

    /**
     * The {@code java.lang} class whose static {@code compare} orders two values (or two ordinals).
     *
     * @return for example {@code "Float"}.
     */
    String compareClass()
    {
        return compareClass;
    }

    /**
     * The generated constant holding log2 of the width, or null for 1-byte columns (whose offset is the index).
     *
     * @return for example {@code "FLOAT_SHIFT"}.
     */
    String shiftConstant()
    {
        return shiftConstant;
    }

    /**
     * Log2 of the column width in bytes.
     *
     * @return 0 to 3.
     */
    int shift()
    {
        return shift;
    }

    /**
     * The byte offset of a packed index in the column.
     *
     * @param index an int expression.
     * @return for example {@code "index << FLOAT_SHIFT"}.
     */
    String offset(final String index)
    {
        return shiftConstant == null ? index : index + " << " + shiftConstant;
    }

    /**
     * Reads the value at a packed index.
     *
     * @param column the buffer field.
     * @param index  an int expression.
     * @param values for enums the constant holding the enum's values, else ignored.
     * @return the expression.
     */
    String read(final String column, final String index, final String values)
    {
        switch (this)
        {
            case BOOLEAN:
                return column + ".getByte(" + offset(index) + ") != 0";
            case BYTE_ENUM:
            case SHORT_ENUM:
                return values + "[" + ordinal(column, index) + "]";
            default:
                return column + ".get" + bufferType + "(" + offset(index) + ")";
        }
    }

    /**
     * The key a comparator compares with {@link #compareClass()}: the value, or for enums the ordinal.
     *
     * @param column the buffer field.
     * @param index  an int expression.
     * @return the expression.
     */
    String compareKey(final String column, final String index)
    {
        return isEnum() ? ordinal(column, index) : read(column, index, null);
    }

    /**
     * Writes a value at a packed index.
     *
     * @param column the buffer field.
     * @param index  an int expression.
     * @param value  the value expression, of the field's Java type.
     * @return the statement, without the semicolon.
     */
    String write(final String column, final String index, final String value)
    {
        final String stored;
        switch (this)
        {
            case BOOLEAN:
                stored = "(byte)(" + value + " ? 1 : 0)";
                break;
            case BYTE_ENUM:
                stored = "(byte)" + value + ".ordinal()";
                break;
            case SHORT_ENUM:
                stored = "(short)" + value + ".ordinal()";
                break;
            default:
                stored = value;
                break;
        }
        return column + ".put" + bufferType + "(" + offset(index) + ", " + stored + ")";
    }

    private String ordinal(final String column, final String index)
    {
        return this == BYTE_ENUM ?
            column + ".getByte(" + offset(index) + ") & 0xFF" :
            column + ".getShort(" + offset(index) + ") & 0xFFFF";
    }
}
