package dev.cairn.set;

import dev.cairn.internal.Walks;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.model.PayloadSet;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of {@link SparseSet}, by example, for each deletion policy. The model-based tests
 * ({@link SparseSetModelTest} and the fuzz targets) check the same rules on long random sequences.
 */
class SparseSetTest
{
    private static final long A = Entity.of(1, 0);
    private static final long B = Entity.of(2, 0);
    private static final long C = Entity.of(3, 0);
    private static final long D = Entity.of(4, 0);
    private static final long E = Entity.of(5, 0);

    private static List<Long> iteration(final SparseSet set)
    {
        final List<Long> out = new ArrayList<>();
        set.forEach(out::add);
        return out;
    }

    private static PayloadSet payloadSet(final DeletionPolicy policy, final long... entities)
    {
        final PayloadSet set = new PayloadSet(policy, null, null, "test set");
        for (final long entity : entities)
        {
            set.emplace(entity, Entity.index(entity) * 100L);
        }
        return set;
    }

    private static long stampAt(final PayloadSet set, final int index)
    {
        return set.stampAt(index);
    }

    // ----------------------------------------------------------------------------------------------- every policy

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void removeAllLeavesTheSetExactlyAsRemovingEachInTurnDoes(final DeletionPolicy policy)
    {
        final java.util.Random random = new java.util.Random(policy.ordinal());
        for (int round = 0; round < 200; round++)
        {
            try (PayloadSet batch = new PayloadSet(policy, null, null, "batch");
                 PayloadSet single = new PayloadSet(policy, null, null, "single"))
            {
                final int members = random.nextInt(300);
                for (int i = 0; i < members; i++)
                {
                    final long entity = Entity.of(random.nextInt(5_000), random.nextInt(3));
                    if (!batch.contains(entity) && batch.indexOf(entity) < 0 && !single.contains(entity))
                    {
                        try
                        {
                            batch.emplace(entity, i);
                            single.emplace(entity, i);
                        }
                        catch (final IllegalArgumentException sameIndex)
                        {
                            // another version of an index already in the set
                        }
                    }
                }
                final long[] removed = new long[random.nextInt(400)];
                for (int i = 0; i < removed.length; i++)
                {
                    removed[i] = single.size() > 0 && random.nextInt(4) > 0 ?
                        single.entityAt(random.nextInt(single.size())) : Entity.of(random.nextInt(5_000), 0);
                }
                final int offset = removed.length == 0 ? 0 : random.nextInt(removed.length);
                final int length = removed.length - offset == 0 ? 0 : random.nextInt(removed.length - offset);

                int expected = 0;
                for (int i = offset; i < offset + length; i++)
                {
                    expected += single.remove(removed[i]) ? 1 : 0;
                }

                assertEquals(expected, batch.removeAll(removed, offset, length));
                assertEquals(single.size(), batch.size());
                assertEquals(single.extent(), batch.extent());
                assertEquals(single.memberCount(), batch.memberCount());
                for (int i = 0; i < single.size(); i++)
                {
                    assertEquals(single.entityAt(i), batch.entityAt(i), "index " + i);
                    if (Entity.isWellFormed(single.entityAt(i)) && i < single.extent())
                    {
                        assertEquals(single.stampAt(i), batch.stampAt(i), "payload at " + i);
                    }
                }
            }
        }
    }

    @Test
    void aStandaloneSetHoldsStillWhileWalkedAndRefusesChangesNamingTheWalk()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.SWAP_AND_POP))
        {
            set.insert(A);
            set.insert(B);
            final List<Long> visited = new ArrayList<>();
            set.forEach(entity ->
            {
                visited.add(entity);
                final IllegalStateException insert = assertThrows(IllegalStateException.class, () -> set.insert(C));
                assertTrue(insert.getMessage().contains("sparse set.forEach"), insert.getMessage());
                assertTrue(insert.getMessage().contains("collect the entities"), insert.getMessage());
                assertThrows(IllegalStateException.class, () -> set.remove(entity));
                assertThrows(IllegalStateException.class, set::clear);
                assertThrows(IllegalStateException.class, set::close, "closing under the walk is refused");
            });
            assertEquals(List.of(A, B), visited, "front to back, each member once");
            set.insert(C);
            assertTrue(set.remove(A), "after the walk the set changes again");
        }
    }

    @Test
    void removeAllOutsideTheArrayIsRefusedBeforeAnythingIsRemoved()
    {
        try (PayloadSet set = payloadSet(DeletionPolicy.SWAP_AND_POP, A, B, C))
        {
            final long[] entities = {A, B};

            assertThrows(IndexOutOfBoundsException.class, () -> set.removeAll(entities, 1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> set.removeAll(entities, 0, -1));

            assertEquals(3, set.memberCount());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void clearingOrRefillingASetOfItsOwnFromInsideItsWalkIsRefusedAndTheWalkVisitsEveryMemberOnce(
        final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            for (int k = 0; k < 5; k++)
            {
                set.insert(Entity.of(k, 0));
            }
            final List<Long> visited = new ArrayList<>();
            final List<RuntimeException> refused = new ArrayList<>();
            set.forEach(entity ->
            {
                visited.add(entity);
                if (visited.size() == 1)
                {
                    refused.add(assertThrows(IllegalStateException.class, set::clear));
                    refused.add(assertThrows(IllegalStateException.class, () -> set.insert(Entity.of(9, 0))));
                }
            });
            assertEquals(5, visited.size(), policy + " visited " + visited);
            assertEquals(5, new HashSet<>(visited).size());
            assertTrue(refused.get(0).getMessage().contains("cannot clear sparse set while sparse set.forEach runs"),
                refused.get(0).getMessage());
            assertEquals(5, set.memberCount(), "nothing changed");
            set.clear();
            assertEquals(0, set.memberCount(), "after the walk the set changes again");
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void erasingFromInsideTheWalkOfASetOfItsOwnIsRefusedSoEveryMemberIsVisitedOnce(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            for (int k = 0; k < 10; k++)
            {
                set.insert(Entity.of(k, 0));
            }
            final List<Long> visited = new ArrayList<>();
            set.forEach(entity ->
            {
                visited.add(entity);
                final IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> set.erase(set.entityAt(set.extent() - 1)));
                assertTrue(refused.getMessage().contains("cannot remove") &&
                    refused.getMessage().contains("while sparse set.forEach runs"), refused.getMessage());
            });

            assertEquals(10, visited.size());
            assertEquals(visited.size(), new HashSet<>(visited).size(), "no member visited twice");
            assertEquals(10, set.memberCount(), "nothing was removed");
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void insertingFromInsideTheWalkOfASetOfItsOwnIsRefusedSoNoNewcomerIsVisited(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            final long a = Entity.of(0, 0);
            final long b = Entity.of(1, 0);
            final long c = Entity.of(2, 0);
            set.insert(a);
            set.insert(b);
            final List<Long> visited = new ArrayList<>();
            set.forEach(entity ->
            {
                visited.add(entity);
                assertThrows(IllegalStateException.class, () -> set.insert(c));
            });

            assertEquals(List.of(a, b), visited);
            assertTrue(set.contains(a) && set.contains(b) && !set.contains(c));
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void insertReturnsThePackedIndexAndMakesTheHandleAMember(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            assertEquals(0, set.insert(A));
            assertEquals(1, set.insert(B));

            assertTrue(set.contains(A));
            assertEquals(1, set.indexOf(B));
            assertEquals(B, set.entityAt(1));
            assertEquals(2, set.size());
            assertEquals(2, set.memberCount());
            assertFalse(set.isEmpty());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void staleVersionsNullAndMalformedValuesAreNeverContained(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(Entity.of(5, 3));

            assertFalse(set.contains(Entity.of(5, 2)));
            assertFalse(set.contains(Entity.of(5, 4)));
            assertFalse(set.contains(Entity.NULL));
            assertFalse(set.contains(Entity.combine(5, Entity.TOMBSTONE_VERSION)));
            assertFalse(set.contains(Entity.of(5, 3) | Long.MIN_VALUE));
            assertEquals(-1, set.indexOf(Entity.of(5, 2)));
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void insertingAMemberAgainThrowsNamingIt(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(Entity.of(9, 2));

            final IllegalArgumentException same =
                assertThrows(IllegalArgumentException.class, () -> set.insert(Entity.of(9, 2)));
            assertTrue(same.getMessage().contains("9v2 is already in"), same.getMessage());

            final IllegalArgumentException other =
                assertThrows(IllegalArgumentException.class, () -> set.insert(Entity.of(9, 5)));
            assertTrue(other.getMessage().contains("9v5"), other.getMessage());
            assertTrue(other.getMessage().contains("held by 9v2"), other.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void insertingNullOrAMalformedValueThrowsNamingIt(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            final IllegalArgumentException nullEx =
                assertThrows(IllegalArgumentException.class, () -> set.insert(Entity.NULL));
            assertTrue(nullEx.getMessage().contains("cannot insert NULL"), nullEx.getMessage());

            final long malformed = Entity.combine(Entity.MAX_INDEX + 1, 0);
            final IllegalArgumentException malformedEx =
                assertThrows(IllegalArgumentException.class, () -> set.insert(malformed));
            assertTrue(malformedEx.getMessage().contains(Entity.toString(malformed)), malformedEx.getMessage());
            assertEquals(0, set.size());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void erasingANonMemberThrowsNamingItWhileRemoveReturnsFalse(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(A);

            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> set.erase(Entity.next(A)));
            assertTrue(ex.getMessage().contains("entity 1v1 is not in"), ex.getMessage());
            assertFalse(set.remove(B));
            assertTrue(set.remove(A));
            assertFalse(set.contains(A));
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void walksRunFrontToBackAndTheCurrentMemberIsErasedAfterTheWalk(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(A);
            set.insert(B);
            set.insert(C);
            set.insert(D);
            assertEquals(List.of(A, B, C, D), iteration(set));

            final List<Long> visited = new ArrayList<>();
            final List<Long> toErase = new ArrayList<>();
            set.forEach(entity ->
            {
                visited.add(entity);
                if (entity != B)
                {
                    toErase.add(entity);
                }
            });
            for (final long entity : toErase)
            {
                set.erase(entity);
            }

            assertEquals(List.of(A, B, C, D), visited);
            assertEquals(List.of(B), iteration(set));
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void aHoleLeftBeforeAWalkIsReusedOnceTheWalkReturns(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(A);
            set.insert(B);
            set.insert(C);
            set.erase(A);
            final List<Long> visited = new ArrayList<>();

            set.forEach(entity ->
            {
                visited.add(entity);
                assertThrows(IllegalStateException.class, () -> set.insert(D));
            });

            assertEquals(2, visited.size());
            set.insert(E);
            if (policy == DeletionPolicy.IN_PLACE)
            {
                assertEquals(0, set.indexOf(E), "the hole is reused");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void farIndicesUpToMaxIndexAllocateOneSparsePageEach(final DeletionPolicy policy)
    {
        final OffHeap offHeap = new OffHeap("test world");
        final PayloadSet set = new PayloadSet(policy, offHeap, null, "far set");
        {
            set.emplace(Entity.of(0, 0), 1);
            final long oneEntity = set.offHeapBytes();

            set.emplace(Entity.of(Entity.MAX_INDEX, Entity.MAX_VERSION), 2);
            set.emplace(Entity.of(Entity.MAX_INDEX - 1, 0), 3);

            assertTrue(set.contains(Entity.of(Entity.MAX_INDEX, Entity.MAX_VERSION)));
            assertEquals(oneEntity + SparseSet.PAGE_SIZE * Integer.BYTES, set.offHeapBytes(),
                "two indices on the last page cost one more page");
            assertEquals(offHeap.allocatedBytes(), set.offHeapBytes());
        }
        offHeap.close();
        assertEquals(0, offHeap.allocatedBytes());
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void swapElementsExchangesSlotsAndPayload(final DeletionPolicy policy)
    {
        try (PayloadSet set = payloadSet(policy, A, B, C))
        {
            set.swapElements(A, C);

            assertEquals(List.of(C, B, A), iteration(set));
            assertEquals(300, stampAt(set, set.indexOf(C)));
            assertEquals(100, stampAt(set, set.indexOf(A)));
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> set.swapElements(A, D));
            assertTrue(ex.getMessage().contains("4v0"), ex.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void sortMakesIterationFollowTheComparatorAndPayloadFollowsItsEntity(final DeletionPolicy policy)
    {
        try (PayloadSet set = payloadSet(policy, C, A, D, B))
        {
            set.sort((left, right) -> Long.compare(stampAt(set, left), stampAt(set, right)));

            assertEquals(List.of(A, B, C, D), iteration(set));
            for (final long entity : List.of(A, B, C, D))
            {
                assertEquals(Entity.index(entity) * 100L, stampAt(set, set.indexOf(entity)));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void sortIsStable(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            for (int i = 0; i < 100; i++)
            {
                set.insert(Entity.of(i, 0));
            }
            final List<Long> before = iteration(set);

            set.sort((left, right) -> 0);

            assertEquals(before, iteration(set), "all elements equal: the iteration order stays");
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void aComparatorCannotShrinkOrCloseTheSetItSorts(final DeletionPolicy policy)
    {
        for (final boolean close : new boolean[]{false, true})
        {
            final SparseSet set = new SparseSet(policy);
            for (int i = 0; i < 100; i++)
            {
                set.insert(Entity.of(i, 0));
            }
            final List<Long> before = iteration(set);

            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> set.sort((left, right) ->
            {
                if (close)
                {
                    set.close();
                }
                else
                {
                    set.clear();
                }
                return Integer.compare(right, left);
            }));

            assertTrue(ex.getMessage().contains("while the comparator of sparse set.sort runs"), ex.getMessage());
            assertEquals(before, iteration(set), "nothing was sorted, cleared or freed");
            set.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void sortAsPutsSharedEntitiesFirstInTheOtherSetsIterationOrder(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy); SparseSet other = new SparseSet(DeletionPolicy.SWAP_AND_POP))
        {
            set.insert(A);
            set.insert(B);
            set.insert(C);
            set.insert(D);
            other.insert(Entity.of(7, 0));
            other.insert(B);
            other.insert(D);

            set.sortAs(other);

            final List<Long> order = iteration(set);
            assertEquals(List.of(B, D), order.subList(0, 2), "in the other set's walk order, front to back");
            assertEquals(4, order.size());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void clearRemovesEverythingButKeepsTheMemory(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(A);
            set.insert(B);
            set.erase(A);
            final long bytes = set.offHeapBytes();

            set.clear();

            assertEquals(0, set.size());
            assertEquals(0, set.memberCount());
            assertEquals(0, set.extent());
            assertFalse(set.contains(B));
            assertEquals(-1, set.indexOf(Entity.next(A)));
            assertEquals(bytes, set.offHeapBytes());
            assertEquals(0, set.insert(A), "a cleared set starts again at slot 0");
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void reserveAndShrinkToFitManageCapacity(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.reserve(100);
            assertEquals(100, set.capacity());
            set.reserve(10);
            assertEquals(100, set.capacity(), "reserve never shrinks");

            set.insert(Entity.of(5000, 0));
            set.insert(A);
            set.erase(Entity.of(5000, 0));
            set.compact();
            set.shrinkToFit();

            assertEquals(set.size(), set.capacity());
            assertEquals((long)set.capacity() * Long.BYTES + SparseSet.PAGE_SIZE * Integer.BYTES, set.offHeapBytes(),
                "the page of index 5000 is freed, the page of index 1 kept");
            assertTrue(set.contains(A));

            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> set.reserve(-2));
            assertTrue(ex.getMessage().contains("-2"), ex.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void indexChecksNameTheIndexAndTheRange(final DeletionPolicy policy)
    {
        try (SparseSet set = new SparseSet(policy))
        {
            set.insert(A);

            final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class, () -> set.entityAt(1));
            assertTrue(ex.getMessage().contains("index 1 is outside [0, 1)"), ex.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> set.checkIndex(-1));
            final IllegalArgumentException stale =
                assertThrows(IllegalArgumentException.class, () -> set.requireIndex(Entity.next(A)));
            assertTrue(stale.getMessage().contains("1v1"), stale.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void aClosedStandaloneSetFreesEverythingAndRejectsEveryOperation(final DeletionPolicy policy)
    {
        final OffHeap offHeap = new OffHeap("test world");
        final PayloadSet set = payloadSet(policy);
        final PayloadSet withOwner = new PayloadSet(policy, offHeap, null, "owned set");
        withOwner.emplace(A, 1);
        withOwner.emplace(Entity.of(Entity.MAX_INDEX, 0), 2);
        set.emplace(A, 1);

        final IllegalStateException owned = assertThrows(IllegalStateException.class, withOwner::close);
        assertTrue(owned.getMessage().startsWith("owned set belongs to a World and lives as long as it: close the " +
            "World instead"), owned.getMessage());
        assertTrue(withOwner.contains(A), "a refused close changes nothing");
        offHeap.close();
        final IllegalStateException ownerClosed = assertThrows(IllegalStateException.class, () -> withOwner.insert(B));
        assertTrue(ownerClosed.getMessage().startsWith("this test world is closed and its off-heap memory freed, " +
            "owned set with it; create a new test world"), ownerClosed.getMessage());
        withOwner.close();
        set.close();
        set.close();

        assertEquals(0, offHeap.allocatedBytes());
        assertTrue(withOwner.isClosed());
        assertEquals(0, set.offHeapBytes());
        assertTrue(set.isClosed());
        final List<Executable> calls = List.of(
            () -> set.insert(B), () -> set.erase(A), () -> set.remove(A), () -> set.contains(A),
            () -> set.entityAt(0), () -> set.checkIndexOf(0), () -> set.requireIndexOf(A),
            set::clear, () -> set.reserve(1), set::shrinkToFit, () -> set.swapElements(A, A), set::compact,
            () -> set.sort((l, r) -> 0), () -> set.sortAs(withOwner), () -> set.forEach(e -> { }), set::ensureOpen);
        for (final Executable call : calls)
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, call);
            assertTrue(ex.getMessage().contains("test set is closed"), ex.getMessage());
        }
        assertEquals(-1, set.indexOf(A), "indexOf performs no open check and finds nothing");
        assertEquals(0, set.size());
        assertEquals(0, set.memberCount());
        assertEquals(0, set.extent());
        assertEquals(0, set.capacity());
    }

    @Test
    void aHintOnATombstoneFindsNoMemberWhateverValueIsAsked()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.IN_PLACE))
        {
            set.insert(Entity.of(0, 0));
            set.insert(Entity.of(1, 0));
            set.remove(Entity.of(1, 0));
            for (long low = -2; low <= 2; low++)
            {
                final long forged = Long.MIN_VALUE | (low & 0xFFFF_FFFFL);

                assertEquals(-1, set.indexOf(forged, 1), "the tombstone's bits are not a member: " + forged);
                assertFalse(set.contains(forged));
            }
        }
    }

    @Test
    void aSetBoundToAPoolAcceptsOnlyAliveEntities()
    {
        final OffHeap offHeap = new OffHeap("test world");
        final EntityPool pool = new EntityPool(offHeap, new Walks("test world", true), 4);
        final PayloadSet set = new PayloadSet(DeletionPolicy.SWAP_AND_POP, offHeap, pool, "Position storage");
        {
            final long alive = pool.create();
            final long dead = pool.create();
            pool.destroy(dead);

            set.emplace(alive, 1);
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> set.insert(dead));
            assertTrue(ex.getMessage().contains("1v0 is stale"), ex.getMessage());
            final IllegalArgumentException eraseEx =
                assertThrows(IllegalArgumentException.class, () -> set.erase(dead));
            assertTrue(eraseEx.getMessage().contains("cannot be used with Position storage"), eraseEx.getMessage());
        }
        offHeap.close();
        assertEquals(0, offHeap.allocatedBytes());
    }

    // ------------------------------------------------------------------------------- failures leave it unchanged

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void anInsertWhoseGrowthFailsLeavesEveryMemberAndPayloadWhereItWas(final DeletionPolicy policy)
    {
        // One page (16 KiB) plus 16 slots of 23 bytes, and room to grow all but the last column to 24 slots.
        final OffHeap offHeap = new OffHeap("test world", 16384 + 24 * (8 + 8 + 4 + 2) + 16);
        final PayloadSet set = new PayloadSet(policy, offHeap, null, "budget set");
        for (int i = 0; i < 16; i++)
        {
            set.emplace(Entity.of(i, 0), i * 10L);
        }
        final List<Long> before = iteration(set);
        final long bytesBefore = offHeap.allocatedBytes();

        final OffHeapExhaustedException error = assertThrows(OffHeapExhaustedException.class, () -> set.emplace(Entity.of(16, 0), 1));

        assertEquals(bytesBefore, offHeap.allocatedBytes(), "the columns already grown were given back");
        assertTrue(error.getMessage().contains("budget of"), error.getMessage());
        assertEquals(before, iteration(set));
        assertFalse(set.contains(Entity.of(16, 0)));
        assertEquals(16, set.capacity());
        for (int i = 0; i < 16; i++)
        {
            assertEquals(i * 10L, set.stampAt(set.indexOf(Entity.of(i, 0))), "payload of " + i);
        }
        set.erase(Entity.of(3, 0));
        set.emplace(Entity.of(3, 1), 99);
        assertEquals(99, set.stampAt(set.indexOf(Entity.of(3, 1))), "the set keeps working");
        offHeap.close();
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void anInsertWhoseSparsePageOrGrowthCannotBeAllocatedChangesNothing(final DeletionPolicy policy)
    {
        // Room for two pages and 16 slots, and 10 bytes more: not enough to grow the packed array.
        final OffHeap offHeap = new OffHeap("test world", 2 * 16384 + 16 * 23 + 10);
        final PayloadSet set = new PayloadSet(policy, offHeap, null, "budget set");
        for (int i = 0; i < 16; i++)
        {
            set.emplace(Entity.of(i, 0), i);
        }
        final List<Long> before = iteration(set);
        final long bytesBefore = offHeap.allocatedBytes();

        // The new page fits, the growth of the packed array does not: the page is given back.
        assertThrows(OffHeapExhaustedException.class, () -> set.emplace(Entity.of(SparseSet.PAGE_SIZE, 0), 2));

        assertEquals(bytesBefore, offHeap.allocatedBytes(), "no page is left behind");
        assertEquals(before, iteration(set));
        assertEquals(-1, set.indexOf(Entity.of(SparseSet.PAGE_SIZE, 0)));
        set.erase(Entity.of(3, 0));
        set.compact();
        set.emplace(Entity.of(SparseSet.PAGE_SIZE, 0), 2);
        assertTrue(set.contains(Entity.of(SparseSet.PAGE_SIZE, 0)), "with room in the packed array it fits");
        offHeap.close();
    }

    // ----------------------------------------------------------------------------------- changes while iterating

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void reorderingASetFromInsideItsForEachThrowsAndLeavesItsOrderAlone(final DeletionPolicy policy)
    {
        try (PayloadSet set = payloadSet(policy, A, B, C, D))
        {
            final List<Long> before = iteration(set);
            final List<Executable> reorders = List.of(
                () -> set.sort((left, right) -> 0), () -> set.sortAs(set), () -> set.swapElements(A, D),
                set::compact);
            for (final Executable reorder : reorders)
            {
                final List<Long> visited = new ArrayList<>();
                set.forEach(entity ->
                {
                    visited.add(entity);
                    final IllegalStateException error = assertThrows(IllegalStateException.class, reorder);
                    assertTrue(error.getMessage().contains("while test set.forEach runs"), error.getMessage());
                });
                assertEquals(before, visited, "every member visited once");
                assertEquals(before, iteration(set));
            }
            set.sort((left, right) -> Long.compare(stampAt(set, right), stampAt(set, left)));
            assertEquals(D, set.entityAt(0), "the refusal ends with the walk");
        }
    }

    @Test
    void closingAStandaloneSetFromInsideItsForEachThrowsAndTheLoopGoesOn()
    {
        final PayloadSet set = payloadSet(DeletionPolicy.SWAP_AND_POP, A, B, C);
        final List<Long> visited = new ArrayList<>();

        set.forEach(entity ->
        {
            visited.add(entity);
            final IllegalStateException error = assertThrows(IllegalStateException.class, set::close);
            assertTrue(error.getMessage().contains("cannot be closed while test set.forEach runs"),
                error.getMessage());
        });

        assertEquals(List.of(A, B, C), visited);
        set.close();
        assertTrue(set.isClosed());
    }

    @Test
    void closingFromAnotherThreadWhileOneIteratesIsRefused() throws Exception
    {
        final PayloadSet set = payloadSet(DeletionPolicy.SWAP_AND_POP);
        for (int i = 0; i < 1000; i++)
        {
            set.emplace(Entity.of(i, 0), i);
        }
        final java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final long[] sum = {0};
        final Thread iterating = new Thread(() -> set.forEach(entity ->
        {
            inside.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            sum[0] += set.stampAt(set.indexOf(entity));
        }));
        iterating.start();
        inside.await();

        final IllegalStateException error = assertThrows(IllegalStateException.class, set::close);
        release.countDown();
        iterating.join();

        assertTrue(error.getMessage().contains("another thread walks it"), error.getMessage());
        assertEquals(999 * 1000 / 2, sum[0], "the iteration read every payload intact");
        set.close();
    }

    // ------------------------------------------------------------------------------------- typed column access

    /** A set with one payload column of each width, read and written through the checked payload addresses. */
    private static final class TypedSet extends SparseSet
    {
        TypedSet(final DeletionPolicy policy)
        {
            super(policy, null, null, null, "typed set", 8, 4, 2, 1);
        }

        void write(final int index, final double d, final float f, final char c, final byte b)
        {
            UnsafeApi.putDouble(payloadAddress(0, index, 3), d);
            UnsafeApi.putFloat(payloadAddress(1, index, 2), f);
            UnsafeApi.putChar(payloadAddress(2, index, 1), c);
            UnsafeApi.putByte(payloadAddress(3, index, 0), b);
        }

        byte byteAt(final int index)
        {
            return UnsafeApi.getByte(payloadAddress(3, index, 0));
        }

        String read(final int index)
        {
            return UnsafeApi.getDouble(payloadAddress(0, index, 3)) + "/" +
                UnsafeApi.getFloat(payloadAddress(1, index, 2)) + "/" +
                UnsafeApi.getChar(payloadAddress(2, index, 1)) + "/" + byteAt(index);
        }

        int intFromLongColumn(final int index)
        {
            return UnsafeApi.getInt(payloadAddress(0, index, 2));
        }
    }

    @ParameterizedTest
    @EnumSource(DeletionPolicy.class)
    void typedColumnValuesFollowTheirEntityThroughErasesAndSorts(final DeletionPolicy policy)
    {
        try (TypedSet set = new TypedSet(policy))
        {
            for (int i = 0; i < 40; i++)
            {
                set.write(set.insert(Entity.of(i, 0)), i * 0.5, -i, (char)('a' + i), (byte)(i - 20));
            }
            for (int i = 0; i < 40; i += 3)
            {
                set.erase(Entity.of(i, 0));
            }
            set.sort((left, right) -> Byte.compare(set.byteAt(right), set.byteAt(left)));

            for (int i = 0; i < 40; i++)
            {
                if (i % 3 != 0)
                {
                    assertEquals(i * 0.5 + "/" + (float)-i + "/" + (char)('a' + i) + "/" + (byte)(i - 20),
                        set.read(set.indexOf(Entity.of(i, 0))));
                }
            }
        }
    }

    @Test
    void typedColumnAccessChecksTheIndexTheWidthAndThatTheSetIsOpen()
    {
        final TypedSet set = new TypedSet(DeletionPolicy.SWAP_AND_POP);
        set.insert(A);

        final IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class, () -> set.read(1));
        assertTrue(outside.getMessage().contains("index 1 is outside [0, 1)"), outside.getMessage());
        final IllegalArgumentException width =
            assertThrows(IllegalArgumentException.class, () -> set.intFromLongColumn(0));
        assertTrue(width.getMessage().contains("payload column 0 of typed set holds 8-byte values, not 4-byte ones"),
            width.getMessage());
        set.close();
        assertThrows(IllegalStateException.class, () -> set.read(0));
    }

    // ---------------------------------------------------------------------------------------------- swap_and_pop

    @Test
    void swapAndPopEraseMovesTheLastElementIntoTheHole()
    {
        try (PayloadSet set = payloadSet(DeletionPolicy.SWAP_AND_POP, A, B, C, D))
        {
            set.erase(B);

            assertEquals(3, set.size());
            assertEquals(D, set.entityAt(1));
            assertEquals(400, stampAt(set, 1), "payload moves with the element");
            assertEquals(0, set.indexOf(A));
            assertEquals(2, set.indexOf(C));
        }
    }

    // -------------------------------------------------------------------------------------------------- in_place

    @Test
    void inPlaceEraseLeavesATombstoneAndMovesNothing()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.IN_PLACE))
        {
            set.insert(A);
            set.insert(B);
            set.insert(C);

            set.erase(B);

            assertEquals(3, set.size());
            assertEquals(2, set.memberCount());
            assertEquals(Entity.NULL, set.entityAt(1));
                        assertEquals(0, set.indexOf(A));
            assertEquals(2, set.indexOf(C));
            assertEquals(List.of(A, C), iteration(set), "iteration skips tombstones");
        }
    }

    @Test
    void inPlaceInsertReusesTheMostRecentlyFreedSlotFirst()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.IN_PLACE))
        {
            set.insert(A);
            set.insert(B);
            set.insert(C);
            set.erase(A);
            set.erase(C);

            assertEquals(2, set.insert(D), "C's slot was freed last");
            assertEquals(0, set.insert(Entity.of(5, 0)), "then A's");
            assertEquals(3, set.insert(Entity.of(6, 0)), "then the end");
        }
    }

    @Test
    void inPlaceCompactRemovesTombstonesAndKeepsMembersWithTheirPayload()
    {
        try (PayloadSet set = payloadSet(DeletionPolicy.IN_PLACE, A, B, C, D))
        {
            set.erase(A);
            set.erase(C);

            set.compact();

            assertEquals(2, set.size());
            assertEquals(2, set.memberCount());
            for (int i = 0; i < set.size(); i++)
            {
                final long entity = set.entityAt(i);
                assertTrue(entity == B || entity == D, Entity.toString(entity));
                assertEquals(Entity.index(entity) * 100L, stampAt(set, i));
            }
            assertEquals(2, set.insert(A), "no hole is left to reuse");
        }
    }

    @Test
    void inPlaceSortCompactsFirst()
    {
        try (PayloadSet set = payloadSet(DeletionPolicy.IN_PLACE, D, C, B, A))
        {
            set.erase(C);

            set.sort((left, right) -> Long.compare(stampAt(set, left), stampAt(set, right)));

            assertEquals(3, set.size());
            assertEquals(List.of(A, B, D), iteration(set));
        }
    }

    // ------------------------------------------------------------------------------------------------- swap_only

    @Test
    void swapOnlyEraseReleasesTheNextVersionBehindTheBoundary()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.SWAP_ONLY))
        {
            set.insert(A);
            set.insert(B);
            set.insert(C);

            set.erase(A);

            assertEquals(3, set.size(), "the size does not change");
            assertEquals(2, set.extent());
            assertEquals(2, set.memberCount());
            assertFalse(set.contains(A));
            assertEquals(Entity.next(A), set.entityAt(2), "released with its next version");
            assertEquals(-1, set.indexOf(Entity.next(A)), "a released entry has no member index");
            assertFalse(set.contains(Entity.next(A)), "a released entry is not a member");
            assertEquals(List.of(C, B), iteration(set));
        }
    }

    @Test
    void swapOnlyReinsertBringsAReleasedEntryBackInFrontOfTheBoundary()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.SWAP_ONLY))
        {
            set.insert(A);
            set.insert(B);
            set.erase(A);

            final int slot = set.insert(Entity.next(A));

            assertEquals(1, slot);
            assertEquals(2, set.extent());
            assertEquals(2, set.size(), "no new slot was used");
            assertTrue(set.contains(Entity.next(A)));
        }
    }

    @Test
    void swapOnlyErasingAHandleAtMaxVersionReleasesItWithVersionZero()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.SWAP_ONLY))
        {
            final long old = Entity.of(8, Entity.MAX_VERSION);
            set.insert(old);

            set.erase(old);

            assertEquals(Entity.of(8, 0), set.entityAt(0));
            assertEquals(0, set.extent());
            assertEquals(-1, set.indexOf(Entity.combine(8, Entity.TOMBSTONE_VERSION)));
            assertEquals(0, set.insert(Entity.of(8, 0)));
            assertTrue(set.contains(Entity.of(8, 0)));
        }
    }

    @Test
    void swapOnlyCompactDropsTheReleasedRegion()
    {
        try (SparseSet set = new SparseSet(DeletionPolicy.SWAP_ONLY))
        {
            set.insert(A);
            set.insert(B);
            set.erase(B);

            set.compact();

            assertEquals(1, set.size());
            assertEquals(A, set.entityAt(0));
            assertEquals(1, set.insert(B), "B is new again");
        }
    }

    @Test
    void swapOnlySortLeavesTheReleasedRegionAlone()
    {
        try (PayloadSet set = payloadSet(DeletionPolicy.SWAP_ONLY, D, C, B, A))
        {
            set.erase(C);
            assertEquals(Entity.next(C), set.entityAt(3));

            set.sort((left, right) -> Long.compare(stampAt(set, left), stampAt(set, right)));

            assertEquals(List.of(A, B, D), iteration(set));
            assertEquals(Entity.next(C), set.entityAt(3));
        }
    }
}
