package dev.cairn.deferral;

import dev.cairn.deferral.DeferralFixtures.Pos;
import dev.cairn.world.World;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
