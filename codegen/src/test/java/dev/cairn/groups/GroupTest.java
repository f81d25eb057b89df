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
import java.util.function.LongConsumer;

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

        assertEquals(0f, positions.xAt(0), "the comparator's first entity is at packed index 0");
        movement.sort(positions.comparingX().reversed());
        for (int i = 1; i < movement.size(); i++)
        {
            assertTrue(positions.xAt(i - 1) >= positions.xAt(i), "a reversed comparator puts the columns descending");
        }
        final List<Float> reversed = new ArrayList<>();
        movement.forEach((entity, pos, vel) -> reversed.add(pos.x()));
        assertEquals(39f, reversed.get(0), "the walk begins with the reversed comparator's first: " + reversed);
        final IllegalArgumentException otherSet = assertThrows(IllegalArgumentException.class,
            () -> movement.sort(hps.comparingValue().reversed()));
        assertTrue(otherSet.getMessage().contains("Hp"), "reversing keeps the set the comparator reads: " +
            otherSet.getMessage());
    }

    @Test
    void joinsAndLeavesAComparatorMakesAreAppliedAfterTheSortItsOrderDecidedWithoutThem()
    {
        final long[] e = entities(20);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], 20 - i, 0f);
            velocities.emplace(e[i], 20 - i, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final long[] joining = {Entity.NULL};
        final long[] leaving = {Entity.NULL};
        final List<Runnable> changes = List.of(
            () ->
            {
                joining[0] = world.create();
                positions.emplace(joining[0], 0.5f, 0f);
                velocities.emplace(joining[0], 0.5f, 0f);
            },
            () ->
            {
                leaving[0] = movement.group().entityAt(3);
                velocities.erase(leaving[0]);
            },
            () ->
            {
                leaving[0] = movement.group().entityAt(movement.size() - 1);
                positions.erase(leaving[0]);
            });
        for (int k = 0; k < changes.size(); k++)
        {
            final Runnable change = changes.get(k);
            final Set<Long> members = new HashSet<>();
            for (final long member : packedOf(movement.group()))
            {
                members.add(member);
            }
            final int sizeBefore = movement.size();
            final boolean[] changed = {false};
            final List<String> heldBy = new ArrayList<>();
            joining[0] = Entity.NULL;
            leaving[0] = Entity.NULL;

            movement.sort(IndexComparator.of(positions, (l, r) ->
            {
                if (!changed[0])
                {
                    changed[0] = true;
                    change.run();
                    heldBy.add(world.heldBy());
                    assertEquals(sizeBefore, movement.size(), "the group holds still while the comparator runs");
                }
                return Float.compare(positions.xAt(l), positions.xAt(r));
            }));

            assertTrue(heldBy.get(0).contains("comparator") && heldBy.get(0).contains("sort"), heldBy.get(0));
            assertFalse(world.isDeferring(), "nothing holds the structure once the sort returned");
            assertAligned(movement.group());
            if (joining[0] != Entity.NULL)
            {
                members.add(joining[0]);
                assertEquals(sizeBefore + 1, movement.size());
                assertEquals(joining[0], movement.group().entityAt(movement.size() - 1),
                    "the joiner was appended to the sorted range: the sort did not see it");
                for (int i = 1; i < movement.size() - 1; i++)
                {
                    assertTrue(positions.xAt(i - 1) <= positions.xAt(i), "the sort ordered the others, case " + k);
                }
            }
            else
            {
                members.remove(leaving[0]);
                assertEquals(sizeBefore - 1, movement.size(), "case " + k);
                assertFalse(movement.contains(leaving[0]), "case " + k);
            }
            final Set<Long> held = new HashSet<>();
            for (final long member : packedOf(movement.group()))
            {
                held.add(member);
            }
            assertEquals(members, held, "case " + k);
            movement.forEach((entity, pos, vel) -> assertEquals(pos.x(), vel.dx(), "aligned after the changes"));
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
    void entitiesNotYetVisitedThatTheActionMakesLeaveAreStillVisitedOnceAndLeaveWhenTheWalkEnds()
    {
        final long[] e = movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> visited = new ArrayList<>();

        // Each of the last three visits makes an entity visited earlier leave: the group holds still until the end.
        movement.forEach((entity, pos, vel) ->
        {
            visited.add(entity);
            final int victim = (int)pos.x() - 5;
            if (victim >= 0)
            {
                assertTrue(velocities.contains(e[victim]) && movement.contains(e[victim]), "still there");
                velocities.erase(e[victim]);
                assertEquals(8, movement.size(), "the leave waits for the walk's end");
            }
        });

        assertEquals(List.of(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]), visited, "each once, front to back");
        assertEquals(5, movement.size(), "the leaves were made when the walk returned");
        for (int i = 0; i < 3; i++)
        {
            assertFalse(movement.contains(e[i]));
        }
        assertAligned(movement.group());

        // Now the victims are ahead of the walk: the entity at the front leaves at each visit, and each is visited.
        final List<Long> range = new ArrayList<>();
        for (final long member : packedOf(movement.group()))
        {
            range.add(member);
        }
        final List<Long> again = new ArrayList<>();
        movement.forEach((entity, pos, vel) ->
        {
            again.add(entity);
            velocities.erase(movement.group().entityAt(movement.size() - again.size()));
        });
        assertEquals(range, again, "the entities ahead were visited though they left");
        assertEquals(Set.of(e[3], e[4], e[5], e[6], e[7]), new HashSet<>(again));
        assertEquals(0, movement.size());
    }

    @Test
    void aJoinIntoANestedGroupDuringAWalkOfTheEnclosingGroupWaitsForTheWalksEnd()
    {
        // The reproduction of issue 33: a join into the nested Movement, during a walk of the enclosing group that
        // owns only Vel, used to move its members under the walk (one skipped, the joiner visited).
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup velGroup = world.group().owning(Vel.class).build();
        for (final boolean byIndex : new boolean[]{false, true})
        {
            final List<Long> members = new ArrayList<>();
            for (int i = 0; i < 8; i++)
            {
                final long velOnly = world.create();
                velocities.emplace(velOnly, i, 0f);
                members.add(velOnly);
            }
            final long both = world.create();
            positions.emplace(both, 8f, 0f);
            velocities.emplace(both, 8f, 0f);
            members.add(both);
            final long joiner = world.create();
            positions.emplace(joiner, 9f, 0f);
            assertEquals(9, velGroup.size());
            assertEquals(1, movement.size());
            final List<Long> visited = new ArrayList<>();
            final LongConsumer visit = entity ->
            {
                visited.add(entity);
                if (visited.size() == 3)
                {
                    velocities.emplace(joiner, 9f, 0f);
                    assertFalse(velGroup.contains(joiner) || movement.contains(joiner), "the join waits");
                }
            };

            if (byIndex)
            {
                velGroup.forEachIndex(i -> visit.accept(velocities.entityAt(i)));
            }
            else
            {
                velGroup.forEach(visit);
            }

            assertEquals(members.size(), visited.size(), "by index " + byIndex + ": " + visited);
            assertEquals(new HashSet<>(members), new HashSet<>(visited), "every member visited once, by index " +
                byIndex);
            assertFalse(visited.contains(joiner), "the joiner is not visited");
            assertTrue(velGroup.contains(joiner) && movement.contains(joiner), "it joined when the walk returned");
            assertEquals(10, velGroup.size());
            assertEquals(2, movement.size());
            assertNested(movement.group(), velGroup);
            world.clear();
        }
    }

    @Test
    void walksOfTheGroupFromTheActionsOfAParallelWalkEndWithItAndLeaveNothingDeferring()
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

        // Every walk has ended: changes are made at once, and a walk that starts now defers them to its end.
        assertFalse(world.isDeferring());
        assertEquals(null, world.heldBy());
        velocities.erase(e[7]);
        assertEquals(7, movement.size(), "made at once");
        velocities.emplace(e[7], 7f, 0f);
        final List<Long> visited = walkWhereTheFirstVisitMakesTheFrontEntityLeave(movement);
        assertEquals(8, visited.size());
        assertEquals(7, movement.size());
    }

    @Test
    void closingACursorTwiceOrAfterItsWalkEndedEndsNoOtherWalk()
    {
        final long[] e = movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final GroupFixtures_MovementGroup.Cursor cursor = movement.cursor();
        cursor.close();
        cursor.close();
        assertFalse(world.isDeferring(), "the cursor's walk ended at the first close");

        final List<Long> visited = new ArrayList<>();
        movement.forEach((entity, pos, vel) ->
        {
            visited.add(entity);
            if (visited.size() == 1)
            {
                final GroupFixtures_MovementGroup.Cursor inner = movement.cursor();
                assertTrue(inner.next());
                inner.close();
                inner.close();
                assertFalse(inner.next(), "a closed cursor stays at its end");
                assertTrue(world.isDeferring(), "the outer forEach still holds the structure");
                assertEquals("GroupFixtures_MovementGroup.forEach", world.heldBy());
                velocities.erase(e[7]);
                assertTrue(movement.contains(e[7]), "deferred to the forEach's end");
            }
        });

        assertEquals(8, visited.size());
        assertEquals(7, movement.size());
        assertAligned(movement.group());
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
    void aNewCursorEndsTheWalkOfOneLeftHalfWayAndItsOwnWalkDefersTheLeavesItsLoopMakesUntilItEnds()
    {
        final long[] e = movers(8);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup group = movement.group();

        final GroupFixtures_MovementGroup.Cursor abandoned = movement.cursor();
        assertTrue(abandoned.next());
        assertTrue(world.isDeferring(), "a cursor's walk lasts until next() returns false or it is closed");
        final GroupFixtures_MovementGroup.Cursor cursor = movement.cursor();
        assertEquals("GroupFixtures_MovementGroup.cursor()", world.heldBy(), "the new cursor ended the old walk");
        final List<Long> visited = new ArrayList<>();
        while (cursor.next())
        {
            visited.add(cursor.entity());
            final int victim = (int)cursor.pos().x() - 5;
            if (victim >= 0)
            {
                velocities.erase(e[victim]);
                assertEquals(8, group.size(), "the leave waits for the cursor's walk to end");
            }
        }

        assertEquals(List.of(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]), visited);
        assertFalse(world.isDeferring(), "the walk ended when next() returned false");
        assertEquals(5, group.size(), "and the leaves were made then");
        final GroupFixtures_MovementGroup.Cursor finished = movement.cursor();
        while (finished.next())
        {
            assertTrue(group.contains(finished.entity()));
        }
        velocities.erase(e[3]);
        assertEquals(4, group.size(), "no walk runs: a change is made at once");
        assertAligned(group);

        try (GroupFixtures_MovementGroup.Cursor early = movement.cursor())
        {
            assertTrue(early.next());
            velocities.erase(early.entity());
            assertTrue(group.contains(early.entity()));
        }
        assertEquals(3, group.size(), "closing a cursor left early ends its walk and applies what it deferred");
    }

    @Test
    void aRuntimeGroupsWalkVisitsEveryMemberOnceWhenItsActionDestroysOthersAndTheDestroysFollowIt()
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

                group.forEach(entity ->
                {
                    visited.add(entity);
                    final int victim = 7 - (int)pos.get(entity).x();
                    if (victim > visited.size() - 1)
                    {
                        assertTrue(w.valid(e[victim]), "a destroyed entity stays valid until the walk ends");
                        w.destroy(e[victim]);
                    }
                });

                assertEquals(List.of(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]), visited, "owning " + owning);
                assertEquals(4, group.size(), "the destroys were made when the walk returned, owning " + owning);
                for (int i = 4; i < 8; i++)
                {
                    assertFalse(w.valid(e[i]));
                }
            }
            finally
            {
                w.close();
            }
        }
    }

    @Test
    void aClearOfTheWorldInARuntimeGroupsWalkDestroysWhatWasAliveAtTheCallWhenTheWalkEndsAndNewcomersJoin()
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

                group.forEach(entity ->
                {
                    visited.add(entity);
                    if (newcomers.isEmpty())
                    {
                        w.clear();
                        assertEquals(4, group.size(), "the clear waits for the walk's end");
                        for (int i = 0; i < 6; i++)
                        {
                            final long newcomer = w.create();
                            pos.emplace(newcomer, 10 + i, 0f);
                            vel.emplace(newcomer, 10 + i, 0f);
                            newcomers.add(newcomer);
                        }
                    }
                });
                assertEquals(4, visited.size(), "the walk visited every member it began with: " + visited);
                for (final long newcomer : newcomers)
                {
                    assertTrue(w.valid(newcomer), "created after the clear was called, so it stays");
                    assertTrue(group.contains(newcomer), "its adds were made after the clear's destroys");
                }
                assertEquals(6, group.size(), "owning " + owning);
                assertEquals(6, w.aliveCount(), "the entities alive at the call were destroyed");
                if (owning)
                {
                    assertAligned(group);
                }
            }
            finally
            {
                w.close();
            }
        }
    }

    @Test
    void manyDestroysAndANestedWalkOfTheGroupInsideAWalkChangeNothingUntilTheOuterWalkEnds()
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
            final int[] nested = {0};

            group.forEach(entity ->
            {
                visited.add(entity);
                if (visited.size() == 100)
                {
                    world.destroy(group.entityAt(10)); // destroyed twice: the second destroy is dropped
                    for (int k = 1; k <= 70; k++)
                    {
                        world.destroy(visited.get(k));
                    }
                    world.destroy(group.entityAt(150)); // ahead of the walk
                    if (generated)
                    {
                        for (GroupFixtures_MovementGroup.Cursor cursor = movement.cursor(); cursor.next(); )
                        {
                            nested[0]++;
                        }
                    }
                    else
                    {
                        group.forEach(other -> nested[0]++);
                    }
                    assertTrue(world.isDeferring(), "the nested walk's end is not the outermost's");
                }
            });

            assertEquals(200, nested[0], "the nested walk saw the group as the outer one began it");
            assertEquals(200, visited.size(), generated ? "a cursor" : "a nested forEach");
            assertEquals(200, new HashSet<>(visited).size(), "no entity visited twice");
            assertEquals(200 - 71, movement.size());
            assertAligned(group);
            movement.close();
            world.clear();
        }
    }

    @Test
    void aWalkOfAnOwnedStorageVisitsEachOnceAndTheJoinsItsActionMakesFollowIt()
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

        // Each visited entity joins the group, which would swap it to the front of the positions: after the walk.
        positions.forEach(entity ->
        {
            visited.add(entity);
            if (!velocities.contains(entity))
            {
                velocities.emplace(entity, 1f, 0f);
            }
        });

        assertEquals(10, visited.size());
        assertEquals(10, new HashSet<>(visited).size(), "no entity visited twice");
        assertEquals(10, movement.size());
        assertAligned(movement.group());
    }

    @Test
    void anEntityThatMatchesAfterCursorWasCalledJoinsWhenTheCursorsWalkEndsAndIsNotWalked()
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
        assertFalse(movement.contains(e[3]), "the cursor's walk began at cursor(): the adds wait for its end");

        final Set<Long> walked = new HashSet<>();
        while (cursor.next())
        {
            walked.add(cursor.entity());
        }

        assertEquals(Set.of(e[0], e[1], e[2]), walked);
        assertTrue(movement.contains(e[3]), "it joined when the walk ended");
        assertEquals(3f, positions.x(e[3]));
    }

    @Test
    void removingAComponentAndAddingItBackInOneWalkIsRefusedAtTheAddAndTheRemovalsFollowTheWalk()
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

        // Everything leaves, and the entity visited first is added back: it still has the component until the end.
        final List<Long> owning = new ArrayList<>();
        final List<IllegalArgumentException> refused = new ArrayList<>();
        movement.forEach((entity, pos, vel) ->
        {
            owning.add(entity);
            if (owning.size() == 2)
            {
                for (final long each : e)
                {
                    velocities.erase(each);
                }
                refused.add(assertThrows(IllegalArgumentException.class,
                    () -> velocities.emplace(owning.get(0), 1f, 1f)));
            }
        });
        final List<Long> nonOwning = new ArrayList<>();
        wounded.forEach((entity, hp, pos) ->
        {
            nonOwning.add(entity);
            if (nonOwning.size() == 2)
            {
                for (final long each : e)
                {
                    hps.erase(each);
                }
                refused.add(assertThrows(IllegalArgumentException.class, () -> hps.emplace(nonOwning.get(0), 5)));
            }
        });

        assertEquals(3, owning.size(), "each visited once: " + owning);
        assertEquals(3, nonOwning.size(), "each visited once: " + nonOwning);
        for (final IllegalArgumentException refusal : refused)
        {
            assertTrue(refusal.getMessage().contains("already has"), refusal.getMessage());
        }
        assertEquals(0, movement.size());
        assertEquals(0, wounded.size());
        assertAligned(movement.group());
    }

    @Test
    void aLeaveAndManyJoinsDuringAWalkAreAppliedAfterItInTheOrderMade()
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
        final List<Long> born = new ArrayList<>();

        movement.forEach((entity, pos, vel) ->
        {
            visited.add(entity);
            if (visited.size() == 1)
            {
                velocities.erase(firstInRange);
                for (int k = 0; k < 200; k++)
                {
                    final long joiner = world.create();
                    positions.emplace(joiner, k, 0f);
                    velocities.emplace(joiner, k, 0f);
                    born.add(joiner);
                }
            }
        });

        assertEquals(10, visited.size());
        assertEquals(209, movement.size());
        for (int k = 0; k < 200; k++)
        {
            assertEquals(born.get(k), movement.group().entityAt(9 + k), "joined in the order the adds were made");
        }
        final Set<Long> all = new HashSet<>();
        movement.forEach((entity, pos, vel) ->
        {
            assertTrue(all.add(entity));
            if (all.size() == 1)
            {
                for (int k = 0; k < 200; k++)
                {
                    final long joiner = world.create();
                    positions.emplace(joiner, 0f, 0f);
                    velocities.emplace(joiner, 0f, 0f);
                }
            }
        });
        assertEquals(209, all.size());
        assertEquals(409, movement.size());
        assertAligned(movement.group());
    }

    @Test
    void leavingAndJoiningDuringAWalkOfAnOwningOrANonOwningGroupIsAppliedAfterIt()
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
                final long born = world.create(); // others join
                positions.emplace(born, -1f, 0f);
                velocities.emplace(born, 0f, 0f);
                newcomers.add(born);
            }
        });

        assertEquals(40, visited.size());
        assertAligned(movement.group());
        assertEquals(40 - 14 + 13, movement.size());
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
        final List<Long> woundedVisits = new ArrayList<>();
        wounded.forEach((entity, hp, pos) ->
        {
            woundedVisits.add(entity);
            if (entity == w[9])
            {
                frozen.emplace(w[0]); // a non-owning group's set is swap-and-pop too
                assertTrue(wounded.contains(w[0]));
            }
        });
        assertEquals(10, woundedVisits.size(), "each visited once: " + woundedVisits);
        assertEquals(Set.of(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9]), new HashSet<>(woundedVisits));
        assertFalse(wounded.contains(w[0]), "it left when the walk returned");
        assertEquals(9, wounded.size());
    }

    @Test
    void buildingAnOwningGroupFromAComparatorIsRefusedNamingTheSortAndNothingIsPermuted()
    {
        final long[] e = entities(8);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], 8 - i, 0f);
            velocities.emplace(e[i], 8 - i, 0f);
            if (i < 2)
            {
                accelerations.emplace(e[i], i, 0f);
            }
        }
        final RuntimeGroup outer = world.group().owning(Pos.class, Vel.class).build();
        final long[] before = packedOf(outer);
        final IllegalStateException groupSort = assertThrows(IllegalStateException.class,
            () -> outer.sort(IndexComparator.of(positions, (l, r) ->
            {
                world.group().owning(Pos.class, Vel.class, Acc.class).build();
                return Float.compare(positions.xAt(l), positions.xAt(r));
            })));
        assertTrue(groupSort.getMessage().startsWith("cannot build group owning Pos+Vel+Acc while the comparator " +
            "of group owning Pos+Vel.sort runs"), groupSort.getMessage());
        assertTrue(groupSort.getMessage().contains("build it before the walk or after it returns"),
            groupSort.getMessage());
        assertEquals(1, world.groups().size(), "nothing was built");
        assertTrue(java.util.Arrays.equals(before, packedOf(outer)), "the refused sort reordered nothing");
        assertAligned(outer);
        outer.close();

        final String storageBefore = order(positions);
        final IllegalStateException storageSort = assertThrows(IllegalStateException.class,
            () -> positions.sort(IndexComparator.of(positions, (l, r) ->
            {
                world.group().owning(Pos.class, Vel.class).build();
                return Float.compare(positions.xAt(r), positions.xAt(l));
            })));
        assertTrue(storageSort.getMessage().contains("while the comparator of GroupFixtures.Pos storage.sort runs"),
            storageSort.getMessage());
        assertTrue(world.groups().isEmpty());
        assertEquals(storageBefore, order(positions), "nothing sorted");
        final RuntimeGroup after = world.group().owning(Pos.class, Vel.class).build();
        assertAligned(after);
        assertEquals(8, after.size());
    }

    @Test
    void buildingAGroupFromAComparatorIsRefusedAndTheSortGoesOn()
    {
        final long[] e = entities(8);
        for (int i = 0; i < e.length; i++)
        {
            positions.emplace(e[i], 8 - i, 0f);
            velocities.emplace(e[i], 8 - i, 0f);
            hps.emplace(e[i], i);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final String[] refused = new String[1];

        movement.sort(IndexComparator.of(positions, (l, r) ->
        {
            if (refused[0] == null)
            {
                refused[0] = assertThrows(IllegalStateException.class,
                    () -> world.group().with(Hp.class, Pos.class).build()).getMessage();
            }
            return Float.compare(positions.xAt(l), positions.xAt(r));
        }));

        assertTrue(refused[0].contains("the comparator of group GroupFixtures_MovementGroup"), refused[0]);
        assertEquals(1, world.groups().size(), "only the movement group");
        for (int i = 1; i < movement.size(); i++)
        {
            assertTrue(positions.xAt(i - 1) <= positions.xAt(i));
        }
        assertAligned(movement.group());
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
    void theCursorWalksLikeForEachAndASortDuringItsWalkIsRefusedNamingTheCursor()
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
        final long first = c.entity();
        final IllegalStateException refused =
            assertThrows(IllegalStateException.class, () -> movement.sort(positions.comparingX().reversed()));
        assertTrue(refused.getMessage().contains("GroupFixtures_MovementGroup.cursor()") &&
            refused.getMessage().contains("sort it after the walk or listener returns"), refused.getMessage());
        final List<Long> rest = new ArrayList<>();
        while (c.next())
        {
            rest.add(c.entity());
        }
        assertEquals(4, rest.size(), "the cursor went on over the unsorted range");
        assertFalse(rest.contains(first));
        movement.sort(positions.comparingX().reversed());
        assertEquals(4f, positions.xAt(0), "sorted once the cursor's walk ended");
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
    void aViewWalkOfAnOwnedStorageVisitsEachOnceWhenItsActionMakesAnEntityLeaveTheGroup()
    {
        final long[] e = movers(4);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> visited = new ArrayList<>();

        world.view(Pos.class).forEach(entity ->
        {
            visited.add(entity);
            if (entity == e[0])
            {
                velocities.erase(e[3]); // e[3] leaves the group: it would be swapped within the positions
            }
        });

        assertEquals(List.of(e[0], e[1], e[2], e[3]), visited);
        assertEquals(3, movement.size());
        assertAligned(movement.group());
    }

    @Test
    void aClearInsideAGroupWalkWaitsForItsEndAndAResetThereIsRefusedNamingTheWalk()
    {
        for (final boolean nested : new boolean[]{false, true})
        {
            final String what = nested ? "nested groups" : "one group";
            movers(12);
            final RuntimeGroup outer = world.group().owning(Pos.class, Vel.class).build();
            final RuntimeGroup walked = nested ? world.group().owning(Pos.class, Vel.class, Acc.class).build() :
                outer;
            for (int i = 0; i < positions.size(); i++)
            {
                accelerations.emplace(positions.entityAt(i), 1f, 1f);
            }
            final List<Long> visited = new ArrayList<>();
            final List<IllegalStateException> refused = new ArrayList<>();

            walked.forEach(entity ->
            {
                visited.add(entity);
                refused.add(assertThrows(IllegalStateException.class, world::reset));
                if (visited.size() == 1)
                {
                    world.clear();
                    final long joining = world.create();
                    positions.emplace(joining, 0f, 0f);
                    velocities.emplace(joining, 0f, 0f);
                    accelerations.emplace(joining, 0f, 0f);
                }
            });

            assertEquals(12, visited.size(), what + ": the walk visits every member it began with");
            assertTrue(refused.get(0).getMessage().contains("reset() the World while group owning") &&
                refused.get(0).getMessage().contains("clear() the world, which waits"), refused.get(0).getMessage());
            assertEquals(1, walked.size(), what + ": the joiner, created after the clear was called, stays and joins");
            assertEquals(1, world.aliveCount(), what);

            for (final long entity : movers(4))
            {
                accelerations.emplace(entity, 1f, 1f);
            }
            final int[] visits = {0};
            walked.forEach(entity ->
            {
                visits[0]++;
                world.clear();
                assertTrue(world.valid(entity), "the clear waits");
            });
            assertEquals(5, visits[0], what + ": the four movers and the joiner that stayed");
            assertEquals(0, walked.size(), what);
            if (nested)
            {
                walked.close();
            }
            outer.close();
            world.clear();
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
    void buildingAnyGroupInsideAWalkIsRefusedNamingTheWalkAndWorksAfterIt()
    {
        final long entity = world.create();
        positions.emplace(entity, 1f, 1f);
        velocities.emplace(entity, 1f, 1f);

        final List<String> refusals = new ArrayList<>();
        positions.forEach(e -> refusals.add(assertThrows(IllegalStateException.class,
            () -> world.group().owning(Pos.class, Vel.class).build()).getMessage()));

        assertTrue(refusals.get(0).contains("while GroupFixtures.Pos storage.forEach runs") &&
            refusals.get(0).contains("build it before the walk or after it returns"), refusals.get(0));
        assertTrue(world.groups().isEmpty());
        world.view(Pos.class).forEach(e -> refusals.add(assertThrows(IllegalStateException.class,
            () -> world.group().with(Pos.class, Vel.class).build()).getMessage()));
        assertTrue(refusals.get(1).contains("while RuntimeView.forEach runs"), refusals.get(1));
        assertTrue(world.groups().isEmpty(), "a refused build registers nothing");
        assertEquals(1, world.group().with(Pos.class, Vel.class).build().size(), "after the walk, it builds");
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
     * Walks the group; the first visit makes the entity at the front leave. Asserts the walk visits every member once
     * and the leave is made when it returns.
     */
    private List<Long> walkWhereTheFirstVisitMakesTheFrontEntityLeave(final GroupFixtures_MovementGroup movement)
    {
        final RuntimeGroup group = movement.group();
        final int size = group.size();
        final long front = group.entityAt(0);
        final List<Long> visited = new ArrayList<>();
        movement.forEach((entity, pos, vel) ->
        {
            visited.add(entity);
            if (visited.size() == 1)
            {
                velocities.erase(group.entityAt(0));
            }
        });
        assertEquals(visited.size(), new HashSet<>(visited).size(), "no entity visited twice: " + visited);
        assertEquals(size, visited.size(), "every member visited: " + visited);
        assertFalse(group.contains(front), "the leave was made when the walk returned");
        return visited;
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
