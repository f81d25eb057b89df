package dev.cairn.views;

import dev.cairn.Entity;
import dev.cairn.world.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code Ref} stays on the entity it was positioned on: once that entity leaves its slot (removed, or moved by a
 * swap, sort or compaction) every access through the {@code Ref} throws instead of reading or writing the entity that
 * took the slot; changes that leave the entity where it is do not disturb it. One storage per deletion policy:
 * {@code Pos} (swap-and-pop), {@code Vel} (in-place), {@code Hp} (swap-only).
 */
final class RefStalenessTest
{
    private final World world = new World(1 << 16);
    private final ViewFixtures_PosStorage positions = world.storage(ViewFixtures_PosStorage.TYPE);
    private final ViewFixtures_VelStorage velocities = world.storage(ViewFixtures_VelStorage.TYPE);
    private final ViewFixtures_HpStorage hps = world.storage(ViewFixtures_HpStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void swapAndPopRefFailsOnceTheLastElementFillsItsSlotAndLeavesThatElementUntouched()
    {
        final long a = world.create();
        final long b = world.create();
        final long c = world.create();
        positions.emplace(a, 1f, 1f);
        positions.emplace(b, 2f, 2f);
        positions.emplace(c, 3f, 3f);
        final ViewFixtures_PosStorage.Ref ref = positions.ref().moveTo(positions.indexOf(a));
        assertEquals(a, ref.entity());

        positions.erase(a);

        assertEquals(0, positions.indexOf(c), "c filled a's slot");
        assertStale(Entity.toString(a), assertThrows(IllegalStateException.class, () -> ref.x(99f)));
        assertStale(Entity.toString(a), assertThrows(IllegalStateException.class, ref::y));
        assertThrows(IllegalStateException.class, ref::get);
        assertEquals(3f, positions.x(c));
    }

    @Test
    void aRefWhoseSlotFellOffTheEndNamesItsEntityToo()
    {
        final long a = world.create();
        final long b = world.create();
        positions.emplace(a, 1f, 1f);
        positions.emplace(b, 2f, 2f);
        final ViewFixtures_PosStorage.Ref last = positions.ref().moveTo(positions.indexOf(b));
        positions.erase(b);
        assertStale(Entity.toString(b), assertThrows(IllegalStateException.class, last::x));

        velocities.emplace(a, 1, 1);
        velocities.emplace(b, 2, 2);
        final long c = world.create();
        velocities.emplace(c, 3, 3);
        final ViewFixtures_VelStorage.Ref onC = velocities.ref().moveTo(velocities.indexOf(c));
        velocities.erase(a);
        velocities.compact();
        assertStale(Entity.toString(c), assertThrows(IllegalStateException.class, onC::dx));
        assertEquals(3, velocities.dx(c));
    }

    @Test
    void removingTheCurrentEntityOfASingleStorageViewMakesItsRefFailByName()
    {
        for (int i = 0; i < 4; i++)
        {
            positions.emplace(world.create(), i, i);
        }
        final List<String> messages = new ArrayList<>();

        new ViewFixtures_OnePosView(world).forEach((entity, position) ->
        {
            world.destroy(entity);
            messages.add(assertThrows(IllegalStateException.class, position::x).getMessage());
        });

        assertEquals(4, messages.size());
        for (final String message : messages)
        {
            assertTrue(message.contains("no longer at that index"), message);
        }
    }

    @Test
    void aRefKeepsWorkingWhenOtherEntitiesComeAndGoAroundIt()
    {
        final long a = world.create();
        final long b = world.create();
        final long c = world.create();
        positions.emplace(a, 1f, 1f);
        positions.emplace(b, 2f, 2f);
        positions.emplace(c, 3f, 3f);
        final ViewFixtures_PosStorage.Ref ref = positions.ref().moveTo(positions.indexOf(b));

        positions.erase(c);
        ref.x(20f);
        positions.emplace(world.create(), 4f, 4f);
        world.destroy(a);
        // a's slot was filled by the newest entity; b never moved.
        assertEquals(20f, ref.x());
        assertEquals(2f, ref.y());
        assertEquals(20f, positions.x(b));
    }

    @Test
    void aRefFailsAfterASortOrSwapMovesItsEntity()
    {
        final long a = world.create();
        final long b = world.create();
        positions.emplace(a, 2f, 0f);
        positions.emplace(b, 1f, 0f);
        final ViewFixtures_PosStorage.Ref ref = positions.ref().moveTo(positions.indexOf(a));

        positions.swapElements(a, b);
        assertStale(Entity.toString(a), assertThrows(IllegalStateException.class, ref::x));

        ref.moveTo(positions.indexOf(a));
        assertEquals(2f, ref.x());
        positions.swapElements(a, b);
        assertThrows(IllegalStateException.class, () -> ref.x(5f));
        assertEquals(2f, positions.x(a));
        assertEquals(1f, positions.x(b));
    }

    @Test
    void inPlaceRefFailsOnTheTombstoneAndAfterTheSlotIsReused()
    {
        final long a = world.create();
        final long b = world.create();
        velocities.emplace(a, 1, 1);
        velocities.emplace(b, 2, 2);
        final ViewFixtures_VelStorage.Ref ref = velocities.ref().moveTo(velocities.indexOf(a));

        velocities.erase(a);
        assertThrows(IllegalStateException.class, ref::dx);
        final long reuser = world.create();
        assertEquals(ref.index(), velocities.emplace(reuser, 7, 7), "the next insert reuses a's slot");

        assertStale(Entity.toString(a), assertThrows(IllegalStateException.class, () -> ref.dx(99)));
        assertEquals(7, velocities.dx(reuser));
        assertTrue(velocities.ref().moveTo(velocities.indexOf(reuser)).dx() == 7);
    }

    @Test
    void aRefMovedOntoATombstoneIsOnNoEntity()
    {
        final long a = world.create();
        final long b = world.create();
        velocities.emplace(a, 1, 1);
        velocities.emplace(b, 2, 2);
        final int hole = velocities.indexOf(a);
        velocities.erase(a);

        final ViewFixtures_VelStorage.Ref ref = velocities.ref().moveTo(hole);

        assertEquals(Entity.NULL, ref.entity());
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, ref::dx);
        assertTrue(thrown.getMessage().contains("on no entity"), thrown.getMessage());
        velocities.emplace(world.create(), 3, 3);
        assertThrows(IllegalStateException.class, ref::dx, "the slot has an entity again, but not the Ref's");
    }

    @Test
    void swapOnlyRefFailsOnceItsEntityIsReleased()
    {
        final long a = world.create();
        final long b = world.create();
        hps.emplace(a, 10, true);
        hps.emplace(b, 20, true);
        final ViewFixtures_HpStorage.Ref ref = hps.ref().moveTo(hps.indexOf(a));

        hps.erase(a);

        assertThrows(IllegalStateException.class, ref::value);
        assertThrows(IllegalStateException.class, () -> ref.alive(false));
        assertEquals(20, hps.value(b));
        assertTrue(hps.alive(b));
    }

    @Test
    void inAViewTheRefsOfARemovedEntityFailWhileTheIterationGoesOn()
    {
        final List<Long> entities = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            final long entity = world.create();
            positions.emplace(entity, i, i);
            velocities.emplace(entity, i, i);
            entities.add(entity);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        final List<Long> visited = new ArrayList<>();
        final int[] refused = new int[1];

        view.forEach((entity, position, velocity) ->
        {
            visited.add(entity);
            if (Entity.index(entity) % 2 == 0)
            {
                world.destroy(entity);
                try
                {
                    position.x(-1f);
                }
                catch (final IllegalStateException expected)
                {
                    refused[0]++;
                }
            }
            else
            {
                position.x(position.x() + (float)velocity.dx());
            }
        });

        assertEquals(6, visited.size());
        assertEquals(3, refused[0]);
        for (final long entity : entities)
        {
            if (Entity.index(entity) % 2 != 0)
            {
                assertEquals(2f * Entity.index(entity), positions.x(entity), "only its own update reached it");
            }
        }
    }

    @Test
    void anActionMayRemoveAnotherEntitysComponentAndKeepUsingItsOwnRefs()
    {
        final long[] entities = new long[8];
        for (int i = 0; i < entities.length; i++)
        {
            entities[i] = world.create();
            positions.emplace(entities[i], i, 0f);
            velocities.emplace(entities[i], 1, 0);
        }
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);

        view.forEach((entity, position, velocity) ->
        {
            if (entity == entities[5])
            {
                velocities.erase(entities[0]);
            }
            position.x(position.x() + (float)velocity.dx());
        });

        for (int i = 1; i < entities.length; i++)
        {
            assertEquals(i + 1f, positions.x(entities[i]), "entity " + i);
        }
        assertEquals(0f, positions.x(entities[0]), "no longer matched when its turn came");
    }

    private static void assertStale(final String entity, final IllegalStateException thrown)
    {
        final String message = thrown.getMessage();
        assertTrue(message.contains(entity) && message.contains("no longer at that index"), message);
    }
}
