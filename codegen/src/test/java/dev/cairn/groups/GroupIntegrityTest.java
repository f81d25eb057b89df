package dev.cairn.groups;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.set.IndexComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Groups stay exact and aligned, or refuse a change with nothing changed, in the corners: sorts and builds during
 * walks, groups that nest with the same number of components, refused builds.
 */
final class GroupIntegrityTest
{
    private final World world = new World(1 << 12);
    private final GroupFixtures_PosStorage positions = world.storage(GroupFixtures_PosStorage.TYPE);
    private final GroupFixtures_VelStorage velocities = world.storage(GroupFixtures_VelStorage.TYPE);
    private final GroupFixtures_AccStorage accelerations = world.storage(GroupFixtures_AccStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void sortingAGroupWhileAnOwnedStorageOtherThanTheFirstIsIteratedThrowsWithNothingReordered()
    {
        moving(5, false);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> before = range(movement.group());

        velocities.forEach(entity ->
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movement.sort(descendingX()));
            assertTrue(refused.getMessage().contains("while GroupFixtures.Vel storage.forEach runs"),
                refused.getMessage());
        });

        assertEquals(before, range(movement.group()));
        assertAligned(movement.group());
        movement.forEach((entity, pos, vel) -> assertEquals(pos.x(), vel.dx(), Entity.toString(entity)));
    }

    @Test
    void sortingANestedGroupWhileTheEnclosingGroupIsWalkedThrowsWithNothingReordered()
    {
        moving(6, true);
        // The enclosing group walks Vel, its first owned storage; the nested one permutes Pos before Vel.
        final RuntimeGroup outer = world.group().owning(GroupFixtures.Vel.class, GroupFixtures.Pos.class).build();
        final GroupFixtures_AcceleratedGroup accelerated = new GroupFixtures_AcceleratedGroup(world);
        final List<Long> before = range(accelerated.group());
        final int[] refusals = {0};

        outer.forEach(entity ->
        {
            final IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> accelerated.sort(descendingX()));
            assertTrue(refused.getMessage().contains("while group owning Vel+Pos.forEach runs"), refused.getMessage());
            refusals[0]++;
        });

        assertEquals(6, refusals[0]);
        assertEquals(before, range(accelerated.group()));
        assertNested(accelerated.group(), outer);
        accelerated.forEach((entity, pos, vel, acc) ->
        {
            assertEquals(acc.ax(), pos.x(), Entity.toString(entity));
            assertEquals(acc.ax(), vel.dx(), Entity.toString(entity));
        });
    }

    @Test
    void aGroupNestsInAnotherNamingAsManyComponentsWhicheverIsBuiltFirst()
    {
        for (final boolean ownerOfBothFirst : new boolean[]{true, false})
        {
            try (World w = new World(1 << 12))
            {
                final GroupFixtures_PosStorage p = w.storage(GroupFixtures_PosStorage.TYPE);
                final GroupFixtures_VelStorage v = w.storage(GroupFixtures_VelStorage.TYPE);
                final long[] e = new long[8];
                for (int i = 0; i < e.length; i++)
                {
                    e[i] = w.create();
                    p.emplace(e[i], i, 0f);
                    if (i % 3 != 0)
                    {
                        v.emplace(e[i], i, 0f);
                    }
                }
                // Movement owns Pos and Vel; the other owns Pos and requires Vel: Movement nests in it, both name two.
                final GroupFixtures_MovementGroup movement;
                final RuntimeGroup posWithVel;
                if (ownerOfBothFirst)
                {
                    movement = new GroupFixtures_MovementGroup(w);
                    posWithVel = w.group().owning(GroupFixtures.Pos.class).with(GroupFixtures.Vel.class).build();
                }
                else
                {
                    posWithVel = w.group().owning(GroupFixtures.Pos.class).with(GroupFixtures.Vel.class).build();
                    movement = new GroupFixtures_MovementGroup(w);
                }
                assertNested(movement.group(), posWithVel);
                v.emplace(e[0], 0f, 0f);
                v.erase(e[1]);
                p.erase(e[2]);
                w.destroy(e[4]);
                assertNested(movement.group(), posWithVel);
                assertEquals(3, movement.size(), "e0, e5 and e7");
                movement.forEach((entity, pos, vel) -> assertEquals(pos.x(), vel.dx(), Entity.toString(entity)));
                assertThrows(IllegalStateException.class, () -> posWithVel.sort(descendingX(p)),
                    "Movement nests in it: only Movement may be sorted");
                movement.sort(descendingX(p));
                assertNested(movement.group(), posWithVel);
                movement.forEach((entity, pos, vel) -> assertEquals(pos.x(), vel.dx(), Entity.toString(entity)));
            }
        }
    }

    @Test
    void aGroupThatWouldJoinTwoGroupsThatDoNotNestIsRefusedNamingBothWithNothingRegistered()
    {
        final long[] e = moving(4, false);
        final RuntimeGroup ownsPos = world.group().owning(GroupFixtures.Pos.class).build();
        final RuntimeGroup ownsVel = world.group().owning(GroupFixtures.Vel.class).build();

        // It nests in each, but the two do not nest in each other: one family cannot hold all three.
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> world.group().owning(GroupFixtures.Pos.class, GroupFixtures.Vel.class).build());

        assertTrue(refused.getMessage().contains("group owning Pos and group owning Vel"), refused.getMessage());
        assertEquals(List.of(ownsPos, ownsVel), world.groups());
        ownsVel.sort((left, right) -> Float.compare(velocities.dxAt(right), velocities.dxAt(left)));
        ownsPos.sort(descendingX());
        world.destroy(e[0]);
        assertEquals(3, ownsPos.size());
        assertEquals(3, ownsVel.size());
        ownsVel.close();
        velocities.sort(velocities.comparingDx());
        final RuntimeGroup again = world.group().owning(GroupFixtures.Vel.class, GroupFixtures.Pos.class).build();
        assertNested(again, ownsPos);
        assertEquals(3, again.size());
    }

    @Test
    void buildingANestedGroupWhileACursorWalksTheEnclosingOneIsRefusedUntilTheCursorIsClosed()
    {
        final long[] e = moving(10, false);
        for (int i = 0; i < e.length; i += 2)
        {
            accelerations.emplace(e[i], i, 0f);
        }
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final GroupFixtures_MovementGroup.Cursor cursor = movement.cursor();
        for (int step = 0; step < 3; step++)
        {
            assertTrue(cursor.next());
        }

        // The build would move Accelerated's entities to the front of Movement's range, as a sort would.
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> new GroupFixtures_AcceleratedGroup(world));
        assertTrue(refused.getMessage().contains("while GroupFixtures_MovementGroup.cursor() runs") &&
            refused.getMessage().contains("build it before the walk or after it returns"), refused.getMessage());
        assertEquals(1, world.groups().size());
        for (int step = 3; step < 10; step++)
        {
            assertTrue(cursor.next(), "the cursor goes on over the range it began with");
        }
        cursor.close();
        final GroupFixtures_AcceleratedGroup accelerated = new GroupFixtures_AcceleratedGroup(world);
        final List<Long> seen = new ArrayList<>();
        for (GroupFixtures_MovementGroup.Cursor again = movement.cursor(); again.next(); )
        {
            seen.add(again.entity());
        }
        assertEquals(10, new java.util.HashSet<>(seen).size());
        assertEquals(10, seen.size());
        assertNested(accelerated.group(), movement.group());
    }

    @Test
    void buildingAGroupThatWouldRebuildTheRangeOfAStorageBeingWalkedIsRefusedWithNothingRegistered()
    {
        moving(6, false);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final List<Long> before = range(movement.group());

        // The new group owns only Pos, but joining Movement's family rebuilds Movement's range in Vel too.
        velocities.forEach(entity ->
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> world.group().owning(GroupFixtures.Pos.class).build());
            assertTrue(refused.getMessage().contains("while GroupFixtures.Vel storage.forEach runs"),
                refused.getMessage());
        });

        assertEquals(1, world.groups().size());
        assertEquals(before, range(movement.group()));
        assertAligned(movement.group());
    }

    @Test
    void anOwningGroupReadsEmptyOnceItOrItsWorldIsClosed()
    {
        moving(3, false);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup outer = world.group().owning(GroupFixtures.Pos.class).build();
        assertEquals(3, movement.size());

        movement.close();

        assertEquals(0, movement.size());
        assertTrue(movement.isEmpty());
        assertEquals(0, movement.group().extent());
        assertThrows(IllegalStateException.class, () -> movement.group().entityAt(0));
        assertEquals(3, outer.size());
        world.close();
        assertEquals(0, outer.size());
        assertTrue(outer.isEmpty());
        assertEquals(0, outer.extent());
        assertThrows(IllegalStateException.class, () -> outer.entityAt(0));
    }

    @Test
    void clearingAStorageFromTheRemovalListenerOfOneOfItsMembersKeepsGroupsAndObserversExact()
    {
        final RuntimeObserver observer = world.observer().onAdded(GroupFixtures.Acc.class)
            .with(GroupFixtures.Pos.class).build();
        final long[] e = moving(4, true);
        final GroupFixtures_MovementGroup movement = new GroupFixtures_MovementGroup(world);
        final RuntimeGroup partial = world.group().owning(GroupFixtures.Acc.class).with(GroupFixtures.Pos.class)
            .build();
        final RuntimeGroup nonOwning = world.group().with(GroupFixtures.Pos.class, GroupFixtures.Acc.class).build();
        assertEquals(4, observer.size());
        final List<Float> seenByListener = new ArrayList<>();
        final boolean[] once = {false};
        positions.onRemoving((entity, index) ->
        {
            if (!once[0])
            {
                once[0] = true;
                positions.clear();
                // The member whose removal is announced is still there for the listeners.
                seenByListener.add(positions.x(entity));
            }
        });

        positions.erase(e[0]);

        assertEquals(List.of(0f), seenByListener);
        assertEquals(0, positions.size());
        assertEquals(0, movement.size());
        assertEquals(0, partial.size());
        assertEquals(0, nonOwning.size());
        assertEquals(0, observer.size());
        final long late = world.create();
        positions.emplace(late, 5f, 0f);
        velocities.emplace(late, 5f, 0f);
        positions.emplace(e[0], 7f, 0f);
        assertEquals(2, movement.size());
        assertAligned(movement.group());
        movement.forEach((entity, pos, vel) -> assertEquals(entity == late ? 5f : 0f, vel.dx()));
        assertEquals(1, partial.size());
        assertTrue(partial.contains(e[0]));
    }

    @Test
    void clearingAnExcludedStorageFromTheRemovalListenerOfOneOfItsMembersLetsEveryEntityIn()
    {
        final long[] e = moving(4, true);
        final GroupFixtures_FrozenStorage frozen = world.storage(GroupFixtures_FrozenStorage.TYPE);
        for (final long entity : e)
        {
            frozen.emplace(entity);
        }
        final GroupFixtures_AcceleratedGroup accelerated = new GroupFixtures_AcceleratedGroup(world);
        final RuntimeGroup nonOwning = world.group().with(GroupFixtures.Acc.class).without(GroupFixtures.Frozen.class)
            .build();
        assertEquals(0, accelerated.size());
        final boolean[] once = {false};
        frozen.onRemoving((entity, index) ->
        {
            if (!once[0])
            {
                once[0] = true;
                frozen.clear();
            }
        });

        frozen.erase(e[2]);

        assertEquals(0, frozen.size());
        assertEquals(4, accelerated.size());
        assertTrue(accelerated.contains(e[2]));
        assertAligned(accelerated.group());
        assertEquals(4, nonOwning.size());
        assertTrue(nonOwning.contains(e[2]));
    }

    /** Walks visit larger x first: the reverse of the order a group built over {@link #moving} walks. */
    private IndexComparator descendingX()
    {
        return descendingX(positions);
    }

    private static IndexComparator descendingX(final GroupFixtures_PosStorage storage)
    {
        return (left, right) -> Float.compare(storage.xAt(right), storage.xAt(left));
    }

    /** Entities 0 to count - 1 with Pos and Vel of x = dx = i, and Acc of ax = i if {@code accelerated}. */
    private long[] moving(final int count, final boolean accelerated)
    {
        final long[] e = new long[count];
        for (int i = 0; i < count; i++)
        {
            e[i] = world.create();
            positions.emplace(e[i], i, 0f);
            velocities.emplace(e[i], i, 0f);
            if (accelerated)
            {
                accelerations.emplace(e[i], i, 0f);
            }
        }
        return e;
    }

    private static List<Long> range(final RuntimeGroup group)
    {
        final List<Long> entities = new ArrayList<>();
        for (int i = 0; i < group.extent(); i++)
        {
            entities.add(group.entityAt(i));
        }
        return entities;
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
