package dev.cairn.snapshot;

import dev.cairn.internal.RawSet;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.FieldType;
import dev.cairn.storage.Schema;
import org.agrona.UnsafeApi;

import java.util.List;

/**
 * How the columns of a component saved in a snapshot map to the component's columns now: fields are matched by name;
 * a field both have is copied in bulk, or element by element if its type was widened or its enum's constants changed;
 * a field only the snapshot has is skipped; a field only the record has is zero ({@link dev.cairn.Entity#NULL} for an
 * entity reference). A change that cannot be mapped (a narrowing, a type that is not a number any more, an enum
 * constant that no longer exists) is refused naming the component and the field.
 */
final class SnapshotMapping
{
    private final ComponentType<?, ?> type;
    private final Schema saved;
    /** For each saved field, the current column it fills, or -1. */
    private final int[] target;
    /** For each saved enum field mapped to a current one, the current ordinal of each saved ordinal (-1: gone). */
    private final int[][] ordinals;

    SnapshotMapping(final ComponentType<?, ?> type, final Schema saved, final SnapshotInput in)
    {
        this.type = type;
        this.saved = saved;
        final List<Schema.Field> savedFields = saved.fields();
        final Schema now = type.schema();
        this.target = new int[savedFields.size()];
        this.ordinals = new int[savedFields.size()][];
        for (int j = 0; j < savedFields.size(); j++)
        {
            final Schema.Field from = savedFields.get(j);
            final int k = now.indexOf(from.name());
            target[j] = k;
            if (k < 0)
            {
                continue;
            }
            for (int earlier = 0; earlier < j; earlier++)
            {
                if (target[earlier] == k)
                {
                    throw in.error("component " + type.recordClass().getName() + " lists field " + from.name() +
                        " twice");
                }
            }
            final Schema.Field to = now.fields().get(k);
            if (from.type().isEnum() || to.type().isEnum())
            {
                if (!from.type().isEnum() || !to.type().isEnum())
                {
                    throw incompatible(in, from, to);
                }
                ordinals[j] = new int[from.constants().size()];
                for (int ordinal = 0; ordinal < ordinals[j].length; ordinal++)
                {
                    ordinals[j][ordinal] = to.constants().indexOf(from.constants().get(ordinal));
                }
            }
            else if (from.type() != to.type() && !widens(from.type(), to.type()))
            {
                throw incompatible(in, from, to);
            }
        }
    }

    /** Reads the saved columns of {@code size} components into {@code storage}'s columns. */
    void readColumns(final SnapshotInput in, final RawSet storage, final int size)
    {
        final List<Schema.Field> savedFields = saved.fields();
        final List<Schema.Field> nowFields = type.schema().fields();
        final boolean[] filled = new boolean[nowFields.size()];
        for (int j = 0; j < savedFields.size(); j++)
        {
            final Schema.Field from = savedFields.get(j);
            final int k = target[j];
            final long bytes = (long)size * from.type().width();
            if (k < 0)
            {
                in.skip(bytes);
                continue;
            }
            filled[k] = true;
            final Schema.Field to = nowFields.get(k);
            final long address = storage.columnAddress(k);
            if (from.type() == to.type() && ordinals[j] == null)
            {
                in.getMemory(address, bytes);
                if (to.type() == FieldType.BOOLEAN)
                {
                    checkBooleans(in, from, address, size);
                }
            }
            else if (ordinals[j] != null)
            {
                readEnum(in, from, to, ordinals[j], address, size);
            }
            else
            {
                readWidened(in, from.type(), to.type(), address, size);
            }
        }
        for (int k = 0; k < nowFields.size(); k++)
        {
            if (!filled[k])
            {
                // Zero, but a reference to nothing: zero is the handle of the first entity.
                final FieldType fieldType = nowFields.get(k).type();
                UnsafeApi.setMemory(storage.columnAddress(k), (long)size * fieldType.width(),
                    fieldType == FieldType.ENTITY ? (byte)-1 : (byte)0);
            }
        }
    }

    /** A boolean column holds 0 or 1 only: any other byte would read as true yet compare unequal to true's. */
    private void checkBooleans(final SnapshotInput in, final Schema.Field field, final long address, final int size)
    {
        for (int i = 0; i < size; i++)
        {
            final int value = UnsafeApi.getByte(address + i) & 0xFF;
            if (value > 1)
            {
                throw in.error("component " + type.recordClass().getName() + " field " + field.name() + " holds " +
                    value + " at index " + i + ", where a boolean is 0 or 1");
            }
        }
    }

    private void readEnum(
        final SnapshotInput in,
        final Schema.Field from,
        final Schema.Field to,
        final int[] map,
        final long address,
        final int size)
    {
        for (int i = 0; i < size; i++)
        {
            final int ordinal = from.type() == FieldType.BYTE_ENUM ? in.getUnsignedByte() : in.getUnsignedShort();
            final int mapped = ordinal < map.length ? map[ordinal] : -2;
            if (mapped < 0)
            {
                throw in.error("component " + type.recordClass().getName() + " field " + from.name() + " holds " +
                    (mapped == -2 ? "ordinal " + ordinal + ", beyond the " + map.length + " saved constants" :
                    "constant " + from.constants().get(ordinal) + ", which the enum no longer declares") +
                    "; keep the constant, or load with a version of the enum that has it");
            }
            if (to.type() == FieldType.BYTE_ENUM)
            {
                UnsafeApi.putByte(address + i, (byte)mapped);
            }
            else
            {
                UnsafeApi.putShort(address + 2L * i, (short)mapped);
            }
        }
    }

    private static void readWidened(
        final SnapshotInput in, final FieldType from, final FieldType to, final long address, final int size)
    {
        for (int i = 0; i < size; i++)
        {
            final long integral;
            final double real;
            switch (from)
            {
                case BYTE:
                    integral = (byte)in.getUnsignedByte();
                    real = integral;
                    break;
                case SHORT:
                    integral = (short)in.getUnsignedShort();
                    real = integral;
                    break;
                case CHAR:
                    integral = in.getUnsignedShort();
                    real = integral;
                    break;
                case INT:
                    integral = in.getInt();
                    real = integral;
                    break;
                case LONG:
                case ENTITY:
                    integral = in.getLong();
                    real = integral;
                    break;
                case FLOAT:
                    integral = 0;
                    real = Float.intBitsToFloat(in.getInt());
                    break;
                default:
                    throw new IllegalStateException("no widening from " + from);
            }
            final long at = address + (long)i * to.width();
            switch (to)
            {
                case SHORT:
                    UnsafeApi.putShort(at, (short)integral);
                    break;
                case INT:
                    UnsafeApi.putInt(at, (int)integral);
                    break;
                case LONG:
                    UnsafeApi.putLong(at, integral);
                    break;
                case FLOAT:
                    UnsafeApi.putFloat(at, from == FieldType.FLOAT ? (float)real : (float)integral);
                    break;
                case DOUBLE:
                    UnsafeApi.putDouble(at, from == FieldType.FLOAT ? real : (double)integral);
                    break;
                default:
                    throw new IllegalStateException("no widening to " + to);
            }
        }
    }

    /** Java's widening primitive conversions, and an entity handle read as a plain long. */
    private static boolean widens(final FieldType from, final FieldType to)
    {
        switch (from)
        {
            case BYTE:
                return to == FieldType.SHORT || to == FieldType.INT || to == FieldType.LONG || to == FieldType.FLOAT ||
                    to == FieldType.DOUBLE;
            case SHORT:
            case CHAR:
                return to == FieldType.INT || to == FieldType.LONG || to == FieldType.FLOAT || to == FieldType.DOUBLE;
            case INT:
                return to == FieldType.LONG || to == FieldType.FLOAT || to == FieldType.DOUBLE;
            case LONG:
                return to == FieldType.FLOAT || to == FieldType.DOUBLE;
            case FLOAT:
                return to == FieldType.DOUBLE;
            case ENTITY:
                return to == FieldType.LONG;
            default:
                return false;
        }
    }

    private RuntimeException incompatible(final SnapshotInput in, final Schema.Field from, final Schema.Field to)
    {
        return in.error("component " + type.recordClass().getName() + " field " + from.name() + " was saved as " +
            from.type() + " and is " + to.type() + " now, which is not a widening Java makes (a narrowing may lose " +
            "values, an enum and a number do not convert); rename " +
            "the field (the old values are then dropped), or convert the snapshot with the old version of the record");
    }
}
