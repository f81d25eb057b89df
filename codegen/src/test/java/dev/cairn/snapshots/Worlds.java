package dev.cairn.snapshots;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.internal.Access;
import dev.cairn.internal.RawStorage;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshots.SnapshotFixtures.Heat;
import dev.cairn.snapshots.SnapshotFixtures.Link;
import dev.cairn.snapshots.SnapshotFixtures.Marked;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.FieldType;
import dev.cairn.storage.Schema;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the snapshot tests share: random worlds grown by random operations over {@link SnapshotFixtures#TYPES}, and a
 * digest of everything a user can observe of a world (entities, every storage's packed order, tombstones, released
 * entries, values and ticks), so that two worlds are compared by comparing two strings.
 */
final class Worlds
{
    private Worlds()
    {
    }

    /**
     * Applies {@code count} random operations: creations (one by one and in bulk), destructions, additions with random
     * values (references to random entities, alive or not), removals, patches, sorts, compactions, clears and ticks.
     */
    static void grow(final World world, final Random random, final int count)
    {
        final List<Long> handles = new ArrayList<>();
        world.forEachEntity(handles::add);
        for (int op = 0; op < count; op++)
        {
            final int kind = random.nextInt(100);
            if (kind < 18 || handles.isEmpty())
            {
                if (random.nextInt(8) == 0)
                {
                    final long[] made = new long[1 + random.nextInt(6)];
                    if (world.remainingCapacity() >= made.length)
                    {
                        world.create(made, made.length);
                        for (final long entity : made)
                        {
                            handles.add(entity);
                        }
                    }
                }
                else if (world.remainingCapacity() > 0)
                {
                    handles.add(world.create());
                }
                continue;
            }
            final long entity = handles.get(random.nextInt(handles.size()));
            final ComponentStorage<?> storage = world.storage(type(random));
            if (kind < 28)
            {
                if (world.valid(entity))
                {
                    world.destroy(entity);
                }
            }
            else if (kind < 62)
            {
                if (world.valid(entity) && !storage.contains(entity))
                {
                    Access.rawStorage(storage).addRow(entity, randomRow(storage, handles, random), 0);
                }
            }
            else if (kind < 78)
            {
                if (storage.contains(entity))
                {
                    storage.remove(entity);
                }
            }
            else if (kind < 90)
            {
                if (storage.contains(entity))
                {
                    Access.rawStorage(storage).patchRow(entity, randomRow(storage, handles, random), 0);
                }
            }
            else if (kind < 93)
            {
                storage.sort((left, right) -> Long.compare(storage.entityAt(left), storage.entityAt(right)));
            }
            else if (kind < 95)
            {
                if (storage.policy() == DeletionPolicy.IN_PLACE)
                {
                    storage.compact();
                }
            }
            else if (kind < 99)
            {
                world.advanceTick();
            }
            else if (random.nextInt(4) == 0)
            {
                storage.clear();
            }
        }
    }

    static ComponentType<?, ?> type(final Random random)
    {
        return SnapshotFixtures.TYPES.get(random.nextInt(SnapshotFixtures.TYPES.size()));
    }

    /** A row of valid values for a storage's component: booleans 0 or 1, enum ordinals in range, handles seen. */
    static UnsafeBuffer randomRow(final ComponentStorage<?> storage, final List<Long> handles, final Random random)
    {
        final RawStorage raw = Access.rawStorage(storage);
        final UnsafeBuffer row = new UnsafeBuffer(new byte[Math.max(1, raw.rowBytes())]);
        final List<Schema.Field> fields = storage.type().schema().fields();
        for (int k = 0; k < fields.size(); k++)
        {
            final Schema.Field field = fields.get(k);
            final int at = raw.rowOffset(k);
            switch (field.type())
            {
                case BOOLEAN -> row.putByte(at, (byte)random.nextInt(2));
                case BYTE_ENUM -> row.putByte(at, (byte)random.nextInt(field.constants().size()));
                case SHORT_ENUM -> row.putShort(at, (short)random.nextInt(field.constants().size()),
                    ByteOrder.nativeOrder());
                case ENTITY -> row.putLong(at, random.nextInt(5) == 0 || handles.isEmpty() ? Entity.NULL :
                    handles.get(random.nextInt(handles.size())), ByteOrder.nativeOrder());
                default ->
                {
                    for (int b = 0; b < field.type().width(); b++)
                    {
                        row.putByte(at + b, (byte)random.nextInt());
                    }
                }
            }
        }
        return row;
    }

    /**
     * Everything observable about a world: its tick, capacity and alive entities, and for every storage with any
     * index in use, its counts, the handle at each packed index and the row and ticks there.
     */
    static String digest(final World world)
    {
        final StringBuilder text = new StringBuilder();
        text.append("tick ").append(world.tick()).append(", alive ").append(world.aliveCount())
            .append(", remaining ").append(world.remainingCapacity()).append('\n');
        final List<Long> alive = new ArrayList<>();
        world.forEachEntity(alive::add);
        text.append("entities ").append(alive.stream().map(Entity::toString).toList()).append('\n');
        for (final ComponentStorage<?> storage : world.storages())
        {
            if (storage.size() > 0)
            {
                text.append(storageDigest(storage));
            }
        }
        return text.toString();
    }

    static String storageDigest(final ComponentStorage<?> storage)
    {
        final StringBuilder text = new StringBuilder();
        text.append(storage.name()).append(": size ").append(storage.size()).append(", extent ")
            .append(storage.extent()).append(", members ").append(storage.memberCount()).append('\n');
        final RawStorage raw = Access.rawStorage(storage);
        final UnsafeBuffer row = new UnsafeBuffer(new byte[Math.max(1, raw.rowBytes())]);
        for (int i = 0; i < storage.size(); i++)
        {
            final long entity = storage.entityAt(i);
            text.append("  ").append(i).append(' ').append(Entity.toString(entity));
            if (entity != Entity.NULL)
            {
                raw.readRow(i, row, 0);
                text.append(' ').append(HexFormat.of().formatHex(row.byteArray(), 0, raw.rowBytes()));
                if (storage.isTracked() && i < storage.extent())
                {
                    text.append(" added ").append(storage.addedTickAt(i)).append(" changed ")
                        .append(storage.changedTickAt(i));
                }
            }
            text.append('\n');
        }
        return text.toString();
    }

    /** A snapshot of the world, in a heap buffer flipped for reading. */
    static ByteBuffer save(final World world, final ComponentType<?, ?>... types)
    {
        final ByteBuffer bytes = ByteBuffer.allocate((int)Snapshot.sizeOf(world, types));
        Snapshot.save(world, bytes, types);
        return bytes.flip();
    }

    /** The bytes of a buffer from its position to its limit. */
    static byte[] bytes(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /**
     * Recomputes every CRC32C of a snapshot whose bytes were changed on purpose, as far as its section lengths allow:
     * what a forger who read the format would do.
     *
     * @return a resealed copy.
     */
    static byte[] reseal(final byte[] original)
    {
        final byte[] snapshot = original.clone();
        final ByteBuffer bytes = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        if (snapshot.length < 24)
        {
            return snapshot;
        }
        bytes.putInt(20, crc(snapshot, 0, 20));
        int at = 24;
        while (at + 12 <= snapshot.length)
        {
            final long length = bytes.getLong(at + 4);
            if (length < 0 || length > snapshot.length - at - 16)
            {
                break;
            }
            bytes.putInt(at + 12 + (int)length, crc(snapshot, at + 12, (int)length));
            at += 16 + (int)length;
        }
        return snapshot;
    }

    static int crc(final byte[] bytes, final int from, final int length)
    {
        final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, from, length);
        return (int)crc.getValue();
    }

    /** Where two consecutive longs sit in a snapshot (the last place, if more than one). */
    static int offsetOf(final byte[] snapshot, final long first, final long second)
    {
        final ByteBuffer bytes = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = snapshot.length - 16; at >= 0; at--)
        {
            if (bytes.getLong(at) == first && bytes.getLong(at + 8) == second)
            {
                return at;
            }
        }
        throw new AssertionError("not found");
    }

    /** The group holds exactly the entities of {@code world} with a Link and a Heat and no Marked, and some. */
    static void assertGroupHoldsLinkWithHeatWithoutMarked(final World world, final RuntimeGroup group)
    {
        final List<Long> expected = new ArrayList<>();
        world.view(Link.class, Heat.class).without(Marked.class).forEach(expected::add);
        final List<Long> grouped = new ArrayList<>();
        group.forEach(grouped::add);
        assertEquals(expected.stream().sorted().toList(),
            grouped.stream().sorted().toList());
        assertTrue(grouped.size() > 0, "the random world has entities in the group");
    }
}
