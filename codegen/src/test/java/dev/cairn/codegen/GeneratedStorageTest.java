package dev.cairn.codegen;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.RawStorage;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.world.World;
import dev.cairn.codegen.fixture.Colour;
import dev.cairn.codegen.fixture.Everything;
import dev.cairn.codegen.fixture.Everything_SwapAndPopStorage;
import dev.cairn.codegen.fixture.Mailbox;
import dev.cairn.codegen.fixture.MailboxStorage;
import dev.cairn.codegen.fixture.Position;
import dev.cairn.codegen.fixture.PositionStorage;
import dev.cairn.codegen.fixture.Shades;
import dev.cairn.codegen.fixture.ShadesStorage;
import dev.cairn.codegen.fixture.Tags;
import dev.cairn.codegen.fixture.Tags_InPlaceStorage;
import dev.cairn.codegen.fixture.Transform;
import dev.cairn.codegen.fixture.TransformStorage;
import dev.cairn.codegen.fixture.Vec2;
import dev.cairn.codegen.fixture.Wide;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.Clock;
import dev.cairn.storage.Schema;
import dev.cairn.storage.ComponentType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated storage API, one behaviour at a time, on the contract's examples: {@code Position(float x, float y)},
 * the nested {@code Transform(Vec2 pos, float angle)}, enums and tags.
 */
final class GeneratedStorageTest
{
    private static final long A = Entity.of(1, 0);
    private static final long B = Entity.of(2, 0);
    private static final long C = Entity.of(3, 7);

    @Test
    void emplaceWritesEveryFieldAndEachAccessorReadsItBack()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(A, 1.5f, -2.5f);
            final int index = positions.indexOf(A);

            assertEquals(A, positions.entityAt(index));
            assertEquals(1.5f, positions.x(A));
            assertEquals(-2.5f, positions.y(A));
            assertEquals(1.5f, positions.xAt(index));
            assertEquals(-2.5f, positions.yAt(index));
            final PositionStorage.Ref ref = new PositionStorage.Ref(positions).moveTo(index);
            assertEquals(index, ref.index());
            assertEquals(A, ref.entity());
            assertEquals(1.5f, ref.x());
            assertEquals(-2.5f, ref.y());
            assertEquals(new Position(1.5f, -2.5f), positions.get(A));
            assertEquals(new Position(1.5f, -2.5f), positions.getAt(index));
            assertEquals(new Position(1.5f, -2.5f), ref.get());
        }
    }

    @Test
    void settersByEntityByIndexAndThroughRefWriteOnlyTheirField()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(A, 1f, 2f);
            positions.emplace(B, 3f, 4f);
            final int index = positions.indexOf(B);

            positions.x(B, 30f);
            positions.yAt(index, 40f);
            assertEquals(new Position(30f, 40f), positions.get(B));
            new PositionStorage.Ref(positions).moveTo(index).x(300f);
            assertEquals(new Position(300f, 40f), positions.get(B));
            assertEquals(new Position(1f, 2f), positions.get(A));
        }
    }

    @Test
    void addAndPatchTakeTheRecordOrItsFields()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.add(A, new Position(1f, 2f));
            positions.patch(A, new Position(5f, 6f));
            assertEquals(new Position(5f, 6f), positions.get(A));
            positions.patch(A, 7f, 8f);
            assertEquals(new Position(7f, 8f), positions.get(A));
        }
    }

    @Test
    void aRowWhoseBooleanOrEnumBytesHoldNoValueIsRefusedByEveryRowWriteAndChangesNothing()
    {
        try (World world = new World())
        {
            final Everything_SwapAndPopStorage storage = world.storage(Everything_SwapAndPopStorage.TYPE);
            final Schema schema = storage.type().schema();
            final int flag = rows(storage).rowOffset(schema.indexOf("flag"));
            final int colour = rows(storage).rowOffset(schema.indexOf("colour"));
            final int wide = rows(storage).rowOffset(schema.indexOf("wide"));
            final int colours = schema.fields().get(schema.indexOf("colour")).constants().size();
            final int wides = schema.fields().get(schema.indexOf("wide")).constants().size();
            final long kept = world.create();
            final long fresh = world.create();
            final byte[] valid = new byte[rows(storage).rowBytes()];
            valid[flag] = 1;
            valid[colour] = (byte)(colours - 1);
            ByteBuffer.wrap(valid).order(ByteOrder.nativeOrder()).putShort(wide, (short)(wides - 1));
            rows(storage).putRowIfAlive(kept, valid, 0);
            final Everything.SwapAndPop before = storage.get(kept);

            final List<byte[]> invalid = new ArrayList<>();
            final List<String> said = List.of("field flag", "holds 2, where a boolean is 0 (false) or 1 (true)",
                "field colour", "holds ordinal " + colours + ", where its enum has " + colours + " constants",
                "field wide", "holds ordinal 65535, where its enum has " + wides + " constants");
            invalid.add(valid.clone());
            invalid.get(0)[flag] = 2;
            invalid.add(valid.clone());
            invalid.get(1)[colour] = (byte)colours;
            invalid.add(valid.clone());
            ByteBuffer.wrap(invalid.get(2)).order(ByteOrder.nativeOrder()).putShort(wide, (short)-1);
            for (int k = 0; k < invalid.size(); k++)
            {
                final byte[] row = invalid.get(k);
                final UnsafeBuffer buffer = new UnsafeBuffer(row);
                final List<Executable> writes = List.of(
                    () -> rows(storage).putRowIfAlive(kept, row, 0), () -> rows(storage).putRowIfAlive(fresh, row, 0), () -> rows(storage).addRow(fresh, buffer, 0),
                    () -> rows(storage).patchRow(kept, buffer, 0));
                for (final Executable write : writes)
                {
                    final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, write);
                    assertTrue(refused.getMessage().contains(said.get(2 * k)) &&
                        refused.getMessage().contains(said.get(2 * k + 1)), refused.getMessage());
                }
                final byte[] entries = new byte[Long.BYTES + row.length];
                ByteBuffer.wrap(entries).order(ByteOrder.nativeOrder()).putLong(0, fresh);
                System.arraycopy(row, 0, entries, Long.BYTES, row.length);
                assertEquals(0, rows(storage).addRowsQuickly(entries, 0, 1), "left to the one-by-one path, which refuses");
                assertEquals(before, storage.get(kept));
                assertFalse(storage.contains(fresh));
            }
        }
    }

    @Test
    void aRowAddsOrOverwritesAndOnlyTheIfAliveFormLeavesAnEntityThatIsNotAliveAlone()
    {
        try (World world = new World())
        {
            final PositionStorage positions = world.storage(PositionStorage.TYPE);
            final long alive = world.create();
            final long dead = world.create();
            world.destroy(dead);
            final byte[] row = new byte[3 + rows(positions).rowBytes()];
            final ByteBuffer fields = ByteBuffer.wrap(row).order(ByteOrder.nativeOrder());
            fields.putFloat(3 + rows(positions).rowOffset(0), 1.5f).putFloat(3 + rows(positions).rowOffset(1), -2f);

            assertTrue(rows(positions).putRowIfAlive(alive, row, 3), "added");
            assertEquals(new Position(1.5f, -2f), positions.get(alive));
            fields.putFloat(3 + rows(positions).rowOffset(0), 9f);
            assertTrue(rows(positions).putRowIfAlive(alive, row, 3), "overwritten");
            assertEquals(new Position(9f, -2f), positions.get(alive));
            assertEquals(1, positions.size());

            assertFalse(rows(positions).putRowIfAlive(dead, row, 3));
            assertFalse(rows(positions).putRowIfAlive(Entity.NULL, row, 3));
            assertFalse(rows(positions).putRowIfAlive(Entity.of(40, 0), row, 3), "never created");
            assertEquals(1, positions.size());
            assertThrows(IndexOutOfBoundsException.class, () -> rows(positions).putRowIfAlive(alive, row, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> rows(positions).putRowIfAlive(dead, row, -1));
            assertEquals(new Position(9f, -2f), positions.get(alive), "a refused row changes nothing");
        }
    }

    @Test
    void rowsAddInBulkUntilAnEntryNeedsMoreThanAnInsertAndACopy()
    {
        try (World world = new World())
        {
            final PositionStorage positions = world.storage(PositionStorage.TYPE);
            final long[] alive = new long[4];
            for (int i = 0; i < alive.length; i++)
            {
                alive[i] = world.create();
            }
            final long dead = world.create();
            world.destroy(dead);
            positions.emplace(alive[3], 0f, 0f);           // its sparse page exists from here on
            final long[] handles = {alive[0], alive[1], dead, alive[2], alive[3], -5L, alive[3]};
            final int stride = Long.BYTES + rows(positions).rowBytes();
            final byte[] entries = new byte[1 + handles.length * stride];
            final ByteBuffer writer = ByteBuffer.wrap(entries).order(ByteOrder.nativeOrder());
            for (int i = 0; i < handles.length; i++)
            {
                final int at = 1 + i * stride;
                writer.putLong(at, handles[i]).putFloat(at + Long.BYTES, i).putFloat(at + Long.BYTES + 4, -i);
            }

            assertEquals(2, rows(positions).addRowsQuickly(entries, 1, handles.length), "stops at an entity not alive");
            assertEquals(new Position(1f, -1f), positions.get(alive[1]));
            assertEquals(0, rows(positions).addRowsQuickly(entries, 1 + 2 * stride, 5), "leaves the dead entity alone");
            assertEquals(1, rows(positions).addRowsQuickly(entries, 1 + 3 * stride, 4), "stops at a member");
            assertEquals(new Position(0f, 0f), positions.get(alive[3]), "the member is not overwritten");
            assertEquals(0, rows(positions).addRowsQuickly(entries, 1 + 5 * stride, 2), "stops at a value that is no handle");
            assertEquals(0, rows(positions).addRowsQuickly(entries, 1, 0));
            assertEquals(4, positions.size());

            assertThrows(IndexOutOfBoundsException.class, () -> rows(positions).addRowsQuickly(entries, 2, handles.length));
            assertThrows(IndexOutOfBoundsException.class, () -> rows(positions).addRowsQuickly(entries, -1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> rows(positions).addRowsQuickly(entries, 1, -1));
            final List<Long> heard = new ArrayList<>();
            positions.onAdded((entity, index) -> heard.add(entity));
            positions.remove(alive[0]);
            assertEquals(0, rows(positions).addRowsQuickly(entries, 1, 1), "a listener to tell takes the one-by-one path");
            assertFalse(positions.contains(alive[0]));
            assertTrue(heard.isEmpty());
        }
    }

    @Test
    void rowsAddInBulkOnlyWhereTheInsertNeedsNoMemory()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            final int count = 5_000;
            final int stride = Long.BYTES + rows(positions).rowBytes();
            final ByteBuffer entries = ByteBuffer.allocate(count * stride).order(ByteOrder.nativeOrder());
            for (int i = 0; i < count; i++)
            {
                entries.putLong(i * stride, Entity.of(i, 0)).putFloat(i * stride + Long.BYTES, i);
            }
            positions.emplace(Entity.of(0, 0), 0f, 0f);
            positions.remove(Entity.of(0, 0));
            int done = 0;
            int calls = 0;
            while (done < count)
            {
                done += rows(positions).addRowsQuickly(entries.array(), done * stride, count - done);
                if (done < count)
                {
                    rows(positions).putRowIfAlive(entries.getLong(done * stride), entries.array(), done * stride + Long.BYTES);
                    done++;
                }
                calls++;
            }
            assertTrue(calls > 1 && calls < 20, calls + " calls: growth takes the one-by-one path, the rest is bulk");
            assertEquals(count, positions.size());
            for (int i = 0; i < count; i++)
            {
                assertEquals(i, positions.x(Entity.of(i, 0)));
                assertEquals(i, positions.indexOf(Entity.of(i, 0)));
            }
        }
        final PositionStorage closed = PositionStorage.create();
        closed.close();
        assertThrows(IllegalStateException.class, () -> rows(closed).addRowsQuickly(new byte[64], 0, 1));
    }

    @Test
    void fieldsNamedLikeGeneratedMembersKeepTheirValuesThroughSwapsAndMoves()
    {
        try (MailboxStorage mailboxes = MailboxStorage.create())
        {
            mailboxes.emplace(A, 0L, 11, (short)1);
            mailboxes.emplace(B, 0L, 22, (short)2);
            mailboxes.emplace(C, 0L, 33, (short)3);

            mailboxes.remove(A);                        // swap-only: A's slot and C's are exchanged
            mailboxes.sort(mailboxes.comparingHeld().reversed());

            assertFalse(mailboxes.contains(A));
            assertEquals(new Mailbox(0L, 22, (short)2), mailboxes.get(B));
            assertEquals(new Mailbox(0L, 33, (short)3), mailboxes.get(C));
            mailboxes.emplace(A, 7L, 44, (short)4);     // revived where it was swapped to
            assertEquals(new Mailbox(7L, 44, (short)4), mailboxes.get(A));
            assertEquals(new Mailbox(0L, 33, (short)3), mailboxes.get(C));
        }
    }

    @Test
    void aNestedRecordIsFlattenedIntoColumnsAndRebuiltByGet()
    {
        try (TransformStorage transforms = TransformStorage.create())
        {
            transforms.emplace(A, 1f, 2f, 0.5f);
            final int index = transforms.indexOf(A);
            transforms.add(B, new Transform(new Vec2(3f, 4f), -1f));

            assertEquals(1f, transforms.posX(A));
            assertEquals(2f, transforms.posYAt(index));
            assertEquals(0.5f, new TransformStorage.Ref(transforms).moveTo(index).angle());
            assertEquals(new Transform(new Vec2(3f, 4f), -1f), transforms.get(B));
            transforms.posY(B, 40f);
            assertEquals(new Transform(new Vec2(3f, 40f), -1f), transforms.get(B));
        }
    }

    @Test
    void standaloneStoragesAcceptAnyWellFormedHandleAndRefuseNull()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(Entity.of(Entity.MAX_INDEX, Entity.MAX_VERSION), 1f, 1f);
            assertTrue(positions.contains(Entity.of(Entity.MAX_INDEX, Entity.MAX_VERSION)));
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> positions.emplace(Entity.NULL, 0f, 0f));
            assertTrue(ex.getMessage().contains(Entity.toString(Entity.NULL)), ex.getMessage());
        }
    }

    @Test
    void accessorsByEntityRefuseAnAbsentOrStaleEntityNamingIt()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(A, 1f, 2f);
            final long stale = Entity.of(1, 1);

            for (final long absent : new long[]{B, stale})
            {
                final String name = Entity.toString(absent);
                assertMessageContains(name, assertThrows(IllegalArgumentException.class, () -> positions.x(absent)));
                assertMessageContains(name, assertThrows(
                    IllegalArgumentException.class, () -> positions.y(absent, 1f)));
                assertMessageContains(name, assertThrows(IllegalArgumentException.class, () -> positions.get(absent)));
                assertMessageContains(name, assertThrows(
                    IllegalArgumentException.class, () -> positions.patch(absent, 1f, 1f)));
                assertMessageContains(name, assertThrows(
                    IllegalArgumentException.class, () -> positions.patch(absent, new Position(1f, 1f))));
            }
            assertMessageContains(Entity.toString(A), assertThrows(
                IllegalArgumentException.class, () -> positions.emplace(A, 0f, 0f)));
            assertEquals(new Position(1f, 2f), positions.get(A));
        }
    }

    @Test
    void accessorsByIndexAndRefsRefuseAnIndexOutsideTheStorage()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(A, 1f, 2f);
            final PositionStorage.Ref ref = new PositionStorage.Ref(positions).moveTo(1);

            assertMessageContains("index 1 ", assertThrows(IndexOutOfBoundsException.class, () -> positions.xAt(1)));
            assertMessageContains("index -1 ", assertThrows(
                IndexOutOfBoundsException.class, () -> positions.yAt(-1, 0f)));
            assertThrows(IndexOutOfBoundsException.class, () -> positions.getAt(1));
            // A Ref moved outside the storage is on no entity.
            assertMessageContains("on no entity", assertThrows(IllegalStateException.class, ref::x));
            assertThrows(IllegalStateException.class, () -> ref.y(1f));
            assertThrows(IllegalStateException.class, ref::get);
            assertThrows(
                IllegalStateException.class, () -> new PositionStorage.Ref(positions).x(), "a Ref never moved");
            positions.erase(A);
            assertThrows(IllegalStateException.class, () -> new PositionStorage.Ref(positions).moveTo(0).x());
        }
    }

    @Test
    void aRefMovedToAnIndexWithItsKnownEntityReadsItAndFailsOnceTheEntityLeavesTheSlot()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(A, 1f, 2f);
            positions.emplace(B, 3f, 4f);
            final PositionStorage.Ref ref = new PositionStorage.Ref(positions);

            ref.moveTo(positions.indexOf(B), B);
            assertEquals(B, ref.entity());
            assertEquals(positions.indexOf(B), ref.index());
            assertEquals(3f, ref.x());
            ref.y(40f);
            assertEquals(new Position(3f, 40f), positions.get(B));
            assertMessageContains("index 2 ", assertThrows(IndexOutOfBoundsException.class, () -> ref.moveTo(2, B)));

            positions.erase(A); // B fills A's slot
            assertMessageContains(Entity.toString(B), assertThrows(IllegalStateException.class, ref::x));
            assertTrue(ref.moveToEntity(B, 1), "a wrong hint costs a lookup");
            assertEquals(0, ref.index());
            assertEquals(3f, ref.x());
        }
    }

    @Test
    void everyAccessorThrowsIllegalStateAfterClose()
    {
        final PositionStorage positions = PositionStorage.create();
        positions.emplace(A, 1f, 2f);
        final PositionStorage.Ref ref = new PositionStorage.Ref(positions).moveTo(0);
        positions.close();

        assertEquals(0, positions.offHeapBytes());
        assertThrows(IllegalStateException.class, () -> positions.x(A));
        assertThrows(IllegalStateException.class, () -> positions.x(A, 1f));
        assertThrows(IllegalStateException.class, () -> positions.xAt(0));
        assertThrows(IllegalStateException.class, () -> positions.yAt(0, 1f));
        assertThrows(IllegalStateException.class, ref::x);
        assertThrows(IllegalStateException.class, () -> positions.get(A));
        assertThrows(IllegalStateException.class, () -> positions.emplace(B, 1f, 1f));
        assertThrows(IllegalStateException.class, () -> positions.patch(A, 1f, 1f));
    }

    @Test
    void comparatorsSortIterationByTheirFieldWithoutBoxing()
    {
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.emplace(A, 2f, 0f);
            positions.emplace(B, Float.NaN, 1f);
            positions.emplace(C, -0.0f, 2f);
            positions.emplace(Entity.of(4, 0), 0.0f, 3f);

            positions.sort(positions.comparingX());
            assertEquals(List.of(C, Entity.of(4, 0), A, B), iteration(positions));
            positions.sort(positions.comparingY());
            assertEquals(List.of(A, B, C, Entity.of(4, 0)), iteration(positions));
            assertEquals(new Position(Float.NaN, 1f), positions.get(B));
        }
    }

    @Test
    void aComponentStorageRefusesABareInsertThatWouldAddAMemberWithoutValuesOrAnnouncement()
    {
        try (PositionStorage positions = PositionStorage.create();
             Tags_InPlaceStorage tags = Tags_InPlaceStorage.create())
        {
            positions.emplace(A, 1f, 2f);
            positions.erase(A);
            final int[] added = {0};
            positions.onAdded((entity, index) -> added[0]++);
            for (final SparseSet storage : List.<SparseSet>of(positions, tags))
            {
                final UnsupportedOperationException refused =
                    assertThrows(UnsupportedOperationException.class, () -> storage.insert(B));
                assertTrue(refused.getMessage().contains("use emplace(entity, ...)") &&
                    refused.getMessage().contains(Entity.toString(B)), refused.getMessage());
                assertFalse(storage.contains(B));
                assertEquals(0, storage.size());
            }
            assertEquals(0, added[0]);
            positions.emplace(B, 3f, 4f);
            assertEquals(new Position(3f, 4f), positions.get(B));
            assertEquals(1, added[0]);
        }
    }

    @Test
    void sortAsFollowsAnotherSetsIterationOrder()
    {
        try (PositionStorage positions = PositionStorage.create(); SparseSet order = new SparseSet(
            DeletionPolicy.SWAP_AND_POP))
        {
            positions.emplace(A, 1f, 1f);
            positions.emplace(B, 2f, 2f);
            positions.emplace(C, 3f, 3f);
            order.insert(A);
            order.insert(C);

            // Walks go front to back: order's walk is A, C, so the common members come first in that order.
            assertEquals(List.of(A, C), iteration(order));
            positions.sortAs(order);
            assertEquals(List.of(A, C, B), iteration(positions));
            assertEquals(A, positions.entityAt(0));
            assertEquals(C, positions.entityAt(1));
            assertEquals(new Position(3f, 3f), positions.get(C));
        }
    }

    @Test
    void enumsAreStoredAsByteOrShortOrdinals()
    {
        try (ShadesStorage shades = ShadesStorage.create())
        {
            shades.reserve(1024);
            assertEquals(1024L * (Long.BYTES + Byte.BYTES + Short.BYTES), shades.offHeapBytes());

            shades.emplace(A, Colour.BLUE, Wide.W299);
            shades.add(B, new Shades(Colour.RED, Wide.W000));
            assertEquals(Colour.BLUE, shades.colour(A));
            assertEquals(Wide.W299, shades.wide(A));
            shades.wide(B, Wide.W255);
            shades.colour(B, Colour.GREEN);
            assertEquals(new Shades(Colour.GREEN, Wide.W255), shades.get(B));
            shades.sort(shades.comparingWide());
            assertEquals(List.of(B, A), iteration(shades));
        }
        try (PositionStorage positions = PositionStorage.create())
        {
            positions.reserve(1024);
            assertEquals(1024L * (Long.BYTES + Float.BYTES + Float.BYTES), positions.offHeapBytes());
        }
    }

    @Test
    void aNullEnumIsRefusedBeforeAnythingChanges()
    {
        try (ShadesStorage shades = ShadesStorage.create())
        {
            assertMessageContains("Shades.colour is null; an enum field holds one of Colour's constants",
                assertThrows(NullPointerException.class, () -> shades.emplace(A, null, Wide.W001)));
            assertFalse(shades.contains(A));
            shades.emplace(A, Colour.RED, Wide.W001);
            assertThrows(NullPointerException.class, () -> shades.patch(A, Colour.BLUE, null));
            assertThrows(NullPointerException.class, () -> shades.colour(A, null));
            assertThrows(NullPointerException.class, () -> shades.add(B, new Shades(null, Wide.W000)));
            assertEquals(new Shades(Colour.RED, Wide.W001), shades.get(A));
            assertFalse(shades.contains(B));
        }
    }

    @Test
    void tagsHaveNoColumnsAndGetReturnsOneSharedInstance()
    {
        try (Tags_InPlaceStorage tags = Tags_InPlaceStorage.create())
        {
            tags.reserve(1024);
            assertEquals(1024L * Long.BYTES, tags.offHeapBytes());
            tags.emplace(A);
            tags.add(B, new Tags.InPlace());

            assertSame(tags.get(A), tags.get(B));
            assertSame(tags.get(A), tags.getAt(tags.indexOf(B)));
            assertMessageContains(Entity.toString(C), assertThrows(IllegalArgumentException.class, () -> tags.get(C)));
            assertThrows(NullPointerException.class, () -> tags.add(C, null));
            assertFalse(tags.contains(C));
            assertEquals(DeletionPolicy.IN_PLACE, tags.policy());
        }
    }

    @Test
    void typeRegistersTheRecordWithItsPolicyAndFactory()
    {
        assertSame(PositionStorage.TYPE, ComponentType.of(Position.class));
        assertEquals(Position.class, PositionStorage.TYPE.recordClass());
        assertEquals(DeletionPolicy.SWAP_AND_POP, PositionStorage.TYPE.policy());
        assertEquals(DeletionPolicy.IN_PLACE, Tags_InPlaceStorage.TYPE.policy());
        try (PositionStorage positions = PositionStorage.TYPE.newStorage(null, null, null, new Clock()))
        {
            assertSame(PositionStorage.TYPE, positions.type());
            assertEquals("Position storage", positions.name());
        }
    }

    private static List<Long> iteration(final SparseSet set)
    {
        final List<Long> order = new ArrayList<>();
        set.forEach(order::add);
        return order;
    }

    private static void assertMessageContains(final String expected, final Throwable thrown)
    {
        assertTrue(thrown.getMessage() != null && thrown.getMessage().contains(expected),
            "expected a message containing '" + expected + "', got: " + thrown.getMessage());
    }

    private static RawStorage rows(final ComponentStorage<?> storage)
    {
        return Access.rawStorage(storage);
    }
}
