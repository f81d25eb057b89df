package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.model.PayloadSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of {@link OrderClaim}: the one structure that holds a set's claim alone reorders it, with payload,
 * until it releases the claim.
 */
class OrderClaimTest
{
    private static final long A = Entity.of(1, 0);
    private static final long B = Entity.of(2, 0);
    private static final long C = Entity.of(3, 0);

    private static PayloadSet setOf(final DeletionPolicy policy, final long... entities)
    {
        final PayloadSet set = new PayloadSet(policy, null, null, "test set");
        for (final long entity : entities)
        {
            set.emplace(entity, Entity.index(entity) * 100L);
        }
        return set;
    }

    private static List<Long> packed(final SparseSet set)
    {
        final List<Long> out = new ArrayList<>();
        for (int i = 0; i < set.extent(); i++)
        {
            out.add(set.entityAt(i));
        }
        return out;
    }

    @Test
    void aClaimedSetRefusesItsOwnReorderingsNamingTheOwner()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A, B, C);
             PayloadSet order = setOf(DeletionPolicy.SWAP_AND_POP, A))
        {
            OrderClaim.claim(set, "group Movement");
            assertEquals("group Movement", set.ownerName());
            for (final Runnable reorder : List.<Runnable>of(
                () -> set.sort((l, r) -> 0), () -> set.swapElements(A, B), set::compact, () -> set.sortAs(order)))
            {
                final IllegalStateException refused = assertThrows(IllegalStateException.class, reorder::run);
                assertTrue(refused.getMessage().contains("group Movement owns it"), refused.getMessage());
            }
            assertEquals(List.of(A, B, C), packed(set));
        }
    }

    @Test
    void aSecondClaimIsRefusedNamingBoth()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A))
        {
            final OrderClaim first = OrderClaim.claim(set, "group Movement");
            final IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> OrderClaim.claim(set, "group Physics"));
            assertEquals("test set is owned by group Movement, so group Physics cannot own it too",
                refused.getMessage());
            assertTrue(first.isHeld());
        }
    }

    @ParameterizedTest
    @EnumSource(value = DeletionPolicy.class, names = {"SWAP_AND_POP", "SWAP_ONLY"})
    void swapMovesMembersWithTheirPayloadAndSparseEntries(final DeletionPolicy policy)
    {
        try (PayloadSet set = setOf(policy, A, B, C))
        {
            OrderClaim.claim(set, "group G").swap(0, 2);
            assertEquals(List.of(C, B, A), packed(set));
            assertEquals(2, set.indexOf(A));
            assertNull(set.payloadMismatch(set.indexOf(A), 100L));
            assertNull(set.payloadMismatch(set.indexOf(C), 300L));
        }
    }

    @Test
    void swapRefusesIndicesThatHoldNoMember()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_ONLY, A, B, C))
        {
            set.remove(C);
            final OrderClaim claim = OrderClaim.claim(set, "group G");
            final IndexOutOfBoundsException refused =
                assertThrows(IndexOutOfBoundsException.class, () -> claim.swap(0, 2));
            assertEquals("cannot swap indices 0 and 2 of test set: both must hold members of [0, 2)",
                refused.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> claim.swap(-1, 0));
            assertEquals(List.of(A, B), packed(set));
        }
    }

    @Test
    void sortedOrderIsAppliedByPermuteToEveryAlignedSet()
    {
        try (PayloadSet first = setOf(DeletionPolicy.SWAP_AND_POP, A, B, C);
            PayloadSet second = setOf(DeletionPolicy.SWAP_AND_POP, A, B, C))
        {
            final OrderClaim firstClaim = OrderClaim.claim(first, "group G");
            final OrderClaim secondClaim = OrderClaim.claim(second, "group G");
            // Walks go front to back, so a descending sort puts C first.
            final int[] order =
                firstClaim.sortedOrder(3, (l, r) -> Long.compare(first.entityAt(r), first.entityAt(l)));
            assertArrayEquals(new int[]{2, 1, 0}, order);
            assertEquals(List.of(A, B, C), packed(first), "the order is not applied yet");
            firstClaim.permute(order.clone(), 3);
            secondClaim.permute(order.clone(), 3);
            assertEquals(List.of(C, B, A), packed(first));
            assertEquals(packed(first), packed(second));
            assertNull(second.payloadMismatch(second.indexOf(C), 300L));
        }
    }

    @Test
    void permuteRefusesWhatIsNotAPermutationAndChangesNothing()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A, B, C))
        {
            final OrderClaim claim = OrderClaim.claim(set, "group G");
            final IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> claim.permute(new int[]{0, 0, 1}, 3));
            assertEquals("order[1] = 0 does not make a permutation of [0, 3)", refused.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> claim.permute(new int[]{0, 1, 2, 3}, 4));
            assertEquals(List.of(A, B, C), packed(set));
        }
    }

    @Test
    void sortedOrderOnlyComputesTheOrderAndMovesNothing()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A, B, C))
        {
            final OrderClaim claim = OrderClaim.claim(set, "group G");
            final int[] order = claim.sortedOrder(3, (l, r) -> Long.compare(set.entityAt(r), set.entityAt(l)));
            assertArrayEquals(new int[]{2, 1, 0}, order);
            assertEquals(List.of(A, B, C), packed(set), "a group applies the order with permute, after its checks");
        }
    }

    @Test
    void aSetBeingIteratedCannotBeSortedThroughItsClaim()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A, B))
        {
            final OrderClaim claim = OrderClaim.claim(set, "group G");
            set.forEach(entity ->
            {
                final IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> claim.ensureReorderable(2));
                assertTrue(refused.getMessage().contains("while test set.forEach runs"), refused.getMessage());
            });
            assertEquals(List.of(A, B), packed(set));
        }
    }

    @Test
    void aReleasedClaimReordersNothingAndTheSetCanBeSortedAndClaimedAgain()
    {
        try (PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A, B))
        {
            final OrderClaim claim = OrderClaim.claim(set, "group G");
            claim.release();
            claim.release();
            assertFalse(claim.isHeld());
            assertNull(set.ownerName());
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> claim.swap(0, 1));
            assertEquals("group G released its claim on test set, so it cannot reorder it any more",
                refused.getMessage());
            set.swapElements(A, B);
            assertEquals(List.of(B, A), packed(set));
            final OrderClaim again = OrderClaim.claim(set, "group H");
            claim.release();
            assertEquals("group H", set.ownerName());
            assertTrue(again.isHeld());
        }
    }

    @Test
    void aClosedSetRefusesItsClaim()
    {
        final PayloadSet set = setOf(DeletionPolicy.SWAP_AND_POP, A, B);
        final OrderClaim claim = OrderClaim.claim(set, "group G");
        set.close();
        assertThrows(IllegalStateException.class, () -> claim.swap(0, 1));
        assertThrows(IllegalStateException.class, () -> claim.permute(new int[0], 0));
        assertThrows(IllegalStateException.class, () -> claim.ensureReorderable(0));
    }
}
