package dev.cairn.codegen;

/**
 * How one flattened record field is kept in an off-heap column: its width, the raw {@code dev.cairn.internal.Memory}
 * accessors that read and write it at an address ({@code Memory.getFloat(address)}, {@code Memory.putFloat(address,
 * value)}, ...), and how a comparator orders two values without boxing.
 * <p>
 * Every value is stored in the smallest type that holds it exactly: booleans as a byte 0 or 1, enums as their
 * ordinal in a byte (up to {@value #BYTE_ENUM_LIMIT} constants) or a short (up to {@value #SHORT_ENUM_LIMIT}).
 * An {@code @EntityRef long} is a long column that snapshots know holds an entity handle.
 */
enum ColumnType
{
    BOOLEAN("boolean", "Byte", "Byte", "Boolean"),
    BYTE("byte", "Byte", "Byte", "Byte"),
    SHORT("short", "Short", "Short", "Short"),
    CHAR("char", "Character", "Char", "Character"),
    INT("int", "Integer", "Int", "Integer"),
    FLOAT("float", "Float", "Float", "Float"),
    LONG("long", "Long", "Long", "Long"),
    DOUBLE("double", "Double", "Double", "Double"),
    ENTITY("long", "Long", "Long", "Long"),
    BYTE_ENUM(null, "Byte", "Byte", "Integer"),
    SHORT_ENUM(null, "Short", "Short", "Integer");

    // The constant names double as the names of dev.cairn.storage.FieldType's constants in generated schemas.

    /** Most enum constants whose ordinals fit an unsigned byte. */
    static final int BYTE_ENUM_LIMIT = 256;

    /** Most enum constants whose ordinals fit an unsigned short. */
    static final int SHORT_ENUM_LIMIT = 65536;

    private final String primitive;
    private final String widthClass;
    private final String accessorType;
    private final String compareClass;

    ColumnType(final String primitive, final String widthClass, final String accessorType, final String compareClass)
    {
        this.primitive = primitive;
        this.widthClass = widthClass;
        this.accessorType = accessorType;
        this.compareClass = compareClass;
    }

    /**
     * The column type for an enum with {@code constants} constants.
     *
     * @param constants how many constants the enum declares.
     * @return {@link #BYTE_ENUM} or {@link #SHORT_ENUM}.
     */
    static ColumnType forEnum(final int constants)
    {
        return constants <= BYTE_ENUM_LIMIT ? BYTE_ENUM : SHORT_ENUM;
    }

    boolean isEnum()
    {
        return primitive == null;
    }

    /** The Java type of the field, or null for an enum (whose type is the enum itself). */
    String primitive()
    {
        return primitive;
    }

    /** The {@code java.lang} class whose {@code BYTES} constant is the column's width. */
    String widthClass()
    {
        return widthClass;
    }

    /** The {@code java.lang} class whose static {@code compare} orders two stored values. */
    String compareClass()
    {
        return compareClass;
    }

    /**
     * An expression reading the field at an address.
     *
     * @param memory  how the generated class names {@code dev.cairn.internal.Memory}.
     * @param address an expression for the field's address.
     * @param values  for an enum, the name of its {@code values()} array.
     * @return Java source.
     */
    String read(final String memory, final String address, final String values)
    {
        switch (this)
        {
            case BOOLEAN:
                return memory + ".getByte(" + address + ") != 0";
            case BYTE_ENUM:
            case SHORT_ENUM:
                return values + "[" + ordinal(memory, address) + "]";
            default:
                return memory + ".get" + accessorType + "(" + address + ")";
        }
    }

    /**
     * An expression giving the value a comparator compares: the field itself, or an enum's ordinal.
     *
     * @param memory  how the generated class names {@code dev.cairn.internal.Memory}.
     * @param address an expression for the field's address.
     * @return Java source.
     */
    String compareKey(final String memory, final String address)
    {
        return isEnum() ? ordinal(memory, address) : read(memory, address, null);
    }

    /**
     * A statement expression writing {@code value} as the field at an address.
     *
     * @param memory  how the generated class names {@code dev.cairn.internal.Memory}.
     * @param address an expression for the field's address.
     * @param value   an expression of the field's type.
     * @return Java source.
     */
    String write(final String memory, final String address, final String value)
    {
        return memory + ".put" + accessorType + "(" + address + ", " + stored(value) + ")";
    }

    /**
     * A statement expression writing {@code value} into a command buffer's {@code Row}, as the column stores it.
     *
     * @param row    an expression for the row.
     * @param offset an expression for the field's offset in it.
     * @param value  an expression of the field's type.
     * @return Java source.
     */
    String writeRow(final String row, final String offset, final String value)
    {
        return row + ".put" + accessorType + "(" + offset + ", " + stored(value) + ")";
    }

    /**
     * A statement expression copying the field from a row held in a byte array to an address, as stored (no
     * conversion: a boolean stays a byte, an enum its ordinal).
     *
     * @param memory  how the generated class names {@code dev.cairn.internal.Memory}.
     * @param address an expression for the field's address.
     * @param row     an expression for the array.
     * @param offset  an expression for the field's offset in it.
     * @return Java source.
     */
    String copyFromRow(final String memory, final String address, final String row, final String offset)
    {
        return memory + ".put" + accessorType + "(" + address + ", " + memory + ".get" + accessorType + "(" + row +
            ", " + offset + "))";
    }

    /**
     * A statement expression copying the field at one address to another, in the column's representation.
     *
     * @param memory how the generated class names {@code dev.cairn.internal.Memory}.
     * @param target an expression for the address written.
     * @param source an expression for the address read.
     * @return Java source.
     */
    String copy(final String memory, final String target, final String source)
    {
        return memory + ".put" + accessorType + "(" + target + ", " + memory + ".get" + accessorType + "(" + source +
            "))";
    }

    /**
     * A statement expression exchanging the fields at two addresses, through the raw swap of the column's width (no
     * local variable, so no name a field could clash with).
     *
     * @param memory how the generated class names {@code dev.cairn.internal.Memory}.
     * @param a      an expression for one address.
     * @param b      an expression for the other.
     * @return Java source.
     */
    String swap(final String memory, final String a, final String b)
    {
        final String width;
        switch (width())
        {
            case Byte.BYTES:
                width = "Byte";
                break;
            case Short.BYTES:
                width = "Short";
                break;
            case Integer.BYTES:
                width = "Int";
                break;
            default:
                width = "Long";
                break;
        }
        return memory + ".swap" + width + "(" + a + ", " + b + ")";
    }

    /** The column's width in bytes. */
    int width()
    {
        switch (widthClass)
        {
            case "Byte":
                return Byte.BYTES;
            case "Short":
            case "Character":
                return Short.BYTES;
            case "Integer":
            case "Float":
                return Integer.BYTES;
            default:
                return Long.BYTES;
        }
    }

    private String stored(final String value)
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
        return stored;
    }

    private String ordinal(final String memory, final String address)
    {
        return this == BYTE_ENUM ? memory + ".getByte(" + address + ") & 0xFF" :
            memory + ".getShort(" + address + ") & 0xFFFF";
    }
}
