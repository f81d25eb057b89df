package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.internal.Access;
import dev.cairn.internal.RawStorage;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.storage.ComponentStorage;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs of adds played in bulk ({@link RawStorage#addRowsQuickly}) against the same adds made one by one with
 * {@code putRowIfAlive}: packed order, values, ticks, listeners and refusals; and hostile direct calls.
 */
final class CommandBufferBulkTest
{
    /** One recorded add: which storage, which entity (index into the entity list), its values. */
    private record Add(int storage, int entity, int value)
    {
    }

    @Test
    void bulkPlaybackPlacesEveryComponentWhereOneByOneAddsWould()
    {
        for (long seed = 1; seed <= 100; seed++)
        {
            final Random random = new Random(seed);
            final int entities = 50 + random.nextInt(9000);
            final boolean trackedGap = random.nextBoolean();
            final long setUpSeed = random.nextLong();
            final List<Add> adds = new ArrayList<>();
            final int count = random.nextInt(3000);
            while (adds.size() < count)           // runs of adds of one storage, of random lengths
            {
                final int storage = random.nextInt(4);
                for (int run = 1 + random.nextInt(random.nextBoolean() ? 4 : 400); run > 0; run--)
                {
                    adds.add(new Add(storage, random.nextInt(entities), random.nextInt(1000)));
                }
            }
            final String viaBuffer = run(setUpSeed, entities, adds, trackedGap, true);
            final String direct = run(setUpSeed, entities, adds, trackedGap, false);
            assertEquals(direct, viaBuffer, "seed " + seed);
        }
    }

    private static String run(
        final long setUpSeed,
        final int count,
        final List<Add> adds,
        final boolean advance,
        final boolean buffered)
    {
        try (World world = new World(1 << 16))
        {
            final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
            final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
            final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);
            final List<ComponentStorage<?>> storages = List.of(positions, velocities, healths, heats);
            final Random random = new Random(setUpSeed);
            final long[] entities = new long[count];
            for (int i = 0; i < count; i++)
            {
                entities[i] = world.create();
                if (random.nextInt(3) == 0)
                {
                    positions.emplace(entities[i], i, i);
                }
                if (random.nextInt(3) == 0)
                {
                    velocities.emplace(entities[i], i, i);
                }
                if (random.nextInt(3) == 0)
                {
                    healths.emplace(entities[i], i, true);
                }
                if (random.nextInt(3) == 0)
                {
                    heats.emplace(entities[i], i);
                }
            }
            for (int i = 0; i < count / 4; i++)      // holes, released entries, swaps
            {
                final long entity = entities[random.nextInt(count)];
                storages.get(random.nextInt(4)).remove(entity);
            }
            for (int i = 0; i < count / 20; i++)
            {
                final long entity = entities[random.nextInt(count)];
                if (world.valid(entity))
                {
                    world.destroy(entity);
                }
            }
            if (advance)
            {
                world.advanceTick();
            }
            final CommandBuffer commands = new CommandBuffer(world);
            if (buffered)
            {
                for (final Add add : adds)
                {
                    final long entity = entities[add.entity()];
                    switch (add.storage())
                    {
                        case 0 -> positions.emplace(commands, entity, add.value(), -add.value());
                        case 1 -> velocities.emplace(commands, entity, add.value(), -add.value());
                        case 2 -> healths.emplace(commands, entity, add.value(), add.value() % 2 == 0);
                        default -> heats.emplace(commands, entity, add.value());
                    }
                }
            }
            final int[] skipped = new int[1];
            final Runnable play = () ->
            {
                if (buffered)
                {
                    skipped[0] = commands.apply();
                    return;
                }
                for (final Add add : adds)
                {
                    final long entity = entities[add.entity()];
                    final ComponentStorage<?> storage = storages.get(add.storage());
                    final RawStorage raw = Access.rawStorage(storage);
                    final ByteBuffer row = ByteBuffer.allocate(Math.max(1, raw.rowBytes()))
                        .order(ByteOrder.nativeOrder());
                    switch (add.storage())
                    {
                        case 0 -> row.putFloat(0, add.value()).putFloat(4, -add.value());
                        case 1 -> row.putDouble(0, add.value()).putDouble(8, -add.value());
                        case 2 -> row.putInt(0, add.value()).put(4, (byte)(add.value() % 2 == 0 ? 1 : 0));
                        default -> row.putFloat(0, add.value());
                    }
                    if (!raw.putRowIfAlive(entity, row.array(), 0))
                    {
                        skipped[0]++;
                    }
                }
            };
            play.run();
            final StringBuilder digest = new StringBuilder("skipped " + skipped[0] + "\n");
            for (final ComponentStorage<?> storage : storages)
            {
                digest.append(storage.name()).append(" size ").append(storage.size()).append(" extent ")
                    .append(storage.extent()).append(" members ").append(storage.memberCount()).append(" capacity ")
                    .append(storage.capacity()).append('\n');
                for (int i = 0; i < storage.size(); i++)
                {
                    final long entity = storage.entityAt(i);
                    digest.append(i).append(':').append(dev.cairn.Entity.toString(entity));
                    if (storage.indexOf(entity) == i)
                    {
                        digest.append('=').append(storage.get(entity));
                        if (storage.isTracked())
                        {
                            digest.append(" ticks ").append(storage.addedTickAt(i)).append('/')
                                .append(storage.changedTickAt(i));
                        }
                    }
                    digest.append('\n');
                }
            }
            return digest.toString();
        }
    }

    /** Adds made in bulk stamp both ticks of a tracked component with the tick of the apply. */
    @Test
    void aBulkAddStampsTheAddedTickOfANewComponent()
    {
        try (World world = new World(1 << 16))
        {
            final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);
            final long[] entities = new long[100];
            for (int i = 0; i < entities.length; i++)
            {
                entities[i] = world.create();
            }
            heats.emplace(entities[0], 0f);                 // page and room exist: the rest goes in bulk
            heats.reserve(200);
            world.advanceTick();
            world.advanceTick();
            final CommandBuffer commands = new CommandBuffer(world);
            for (int i = 1; i < entities.length; i++)
            {
                heats.emplace(commands, entities[i], i);
            }
            commands.apply();
            for (int i = 1; i < entities.length; i++)
            {
                final int index = heats.indexOf(entities[i]);
                assertEquals(world.tick(), heats.addedTickAt(index), "added tick of entity " + i);
                assertEquals(world.tick(), heats.changedTickAt(index));
            }
        }
    }

    /**
     * A clear made under a walk waits for its end, and so do the adds of a buffer applied after it in the same walk:
     * the run of adds is not taken in bulk, each add is recorded behind the clear, so the storage ends holding them.
     */
    @Test
    void aClearInsideAWalkThenAnApplyAfterItLeaveEveryAddMade()
    {
        try (World world = new World(1 << 16))
        {
            final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            final long[] entities = new long[10];
            for (int i = 0; i < entities.length; i++)
            {
                entities[i] = world.create();
                positions.emplace(entities[i], i, i);
            }
            final CommandBuffer commands = new CommandBuffer(world);
            for (final long entity : entities)
            {
                positions.emplace(commands, entity, -1f, -1f);
            }
            final AtomicInteger visited = new AtomicInteger();
            positions.forEach(entity ->
            {
                if (visited.getAndIncrement() == 0)
                {
                    positions.clear();
                    assertThrows(IllegalStateException.class, commands::apply, "applied as a whole, after the walk");
                    assertEquals(entities.length, positions.size(), "nothing is cleared until the walk ends");
                    assertEquals(new Position(0f, 0f), positions.get(entities[0]));
                }
            });
            assertEquals(entities.length, visited.get(), "the walk visits every entity it began with");
            assertEquals(0, positions.memberCount(), "cleared when the walk ended");
            assertEquals(0, commands.apply(), "every entity is alive");
            assertEquals(entities.length, positions.memberCount(), "cleared, then every add made again");
            for (final long entity : entities)
            {
                assertEquals(new Position(-1f, -1f), positions.get(entity));
            }
        }
    }

    /**
     * In a parallel walk nothing is added in bulk: the entries are left to putRowIfAlive, whose adds are deferred into
     * the chunk's queue and made after the walk in the chunks' order, so the add of the last entity in walk order is
     * made last.
     */
    @Test
    void addRowsQuicklyFromAParallelWalkAddsNothingAndPutRowIfAliveDefersInTheChunksOrder()
    {
        try (World world = new World(1 << 16))
        {
            final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
            final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
            final long outsider = world.create();
            healths.emplace(world.create(), 1, true);         // page and room for the outsider
            for (int i = 0; i < 100; i++)
            {
                final long entity = world.create();
                positions.emplace(entity, i, i);
                velocities.emplace(entity, i, i);
            }
            final RawStorage raw = Access.rawStorage(healths);
            final List<Long> order = new ArrayList<>();
            final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
            movers.forEach((entity, position, velocity) -> order.add(entity));
            final AtomicInteger left = new AtomicInteger();
            final ForkJoinPool pool = new ForkJoinPool(2);
            try
            {
                movers.parallelForEach(pool, 1, (entity, position, velocity) ->
                {
                    final byte[] entry = entries(raw.rowBytes(), outsider);
                    ByteBuffer.wrap(entry).order(ByteOrder.nativeOrder())
                        .putInt(Long.BYTES + raw.rowOffset(0), (int)position.x());
                    if (raw.addRowsQuickly(entry, 0, 1) == 0)
                    {
                        left.incrementAndGet();
                    }
                    assertTrue(raw.putRowIfAlive(outsider, entry, Long.BYTES));
                    assertFalse(healths.contains(outsider), "deferred until the walk returns");
                });
            }
            finally
            {
                pool.shutdownNow();
            }
            assertEquals(100, left.get(), "nothing was added in bulk");
            assertEquals((int)positions.x(order.get(order.size() - 1)), healths.hp(outsider),
                "the add of the last entity in walk order was made last");
        }
    }

    @Test
    void directCallsWithHostileEntriesAreRefusedOrLeftAlone()
    {
        try (World world = new World(1 << 16); World other = new World(1 << 16))
        {
            final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            final long a = world.create();
            positions.emplace(world.create(), 0f, 0f);
            final RawStorage raw = Access.rawStorage(positions);
            final int rowBytes = raw.rowBytes();
            final byte[] one = entries(rowBytes, a);
            assertThrows(IndexOutOfBoundsException.class, () -> raw.addRowsQuickly(one, 0, Integer.MAX_VALUE));
            assertThrows(IndexOutOfBoundsException.class,
                () -> raw.addRowsQuickly(one, Integer.MAX_VALUE, 1));
            assertThrows(IndexOutOfBoundsException.class,
                () -> raw.addRowsQuickly(one, 1, Integer.MAX_VALUE / 16 + 1)); // count * 16 wraps in int
            assertThrows(NullPointerException.class, () -> raw.addRowsQuickly(null, 0, 0));
            other.create();
            other.create();
            final long foreign = other.create();            // index 2: never created in world
            final byte[] odd = entries(rowBytes, Entity.NULL, -1L, Long.MAX_VALUE, foreign, Entity.of(1, 5));
            for (int i = 0; i < 5; i++)
            {
                assertEquals(0, raw.addRowsQuickly(odd, i * (8 + rowBytes), 1), "entry " + i);
            }
            assertEquals(1, positions.memberCount());
            // From inside a walk of the same storage: nothing in bulk; the one-by-one add is deferred to its end.
            final List<Long> seen = new ArrayList<>();
            positions.forEach(entity ->
            {
                seen.add(entity);
                assertEquals(0, raw.addRowsQuickly(one, 0, 1));
                assertTrue(raw.putRowIfAlive(a, one, Long.BYTES));
                assertFalse(positions.contains(a));
            });
            assertEquals(1, seen.size());
            assertTrue(positions.contains(a));
            // From inside an added listener of the same storage: signalled, left to putRowIfAlive.
            final long b = world.create();
            final byte[] two = entries(rowBytes, b);
            final AtomicInteger quick = new AtomicInteger(-1);
            positions.onAdded((entity, index) -> quick.set(raw.addRowsQuickly(two, 0, 1)));
            positions.emplace(world.create(), 1f, 1f);
            assertEquals(0, quick.get());
            assertFalse(positions.contains(b));
        }
        final World closedWorld = new World(1 << 16);
        final ParallelFixtures_PositionStorage closed = closedWorld.storage(ParallelFixtures_PositionStorage.TYPE);
        final long c = closedWorld.create();
        closedWorld.close();
        final RawStorage closedRaw = Access.rawStorage(closed);
        assertThrows(IllegalStateException.class,
            () -> closedRaw.addRowsQuickly(entries(closedRaw.rowBytes(), c), 0, 1));
    }

    /**
     * Listeners connected, disconnected or acting during the apply: a created listener connects an added listener of
     * positions; that listener destroys an entity further on in the run, adds the component to another one ahead of
     * its own command, and disconnects itself after a few events. Played through a buffer and one by one, the
     * events heard and the storage (packed order included) are the same.
     */
    @Test
    void listenersConnectedAndActingDuringTheApplyHearWhatOneByOneAddsWouldTell()
    {
        final List<String> outcomes = new ArrayList<>();
        for (final boolean buffered : new boolean[]{true, false})
        {
            try (World world = new World(1 << 16))
            {
                final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
                final long[] entities = new long[40];
                world.create(entities, entities.length);
                positions.emplace(entities[39], 0f, 0f);
                final List<String> heard = new ArrayList<>();
                final dev.cairn.signal.Connection[] added = new dev.cairn.signal.Connection[1];
                world.onCreated(created ->
                {
                    if (added[0] == null)
                    {
                        added[0] = positions.onAdded((entity, index) ->
                        {
                            heard.add("added " + Entity.toString(entity) + " at " + index);
                            if (entity == entities[22])
                            {
                                world.destroy(entities[25]);
                                positions.emplace(entities[27], 9f, 9f);
                            }
                            if (heard.size() == 8)
                            {
                                added[0].close();
                            }
                        });
                    }
                });
                final CommandBuffer commands = new CommandBuffer(world);
                final Runnable[] direct = new Runnable[1];
                final List<Runnable> steps = new ArrayList<>();
                for (int i = 0; i < 40; i++)
                {
                    final long entity = entities[i];
                    final int value = i;
                    if (i == 20)
                    {
                        if (buffered)
                        {
                            commands.create();
                        }
                        else
                        {
                            steps.add(world::create);
                        }
                    }
                    if (buffered)
                    {
                        positions.emplace(commands, entity, value, value);
                    }
                    else
                    {
                        steps.add(() ->
                        {
                            final ByteBuffer row = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
                            Access.rawStorage(positions)
                                .putRowIfAlive(entity, row.putFloat(0, value).putFloat(4, value).array(), 0);
                        });
                    }
                }
                if (buffered)
                {
                    commands.apply();
                }
                else
                {
                    steps.forEach(Runnable::run);
                }
                final StringBuilder state = new StringBuilder(heard.toString());
                for (int i = 0; i < positions.size(); i++)
                {
                    state.append(' ').append(Entity.toString(positions.entityAt(i))).append('=')
                        .append(positions.getAt(i));
                }
                outcomes.add(state.toString());
            }
        }
        assertEquals(outcomes.get(1), outcomes.get(0));
    }

    private static byte[] entries(final int rowBytes, final long... handles)
    {
        final int stride = Long.BYTES + rowBytes;
        final ByteBuffer buffer = ByteBuffer.allocate(handles.length * stride).order(ByteOrder.nativeOrder());
        for (int i = 0; i < handles.length; i++)
        {
            buffer.putLong(i * stride, handles[i]);
        }
        return buffer.array();
    }
}
