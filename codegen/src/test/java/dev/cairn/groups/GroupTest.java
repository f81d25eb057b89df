package dev.cairn.groups;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.groups.GroupFixtures.Acc;
import dev.cairn.groups.GroupFixtures.Frozen;
import dev.cairn.groups.GroupFixtures.Hp;
import dev.cairn.groups.GroupFixtures.Mass;
import dev.cairn.groups.GroupFixtures.Pos;
import dev.cairn.groups.GroupFixtures.Vel;
import dev.cairn.set.IndexComparator;
import dev.cairn.storage.Column;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Groups: owning ones keep their entities at the front of their owned storages, aligned; every add and removal keeps
 * them exact; ownership, nesting, sorting and bulk columns.
 */
final class GroupTest
{
    private final World world = new World(1 << 16);
    private final GroupFixtures_PosStorage positions = world.storage(GroupFixtures_PosStorage.TYPE);
    private final GroupFixtures_VelStorage velocities = world.storage(GroupFixtures_VelStorage.TYPE);
    private final GroupFixtures_AccStorage accelerations = world.storage(GroupFixtures_AccStorage.TYPE);
    private final GroupFixtures_HpStorage hps = world.storage(GroupFixtures_HpStorage.TYPE);
    private final GroupFixtures_FrozenStorage frozen = world.storage(GroupFixtures_FrozenStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void anOwningGroupKeepsItsEntitiesAlignedAtTheFrontOfEveryOwnedStorage()
    {
        final long[] e = entities(10);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            if (i % 2 == 0)
            {
                velocities.emplace(e[i], i, 0f);
            }
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);

        assertEquals(5, movement.size());
        assertAligned(movement.group());
        velocities.emplace(e[1], 1f, 0f);
        positions.erase(e[0]);
        world.destroy(e[2]);
        assertEquals(4, movement.size());
        assertAligned(movement.group());
        final List<String> seen = new ArrayList<>();
        movement.forEach((entity, pos, vel) -> seen.add(pos.x() + "=" + vel.dx()));
        assertEquals(4, seen.size());
        for (final String pair : seen)
        {
            final String[] parts = pair.split("=");
            assertEquals(parts[0], parts[1], "aligned Refs read one entity: " + seen);
        }
    }

    @Test
    void removingTheCurrentEntityOrItsComponentsWhileIteratingVisitsEveryOtherOnce()
    {
        final long[] e = entities(50);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], 1f, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final Set<Long> seen = new HashSet<>();

        movement.forEach((entity, pos, vel) ->
        {
            assertTrue(seen.add(entity), "visited twice");
            final int i = (int)pos.x();
            if (i % 3 == 0)
            {
                world.destroy(entity);
            }
            else if (i % 3 == 1)
            {
                velocities.erase(entity);
            }
            else
            {
                pos.x(pos.x() + vel.dx());
            }
        });

        assertEquals(50, seen.size());
        assertEquals(16, movement.size());
        assertAligned(movement.group());
        movement.forEach((entity, pos, vel) -> assertEquals(2f, (pos.x() - 1f) % 3, "only the moved ones are left"));
    }

    @Test
    void aNestedGroupKeepsItsEntitiesAtTheFrontOfTheEnclosingGroupsRangeWhicheverIsBuiltFirst()
    {
        for (final boolean innerFirst : new boolean[]{false, true})
        {
            try (World w = new World(1 << 12))
            {
                final GroupFixtures_PosStorage p = w.storage(GroupFixtures_PosStorage.TYPE);
                final GroupFixtures_VelStorage v = w.storage(GroupFixtures_VelStorage.TYPE);
                final GroupFixtures_AccStorage a = w.storage(GroupFixtures_AccStorage.TYPE);
                final GroupFixtures_FrozenStorage f = w.storage(GroupFixtures_FrozenStorage.TYPE);
                final long[] e = new long[30];
                for (int i = 0; i < e.length; i++)
                {
                    e[i] = w.create();
                    p.emplace(e[i], i, 0f);
                    v.emplace(e[i], i, 0f);
                    if (i % 2 == 0)
                    {
                        a.emplace(e[i], i, 0f);
                    }
                    if (i % 4 == 0)
                    {
                        f.emplace(e[i]);
                    }
                }
                final GroupFixtures_AcceleratedGroup inner;
                final GroupFixtures_MovementGroup outer;
                if (innerFirst)
                {
                    inner = new GroupFixtures_AcceleratedGroup(w);
                    outer = new GroupFixtures_MovementGroup(w);
                }
                else
                {
                    outer = new GroupFixtures_MovementGroup(w);
                    inner = new GroupFixtures_AcceleratedGroup(w);
                }
                assertEquals(30, outer.size());
                assertEquals(7, inner.size());
                assertNested(inner.group(), outer.group());
                f.erase(e[0]);
                a.erase(e[2]);
                a.emplace(e[1], 1f, 0f);
                w.destroy(e[6]);
                p.erase(e[10]);
                assertEquals(28, outer.size());
                assertEquals(6, inner.size(), "innerFirst " + innerFirst);
                assertNested(inner.group(), outer.group());
            }
        }
    }

    @Test
    void aGroupThatDoesNotNestWithTheOwnerOfItsStoragesIsRefusedNamingBoth()
    {
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);

        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> world.group().owning(Pos.class, Acc.class).build());

        assertTrue(refused.getMessage().contains("group owning Pos+Acc cannot own what group GroupFixtures_MovementGroup (owning Pos+Vel) owns"),
            refused.getMessage());
        assertEquals(1, world.groups().size());
        assertTrue(movement.isOpen());
    }

    @Test
    void anInPlaceStorageCannotBeOwnedAndAnOwnedStorageCannotBeSortedDirectly()
    {
        final IllegalArgumentException inPlace = assertThrows(IllegalArgumentException.class,
            () -> world.group().owning(Hp.class).build());
        assertTrue(inPlace.getMessage().contains("IN_PLACE"), inPlace.getMessage());
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);

        final IllegalStateException sorted = assertThrows(IllegalStateException.class,
            () -> positions.sort(positions.comparingX()));
        assertTrue(sorted.getMessage().contains("group GroupFixtures_MovementGroup (owning Pos+Vel) owns it"), sorted.getMessage());
        assertThrows(IllegalStateException.class, () -> velocities.sortAs(positions));
        movement.close();
        positions.sort(positions.comparingX());
    }

    @Test
    void sortingAGroupPermutesEveryOwnedStorageTogether()
    {
        final long[] e = entities(40);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], (i * 7) % 40, 0f);
            velocities.emplace(e[i], (i * 7) % 40, 0f);
        }
        final long loner = world.create();
        positions.emplace(loner, -1f, 0f);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);

        movement.sort(positions.comparingX());

        final List<Float> order = new ArrayList<>();
        movement.forEach((entity, pos, vel) ->
        {
            order.add(pos.x());
            assertEquals(pos.x(), vel.dx());
        });
        for (int k = 1; k < order.size(); k++)
        {
            assertTrue(order.get(k - 1) <= order.get(k), "iteration follows the comparator: " + order);
        }
        assertAligned(movement.group());
        assertFalse(movement.contains(loner));

        movement.sort(positions.comparingX().reversed());
        for (int i = 1; i < movement.size(); i++)
        {
            assertTrue(positions.xAt(i - 1) <= positions.xAt(i), "a reversed comparator leaves the columns ascending");
        }
        final IllegalArgumentException otherSet = assertThrows(IllegalArgumentException.class,
            () -> movement.sort(hps.comparingValue().reversed()));
        assertTrue(otherSet.getMessage().contains("Hp"), "reversing keeps the set the comparator reads: " +
            otherSet.getMessage());
    }

    @Test
    void aSortWhoseComparatorMakesAnEntityJoinOrLeaveIsRefusedBeforeAnyStorageIsPermuted()
    {
        final long[] e = entities(20);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], 20 - i, 0f);
            velocities.emplace(e[i], 20 - i, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Runnable> changes = List.of(
            () ->
            {
                final long joining = world.create();
                positions.emplace(joining, 99f, 0f);
                velocities.emplace(joining, 99f, 0f);
            },
            () -> velocities.erase(movement.group().entityAt(3)),
            () -> positions.erase(movement.group().entityAt(movement.size() - 1)));
        for (final Runnable change : changes)
        {
            final long[] before = packedOf(movement.group());
            final boolean[] changed = {false};
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movement.sort(IndexComparator.of(positions, (l, r) ->
                {
                    if (!changed[0])
                    {
                        changed[0] = true;
                        change.run();
                    }
                    return Float.compare(positions.xAt(l), positions.xAt(r));
                })));
            assertTrue(refused.getMessage().startsWith("the comparator passed to the sort of group "),
                refused.getMessage());
            assertTrue(refused.getMessage().contains("a comparator must only read, so the sort was not applied"),
                refused.getMessage());
            assertAligned(movement.group());
            movement.forEach((entity, pos, vel) -> assertEquals(pos.x(), vel.dx(), "aligned after the refusal"));
            assertTrue(before.length != movement.size() || java.util.Arrays.equals(before, packedOf(movement.group())),
                "a refused sort reordered nothing");
        }
    }

    private static long[] packedOf(final RuntimeGroup group)
    {
        final long[] packed = new long[group.size()];
        for (int i = 0; i < packed.length; i++)
        {
            packed[i] = group.entityAt(i);
        }
        return packed;
    }

    @Test
    void makingAnEntityNotYetVisitedLeaveTheGroupStopsTheWalkInsteadOfVisitingAnotherTwice()
    {
        final long[] e = movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> visited = new ArrayList<>();

        // Each visit kills another unit: the last one of the range is swapped into its place, and it was visited.
        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
            movement.forEach((entity, pos, vel) ->
            {
                visited.add(entity);
                final int victim = (int)pos.x() - 5;
                if (victim >= 0 && velocities.contains(e[victim]))
                {
                    velocities.erase(e[victim]);
                }
            }));

        assertTrue(stopped.getMessage().contains("other entities left or joined it") &&
            stopped.getMessage().contains("CommandBuffer"), stopped.getMessage());
        assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice: " + visited);
        assertAligned(movement.group());
        assertEquals(7, movement.size(), "the change itself was made");
    }

    @Test
    void walksOfTheGroupFromTheActionsOfAParallelIterationLeaveItsWalkCheckAsItWas() throws Exception
    {
        final long[] e = entities(2000);
        for (int i = 0; i < e.length; i++)
        {
            hps.emplace(e[i], i);
            if (i < 8)
            {
                positions.emplace(e[i], i, 0f);
                velocities.emplace(e[i], i, 0f);
            }
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup group = movement.group();
        final ForkJoinPool pool = new ForkJoinPool(2);
        try
        {
            for (int round = 0; round < 50; round++)
            {
                world.view(Hp.class).parallelForEach(pool, 1, entity -> group.forEach(member -> { }));
            }
        }
        finally
        {
            pool.shutdown();
        }

        // Every walk has ended: joins and leaves log nothing, and a walk that starts now checks as it should.
        final long moves = group.moveCount();
        velocities.erase(e[7]);
        velocities.emplace(e[7], 7f, 0f);
        assertEquals(moves, group.moveCount(), "no walk runs once every parallel action returned");
        final IllegalStateException stopped = walkWhereTheFirstVisitMakesTheFrontEntityLeave(movement);
        assertTrue(stopped.getMessage().contains("other entities left or joined it"), stopped.getMessage());
    }

    @Test
    void endingAGroupWalkThatWasNeverAnnouncedIsRefusedAndLeavesTheWalkCheckOn()
    {
        movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup group = movement.group();

        assertThrows(IllegalStateException.class, group::endCursorWalk);
        assertThrows(IllegalStateException.class, group::endIteration);

        // The refused calls left the count at zero, so the walk logs its moves and stops at the crossing.
        walkWhereTheFirstVisitMakesTheFrontEntityLeave(movement);
    }

    @Test
    void aClosedGroupsForEachSaysItIsClosedEveryTime()
    {
        final long[] e = entities(2);
        for (final long entity : e)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 0f, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        movement.close();

        for (int attempt = 0; attempt < 2; attempt++)
        {
            final IllegalStateException closed =
                assertThrows(IllegalStateException.class, () -> movement.forEach((entity, pos, vel) -> { }));
            assertTrue(closed.getMessage().contains("closed"), "every attempt says why: " + closed.getMessage());
        }
    }

    @Test
    void anOwnedStorageOutOfRangeIsNamedAndAClosedGroupSaysItIsClosed()
    {
        final RuntimeGroup group = new GroupFixtures_MovementGroup(world).group();

        assertEquals(positions, group.owned(0));
        final IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class, () -> group.owned(2));
        assertTrue(outside.getMessage().contains("owns 2 storages, at 0 to 1; there is none at 2"), outside.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> group.owned(-1));
        group.close();
        final IllegalStateException closed = assertThrows(IllegalStateException.class, () -> group.owned(0));
        assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
    }

    @Test
    void aCursorStillStopsAtACrossingAfterAnEarlierCursorWalkWasLeftHalfWayAndTheGroupLogsNothingOnceWalksEnd()
    {
        final long[] e = movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup group = movement.group();

        final GroupFixtures_MovementGroup.Cursor abandoned = movement.cursor();
        assertTrue(abandoned.next());
        final GroupFixtures_MovementGroup.Cursor cursor = movement.cursor();
        final List<Long> visited = new ArrayList<>();
        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
        {
            while (cursor.next())
            {
                visited.add(cursor.entity());
                final int victim = (int)cursor.pos().x() - 5;
                if (victim >= 0 && velocities.contains(e[victim]))
                {
                    velocities.erase(e[victim]);
                }
            }
        });
        assertTrue(stopped.getMessage().contains("other entities left or joined it"), stopped.getMessage());
        assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice: " + visited);

        final GroupFixtures_MovementGroup.Cursor finished = movement.cursor();
        while (finished.next())
        {
            assertTrue(group.contains(finished.entity()));
        }
        final long moves = group.moveCount();
        velocities.erase(e[0]);
        velocities.emplace(e[0], 0f, 0f);
        assertEquals(moves, group.moveCount(), "no walk runs: joins and leaves cost no logging");
        assertAligned(group);
    }

    @Test
    void aRuntimeGroupsWalkStopsInsteadOfVisitingTwiceWhenItsActionDestroysAnotherMember()
    {
        for (final boolean owning : new boolean[] {true, false})
        {
            final World w = new World(1 << 10);
            try
            {
                final GroupFixtures_PosStorage pos = w.storage(GroupFixtures_PosStorage.TYPE);
                final GroupFixtures_VelStorage vel = w.storage(GroupFixtures_VelStorage.TYPE);
                final long[] e = new long[8];
                for (int i = 0; i < e.length; i++)
                {
                    e[i] = w.create();
                    pos.emplace(e[i], i, 0f);
                    vel.emplace(e[i], i, 0f);
                }
                final RuntimeGroup group = owning ? w.group().owning(Pos.class, Vel.class).build() :
                    w.group().with(Pos.class, Vel.class).build();
                final List<Long> visited = new ArrayList<>();

                final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
                    group.forEach(entity ->
                    {
                        visited.add(entity);
                        final int victim = (int)pos.get(entity).x() - 5;
                        if (victim >= 0 && w.valid(e[victim]))
                        {
                            w.destroy(e[victim]);
                        }
                    }), "owning " + owning);

                assertTrue(stopped.getMessage().contains("other entities left or joined it"), stopped.getMessage());
                assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice: " + visited);
                assertEquals(7, group.size(), "the destroy itself was made");
            }
            finally
            {
                w.close();
            }
        }
    }

    @Test
    void aRuntimeGroupsWalkNeverVisitsEntitiesThatJoinedAfterItsActionClearedTheWorld()
    {
        for (final boolean owning : new boolean[] {true, false})
        {
            final World w = new World(1 << 10);
            try
            {
                final GroupFixtures_PosStorage pos = w.storage(GroupFixtures_PosStorage.TYPE);
                final GroupFixtures_VelStorage vel = w.storage(GroupFixtures_VelStorage.TYPE);
                for (int i = 0; i < 4; i++)
                {
                    final long entity = w.create();
                    pos.emplace(entity, i, 0f);
                    vel.emplace(entity, i, 0f);
                }
                final RuntimeGroup group = owning ? w.group().owning(Pos.class, Vel.class).build() :
                    w.group().with(Pos.class, Vel.class).build();
                final Set<Long> newcomers = new HashSet<>();
                final List<Long> visited = new ArrayList<>();

                final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
                    group.forEach(entity ->
                    {
                        visited.add(entity);
                        if (newcomers.isEmpty())
                        {
                            w.clear();
                            for (int i = 0; i < 6; i++)
                            {
                                final long newcomer = w.create();
                                pos.emplace(newcomer, 10 + i, 0f);
                                vel.emplace(newcomer, 10 + i, 0f);
                                newcomers.add(newcomer);
                            }
                        }
                    }), "owning " + owning);

                // The owned lead refuses the refill itself; a non-owning group's walk stops at the crossing.
                assertTrue(stopped.getMessage().contains(owning ? "cleared while a forEach walks it" :
                    "other entities left or joined it"), stopped.getMessage());
                assertEquals(1, visited.size(), "only the first entity was visited: " + visited);
                assertEquals(owning ? 0 : 6, group.size());
            }
            finally
            {
                w.close();
            }
        }
    }

    @Test
    void aCrossingPushedOutOfTheLogStillStopsTheWalkWhenTheActionStartsAnotherWalkOfTheGroup()
    {
        for (final boolean generated : new boolean[] {true, false})
        {
            final long[] e = entities(200);
            for (final long entity : e)
            {
                positions.emplace(entity, 0f, 0f);
                velocities.emplace(entity, 0f, 0f);
            }
            final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
            final RuntimeGroup group = movement.group();
            final List<Long> visited = new ArrayList<>();

            final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
                group.forEach(entity ->
                {
                    visited.add(entity);
                    if (visited.size() == 100)
                    {
                        world.destroy(group.entityAt(10)); // the entity at the back moves to 10, ahead of the walk
                        for (int k = 1; k <= 70; k++)
                        {
                            world.destroy(visited.get(k)); // moves behind the walk push that one out of the log
                        }
                        if (generated)
                        {
                            movement.cursor();
                        }
                        else
                        {
                            group.forEach(other -> { });
                        }
                    }
                }), generated ? "a cursor" : "a nested forEach");

            assertTrue(stopped.getMessage().contains("more than 64 moves"), stopped.getMessage());
            assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice");
            movement.close();
            world.clear();
        }
    }

    @Test
    void aWalkOfAnOwnedStorageStopsWhenTheGroupMovesAnEntityAcrossIt()
    {
        final long[] e = entities(10);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            if (i % 2 == 0)
            {
                velocities.emplace(e[i], 1f, 0f);
            }
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> visited = new ArrayList<>();

        // Each visited entity joins the group: it is swapped to the front, into the part the walk has still to go.
        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
            positions.forEach(entity ->
            {
                visited.add(entity);
                if (!velocities.contains(entity))
                {
                    velocities.emplace(entity, 1f, 0f);
                }
            }));

        assertTrue(stopped.getMessage().contains("moved by a group that owns it"), stopped.getMessage());
        assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice");
        assertAligned(movement.group());
    }

    @Test
    void anEntityJoiningBeforeTheCursorsFirstStepIsWalkedLikeTheOthers()
    {
        final long[] e = entities(4);
        for (int i = 0; i < 3; i++)
        {
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], i, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final GroupFixtures_MovementGroup.Cursor cursor = movement.cursor();
        positions.emplace(e[3], 3, 0f);
        velocities.emplace(e[3], 3, 0f);

        final Set<Long> walked = new HashSet<>();
        while (cursor.next())
        {
            walked.add(cursor.entity());
        }

        assertEquals(Set.of(e[0], e[1], e[2], e[3]), walked);
    }

    @Test
    void aVisitedEntityThatLeavesAndJoinsAgainBelowTheWalkStopsIt()
    {
        final long[] e = entities(3);
        for (final long entity : e)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 0f, 0f);
            hps.emplace(entity, 1);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final GroupFixtures_WoundedGroup wounded = new GroupFixtures_WoundedGroup(world);

        // Everything leaves, so the range shrinks below the walk, and the entity visited first comes back into it.
        final List<Long> owning = new ArrayList<>();
        assertThrows(IllegalStateException.class, () -> movement.forEach((entity, pos, vel) ->
        {
            owning.add(entity);
            if (owning.size() == 2)
            {
                for (final long each : e)
                {
                    velocities.erase(each);
                }
                velocities.emplace(owning.get(0), 1f, 1f);
            }
        }));
        final List<Long> nonOwning = new ArrayList<>();
        assertThrows(IllegalStateException.class, () -> wounded.forEach((entity, hp, pos) ->
        {
            nonOwning.add(entity);
            if (nonOwning.size() == 2)
            {
                for (final long each : e)
                {
                    hps.erase(each);
                }
                hps.emplace(nonOwning.get(0), 5);
            }
        }));

        assertEquals(2, owning.size(), "stopped before visiting it again: " + owning);
        assertEquals(2, nonOwning.size(), "stopped before visiting it again: " + nonOwning);
        assertAligned(movement.group());
    }

    @Test
    void aCrossingPushedOutOfTheLogByManyJoinersStillStopsTheWalk()
    {
        final long[] e = entities(10);
        for (final long entity : e)
        {
            positions.emplace(entity, 0f, 0f);
            velocities.emplace(entity, 0f, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final long firstInRange = movement.group().entityAt(0);
        final List<Long> visited = new ArrayList<>();

        assertThrows(IllegalStateException.class, () -> movement.forEach((entity, pos, vel) ->
        {
            visited.add(entity);
            if (visited.size() == 1)
            {
                velocities.erase(firstInRange);         // swaps the entity being visited into the rest of the walk
                for (int k = 0; k < 200; k++)           // then 200 joiners push that swap out of the log
                {
                    final long born = world.create();
                    positions.emplace(born, 0f, 0f);
                    velocities.emplace(born, 0f, 0f);
                }
            }
        }));

        assertEquals(1, visited.size());
        final Set<Long> all = new HashSet<>();
        movement.forEach((entity, pos, vel) ->
        {
            assertTrue(all.add(entity));
            if (all.size() == 1)
            {
                for (int k = 0; k < 200; k++)           // 200 joiners alone move nothing across the walk
                {
                    final long born = world.create();
                    positions.emplace(born, 0f, 0f);
                    velocities.emplace(born, 0f, 0f);
                }
            }
        });
        assertEquals(209, all.size());
    }

    @Test
    void leavingOrJoiningThatMovesNoEntityAcrossTheWalkIsFine()
    {
        final long[] e = entities(40);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], i, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final GroupFixtures_WoundedGroup wounded = new GroupFixtures_WoundedGroup(world);
        final Set<Long> visited = new HashSet<>();
        final List<Long> newcomers = new ArrayList<>();

        movement.forEach((entity, pos, vel) ->
        {
            assertTrue(visited.add(entity));
            if (pos.x() % 3 == 0)
            {
                velocities.erase(entity); // the visited entity itself leaves
            }
            else if (pos.x() % 3 == 1 && newcomers.size() < 100)
            {
                final long born = world.create(); // others join: they go behind the walk
                positions.emplace(born, -1f, 0f);
                velocities.emplace(born, 0f, 0f);
                newcomers.add(born);
            }
        });

        assertEquals(40, visited.size());
        assertAligned(movement.group());
        for (final long born : newcomers)
        {
            assertTrue(movement.contains(born));
        }
        final long[] w = entities(10);
        for (final long entity : w)
        {
            hps.emplace(entity, 1);
            positions.emplace(entity, 0f, 0f);
        }
        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
            wounded.forEach((entity, hp, pos) ->
            {
                if (entity == w[9])
                {
                    frozen.emplace(w[0]); // a non-owning group's set is swap-and-pop too
                }
            }));
        assertTrue(stopped.getMessage().contains("other entities left or joined it"), stopped.getMessage());
    }

    @Test
    void aComparatorThatBuildsAGroupIsRefusedBeforeAnythingIsPermuted()
    {
        final long[] e = entities(8);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], i, 0f);
            if (i < 2)
            {
                accelerations.emplace(e[i], i, 0f);
            }
        }
        // The outer group is built first: its entities are already at the front, so building nests moves nothing.
        final RuntimeGroup outer = world.group().owning(Pos.class, Vel.class).build();
        final RuntimeGroup[] inner = new RuntimeGroup[1];
        final IllegalStateException groupSort = assertThrows(IllegalStateException.class,
            () -> outer.sort(IndexComparator.of(positions, (l, r) ->
            {
                if (inner[0] == null)
                {
                    inner[0] = world.group().owning(Pos.class, Vel.class, Acc.class).build();
                }
                return Float.compare(positions.xAt(l), positions.xAt(r));
            })));
        assertTrue(groupSort.getMessage().startsWith("the comparator passed to the sort of group owning "),
            groupSort.getMessage());
        assertTrue(groupSort.getMessage().contains("a comparator must only read, so the sort was not applied"),
            groupSort.getMessage());
        assertAligned(inner[0]);
        assertEquals(2, inner[0].size());
        for (int i = 0; i < inner[0].size(); i++)
        {
            assertTrue(accelerations.contains(inner[0].entityAt(i)), "the nested group holds only what it matches");
        }
        inner[0].close();
        outer.close();

        final RuntimeGroup[] owner = new RuntimeGroup[1];
        final IllegalStateException storageSort = assertThrows(IllegalStateException.class,
            () -> positions.sort(IndexComparator.of(positions, (l, r) ->
            {
                if (owner[0] == null)
                {
                    owner[0] = world.group().owning(Pos.class, Vel.class).build();
                }
                return Float.compare(positions.xAt(r), positions.xAt(l));
            })));
        assertTrue(storageSort.getMessage().contains("(made group owning "), storageSort.getMessage());
        assertAligned(owner[0]);
    }

    @Test
    void twinGroupsHoldOneRangeAndEitherMayBeSorted()
    {
        final long[] e = entities(12);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], (i * 7) % 12, 0f);
            velocities.emplace(e[i], (i * 7) % 12, 0f);
        }
        // Each thread its own generated group: two groups with one rule.
        final GroupFixtures_MovementGroup first = new GroupFixtures_MovementGroup(world);
        final GroupFixtures_MovementGroup second = new GroupFixtures_MovementGroup(world);

        first.sort(positions.comparingX());
        assertAligned(first.group());
        assertAligned(second.group());
        second.sort(positions.comparingX().reversed());
        final List<Float> visited = new ArrayList<>();
        first.forEach((entity, pos, vel) -> visited.add(pos.x()));
        assertEquals(12, visited.size());
        for (int i = 1; i < visited.size(); i++)
        {
            assertTrue(visited.get(i - 1) > visited.get(i), "both walk the reversed order: " + visited);
        }
        velocities.erase(e[3]);
        assertEquals(11, first.size());
        assertEquals(11, second.size());
        assertAligned(first.group());
        assertAligned(second.group());
    }

    @Test
    void aComparatorOfAnotherWorldsStorageIsNamedAsSuch()
    {
        positions.emplace(world.create(), 1f, 0f);
        velocities.emplace(positions.entityAt(0), 1f, 0f);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        try (World other = new World())
        {
            final GroupFixtures_PosStorage theirs = other.storage(GroupFixtures_PosStorage.TYPE);
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> movement.sort(theirs.comparingX()));
            assertTrue(refused.getMessage().startsWith("the comparator reads the " + positions.name() +
                " of another World (or a standalone one)"), refused.getMessage());
        }
    }

    @Test
    void aNullActionIsNamedEvenWhenThereIsNothingToVisit()
    {
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup runtime = world.group().with(Hp.class).build();
        for (final Runnable call : List.<Runnable>of(() -> movement.forEach(null), () -> runtime.forEach(null)))
        {
            final NullPointerException refused = assertThrows(NullPointerException.class, call::run);
            assertEquals("action is null: pass what to do with each entity", refused.getMessage());
        }
    }

    @Test
    void aSortRefusesAComparatorThatReadsAStorageAtIndicesThatAreNotItsOwn()
    {
        final GroupFixtures_MassStorage masses = world.storage(GroupFixtures_MassStorage.TYPE);
        final GroupFixtures_MarkedStorage marked = world.storage(GroupFixtures_MarkedStorage.TYPE);
        final long[] e = entities(30);
        for (int i = 0; i < e.length; i++)
        {
            velocities.emplace(e[e.length - 1 - i], i, 0f);
            positions.emplace(e[i], (i * 7) % 30, 0f);
            masses.emplace(e[i], (i * 11) % 30);
            hps.emplace(e[i], i);
            marked.emplace(e[i]);
        }
        final GroupFixtures_HeavyGroup heavy = new GroupFixtures_HeavyGroup(world);
        final String storageBefore = order(velocities);

        final IllegalArgumentException storage = assertThrows(IllegalArgumentException.class,
            () -> velocities.sort(positions.comparingX()));
        assertTrue(storage.getMessage().startsWith("the comparator reads GroupFixtures.Pos storage at the packed " +
            "indices of GroupFixtures.Vel storage"), storage.getMessage());
        assertEquals(storageBefore, order(velocities), "nothing sorted");
        final IllegalArgumentException group = assertThrows(IllegalArgumentException.class,
            () -> heavy.group().sort(hps.comparingValue()));
        assertTrue(group.getMessage().contains("group "), group.getMessage());

        heavy.group().sort(masses.comparingKg());
        final List<Double> kgs = new ArrayList<>();
        heavy.forEach((entity, mass, hp) -> kgs.add(mass.kg()));
        assertEquals(kgs.stream().sorted().toList(), kgs);
        heavy.group().sort((l, r) -> Integer.compare(hps.value(masses.entityAt(l)), hps.value(masses.entityAt(r))));
        final List<Integer> values = new ArrayList<>();
        heavy.forEach((entity, mass, hp) -> values.add(hp.value()));
        assertEquals(values.stream().sorted().toList(), values, "a comparator through the entity is fine");
        velocities.sort(velocities.comparingDx());
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        movement.sort(velocities.comparingDx());
        final List<Float> dxs = new ArrayList<>();
        movement.forEach((entity, pos, vel) -> dxs.add(vel.dx()));
        assertEquals(dxs.stream().sorted().toList(), dxs, "any owned storage's comparator sorts the group");
    }

    private static String order(final dev.cairn.set.SparseSet set)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < set.size(); i++)
        {
            text.append(set.entityAt(i)).append(' ');
        }
        return text.toString();
    }

    @Test
    void aPartialOwningGroupLooksUpWhatItDoesNotOwnAndANonOwningOneKeepsItsOwnSet()
    {
        final GroupFixtures_MassStorage masses = world.storage(GroupFixtures_MassStorage.TYPE);
        final GroupFixtures_MarkedStorage marked = world.storage(GroupFixtures_MarkedStorage.TYPE);
        final GroupFixtures_HeavyGroup heavy = new GroupFixtures_HeavyGroup(world);
        final GroupFixtures_WoundedGroup wounded = new GroupFixtures_WoundedGroup(world);
        final long[] e = entities(6);
        for (int i = 0; i < e.length; i++)
        {
            masses.emplace(e[i], i);
            hps.emplace(e[i], i * 10);
            positions.emplace(e[i], i, 0f);
        }
        marked.emplace(e[1]);
        marked.emplace(e[2]);
        frozen.emplace(e[3]);

        final List<String> heavyOnes = new ArrayList<>();
        heavy.forEach((entity, mass, hp) -> heavyOnes.add(mass.kg() + "/" + hp.value()));
        final Set<Long> woundedOnes = new HashSet<>();
        wounded.forEach((entity, hp, pos) -> woundedOnes.add(entity));

        assertEquals(Set.of("1.0/10", "2.0/20"), new HashSet<>(heavyOnes));
        assertEquals(Set.of(e[0], e[1], e[2], e[4], e[5]), woundedOnes);
        hps.erase(e[1]);
        frozen.erase(e[3]);
        assertFalse(heavy.contains(e[1]));
        assertTrue(wounded.contains(e[3]));
        assertFalse(wounded.group().isOwning());
    }

    @Test
    void theCursorWalksLikeForEachAndRefusesToGoOnAfterTheGroupIsSorted()
    {
        final long[] e = entities(5);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], i, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final Set<Long> seen = new HashSet<>();
        for (GroupFixtures_MovementGroup.Cursor c = movement.cursor(); c.next(); )
        {
            seen.add(c.entity());
            assertEquals(c.pos().x(), c.vel().dx());
        }
        assertEquals(5, seen.size());

        final GroupFixtures_MovementGroup.Cursor c = movement.cursor();
        c.next();
        movement.sort(positions.comparingX());
        assertThrows(IllegalStateException.class, c::next);
    }

    @Test
    void aColumnHandsOutTheGroupsRangeOfAnOwnedStorageAndGoesStaleWhenTheStorageChanges()
    {
        final long[] e = entities(8);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], i, 0f);
            if (i < 6)
            {
                velocities.emplace(e[i], 1f, 0f);
            }
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final Column xs = positions.xColumn().first(movement.size());

        final UnsafeBuffer buffer = xs.buffer();
        float sum = 0;
        for (int i = 0; i < xs.count(); i++)
        {
            sum += buffer.getFloat(i * Float.BYTES);
        }

        assertEquals(6, xs.count());
        assertEquals(0f + 1 + 2 + 3 + 4 + 5, sum, "exactly the group's positions");
        assertEquals(24, xs.byteLength());
        positions.x(e[0], 100f);
        assertTrue(xs.isValid(), "writing fields keeps a column valid");
        velocities.emplace(e[7], 1f, 0f);
        assertFalse(xs.isValid(), "adding a Vel made e[7] join the group, which swapped it within the positions");
        final IllegalStateException joined = assertThrows(IllegalStateException.class, xs::address);
        assertTrue(joined.getMessage().contains("joining or leaving a group") &&
            joined.getMessage().contains("take the x column again"), joined.getMessage());

        final Column again = positions.xColumn().first(movement.size());
        positions.erase(e[6]);
        assertFalse(again.isValid());
        final IllegalStateException stale = assertThrows(IllegalStateException.class, again::address);
        assertTrue(stale.getMessage().contains("stale"), stale.getMessage());
        assertThrows(IllegalStateException.class, again::count, "every method checks, the sizes too");
        assertThrows(IllegalStateException.class, again::byteLength);
        assertThrows(IllegalStateException.class, again::width);
        world.close();
        assertThrows(IllegalStateException.class, xs::buffer);
        assertThrows(IllegalStateException.class, xs::count);
    }

    @Test
    void aViewWalkStoppedByAGroupsSwapInItsLeadSaysTheGroupOwnsIt()
    {
        final long[] e = movers(4);
        new GroupFixtures_MovementGroup(world);

        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
            world.view(Pos.class).forEach(entity ->
            {
                if (entity == e[3])
                {
                    velocities.erase(e[0]); // e[0] leaves the group: swapped with e[3], already visited
                }
            }));

        assertTrue(stopped.getMessage().contains("owns this storage, so it keeps its policy") &&
            !stopped.getMessage().contains("IN_PLACE"), stopped.getMessage());
    }

    @Test
    void aClearOrResetInsideAGroupWalkEndsItWhateverGroupsWatchAndAJoinAfterwardsIsRefused()
    {
        for (final boolean nested : new boolean[]{false, true})
        {
            for (final boolean reset : new boolean[]{false, true})
            {
                final String what = (nested ? "nested groups, " : "one group, ") + (reset ? "reset()" : "clear()");
                movers(12);
                final RuntimeGroup outer = world.group().owning(Pos.class, Vel.class).build();
                final RuntimeGroup walked = nested ? world.group().owning(Pos.class, Vel.class, Acc.class).build() :
                    outer;
                for (int i = 0; i < positions.size(); i += 2)
                {
                    accelerations.emplace(positions.entityAt(i), 1f, 1f);
                }
                final List<Long> visited = new ArrayList<>();

                walked.forEach(entity ->
                {
                    visited.add(entity);
                    if (reset)
                    {
                        world.reset();
                    }
                    else
                    {
                        world.clear();
                    }
                });

                assertEquals(1, visited.size(), what + ": the walk ends");
                assertEquals(0, walked.size(), what);

                movers(4);
                for (int i = 0; i < positions.size(); i++)
                {
                    accelerations.emplace(positions.entityAt(i), 1f, 1f);
                }
                final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
                    walked.forEach(entity ->
                    {
                        world.clear();
                        final long joining = world.create();
                        positions.emplace(joining, 0f, 0f);
                        velocities.emplace(joining, 0f, 0f);
                        accelerations.emplace(joining, 0f, 0f);
                    }), what + ": an entity joining after the clear would be visited: refused, or the walk stops");
                assertTrue(stopped.getMessage().contains("cleared while a forEach walks it") ||
                    stopped.getMessage().contains("left or joined it"), what + ": " + stopped.getMessage());
                if (nested)
                {
                    walked.close();
                }
                outer.close();
                world.clear();
            }
        }
    }

    @Test
    void closingAGroupGivesUpItsStoragesAndClosingTheWorldClosesItsGroups()
    {
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup wounded = world.group().with(Hp.class).without(Frozen.class).build();
        assertEquals(2, world.groups().size());

        movement.close();
        movement.close();

        assertFalse(movement.isOpen());
        assertEquals(1, world.groups().size());
        positions.sort(positions.comparingX());
        world.group().owning(Pos.class, Mass.class).build();
        world.close();
        assertFalse(wounded.isOpen());
        assertThrows(IllegalStateException.class, () -> wounded.contains(0));
        wounded.close();
    }

    @Test
    void buildingAGroupWhileAnOwnedStorageIsIteratedIsRefused()
    {
        final long entity = world.create();
        positions.emplace(entity, 1f, 1f);
        velocities.emplace(entity, 1f, 1f);

        positions.forEach(e -> assertThrows(IllegalStateException.class,
            () -> world.group().owning(Pos.class, Vel.class).build()));

        assertTrue(world.groups().isEmpty());
    }

    /** Entities {@code e[i]} with a Pos of x = i and a Vel of dx = i. */
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

    /**
     * Walks the group; the first visit makes the entity at the front leave, which swaps the visited one (at the back)
     * into the part still to walk. Asserts the walk stops without visiting an entity twice.
     */
    private IllegalStateException walkWhereTheFirstVisitMakesTheFrontEntityLeave(
        final GroupFixtures_MovementGroup movement)
    {
        final RuntimeGroup group = movement.group();
        final List<Long> visited = new ArrayList<>();
        final IllegalStateException stopped = assertThrows(IllegalStateException.class, () ->
            movement.forEach((entity, pos, vel) ->
            {
                visited.add(entity);
                if (visited.size() == 1)
                {
                    velocities.erase(group.entityAt(0));
                }
            }));
        assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice: " + visited);
        return stopped;
    }

    private long[] entities(final int count)
    {
        final long[] e = new long[count];
        world.create(e, count);
        return e;
    }

    private static void assertAligned(final RuntimeGroup group)
    {
        for (int i = 0; i < group.extent(); i++)
        {
            final long entity = group.owned(0).entityAt(i);
            for (int k = 1; k < group.ownedCount(); k++)
            {
                assertEquals(entity, group.owned(k).entityAt(i), "owned storage " + k + " at index " + i);
            }
            assertTrue(group.contains(entity), Entity.toString(entity));
        }
    }

    private static void assertNested(final RuntimeGroup inner, final RuntimeGroup outer)
    {
        assertAligned(inner);
        assertAligned(outer);
        assertTrue(inner.extent() <= outer.extent());
        for (int i = 0; i < inner.extent(); i++)
        {
            assertEquals(inner.entityAt(i), outer.entityAt(i), "the inner range is a prefix of the outer one");
        }
    }
}
