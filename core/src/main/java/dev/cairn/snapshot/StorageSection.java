package dev.cairn.snapshot;

import dev.cairn.DeletionPolicy;
import dev.cairn.internal.Access;
import dev.cairn.internal.RawSet;
import dev.cairn.storage.Clock;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.FieldType;
import dev.cairn.storage.Schema;
import org.agrona.UnsafeApi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One storage's part of a snapshot: the record's name, policy, tracking and schema, then the set's state
 * ({@link SetSection}) and each column as one bulk copy of its memory, the change ticks of a tracked component last.
 * A load matches the saved fields to the current record's by name ({@link SnapshotMapping}).
 */
final class StorageSection
{
    private StorageSection()
    {
    }

    /**
     * The bytes {@link #write} writes.
     *
     * @param storage the storage.
     * @return the size of its part of a snapshot.
     */
    static long bytes(final ComponentStorage<?> storage)
    {
        final Schema schema = storage.type().schema();
        long bytes = 2L + utf8Length(storage.type().recordClass().getName()) + 2 + 2;
        for (final Schema.Field field : schema.fields())
        {
            bytes += 2 + utf8Length(field.name()) + 1;
            if (field.type().isEnum())
            {
                bytes += 2;
                for (final String constant : field.constants())
                {
                    bytes += 2 + utf8Length(constant);
                }
            }
        }
        final RawSet raw = Access.raw(storage);
        return bytes + SetSection.bytes(raw) + (long)raw.size() * slotBytes(schema, storage.isTracked());
    }

    /**
     * Writes a storage.
     *
     * @param storage the storage.
     * @param out     the snapshot being written.
     * @throws IllegalStateException if the storage is closed.
     */
    static void write(final ComponentStorage<?> storage, final SnapshotOutput out)
    {
        storage.ensureOpen();
        final RawSet raw = Access.raw(storage);
        out.putString(storage.type().recordClass().getName());
        out.putByte(storage.policy().ordinal());
        out.putByte(storage.isTracked() ? 1 : 0);
        final List<Schema.Field> fields = storage.type().schema().fields();
        out.putShort(fields.size());
        for (final Schema.Field field : fields)
        {
            out.putString(field.name());
            out.putByte(field.type().ordinal());
            if (field.type().isEnum())
            {
                out.putShort(field.constants().size());
                for (final String constant : field.constants())
                {
                    out.putString(constant);
                }
            }
        }
        SetSection.write(raw, out);
        final int size = raw.size();
        for (int k = 0; k < fields.size(); k++)
        {
            out.putMemory(raw.columnAddress(k), (long)size * fields.get(k).type().width());
        }
        if (storage.isTracked())
        {
            out.putMemory(raw.columnAddress(fields.size()), (long)size * Integer.BYTES);
            out.putMemory(raw.columnAddress(fields.size() + 1), (long)size * Integer.BYTES);
        }
    }

    /**
     * Reads a storage {@link #write} wrote (after its name, which the caller read to find the storage) into the
     * storage, which must be empty. Saved fields are matched to the current record's by name: a field both have is
     * copied (converted if it was widened, enum constants matched by name), a field only the record has is zero (its
     * enum's first constant, {@link dev.cairn.Entity#NULL} for an entity reference), a field only the snapshot has is
     * dropped. On failure the storage is empty.
     *
     * @param storage the storage.
     * @param in      the snapshot being read, after the record's name.
     * @return the fields as the snapshot saved them.
     * @throws SnapshotFormatException if the data is inconsistent, or a field's type changed in a way that cannot be
     *                                 mapped (the message names it).
     * @throws IllegalStateException   if the storage is not empty, or closed.
     */
    static Schema read(final ComponentStorage<?> storage, final SnapshotInput in)
    {
        final String name = storage.type().recordClass().getName();
        final int policyOrdinal = in.getUnsignedByte();
        final int trackedByte = in.getUnsignedByte();
        if (policyOrdinal >= DeletionPolicy.values().length || trackedByte > 1)
        {
            throw in.error("component " + name + " has policy " + policyOrdinal + " and tracking " + trackedByte +
                ", which are not values a snapshot holds");
        }
        final DeletionPolicy savedPolicy = DeletionPolicy.values()[policyOrdinal];
        final boolean savedTracked = trackedByte == 1;
        final Schema saved = readSchema(in, name);
        final SnapshotMapping mapping = new SnapshotMapping(storage.type(), saved, in);
        final RawSet raw = Access.raw(storage);
        final int size = SetSection.read(raw, in, savedPolicy, slotBytes(saved, savedTracked));
        final int fields = storage.type().schema().fields().size();
        try
        {
            mapping.readColumns(in, raw, size);
            if (storage.isTracked() && savedTracked)
            {
                in.getMemory(raw.columnAddress(fields), (long)size * Integer.BYTES);
                in.getMemory(raw.columnAddress(fields + 1), (long)size * Integer.BYTES);
                checkLoadedTicks(storage, raw, in, size);
            }
            else
            {
                if (savedTracked)
                {
                    in.skip(2L * size * Integer.BYTES);
                }
                if (storage.isTracked())
                {
                    final int now = storage.clock().now();
                    for (int i = 0; i < size; i++)
                    {
                        UnsafeApi.putInt(raw.columnAddress(fields) + (long)i * Integer.BYTES, now);
                        UnsafeApi.putInt(raw.columnAddress(fields + 1) + (long)i * Integer.BYTES, now);
                    }
                }
            }
        }
        catch (final RuntimeException ex)
        {
            raw.clearSilently();
            throw ex;
        }
        return saved;
    }

    /**
     * Checks the change ticks a snapshot gave: each at most as new as the snapshot's own tick (the clock's now) and no
     * older than the clock keeps ticks, and no change before the add, as every pair of ticks a world records is; a
     * forged tick from the future would read as changed since every later tick, and one older than the clock's raises
     * let a tick become would in time read as unchanged since older ticks.
     */
    private static void checkLoadedTicks(
        final ComponentStorage<?> storage, final RawSet raw, final SnapshotInput in, final int size)
    {
        final int now = storage.clock().now();
        final int fields = storage.type().schema().fields().size();
        final long addedTicks = raw.columnAddress(fields);
        final long changedTicks = raw.columnAddress(fields + 1);
        for (int i = 0; i < size; i++)
        {
            final long offset = (long)i * Integer.BYTES;
            final int added = UnsafeApi.getInt(addedTicks + offset);
            final int changed = UnsafeApi.getInt(changedTicks + offset);
            if (!isRecordable(now, added) || !isRecordable(now, changed) || changed - added < 0)
            {
                throw in.error("index " + i + " of " + storage.type().recordClass().getName() + " was added at tick " +
                    added + " and changed at tick " + changed + ", which a world at tick " + now + " cannot have " +
                    "recorded (a tick is at most " + Clock.oldestAge(now) + " older than the world's at that tick, " +
                    "never newer, and a component is not changed before it is added)");
            }
        }
    }

    private static boolean isRecordable(final int now, final int tick)
    {
        final int age = now - tick;
        return age >= 0 && age <= Clock.oldestAge(now);
    }

    private static Schema readSchema(final SnapshotInput in, final String name)
    {
        final int count = in.getUnsignedShort();
        final Schema.Field[] fields = new Schema.Field[count];
        for (int k = 0; k < count; k++)
        {
            final String fieldName = in.getString();
            final FieldType fieldType = FieldType.ofOrdinal(in.getUnsignedByte());
            if (fieldType == null)
            {
                throw in.error("field " + fieldName + " of " + name + " has a type this Cairn does not know");
            }
            final List<String> constants = new ArrayList<>();
            if (fieldType.isEnum())
            {
                final int constantCount = in.getUnsignedShort();
                for (int c = 0; c < constantCount; c++)
                {
                    constants.add(in.getString());
                }
            }
            fields[k] = new Schema.Field(fieldName, fieldType, constants);
        }
        return Schema.of(fields);
    }

    private static long slotBytes(final Schema schema, final boolean tracked)
    {
        long bytes = tracked ? 2L * Integer.BYTES : 0;
        for (final Schema.Field field : schema.fields())
        {
            bytes += field.type().width();
        }
        return bytes;
    }

    private static int utf8Length(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
