package dev.cairn.snapshots;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.codegen.fixture.Colour;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.snapshot.ContinuousLoader;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.snapshot.SnapshotFormatException;
import dev.cairn.snapshots.SnapshotFixtures.Heat;
import dev.cairn.snapshots.SnapshotFixtures.Link;
import dev.cairn.snapshots.SnapshotFixtures.Marked;
import dev.cairn.snapshots.SnapshotFixtures.ShipV1;
import dev.cairn.storage.Clock;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user of whole-world snapshots relies on: what comes back, what is refused and why, and that a refused load
 * leaves the world new.
 */
class SnapshotTest
{
    private static final String NEW_WORLD = digestOfANewWorld();

    @Test
    void entitiesComeBackWithTheirHandlesAndReferencesStayValid()
    {
        try (World world = new World(); World copy = new World())
        {
            final long ship = world.create();
            final long dock = world.create();
            final long gone = world.create();
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(ship, 1.5f, 2.5f, 100, Colour.BLUE, dock);
            world.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(dock, ship, gone, 7);
            world.destroy(gone);

            Snapshot.load(copy, Worlds.save(world));

            assertEquals(new ShipV1(1.5f, 2.5f, 100, Colour.BLUE, dock), copy.get(ship, ShipV1.class));
            assertEquals(new Link(ship, gone, 7), copy.get(dock, Link.class));
            assertTrue(copy.valid(copy.get(ship, ShipV1.class).dock()));
            assertFalse(copy.valid(copy.get(dock, Link.class).other()), "a stale reference stays stale");
            assertEquals(world.create(), copy.create(), "the copy recycles the destroyed index with the same version");
        }
    }

    @Test
    void freeIndicesAWorldAtItsBudgetCouldNotStackComeBackInTheOrderItWouldHaveRecycledThem()
    {
        // 96 version entries (384 bytes) and a free stack of 64 (256) fit in 740; neither can grow.
        try (World world = new World(1000, 740); World copy = new World())
        {
            final long[] entities = new long[96];
            world.create(entities, 96);
            world.destroy(entities[0]);
            world.create();
            for (int index = 95; index >= 1; index -= 2)
            {
                world.destroy(entities[index]);
            }
            for (int index = 2; index < 96; index += 2)
            {
                world.destroy(entities[index]);
            }

            Snapshot.load(copy, Worlds.save(world));

            assertEquals(world.aliveCount(), copy.aliveCount());
            for (int k = 0; k < 95; k++)
            {
                assertEquals(world.create(), copy.create(), "create " + k);
            }
        }
    }

    @Test
    void freeIndicesAWorldWithNoRoomForAStackCouldNotStackComeBackInTheSameOrder()
    {
        // 64 version entries take 256 bytes; neither a stack (256) nor more versions (128) fit in 356.
        try (World world = new World(1000, 356); World copy = new World())
        {
            final long[] entities = new long[64];
            world.create(entities, 64);
            world.destroy(entities[3]);
            world.destroy(entities[10]);
            world.destroy(entities[40]);

            Snapshot.load(copy, Worlds.save(world));

            for (int k = 0; k < 3; k++)
            {
                assertEquals(world.create(), copy.create(), "create " + k);
            }
        }
    }

    @Test
    void freeIndicesMoreThanTheStackOfAWorldAtItsBudgetHoldsComeBackInTheSameOrderAndLoadWithinThatBudget()
    {
        // 200 version entries (800 bytes) and a stack of 64 (256) fit in 1100; no growth does.
        try (World world = new World(1000, 1100); World copy = new World(); World same = new World(1000, 1100))
        {
            final long[] entities = new long[200];
            world.create(entities, 200);
            for (final long entity : entities)
            {
                world.destroy(entity);
            }
            final ByteBuffer snapshot = Worlds.save(world);

            Snapshot.load(copy, snapshot.duplicate());
            Snapshot.load(same, snapshot.duplicate());

            final Set<Long> handedOut = new HashSet<>();
            for (int k = 0; k < 200; k++)
            {
                final long expected = world.create();
                assertEquals(expected, copy.create(), "create " + k);
                final long fromSame = same.create();
                assertTrue(handedOut.add(fromSame), "create " + k + " in the world with the same budget");
                if (k < 64)
                {
                    assertEquals(expected, fromSame, "the stacked ones come first there too, create " + k);
                }
            }
            assertEquals(handedOut, new HashSet<>(List.of(java.util.stream.LongStream.of(entities)
                .map(Entity::next).boxed().toArray(Long[]::new))));
        }
    }

    @Test
    void ticksComeBackSoChangeFiltersAnswerAsBefore()
    {
        try (World world = new World(); World copy = new World())
        {
            final long early = world.create();
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(early, 1f);
            world.advanceTick();
            world.advanceTick();
            final long late = world.create();
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(late, 2f);

            Snapshot.load(copy, Worlds.save(world));

            assertEquals(world.tick(), copy.tick());
            final var heat = copy.storage(SnapshotFixtures_HeatStorage.TYPE);
            assertFalse(heat.changedSince(heat.indexOf(early), 1));
            assertTrue(heat.changedSince(heat.indexOf(late), 1));
            final List<Long> changed = new ArrayList<>();
            copy.view(Heat.class).changedSince(Heat.class, 1).forEach(changed::add);
            assertEquals(List.of(late), changed);
        }
    }

    @Test
    void groupsBuiltBeforeALoadHoldTheLoadedEntities()
    {
        try (World world = new World(); World copy = new World())
        {
            final Random random = new Random(7);
            Worlds.grow(world, random, 3_000);
            final RuntimeGroup group = copy.group().owning(Link.class).with(Heat.class).without(Marked.class).build();
            final RuntimeObserver observer = copy.observer().onAdded(Link.class).build();

            Snapshot.load(copy, Worlds.save(world));

            Worlds.assertGroupHoldsLinkWithHeatWithoutMarked(world, group);
            assertEquals(0, observer.size(), "a load sends no events: observers hear nothing of it");
        }
    }

    @Test
    void aWorldWithASortedOwningGroupComesBackInTheSameOrderWithTheGroupBuiltBeforeOrAfter()
    {
        try (World world = new World(); World before = new World(); World after = new World())
        {
            Worlds.grow(world, new Random(11), 3_000);
            final RuntimeGroup sorted = world.group().owning(Link.class).with(Heat.class).without(Marked.class).build();
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            sorted.sort((left, right) -> Integer.compare(links.weightAt(left), links.weightAt(right)));
            final List<Long> order = new ArrayList<>();
            sorted.forEach(order::add);
            final RuntimeGroup early = before.group().owning(Link.class).with(Heat.class).without(Marked.class)
                .build();

            final ByteBuffer snapshot = Worlds.save(world);
            Snapshot.load(before, snapshot.duplicate());
            Snapshot.load(after, snapshot.duplicate());
            final RuntimeGroup late = after.group().owning(Link.class).with(Heat.class).without(Marked.class).build();

            for (final RuntimeGroup group : List.of(early, late))
            {
                final List<Long> visited = new ArrayList<>();
                group.forEach(visited::add);
                assertEquals(order, visited, "the group's order survives the round trip");
            }
            for (final World copy : List.of(before, after))
            {
                for (final var storage : world.storages())
                {
                    assertEquals(Worlds.storageDigest(storage), Worlds.storageDigest(copy.storage(storage.type())),
                        "packed order and values come back exactly");
                }
            }
        }
    }

    @Test
    void aNonBlockingChannelThatHasNothingIsRefusedInsteadOfSpunOn()
    {
        final ReadableByteChannel empty = new StalledChannel();
        final WritableByteChannel full = new StalledChannel();
        try (World world = new World(); World copy = new World(); ContinuousLoader loader = new ContinuousLoader(copy))
        {
            Worlds.grow(world, new Random(3), 30);

            final IllegalArgumentException load =
                assertThrows(IllegalArgumentException.class, () -> Snapshot.load(copy, empty));
            final IllegalArgumentException continuous =
                assertThrows(IllegalArgumentException.class, () -> loader.load(empty));
            final IllegalArgumentException save =
                assertThrows(IllegalArgumentException.class, () -> Snapshot.save(world, full));

            assertTrue(load.getMessage().contains("non-blocking"), load.getMessage());
            assertTrue(continuous.getMessage().contains("non-blocking"), continuous.getMessage());
            assertTrue(save.getMessage().contains("non-blocking"), save.getMessage());
            assertEquals(NEW_WORLD, Worlds.digest(copy));
            world.create();
            assertTrue(world.valid(world.create()), "the save gave the world's structure back");
        }
    }

    /** A non-blocking channel with nothing to give and no room to take: every read and write moves 0 bytes. */
    private static final class StalledChannel implements ReadableByteChannel, WritableByteChannel
    {
        @Override
        public int read(final ByteBuffer target)
        {
            return 0;
        }

        @Override
        public int write(final ByteBuffer source)
        {
            return 0;
        }

        @Override
        public boolean isOpen()
        {
            return true;
        }

        @Override
        public void close()
        {
        }
    }

    @Test
    void bytesAfterTheLastSectionAreAnErrorFromAChannelAndTheNextMessageInABuffer()
    {
        try (World world = new World(); World fromChannel = new World(); World fromBuffer = new World())
        {
            Worlds.grow(world, new Random(5), 500);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            final byte[] followed = java.util.Arrays.copyOf(snapshot, snapshot.length + 5);

            final SnapshotFormatException trailing = assertThrows(SnapshotFormatException.class, () -> Snapshot.load(
                fromChannel, java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(followed))));

            assertTrue(trailing.getMessage().contains("5 bytes follow the"), trailing.getMessage());
            Snapshot.load(fromChannel, java.nio.channels.Channels.newChannel(
                new java.io.ByteArrayInputStream(snapshot)));
            assertEquals(world.aliveCount(), fromChannel.aliveCount(), "the refused load left the world new");
            final ByteBuffer buffer = ByteBuffer.wrap(followed);
            Snapshot.load(fromBuffer, buffer);
            assertEquals(snapshot.length, buffer.position(), "a buffer may hold more after the snapshot");
            try (World client = new World();
                 dev.cairn.snapshot.ContinuousLoader loader = new dev.cairn.snapshot.ContinuousLoader(client))
            {
                assertThrows(SnapshotFormatException.class, () -> loader.load(java.nio.channels.Channels.newChannel(
                    new java.io.ByteArrayInputStream(followed))));
                assertEquals(0, client.aliveCount());
            }
        }
    }

    @Test
    void aSubsetOfStoragesCanBeSaved()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(3), 2_000);

            Snapshot.load(copy, Worlds.save(world, SnapshotFixtures_LinkStorage.TYPE, SnapshotFixtures_HeatStorage.TYPE));

            for (final var storage : copy.storages())
            {
                final boolean saved = storage.type() == SnapshotFixtures_LinkStorage.TYPE ||
                    storage.type() == SnapshotFixtures_HeatStorage.TYPE;
                assertEquals(saved ? Worlds.storageDigest(world.storage(storage.type())) : "",
                    storage.size() == 0 ? "" : Worlds.storageDigest(storage));
            }
            assertEquals(world.aliveCount(), copy.aliveCount());
        }
    }

    @Test
    void savingAComponentTheWorldHasNoStorageOfLeavesItOutAndMakesNoStorage()
    {
        try (World world = new World(); World copy = new World())
        {
            world.storage(SnapshotFixtures_MarkedStorage.TYPE).emplace(world.create());
            final List<ComponentStorage<?>> before = world.storages();

            final ByteBuffer saved = ByteBuffer.allocate(
                (int)Snapshot.sizeOf(world, SnapshotFixtures_HeatStorage.TYPE, SnapshotFixtures_MarkedStorage.TYPE));
            Snapshot.save(world, saved, SnapshotFixtures_HeatStorage.TYPE, SnapshotFixtures_MarkedStorage.TYPE);

            assertEquals(before, world.storages(), "the save made no Heat storage");
            assertEquals(0, saved.remaining(), "sizeOf counted what the save wrote");
            Snapshot.load(copy, saved.flip());
            assertEquals(List.of(SnapshotFixtures_MarkedStorage.TYPE),
                copy.storages().stream().map(ComponentStorage::type).collect(java.util.stream.Collectors.toList()));
            assertEquals(1, copy.storage(SnapshotFixtures_MarkedStorage.TYPE).size());
        }
    }

    @Test
    void aSnapshotLoadsOnlyIntoANewWorld()
    {
        try (World world = new World(); World used = new World())
        {
            final ByteBuffer snapshot = Worlds.save(world);
            used.destroy(used.create());
            final String before = Worlds.digest(used);

            final IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> Snapshot.load(used, snapshot));

            assertTrue(ex.getMessage().contains("loads into a new World"), ex.getMessage());
            assertTrue(ex.getMessage().contains("ContinuousLoader"), ex.getMessage());
            assertEquals(before, Worlds.digest(used));
            assertEquals(0, snapshot.position(), "nothing was read");
        }
    }

    @Test
    void aBufferTooSmallIsRefusedBeforeAnythingIsWritten()
    {
        try (World world = new World())
        {
            Worlds.grow(world, new Random(1), 500);
            final ByteBuffer small = ByteBuffer.allocate((int)Snapshot.sizeOf(world) - 1);

            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> Snapshot.save(world, small));

            assertTrue(ex.getMessage().contains("Snapshot.sizeOf"), ex.getMessage());
            assertEquals(0, small.position());
        }
    }

    @Test
    void everyTruncationIsRefusedAndLeavesTheWorldNew()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(11), 300);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            for (int length = 0; length < snapshot.length; length++)
            {
                final ByteBuffer cut = ByteBuffer.wrap(snapshot, 0, length);

                final SnapshotFormatException ex =
                    assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, cut), "length " + length);

                assertTrue(ex.offset() >= 0 && ex.offset() <= length, ex.getMessage());
                assertEquals(NEW_WORLD, Worlds.digest(copy), "after a load of " + length + " bytes");
                assertEquals(List.of(), copy.storages(), "after a load of " + length + " bytes");
            }
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            assertEquals(Worlds.digest(world), Worlds.digest(copy), "a failed load leaves the world usable");
        }
    }

    @Test
    void aFailedLoadPutsBackEveryTickAWorldCanHaveTheLowestIncluded()
    {
        final byte[] atLowest;
        final byte[] damaged;
        try (World source = new World())
        {
            source.storage(SnapshotFixtures_MarkedStorage.TYPE).emplace(source.create());
            final byte[] saved = Worlds.bytes(Worlds.save(source));
            // The world section's tick: a clock wraps there after 2^31 advances.
            ByteBuffer.wrap(saved).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(36, Integer.MIN_VALUE);
            atLowest = Worlds.reseal(saved);
            for (int i = 0; i < 99; i++)
            {
                source.advanceTick();
            }
            damaged = Worlds.bytes(Worlds.save(source));
            damaged[damaged.length - 5] ^= 1;
        }
        try (World world = new World())
        {
            Snapshot.load(world, ByteBuffer.wrap(atLowest));
            assertEquals(Integer.MIN_VALUE, world.tick());
            world.reset();

            assertThrows(SnapshotFormatException.class, () -> Snapshot.load(world, ByteBuffer.wrap(damaged)));

            assertEquals(Integer.MIN_VALUE, world.tick(), "the tick the world had before the failed load");
        }
    }

    @Test
    void aTruncatedStorageSectionIsNamedByItsComponentWhenItsNameIsThere()
    {
        try (World world = new World(); World copy = new World())
        {
            final long entity = world.create();
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(entity, 1f);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));

            final SnapshotFormatException ex = assertThrows(SnapshotFormatException.class,
                () -> Snapshot.load(copy, ByteBuffer.wrap(snapshot, 0, snapshot.length - 10)));

            assertTrue(ex.getMessage().contains("section 1 (" + SnapshotFixtures.Heat.class.getName() +
                ", as far as it can be read)") && ex.getMessage().contains("truncated"), ex.getMessage());
            assertEquals(NEW_WORLD, Worlds.digest(copy));
        }
    }

    @Test
    void everyFlippedBitIsCaughtByAChecksum()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(5), 120);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            // The header says what is wrong with it in its own words (magic, version, then its checksum); each
            // section's kind and length (12 bytes before its body) are the only other bytes no checksum covers.
            final Set<Integer> unchecked = new HashSet<>();
            final ByteBuffer sections = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
            for (int at = 24, s = 0; s < sections.getInt(12); s++)
            {
                for (int k = 0; k < 12; k++)
                {
                    unchecked.add(at + k);
                }
                at += 12 + (int)sections.getLong(at + 4) + 4;
            }
            for (int at = 0; at < snapshot.length; at++)
            {
                final byte[] corrupted = snapshot.clone();
                corrupted[at] ^= (byte)(1 << (at & 7));

                final SnapshotFormatException ex = assertThrows(SnapshotFormatException.class,
                    () -> Snapshot.load(copy, ByteBuffer.wrap(corrupted)), "byte " + at);

                assertEquals(NEW_WORLD, Worlds.digest(copy), "after flipping byte " + at + ": " + ex.getMessage());
                if (at >= 24 && !unchecked.contains(at))
                {
                    assertTrue(ex.getMessage().contains("CRC32C"), "byte " + at + " is reported as changed, " +
                        "whatever it broke first: " + ex.getMessage());
                }
            }
        }
    }

    @Test
    void theHeaderSaysWhatIsWrongWithIt()
    {
        try (World world = new World(); World copy = new World())
        {
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            final byte[] text = "not a snapshot at all, just some text".getBytes(StandardCharsets.US_ASCII);
            final byte[] later = snapshot.clone();
            ByteBuffer.wrap(later).order(ByteOrder.LITTLE_ENDIAN).putInt(8, Snapshot.FORMAT_VERSION + 1);

            assertMessage(copy, text, "header", "it does not start with CAIRNSNP");
            assertMessage(copy, Worlds.reseal(later), "header", "format version 2; this Cairn reads version 1");
            assertMessage(copy, later, "header", "CRC32C does not match");
        }
    }

    @Test
    void aBufferLoadedWithoutAFlipAfterTheSaveIsToldToFlip()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(5), 20);
            final ByteBuffer buffer = ByteBuffer.allocate((int)Snapshot.sizeOf(world));
            Snapshot.save(world, buffer);

            final SnapshotFormatException ex =
                assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, buffer));

            assertTrue(ex.getMessage().contains("flip() it before loading"), ex.getMessage());
            assertEquals("header", ex.section());
            assertEquals(NEW_WORLD, Worlds.digest(copy));
            for (final int spare : new int[] {3, 64})
            {
                final ByteBuffer larger = ByteBuffer.allocate((int)Snapshot.sizeOf(world) + spare);
                Snapshot.save(world, larger);
                final SnapshotFormatException unflipped =
                    assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, larger), "spare " + spare);
                assertTrue(unflipped.getMessage().contains("flip() a buffer Snapshot.save wrote into"),
                    unflipped.getMessage());
            }
            Snapshot.load(copy, buffer.flip());
            assertEquals(Worlds.digest(world), Worlds.digest(copy));
        }
    }

    @Test
    void forgedCountsAreCheckedAgainstTheBytesThatFollowBeforeAnythingIsAllocated()
    {
        try (World world = new World(); World copy = new World())
        {
            final long entity = world.create();
            world.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(entity, entity, Entity.NULL, 1);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            // Header (24 bytes), world section: kind and length (12), tick (4), then the pool's max, created, alive.
            final byte[] created = snapshot.clone();
            ByteBuffer.wrap(created).order(ByteOrder.LITTLE_ENDIAN).putInt(44, 200_000_000).putInt(48, 200_000_000);
            final byte[] sections = snapshot.clone();
            ByteBuffer.wrap(sections).order(ByteOrder.LITTLE_ENDIAN).putInt(12, Integer.MAX_VALUE);

            assertMessage(copy, Worlds.reseal(created), "section 0 (world)", "200000000 versions");
            assertMessage(copy, Worlds.reseal(sections), "header", "declares 2147483647 sections");
            assertTrue(copy.offHeapBytes() < 1 << 20, "nothing large was allocated: " + copy.offHeapBytes());
        }
    }

    @Test
    void aForgedPackedArrayIsRefusedNamingTheIndex()
    {
        try (World world = new World(); World copy = new World())
        {
            final long first = world.create();
            final long second = world.create();
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            links.emplace(first, Entity.NULL, Entity.NULL, 1);
            links.emplace(second, Entity.NULL, Entity.NULL, 2);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world, SnapshotFixtures_LinkStorage.TYPE));
            final int packed = Worlds.offsetOf(snapshot, Entity.of(0, 0), Entity.of(1, 0));
            final byte[] twice = snapshot.clone();
            ByteBuffer.wrap(twice).order(ByteOrder.LITTLE_ENDIAN).putLong(packed + 8, first);
            final byte[] dead = snapshot.clone();
            ByteBuffer.wrap(dead).order(ByteOrder.LITTLE_ENDIAN).putLong(packed + 8, Entity.of(1, 3));

            assertMessage(copy, Worlds.reseal(twice), "(dev.cairn.snapshots.SnapshotFixtures$Link)",
                "entity index 0 is held at index 0 and again at 1");
            assertMessage(copy, Worlds.reseal(dead), "(dev.cairn.snapshots.SnapshotFixtures$Link)",
                "index 1 holds 1v3, which is not alive");
        }
    }

    @Test
    void aForgedReleasedEntryBeyondEveryCreatedEntityIndexIsRefusedBeforeItsSparsePageIsAllocated()
    {
        try (World world = new World(); World copy = new World())
        {
            final long first = world.create();
            final long second = world.create();
            final var owned = world.storage(SnapshotFixtures_OwnedStorage.TYPE);
            owned.emplace(first);
            owned.emplace(second);
            owned.remove(first);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world, SnapshotFixtures_OwnedStorage.TYPE));
            // Swap-only: the member, then the released entry behind it.
            final int packed = Worlds.offsetOf(snapshot, second, Entity.next(first));
            final byte[] far = snapshot.clone();
            ByteBuffer.wrap(far).order(ByteOrder.LITTLE_ENDIAN).putLong(packed + 8, Entity.of(4096 * 1000, 0));

            assertMessage(copy, Worlds.reseal(far), "(dev.cairn.snapshots.SnapshotFixtures$Owned)",
                "index 1 holds 4096000v0, whose entity index 4096000 the world never created (it created 2)");
            assertTrue(copy.offHeapBytes() < 1 << 20, "no sparse page was allocated: " + copy.offHeapBytes());
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            assertEquals(1, copy.storage(SnapshotFixtures_OwnedStorage.TYPE).memberCount());
        }
    }

    @Test
    void aComponentThisProgramDoesNotDeclareIsNamed()
    {
        try (World world = new World(); World copy = new World())
        {
            world.storage(SnapshotFixtures_ShipV1Storage.TYPE).emplace(world.create(), 1, 2, 3, Colour.RED, 0);
            final byte[] renamed = Evolution.rename(Worlds.bytes(Worlds.save(world)), "ShipV1", "ShipV9");

            assertMessage(copy, renamed, "section 1", "dev.cairn.snapshots.SnapshotFixtures$ShipV9, which is not a " +
                "@Component record of this program");
        }
    }

    @Test
    void aWorldWithTooFewIndicesIsToldToGrow()
    {
        try (World world = new World(); World small = new World(8))
        {
            for (int i = 0; i < 9; i++)
            {
                world.create();
            }

            assertMessage(small, Worlds.bytes(Worlds.save(world)), "section 0 (world)",
                "9 entity indices, more than this World's 8");
        }
    }

    @Test
    void tombstonesThatAnotherPolicyCannotKeepAreRefused()
    {
        try (World world = new World(); World copy = new World())
        {
            final var ships = world.storage(SnapshotFixtures_ShipV6Storage.TYPE);
            final long first = world.create();
            ships.emplace(first, 1, 1, 1, Colour.RED, 0);
            ships.emplace(world.create(), 2, 2, 2, Colour.RED, 0);
            ships.remove(first);
            final byte[] withTombstone = Evolution.rename(Worlds.bytes(Worlds.save(world)), "ShipV6", "ShipV1");
            ships.compact();
            final byte[] compacted = Evolution.rename(Worlds.bytes(Worlds.save(world)), "ShipV6", "ShipV1");

            assertMessage(copy, withTombstone, "ShipV1", "storage was saved with policy IN_PLACE and holds tombstones");
            Snapshot.load(copy, ByteBuffer.wrap(compacted));
            assertEquals(1, copy.storage(SnapshotFixtures_ShipV1Storage.TYPE).size());
        }
    }

    @Test
    void aReadOnlyBufferIsRefusedBeforeAnythingIsWrittenAndTheCallersByteOrderIsKept()
    {
        try (World world = new World())
        {
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(world.create(), 1f);
            final ByteBuffer readOnly = ByteBuffer.allocate((int)Snapshot.sizeOf(world)).asReadOnlyBuffer();
            final ByteBuffer bigEndian = ByteBuffer.allocate((int)Snapshot.sizeOf(world));

            final IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> Snapshot.save(world, readOnly));
            Snapshot.save(world, bigEndian);

            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
            assertEquals(0, readOnly.position());
            assertEquals(ByteOrder.BIG_ENDIAN, readOnly.order());
            assertEquals(ByteOrder.BIG_ENDIAN, bigEndian.order());
            assertEquals(bigEndian.capacity(), bigEndian.position());
        }
    }

    @Test
    void changesTheChannelOfASaveMakesWaitForItsEndAndAResetOrACloseIsRefusedNamingTheSave()
    {
        try (World world = new World())
        {
            final long[] made = new long[600_000];
            world.create(made, made.length); // a pool of 2.4 MB: the 1 MiB buffer is flushed while it is copied
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            links.emplace(made[7], made[8], Entity.NULL, 3);
            links.emplace(made[10], made[8], Entity.NULL, 4);
            final Map<String, Runnable> changes = new LinkedHashMap<>();
            changes.put("destroy", () -> world.destroy(made[7]));
            changes.put("add", () -> links.emplace(made[9], Entity.NULL, Entity.NULL, 1));
            changes.put("remove", () -> links.remove(made[10]));
            changes.put("clear a storage", links::clear);
            changes.put("reset", world::reset);
            changes.put("close", world::close);
            for (final Map.Entry<String, Runnable> change : changes.entrySet())
            {
                final String before = Worlds.digest(world);
                final List<RuntimeException> refused = new ArrayList<>();
                final List<String> during = new ArrayList<>();
                final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                final WritableByteChannel channel = channelInto(bytes, () ->
                {
                    if (during.isEmpty())
                    {
                        try
                        {
                            change.getValue().run();
                        }
                        catch (final IllegalStateException ex)
                        {
                            refused.add(ex);
                        }
                        during.add(Worlds.digest(world));
                    }
                });

                Snapshot.save(world, channel);

                assertEquals(List.of(before), during, change.getKey() + ": the world holds still during the save");
                try (World copy = new World())
                {
                    Snapshot.load(copy, ByteBuffer.wrap(bytes.toByteArray()));
                    assertEquals(before, Worlds.digest(copy), change.getKey() + ": the snapshot holds the world " +
                        "as it was");
                }
                if (change.getKey().equals("reset") || change.getKey().equals("close"))
                {
                    assertEquals(1, refused.size(), change.getKey());
                    assertTrue(refused.get(0).getMessage().contains("while Snapshot.save to a channel runs") &&
                        refused.get(0).getMessage().contains("after"), refused.get(0).getMessage());
                    assertEquals(before, Worlds.digest(world), change.getKey() + " changed nothing");
                }
                else
                {
                    assertEquals(List.of(), refused, change.getKey());
                    assertFalse(before.equals(Worlds.digest(world)), change.getKey() + " was made after the save");
                }
            }
            assertFalse(world.valid(made[7]));
            assertEquals(0, links.memberCount());
            assertFalse(world.isClosed());
        }
    }

    /**
     * A create is the one change a walk does not defer, and a save is a walk: one made by the channel's code between
     * copies of the entity pool must neither change what the rest of the copy reads (the snapshot holds the world as
     * it was when the save began) nor move the pool's memory under it. Either the create is refused, naming the save,
     * or it is made and left out of the snapshot. In a JVM of its own, as a growth of the pool under the copy can read
     * freed memory.
     */
    @Test
    void aCreateFromTheChannelOfASaveLeavesTheSnapshotAsTheWorldWasAndTheMemoryItCopiesInPlace() throws Exception
    {
        final List<String> wrong = new ArrayList<>();
        for (final String create : new String[] {"one", "a million"})
        {
            final Process child = new ProcessBuilder(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-XX:-CreateCoredumpOnCrash",
                "-XX:ErrorFile=" + System.getProperty("java.io.tmpdir") + "/cairn-create-during-save-%p.log",
                "-cp", System.getProperty("java.class.path"), CreateDuringSave.class.getName(), create)
                .redirectErrorStream(true).start();
            final String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(100, java.util.concurrent.TimeUnit.SECONDS), "the save hung: " + output);
            if (child.exitValue() != 0 || !output.contains("the snapshot holds the world as it was"))
            {
                wrong.add("creating " + create + " from the channel (exit " + child.exitValue() + "): " +
                    output.lines().limit(6).toList());
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** {@link #aCreateFromTheChannelOfASaveLeavesTheSnapshotAsTheWorldWasAndTheMemoryItCopiesInPlace}'s JVM. */
    static final class CreateDuringSave
    {
        public static void main(final String[] args)
        {
            try (World world = new World())
            {
                final long[] made = new long[600_000];
                world.create(made, made.length);
                world.destroy(made[599_990]);          // a free index for a single create to recycle
                world.storage(SnapshotFixtures_LinkStorage.TYPE).emplace(made[7], made[8], Entity.NULL, 3);
                final String before = Worlds.digest(world);
                final int count = args[0].equals("one") ? 1 : 1_000_000;
                final long[] created = new long[count];
                final List<String> outcome = new ArrayList<>();
                final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                Snapshot.save(world, channelInto(bytes, () ->
                {
                    if (outcome.isEmpty())
                    {
                        try
                        {
                            world.create(created, count); // grows the pool for a million
                            outcome.add("made");
                        }
                        catch (final IllegalStateException refused)
                        {
                            outcome.add(refused.getMessage());
                        }
                    }
                }));
                System.out.println("the create: " + outcome);
                if (!outcome.get(0).equals("made") && !outcome.get(0).contains("while Snapshot.save to a channel"))
                {
                    throw new AssertionError("a refusal that does not name the save: " + outcome);
                }
                if (outcome.get(0).equals("made") && !world.valid(created[count - 1]))
                {
                    throw new AssertionError("made, but not alive after the save");
                }
                try (World copy = new World())
                {
                    Snapshot.load(copy, ByteBuffer.wrap(bytes.toByteArray()));
                    if (!before.equals(Worlds.digest(copy)))
                    {
                        throw new AssertionError("the snapshot is not the world as it was when the save began");
                    }
                }
                System.out.println("the snapshot holds the world as it was");
            }
        }
    }

    @Test
    void anotherThreadCannotCloseTheWorldWhileItsSnapshotIsWrittenToAChannel()
    {
        try (World world = new World())
        {
            world.create(new long[300_000], 300_000);
            final String before = Worlds.digest(world);
            final java.util.concurrent.atomic.AtomicReference<Throwable> closing =
                new java.util.concurrent.atomic.AtomicReference<>();
            final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            Snapshot.save(world, channelInto(bytes, () ->
            {
                if (closing.get() == null)
                {
                    final Thread closer = new Thread(() ->
                    {
                        try
                        {
                            world.close();
                            closing.set(new AssertionError("closed under the copy"));
                        }
                        catch (final IllegalStateException ex)
                        {
                            closing.set(ex);
                        }
                    });
                    closer.start();
                    try
                    {
                        closer.join();
                    }
                    catch (final InterruptedException ex)
                    {
                        throw new AssertionError(ex);
                    }
                }
            }));

            assertTrue(closing.get() instanceof IllegalStateException, String.valueOf(closing.get()));
            assertTrue(closing.get().getMessage().contains("cannot be closed while"), closing.get().getMessage());
            assertFalse(world.isClosed());
            try (World copy = new World())
            {
                Snapshot.load(copy, ByteBuffer.wrap(bytes.toByteArray()));
                assertEquals(before, Worlds.digest(copy));
            }
        }
    }

    @Test
    void savesFromTheActionsOfAParallelWalkToAChannelOrABufferHoldTheWorldAsTheWalkBegan()
    {
        try (World world = new World())
        {
            final var links = world.storage(SnapshotFixtures_LinkStorage.TYPE);
            for (int i = 0; i < 50; i++)
            {
                links.emplace(world.create(), Entity.NULL, Entity.NULL, i);
            }
            final String before = Worlds.digest(world);
            final java.util.Queue<byte[]> saved = new java.util.concurrent.ConcurrentLinkedQueue<>();
            world.view(Link.class).parallelForEach(java.util.concurrent.ForkJoinPool.commonPool(), 5, entity ->
            {
                world.destroy(entity);               // deferred: no save sees it
                if (links.weight(entity) % 25 == 0)
                {
                    final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                    Snapshot.save(world, java.nio.channels.Channels.newChannel(bytes));
                    saved.add(bytes.toByteArray());
                    final ByteBuffer buffer = ByteBuffer.allocate((int)Snapshot.sizeOf(world));
                    Snapshot.save(world, buffer);
                    saved.add(Worlds.bytes(buffer.flip()));
                }
            });

            assertEquals(4, saved.size());
            for (final byte[] bytes : saved)
            {
                try (World copy = new World())
                {
                    Snapshot.load(copy, ByteBuffer.wrap(bytes));
                    assertEquals(before, Worlds.digest(copy));
                }
            }
            assertEquals(0, world.aliveCount(), "the destroys were made when the walk returned");
            assertFalse(world.isDeferring());
        }
    }

    @Test
    void aClosedWorldRefusesBothWays()
    {
        final World world = new World();
        final ByteBuffer snapshot = Worlds.save(world);
        world.close();

        assertThrows(IllegalStateException.class, () -> Snapshot.sizeOf(world));
        assertThrows(IllegalStateException.class, () -> Snapshot.save(world, ByteBuffer.allocate(1 << 10)));
        assertThrows(IllegalStateException.class, () -> Snapshot.load(world, snapshot));
    }

    /** A channel that runs {@code beforeEachWrite}, then writes into {@code bytes}. */
    private static WritableByteChannel channelInto(final java.io.ByteArrayOutputStream bytes,
        final Runnable beforeEachWrite)
    {
        final WritableByteChannel out = java.nio.channels.Channels.newChannel(bytes);
        return new WritableByteChannel()
        {
            @Override
            public int write(final ByteBuffer source) throws java.io.IOException
            {
                beforeEachWrite.run();
                return out.write(source);
            }

            @Override
            public boolean isOpen()
            {
                return true;
            }

            @Override
            public void close()
            {
            }
        };
    }

    @Test
    void aFailedLoadForgetsTheStoragesItCreatedSoLaterSavesAreAsBefore()
    {
        try (World world = new World(); World copy = new World())
        {
            Worlds.grow(world, new Random(5), 400);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            final byte[] cut = java.util.Arrays.copyOf(snapshot, snapshot.length - 1);
            copy.storage(SnapshotFixtures_HeatStorage.TYPE);
            final List<?> storagesBefore = copy.storages();
            final long sizeBefore = Snapshot.sizeOf(copy);

            assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, ByteBuffer.wrap(cut)));

            assertEquals(storagesBefore, copy.storages(), "the storages the world had, and no other");
            assertEquals(sizeBefore, Snapshot.sizeOf(copy));
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            assertEquals(Worlds.digest(world), Worlds.digest(copy), "the storages are made again by the next load");
        }
    }

    @Test
    void changeTicksNoWorldCouldHaveRecordedAreRefused()
    {
        try (World world = new World(); World copy = new World())
        {
            for (int i = 0; i < 0x12345; i++)
            {
                world.advanceTick();
            }
            final int stamped = world.tick();
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(world.create(), 1f);
            world.advanceTick();
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            final int ticks = offsetOfInts(snapshot, stamped, stamped);

            final byte[] future = snapshot.clone();
            ByteBuffer.wrap(future).order(ByteOrder.LITTLE_ENDIAN).putInt(ticks, world.tick() + 1);
            final byte[] ancient = snapshot.clone();
            ByteBuffer.wrap(ancient).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(ticks + 4, world.tick() - Clock.MAX_AGE - Clock.CLAMP_PERIOD - 1);

            assertMessage(copy, Worlds.reseal(future), "(dev.cairn.snapshots.SnapshotFixtures$Heat)",
                "index 0 of dev.cairn.snapshots.SnapshotFixtures$Heat was added at tick " + (world.tick() + 1));
            assertMessage(copy, Worlds.reseal(ancient), "(dev.cairn.snapshots.SnapshotFixtures$Heat)",
                "which a world at tick " + world.tick() + " cannot have recorded");
            final byte[] changedFirst = snapshot.clone();
            ByteBuffer.wrap(changedFirst).order(ByteOrder.LITTLE_ENDIAN).putInt(ticks + 4, stamped - 1);
            assertMessage(copy, Worlds.reseal(changedFirst), "(dev.cairn.snapshots.SnapshotFixtures$Heat)",
                "and changed at tick " + (stamped - 1));
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            assertEquals(Worlds.digest(world), Worlds.digest(copy));
        }
    }

    @Test
    void theOldestChangeTickAWorldCanHoldLoadsAndStillReadsAsChangedWhenTheClockRaisesIt()
    {
        try (World world = new World(); World copy = new World())
        {
            for (int i = 0; i < 0x12345; i++)
            {
                world.advanceTick();
            }
            final int stamped = world.tick();
            final long entity = world.create();
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(entity, 1f);
            world.advanceTick();
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            final int ticks = offsetOfInts(snapshot, stamped, stamped);
            // The world section's tick, forged to two advances before a raise of old ticks.
            final int now = 3 * Clock.CLAMP_PERIOD - 2;
            // The last raise, CLAMP_PERIOD - 2 advances ago, left no tick more than MAX_AGE old.
            final int oldest = now - Clock.MAX_AGE - (Clock.CLAMP_PERIOD - 2);
            assertEquals(now - oldest, Clock.oldestAge(now));

            final byte[] tooOld = snapshot.clone();
            ByteBuffer.wrap(tooOld).order(ByteOrder.LITTLE_ENDIAN).putInt(36, now)
                .putInt(ticks, oldest - 1).putInt(ticks + 4, oldest);
            assertMessage(copy, Worlds.reseal(tooOld), "(dev.cairn.snapshots.SnapshotFixtures$Heat)",
                "was added at tick " + (oldest - 1) + " and changed at tick " + oldest + ", which a world at tick " +
                    now + " cannot have recorded (a tick is at most " + Clock.oldestAge(now) + " older");

            final byte[] asOldAsCanBe = snapshot.clone();
            ByteBuffer.wrap(asOldAsCanBe).order(ByteOrder.LITTLE_ENDIAN).putInt(36, now)
                .putInt(ticks, oldest).putInt(ticks + 4, oldest);
            Snapshot.load(copy, ByteBuffer.wrap(Worlds.reseal(asOldAsCanBe)));
            final SnapshotFixtures_HeatStorage heat = copy.storage(SnapshotFixtures_HeatStorage.TYPE);
            final int index = heat.indexOf(entity);
            assertTrue(heat.changedSince(index, oldest - 1));
            assertFalse(heat.changedSince(index, oldest));
            copy.advanceTick();
            assertTrue(heat.changedSince(index, oldest - 1), "the oldest tick a query still tells apart");
            copy.advanceTick();
            assertTrue(heat.changedSince(index, oldest - 1), "raised, and so newer still");
        }
    }

    @Test
    void aWorldSectionNoWorldSavesAndSectionsOfTheWrongKindAreNamed()
    {
        try (World world = new World(); World copy = new World())
        {
            world.storage(SnapshotFixtures_MarkedStorage.TYPE).emplace(world.create());
            world.create();
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            // Header (24 bytes), world section: kind and length (12), tick (4), then the pool's max, created, alive.
            final byte[] noRoom = snapshot.clone();
            ByteBuffer.wrap(noRoom).order(ByteOrder.LITTLE_ENDIAN).putInt(40, 1);
            final byte[] noMaximum = snapshot.clone();
            ByteBuffer.wrap(noMaximum).order(ByteOrder.LITTLE_ENDIAN).putInt(40, 0);
            final byte[] noSections = snapshot.clone();
            ByteBuffer.wrap(noSections).order(ByteOrder.LITTLE_ENDIAN).putInt(12, 0);
            final byte[] worldKind = snapshot.clone();
            ByteBuffer.wrap(worldKind).order(ByteOrder.LITTLE_ENDIAN).putInt(24, 2);
            final int storageSection = 24 + 12 + (int)ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN)
                .getLong(28) + 4;
            final byte[] storageKind = snapshot.clone();
            ByteBuffer.wrap(storageKind).order(ByteOrder.LITTLE_ENDIAN).putInt(storageSection, 3);

            assertMessage(copy, Worlds.reseal(noRoom), "section 0 (world)",
                "at byte 60: it holds 2 entity indices, which its world's maximum of 1 entities does not allow");
            assertMessage(copy, Worlds.reseal(noMaximum), "section 0 (world)",
                "at byte 44: its world's maximum of 0 entities is not one a world has");
            assertMessage(copy, Worlds.reseal(noSections), "header",
                "it declares 0 sections, where a snapshot has at least one, the world's");
            assertMessage(copy, Worlds.reseal(worldKind), "section 0 (world)",
                "the first section is of kind 2, not the world's (1)");
            assertMessage(copy, Worlds.reseal(storageKind), "section 1",
                "it is of kind 3 where a storage's (2) comes");
        }
    }

    @Test
    void aNullWorldOrChannelIsNamed()
    {
        final ByteBuffer bytes = ByteBuffer.allocate(64);
        for (final org.junit.jupiter.api.function.Executable call : List.<org.junit.jupiter.api.function.Executable>of(
            () -> Snapshot.sizeOf(null),
            () -> Snapshot.save(null, bytes),
            () -> Snapshot.load(null, bytes),
            () -> Snapshot.load(null, bytes, Runnable::run)))
        {
            final NullPointerException ex = assertThrows(NullPointerException.class, call);
            assertTrue(ex.getMessage().startsWith("world: pass the World"), ex.getMessage());
        }
        try (World world = new World())
        {
            final NullPointerException ex = assertThrows(NullPointerException.class,
                () -> Snapshot.load(world, (java.nio.channels.ReadableByteChannel)null));
            assertEquals("channel", ex.getMessage());
        }
    }

    @Test
    void aBooleanOtherThanZeroOrOneIsRefused()
    {
        try (World world = new World(); World copy = new World())
        {
            final var lit = world.storage(SnapshotFixtures_LitStorage.TYPE);
            lit.emplace(world.create(), true);
            lit.emplace(world.create(), true);
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            final byte[] seven = snapshot.clone();
            seven[Worlds.offsetOf(snapshot, Entity.of(0, 0), Entity.of(1, 0)) + 17] = 7;

            assertMessage(copy, Worlds.reseal(seven), "(dev.cairn.snapshots.SnapshotFixtures$Lit)",
                "field on holds 7 at index 1, where a boolean is 0 or 1");
        }
    }

    @Test
    void aNameWithAControlCharacterIsRefusedWithoutPrintingIt()
    {
        try (World world = new World(); World copy = new World())
        {
            world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(world.create(), 1f);
            final byte[] renamed = Evolution.rename(Worlds.bytes(Worlds.save(world)), "Heat", "He\u0000t");

            final SnapshotFormatException ex =
                assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, ByteBuffer.wrap(renamed)));

            assertTrue(ex.getMessage().contains("control character U+0000 at position"), ex.getMessage());
            assertFalse(ex.getMessage().contains("\u0000"), "the message holds the raw character");
            assertEquals(List.of(), copy.storages());
        }
    }

    @Test
    void aFailedLoadIntoAResetWorldKeepsTheMemoryItsPoolMappedForTheNextLoad()
    {
        try (World world = new World(); World copy = new World())
        {
            for (int i = 0; i < 50_000; i++)
            {
                world.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(world.create(), i);
            }
            final byte[] snapshot = Worlds.bytes(Worlds.save(world));
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            copy.reset();
            final byte[] changed = snapshot.clone();
            changed[changed.length - 1] ^= 1;

            assertThrows(SnapshotFormatException.class, () -> Snapshot.load(copy, ByteBuffer.wrap(changed)));

            assertTrue(copy.offHeapBytes() >= 50_000L * Integer.BYTES, "the pool's versions stay: " +
                copy.offHeapBytes());
            Snapshot.load(copy, ByteBuffer.wrap(snapshot));
            assertEquals(Worlds.digest(world), Worlds.digest(copy));
        }
    }

    @Test
    void aLoadThatRunsOutOfMemoryRebuildingAGroupIsUndoneWhole()
    {
        final byte[] snapshot;
        try (World source = new World())
        {
            for (int i = 0; i < 1_000; i++)
            {
                final long entity = source.create();
                source.storage(SnapshotFixtures_HeatStorage.TYPE).emplace(entity, i);
                source.storage(SnapshotFixtures_MarkedStorage.TYPE).emplace(entity);
            }
            for (int i = 0; i < 7; i++)
            {
                source.advanceTick();
            }
            snapshot = Worlds.bytes(Worlds.save(source));
        }
        final long plain;
        try (World sized = new World(1_000))
        {
            Snapshot.load(sized, ByteBuffer.wrap(snapshot));
            plain = sized.offHeapBytes();
        }
        int failedInTheGroup = 0;
        // Budgets from what the load alone needs to what it needs with the group: the group's memory runs out.
        for (long budget = plain; budget < plain + 16_384; budget += 256)
        {
            try (World world = new World(1_000, budget))
            {
                final RuntimeGroup marked = world.group().with(Heat.class, Marked.class).build();
                final List<ComponentStorage<?>> storages = world.storages();
                final long bytes = world.offHeapBytes();
                final String before = Worlds.digest(world);
                try
                {
                    Snapshot.load(world, ByteBuffer.wrap(snapshot));
                    assertEquals(1_000, marked.size());
                }
                catch (final OffHeapExhaustedException ex)
                {
                    failedInTheGroup++;
                    assertEquals(Clock.FIRST_TICK, world.tick(), "the tick as it was, budget " + budget);
                    assertEquals(before, Worlds.digest(world), "budget " + budget);
                    assertEquals(storages, world.storages(), "budget " + budget);
                    assertTrue(world.offHeapBytes() <= bytes, "budget " + budget + ": " + world.offHeapBytes());
                    assertEquals(0, marked.size());
                }
            }
        }
        assertTrue(failedInTheGroup > 0, "some budget ran out while the group was rebuilt");
    }

    /** Where two consecutive little-endian ints sit in a snapshot (the last place, if more than one). */
    private static int offsetOfInts(final byte[] snapshot, final int first, final int second)
    {
        final ByteBuffer bytes = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = snapshot.length - 8; at >= 0; at--)
        {
            if (bytes.getInt(at) == first && bytes.getInt(at + 4) == second)
            {
                return at;
            }
        }
        throw new AssertionError("not found");
    }

    /**
     * Loading {@code bytes} fails naming the section and saying what, and leaves the world as it was: the same
     * entities and components, and the same storages, so that a later save writes what it would have.
     */
    private static String digestOfANewWorld()
    {
        try (World world = new World())
        {
            return Worlds.digest(world);
        }
    }

    static void assertMessage(final World world, final byte[] bytes, final String section, final String what)
    {
        final String before = Worlds.digest(world);
        final List<?> storagesBefore = world.storages();
        final SnapshotFormatException ex =
            assertThrows(SnapshotFormatException.class, () -> Snapshot.load(world, ByteBuffer.wrap(bytes)));
        assertTrue(ex.getMessage().contains(what), ex.getMessage());
        assertTrue(ex.section().contains(section), ex.getMessage());
        assertEquals(before, Worlds.digest(world), "the world is left as it was");
        assertEquals(storagesBefore, world.storages(), "the world has the storages it had");
    }
}
