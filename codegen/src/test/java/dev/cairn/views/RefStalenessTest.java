package dev.cairn.views;

import dev.cairn.Entity;
import dev.cairn.world.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code Ref} stays on the entity it was positioned on: once that entity leaves its slot (removed, or moved by a
 * swap, sort or compaction) every access through the {@code Ref} throws instead of reading or writing the entity that
 * took the slot; changes that leave the entity where it is do not disturb it. Inside a walk nothing leaves its slot:
 * removals and destroys wait for the walk's end, so the {@code Ref}s stay on their entities until then. One storage
 * per deletion policy: {@code Pos} (swap-and-pop), {@code Vel} (in-place), {@code Hp} (swap-only).
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
        final ViewFixtures_PosStorage.Ref ref = posRefOn(a);
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
        final ViewFixtures_PosStorage.Ref last = posRefOn(b);
        positions.erase(b);
        assertStale(Entity.toString(b), assertThrows(IllegalStateException.class, last::x));

        velocities.emplace(a, 1, 1);
        velocities.emplace(b, 2, 2);
        final long c = world.create();
        velocities.emplace(c, 3, 3);
        final ViewFixtures_VelStorage.Ref onC = velRefOn(c);
        velocities.erase(a);
        velocities.compact();
        assertStale(Entity.toString(c), assertThrows(IllegalStateException.class, onC::dx));
        assertEquals(3, velocities.dx(c));
    }

    @Test
    void destroyingTheCurrentEntityOfASingleStorageViewWaitsForTheWalksEndSoItsRefKeepsItsEntity()
    {
        final List<Long> entities = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final long entity = world.create();
            positions.emplace(entity, i, i);
            entities.add(entity);
        }
        final ViewFixtures_PosStorage.Ref outside = posRefOn(entities.get(1));
        final List<Float> read = new ArrayList<>();

        new ViewFixtures_OnePosView(world).forEach((entity, position) ->
        {
            world.destroy(entity);
            assertTrue(world.valid(entity), "the destroy waits for the walk's end");
            assertTrue(positions.contains(entity));
            position.x(position.x() + 10f);
            read.add(position.x());
            assertEquals(entities.get(1), outside.entity());
            outside.y();
        });

        assertEquals(List.of(10f, 11f, 12f, 13f), read, "each Ref read and wrote its own entity");
        for (final long entity : entities)
        {
            assertFalse(world.valid(entity), Entity.toString(entity) + " was destroyed when the walk returned");
        }
        assertEquals(0, positions.size());
        assertStale(Entity.toString(entities.get(1)), assertThrows(IllegalStateException.class, outside::x));
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
        final ViewFixtures_PosStorage.Ref ref = posRefOn(b);

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
        final ViewFixtures_PosStorage.Ref ref = posRefOn(a);

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
        final ViewFixtures_VelStorage.Ref ref = velRefOn(a);

        velocities.erase(a);
        assertThrows(IllegalStateException.class, ref::dx);
        final long reuser = world.create();
        velocities.emplace(reuser, 7, 7);
        assertEquals(ref.index(), velocities.indexOf(reuser), "the next insert reuses a's slot");

        assertStale(Entity.toString(a), assertThrows(IllegalStateException.class, () -> ref.dx(99)));
        assertEquals(7, velocities.dx(reuser));
        assertTrue(velRefOn(reuser).dx() == 7);
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

        final ViewFixtures_VelStorage.Ref ref = new ViewFixtures_VelStorage.Ref(velocities).moveTo(hole);

        assertEquals(Entity.NULL, ref.entity());
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, ref::dx);
        assertTrue(thrown.getMessage().contains("on no entity"), thrown.getMessage());
        velocities.emplace(world.create(), 3, 3);
        assertThrows(IllegalStateException.class, ref::dx, "the slot has an entity again, but not the Ref's");
    }

    @Test
    void aRefMovedToAnIndexWithTheNullHandleIsOnNoEntity()
    {
        final long a = world.create();
        velocities.emplace(a, 1, 1);

        final ViewFixtures_VelStorage.Ref ref = new ViewFixtures_VelStorage.Ref(velocities);
        ref.moveTo(velocities.indexOf(a), Entity.NULL);

        assertEquals(Entity.NULL, ref.entity());
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, ref::dx);
        assertTrue(thrown.getMessage().contains("on no entity"), thrown.getMessage());
    }

    @Test
    void swapOnlyRefFailsOnceItsEntityIsReleased()
    {
        final long a = world.create();
        final long b = world.create();
        hps.emplace(a, 10, true);
        hps.emplace(b, 20, true);
        final ViewFixtures_HpStorage.Ref ref = new ViewFixtures_HpStorage.Ref(hps).moveTo(hps.indexOf(a));

        hps.erase(a);

        assertThrows(IllegalStateException.class, ref::value);
        assertThrows(IllegalStateException.class, () -> ref.alive(false));
        assertEquals(20, hps.value(b));
        assertTrue(hps.alive(b));
    }

    @Test
    void inAViewTheRefsOfADestroyedEntityKeepWorkingUntilTheWalkEnds()
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

        view.forEach((entity, position, velocity) ->
        {
            visited.add(entity);
            if (Entity.index(entity) % 2 == 0)
            {
                world.destroy(entity);
                position.x(-1f);
                assertEquals(-1f, position.x(), "written into the entity, which goes at the walk's end");
            }
            else
            {
                position.x(position.x() + (float)velocity.dx());
            }
        });

        assertEquals(entities, visited);
        for (final long entity : entities)
        {
            if (Entity.index(entity) % 2 != 0)
            {
                assertEquals(2f * Entity.index(entity), positions.x(entity), "only its own update reached it");
            }
            else
            {
                assertFalse(world.valid(entity));
            }
        }
        assertEquals(3, positions.size());
        assertEquals(3, velocities.memberCount());
    }

    @Test
    void anActionThatRemovesAnotherEntitysComponentStillVisitsItAndTheRemovalIsMadeAfterTheWalk()
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
                velocities.erase(entities[0]); // visited already
                velocities.erase(entities[7]); // still to come
                assertTrue(velocities.contains(entities[7]), "the removal waits for the walk's end");
            }
            position.x(position.x() + (float)velocity.dx());
        });

        for (int i = 0; i < entities.length; i++)
        {
            assertEquals(i + 1f, positions.x(entities[i]), "entity " + i + " matched when the walk began");
        }
        assertFalse(velocities.contains(entities[0]));
        assertFalse(velocities.contains(entities[7]));
        assertEquals(6, view.count());
    }

    private ViewFixtures_PosStorage.Ref posRefOn(final long entity)
    {
        return new ViewFixtures_PosStorage.Ref(positions).moveTo(positions.indexOf(entity));
    }

    private ViewFixtures_VelStorage.Ref velRefOn(final long entity)
    {
        return new ViewFixtures_VelStorage.Ref(velocities).moveTo(velocities.indexOf(entity));
    }

    private static void assertStale(final String entity, final IllegalStateException thrown)
    {
        final String message = thrown.getMessage();
        assertTrue(message.contains(entity) && message.contains("no longer at that index"), message);
    }
}
