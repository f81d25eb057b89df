package dev.cairn.groups;

import dev.cairn.world.World;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.parallel.Chunks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The walk of an owning group by index: at index {@code i} every owned storage holds the group's {@code i}th entity,
 * which the action reaches through the storages' indexed accessors.
 */
final class GroupIndexWalkTest
{
    private final World world = new World(1 << 16);
    private final GroupFixtures_PosStorage positions = world.storage(GroupFixtures_PosStorage.TYPE);
    private final GroupFixtures_VelStorage velocities = world.storage(GroupFixtures_VelStorage.TYPE);
    private final GroupFixtures_HpStorage hps = world.storage(GroupFixtures_HpStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void eachIndexOfTheRangeHoldsTheSameEntityInEveryOwnedStorageAndWritesReachIt()
    {
        final long[] e = entities(40);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            if (i % 4 != 0)
            {
                velocities.emplace(e[i], 100 + i, 0f);
            }
            hps.emplace(e[i], i);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Integer> order = new ArrayList<>();

        movement.forEachIndex(i ->
        {
            order.add(i);
            final long entity = positions.entityAt(i);
            assertEquals(entity, velocities.entityAt(i), "index " + i + " of both owned storages");
            assertEquals(entity, movement.group().entityAt(i));
            positions.xAt(i, positions.xAt(i) + velocities.dxAt(i));
        });

        final List<Integer> forwards = new ArrayList<>();
        for (int i = 0; i < movement.size(); i++)
        {
            forwards.add(i);
        }
        assertEquals(forwards, order, "every index of the range once, from the front");
        for (int i = 0; i < e.length; i++)
        {
            final float moved = i % 4 != 0 ? i + 100 + i : i;
            assertEquals(moved, positions.get(e[i]).x(), "the write at its index reached entity " + i);
        }
    }

    @Test
    void removingTheCurrentEntityOrItsComponentsVisitsEveryOtherOnceAndJoinersNot()
    {
        final long[] e = movers(60);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final Set<Long> seen = new HashSet<>();
        final List<Long> joined = new ArrayList<>();

        movement.forEachIndex(i ->
        {
            final long entity = positions.entityAt(i);
            assertTrue(seen.add(entity), "visited twice");
            final int n = (int)positions.xAt(i);
            if (n % 3 == 0)
            {
                world.destroy(entity);
            }
            else if (n % 3 == 1)
            {
                velocities.erase(entity);
            }
            else
            {
                positions.xAt(i, positions.xAt(i) + 1000f);
            }
            if (n % 10 == 0)
            {
                final long joiner = world.create();
                positions.emplace(joiner, -1f, 0f);
                velocities.emplace(joiner, 0f, 0f);
                joined.add(joiner);
            }
        });

        assertEquals(60, seen.size(), "every entity of the range at the start, once");
        for (final long joiner : joined)
        {
            assertTrue(!seen.contains(joiner) && movement.contains(joiner), "an entity that joined is not visited");
        }
        assertEquals(20 + joined.size(), movement.size());
        for (int i = 0; i < e.length; i++)
        {
            if (i % 3 == 2)
            {
                assertEquals(i + 1000f, positions.get(e[i]).x(), "the write reached entity " + i + " alone");
            }
        }
    }

    @Test
    void entitiesNotYetVisitedLeavingAreStillVisitedAtTheirIndexAndLeaveWhenTheWalkEnds()
    {
        final long[] e = movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> visited = new ArrayList<>();

        movement.forEachIndex(i ->
        {
            visited.add(positions.entityAt(i));
            assertEquals(i, (int)positions.xAt(i), "the index still holds the entity it held when the walk began");
            if (visited.size() == 1)
            {
                for (int k = 0; k < 4; k++)
                {
                    velocities.erase(movement.group().entityAt(k));
                }
            }
        });

        assertEquals(List.of(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]), visited);
        assertEquals(e.length - 4, movement.size(), "the leaves were made when the walk returned");
    }

    @Test
    void closingTheWorldFromTheActionIsRefusedAndAClosedGroupRefusesTheWalk()
    {
        movers(4);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);

        final IllegalStateException refused =
            assertThrows(IllegalStateException.class, () -> movement.forEachIndex(i -> world.close()));
        assertTrue(!world.isClosed(), refused.getMessage());
        assertTrue(refused.getMessage().contains("GroupFixtures_MovementGroup.forEachIndex"), refused.getMessage());
        final int[] visits = {0};
        movement.forEachIndex(i -> visits[0]++);
        assertEquals(4, visits[0], "the refused close left the walk usable");

        movement.close();
        final IllegalStateException closed =
            assertThrows(IllegalStateException.class, () -> movement.forEachIndex(i -> visits[0]++));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertEquals(4, visits[0]);
    }

    @Test
    void theParallelWalkGivesEachIndexOnceAndMakesTheChangesOfItsActionsWhenItReturns()
    {
        movers(5000);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final AtomicIntegerArray visits = new AtomicIntegerArray(movement.size());
        final ForkJoinPool pool = new ForkJoinPool(2);
        try
        {
            movement.parallelForEachIndex(pool, 64, i ->
            {
                visits.incrementAndGet(i);
                positions.yAt(i, positions.yAt(i) + velocities.dxAt(i));
            });
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () ->
                movement.parallelForEachIndex(pool, Chunks.AUTOMATIC, i -> world.create()));
            assertTrue(refused.getMessage().contains("GroupFixtures_MovementGroup.parallelForEachIndex") &&
                refused.getMessage().contains("CommandBuffer"), refused.getMessage());
            movement.parallelForEachIndex(i -> visits.incrementAndGet(i));
            assertThrows(IllegalArgumentException.class, () -> movement.parallelForEachIndex(pool, -1, i -> { }));
            assertThrows(NullPointerException.class, () -> movement.parallelForEachIndex(pool, 1, null));
        }
        finally
        {
            pool.shutdown();
        }

        final int[] counts = new int[visits.length()];
        for (int i = 0; i < counts.length; i++)
        {
            counts[i] = visits.get(i);
        }
        final int[] twice = new int[counts.length];
        Arrays.fill(twice, 2);
        assertTrue(Arrays.equals(twice, counts), "each index once per walk, on the given pool and the common one");
        assertEquals(5000, movement.size(), "the refused creates changed nothing");
        for (int i = 0; i < movement.size(); i++)
        {
            assertEquals(positions.xAt(i), positions.yAt(i), "index " + i + " written once, with its own velocity");
        }

        final ForkJoinPool again = new ForkJoinPool(2);
        try
        {
            movement.parallelForEachIndex(again, 64, i ->
            {
                if (i % 2 == 0)
                {
                    velocities.erase(positions.entityAt(i));
                }
                assertEquals(5000, movement.size(), "the group holds still until the walk returns");
            });
        }
        finally
        {
            again.shutdown();
        }
        assertEquals(2500, movement.size(), "the erases were made when the walk returned");
        assertFalse(world.isDeferring());
        for (int i = 0; i < movement.size(); i++)
        {
            assertEquals(1, (int)positions.xAt(i) % 2, "only the odd ones are left");
        }
    }

    @Test
    void aPartialOwningGroupWalksItsOwnedStorageByIndexAndANonOwningGroupHasNoIndexWalk() throws Exception
    {
        final GroupFixtures_MassStorage masses = world.storage(GroupFixtures_MassStorage.TYPE);
        final GroupFixtures_MarkedStorage marked = world.storage(GroupFixtures_MarkedStorage.TYPE);
        final GroupFixtures_HeavyGroup heavy = new GroupFixtures_HeavyGroup(world);
        final long[] e = entities(6);
        for (int i = 0; i < e.length; i++)
        {
            masses.emplace(e[i], i);
            hps.emplace(e[i], i * 10);
            if (i % 2 == 1)
            {
                marked.emplace(e[i]);
            }
        }
        final Set<String> seen = new HashSet<>();

        heavy.forEachIndex(i -> seen.add(masses.kgAt(i) + "/" + hps.get(masses.entityAt(i)).value()));

        assertEquals(Set.of("1.0/10", "3.0/30", "5.0/50"), seen);
        assertThrows(NoSuchMethodException.class,
            () -> GroupFixtures_WoundedGroup.class.getMethod("forEachIndex", IntConsumer.class));
    }

    @Test
    void aRuntimeGroupThatOwnsWalksByIndexAndOneThatDoesNotSaysToUseForEach()
    {
        movers(5);
        final RuntimeGroup owning = world.group().owning(GroupFixtures.Pos.class, GroupFixtures.Vel.class).build();
        final RuntimeGroup nonOwning = world.group().with(GroupFixtures.Hp.class).build();
        final List<Integer> order = new ArrayList<>();

        owning.forEachIndex(i ->
        {
            order.add(i);
            assertEquals(positions.entityAt(i), velocities.entityAt(i));
        });

        assertEquals(List.of(0, 1, 2, 3, 4), order);
        final IllegalStateException refused =
            assertThrows(IllegalStateException.class, () -> nonOwning.forEachIndex(i -> { }));
        assertTrue(refused.getMessage().contains("forEach"), refused.getMessage());
        final NullPointerException missing = assertThrows(NullPointerException.class, () -> owning.forEachIndex(null));
        assertTrue(missing.getMessage().contains("action"), missing.getMessage());
    }

    @Test
    void aNullActionIsRefusedEvenWhenTheGroupIsEmptyAndSortingOrClosingFromAWalkNamesTheWalk()
    {
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final NullPointerException empty = assertThrows(NullPointerException.class, () -> movement.forEachIndex(null));
        assertTrue(empty.getMessage().contains("pass what to do"), empty.getMessage());
        movers(4);
        final GroupFixtures_AcceleratedGroup accelerated = new GroupFixtures_AcceleratedGroup(world);

        final IllegalStateException sorting = assertThrows(IllegalStateException.class,
            () -> movement.forEachIndex(i -> accelerated.sort(positions.comparingX())));
        final IllegalStateException closing = assertThrows(IllegalStateException.class,
            () -> movement.forEachIndex(i -> accelerated.close()));

        assertTrue(sorting.getMessage().startsWith("cannot sort group GroupFixtures_AcceleratedGroup") &&
            sorting.getMessage().contains("while GroupFixtures_MovementGroup.forEachIndex runs"), sorting.getMessage());
        assertTrue(closing.getMessage().startsWith("cannot close group GroupFixtures_AcceleratedGroup") &&
            closing.getMessage().contains("while GroupFixtures_MovementGroup.forEachIndex runs"), closing.getMessage());
        assertTrue(accelerated.isOpen(), "the refused close left the group open");
        accelerated.close();
        movement.sort(positions.comparingX());
    }

    private long[] entities(final int count)
    {
        final long[] e = new long[count];
        world.create(e, count);
        return e;
    }

    private long[] movers(final int count)
    {
        final long[] e = entities(count);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], i, 0f);
        }
        return e;
    }
}
