package dev.cairn.deferral;

import dev.cairn.deferral.DeferralFixtures.Pos;
import dev.cairn.world.World;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The smallest reproductions of what {@link DeferralModelTest} found: each test states the behaviour the contract
 * (docs/views.md, "Changes during walks and listeners") promises, and fails while the engine does otherwise.
 */
final class DeferralFindingsTest
{
    /**
     * {@code forEachEntity} "visits every entity alive when the walk began": an entity created in an outer
     * {@code forEachEntity}'s action before an inner one begins is alive when the inner one begins.
     */
    @Test
    void aForEachEntityBegunInsideAnotherVisitsTheEntitiesCreatedBeforeItBegan()
    {
        try (World world = new World())
        {
            final long first = world.create();
            final long[] second = new long[1];
            final List<Long> inner = new ArrayList<>();
            world.forEachEntity(outer ->
            {
                second[0] = world.create();
                world.forEachEntity(inner::add);
            });
            assertEquals(List.of(first, second[0]), inner, "the inner walk began after the second entity was created");
        }
    }

    /**
     * In a walk, {@code erase} is "checked now as the direct call is": an erase of a component the entity lacks throws
     * {@link IllegalArgumentException}. A call that throws changes nothing, so it records no removal either: an add
     * of that component recorded before it in the walk stands.
     */
    @Test
    void anEraseRefusedInAWalkRecordsNoRemoval()
    {
        try (World world = new World())
        {
            final DeferralFixtures_PosStorage positions = world.storage(DeferralFixtures_PosStorage.TYPE);
            final DeferralFixtures_MarkStorage marks = world.storage(DeferralFixtures_MarkStorage.TYPE);
            final long walked = world.create();
            positions.emplace(walked, 1, 2);
            final long marked = world.create();
            new DeferralFixtures_PosOnlyView(world).forEach((entity, position) ->
            {
                marks.emplace(marked, 5);
                assertThrows(IllegalArgumentException.class, () -> marks.erase(marked));
            });
            assertTrue(marks.contains(marked), "the refused erase undid the add recorded before it");
        }
    }

    /**
     * "World.clear() inside a walk destroys the entities alive at the call": in a {@code forEachEntity}, an entity
     * created earlier in the action is alive at the call.
     */
    @Test
    void aClearOfTheWorldInsideForEachEntityDestroysTheEntitiesCreatedEarlierInTheWalk()
    {
        try (World world = new World())
        {
            world.create();
            final long[] created = new long[1];
            world.forEachEntity(entity ->
            {
                created[0] = world.create();
                world.clear();
            });
            assertEquals(0, world.aliveCount(), "alive after the clear: " + dev.cairn.Entity.toString(created[0]));
        }
    }

    /**
     * "When a listener throws ... the operation completes", and {@code World.clear()} "empties every storage": a
     * destroying listener that throws leaves no released entry of a swap-only storage (nor a tombstone of an in-place
     * one) behind, as a clear whose listeners return does not.
     */
    @Test
    void aClearOfTheWorldWhoseListenerThrowsEmptiesEveryStorageAllTheSame()
    {
        try (World world = new World())
        {
            final DeferralFixtures_VelStorage velocities = world.storage(DeferralFixtures_VelStorage.TYPE);
            final DeferralFixtures_MarkStorage marks = world.storage(DeferralFixtures_MarkStorage.TYPE);
            final long entity = world.create();
            velocities.emplace(entity, 1, 2);
            marks.emplace(entity, 3);
            world.onDestroying(destroyed ->
            {
                throw new IllegalStateException("a listener that fails");
            });
            try
            {
                world.clear();
            }
            catch (final IllegalStateException expected)
            {
                // The listener's exception reaches the caller once the clear is done.
            }
            assertEquals(0, world.aliveCount());
            assertEquals(0, velocities.size(), "released entries left in the swap-only storage");
            assertEquals(0, marks.size(), "tombstones left in the in-place storage");
        }
    }

    /**
     * "When a listener throws ... the first exception is rethrown to the caller, the later ones attached as
     * suppressed": a removing listener that records a destroy and throws, and a destroying listener that throws when
     * that destroy is applied at the end of the removal. The removing listener's exception is the first; it must reach
     * the caller (it is lost when the end of the removal, in a {@code finally}, throws the destroying one instead).
     * {@code clear()} of a storage is written the same way.
     */
    @Test
    void aRemovalWhoseListenerThrowsReportsThatExceptionFirstWhenTheChangesItRecordedThrowToo()
    {
        try (World world = new World())
        {
            final DeferralFixtures_PosStorage positions = world.storage(DeferralFixtures_PosStorage.TYPE);
            final long removed = world.create();
            positions.emplace(removed, 1, 2);
            final long other = world.create();
            positions.onRemoving((entity, index) ->
            {
                world.destroy(other);
                throw new IllegalStateException("first: the removing listener");
            });
            world.onDestroying(entity ->
            {
                throw new IllegalStateException("second: the destroying listener");
            });
            final IllegalStateException thrown =
                assertThrows(IllegalStateException.class, () -> positions.remove(removed));
            assertEquals("first: the removing listener", thrown.getMessage());
            assertEquals(1, thrown.getSuppressed().length, "the later exception is attached as suppressed");
            assertTrue(!world.valid(other) && !positions.contains(removed), "both changes are made all the same");
        }
    }

    /**
     * A listener's changes are made when the operation that announced them returns; a component's removing listeners
     * are told "before a component is removed", of an entity that is alive. A destroying listener that creates an
     * entity during {@code World.clear()} and gives it a component: the clear must not then remove that component
     * from a dead entity, announcing it to the removing listeners with an entity no longer valid (nor destroy the new
     * entity without telling the destroying listeners).
     */
    @Test
    void aClearOfTheWorldTellsNoRemovingListenerOfAnEntityThatIsNotAlive()
    {
        try (World world = new World())
        {
            final DeferralFixtures_PosStorage positions = world.storage(DeferralFixtures_PosStorage.TYPE);
            world.create();
            final List<String> problems = new ArrayList<>();
            final long[] spawned = {-1};
            world.onDestroying(entity ->
            {
                if (spawned[0] == -1)
                {
                    spawned[0] = world.create();
                    positions.add(spawned[0], new Pos(1, 2));
                }
            });
            final List<Long> destroyed = new ArrayList<>();
            world.onDestroying(destroyed::add);
            positions.onRemoving((entity, index) ->
            {
                if (!world.valid(entity))
                {
                    problems.add("Pos removing told of " + dev.cairn.Entity.toString(entity) + ", not alive");
                }
            });
            world.clear();
            assertTrue(problems.isEmpty(), problems.toString());
            assertTrue(!world.valid(spawned[0]) || positions.contains(spawned[0]),
                "the entity a listener created during the clear is alive without the Pos it was given");
            assertTrue(world.valid(spawned[0]) || destroyed.contains(spawned[0]),
                "the entity a listener created during the clear was destroyed without its destroying listeners");
        }
    }
}
