package dev.cairn.snapshots;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.codegen.fixture.Colour;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshots.SnapshotFixtures.Hue;
import dev.cairn.snapshots.SnapshotFixtures.ShipV2;
import dev.cairn.snapshots.SnapshotFixtures.ShipV4;
import dev.cairn.snapshots.SnapshotFixtures.ShipV7;
import dev.cairn.snapshots.SnapshotFixtures.ShipV8;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A later version of a component loads a snapshot an older one saved: fields are matched by name, widened as Java
 * widens primitives, enum constants matched by name; added fields are zero, removed ones dropped; what cannot be
 * mapped is an error naming the component and the field. Versions are separate records renamed in the snapshot.
 */
class SchemaEvolutionTest
{
    @Test
    void fieldsAreMatchedByNameWidenedAddedAndDropped()
    {
        try (World world = new World(); World later = new World())
        {
            final long ship = world.create();
            final long dock = world.create();
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(ship, 1.25f, -3.5f, 80, Colour.BLUE, dock);
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(dock, 16_777_217f, 0f, 1, Colour.GREEN,
                Entity.NULL);

            Snapshot.load(later, ByteBuffer.wrap(saved(world, "ShipV2")));

            assertEquals(new ShipV2(1.25, -3.5f, 0, Colour.BLUE, dock), later.get(ship, ShipV2.class));
            assertEquals(new ShipV2(16_777_216.0, 0f, 0, Colour.GREEN, Entity.NULL), later.get(dock, ShipV2.class),
                "a float widens to the double of its value");
        }
    }

    @Test
    void anAddedReferenceIsNullNotTheFirstEntityWhoseHandleIsZero()
    {
        try (World world = new World(); World later = new World())
        {
            final long first = world.create();
            final long ship = world.create();
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(ship, 1f, 2f, 3, Colour.RED, first);
            assertEquals(0L, first);

            Snapshot.load(later, ByteBuffer.wrap(saved(world, "ShipV8")));

            assertEquals(new ShipV8(1f, 2f, 3, Colour.RED, first, Entity.NULL, 0), later.get(ship, ShipV8.class));
        }
    }

    @Test
    void enumConstantsAreMatchedByName()
    {
        try (World world = new World(); World later = new World())
        {
            final long red = world.create();
            final long blue = world.create();
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(red, 1, 0, 0, Colour.RED, 0);
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(blue, 2, 0, 0, Colour.BLUE, 0);

            Snapshot.load(later, ByteBuffer.wrap(saved(world, "ShipV4")));

            assertEquals(new ShipV4(1, Hue.RED), later.get(red, ShipV4.class));
            assertEquals(new ShipV4(2, Hue.BLUE), later.get(blue, ShipV4.class), "BLUE moved from ordinal 2 to 0");
        }
    }

    @Test
    void anEnumConstantThatNoLongerExistsIsNamed()
    {
        try (World world = new World(); World later = new World())
        {
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(world.create(), 1, 0, 0, Colour.GREEN, 0);

            SnapshotTest.assertMessage(later, saved(world, "ShipV4"), "ShipV4",
                "component dev.cairn.snapshots.SnapshotFixtures$ShipV4 field colour holds constant GREEN, which " +
                "the enum no longer declares");
        }
    }

    @Test
    void aNarrowedFieldIsAnErrorNamingComponentAndField()
    {
        try (World world = new World(); World later = new World())
        {
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(world.create(), 1, 0, 0, Colour.RED, 0);

            SnapshotTest.assertMessage(later, saved(world, "ShipV3"), "ShipV3",
                "component dev.cairn.snapshots.SnapshotFixtures$ShipV3 field x was saved as FLOAT and is SHORT now");
        }
    }

    @Test
    void aNumberThatBecameAnEnumIsAnError()
    {
        try (World world = new World(); World later = new World())
        {
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(world.create(), 1, 0, 0, Colour.RED, 0);

            SnapshotTest.assertMessage(later, saved(world, "ShipV5"), "ShipV5",
                "field hp was saved as INT and is BYTE_ENUM now");
        }
    }

    @Test
    void aReferenceMayBecomeAPlainLong()
    {
        try (World world = new World(); World later = new World())
        {
            final long ship = world.create();
            final long dock = world.create();
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(ship, 1, 0, 9, Colour.RED, dock);

            Snapshot.load(later, ByteBuffer.wrap(saved(world, "ShipV7")));

            assertEquals(new ShipV7(dock, 9), later.get(ship, ShipV7.class));
        }
    }

    @Test
    void anEmptyStorageOfAnIncompatibleVersionIsStillAnError()
    {
        try (World world = new World(); World later = new World())
        {
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE);

            SnapshotTest.assertMessage(later, saved(world, "ShipV3"), "ShipV3", "field x was saved as FLOAT");
        }
    }

    private static byte[] saved(final World world, final String as)
    {
        return Evolution.rename(Worlds.bytes(Worlds.save(world)), "ShipV1", as);
    }
}
