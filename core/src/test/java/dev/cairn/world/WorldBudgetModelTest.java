package dev.cairn.world;

import dev.cairn.Entity;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.snapshot.Snapshot;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A world at its memory budget, checked after every operation of long random sequences against a model that knows
 * only which indices are alive and which free (with their next versions): a destroy, batch, clear or reset never fails
 * for want of memory; a create hands out a free index with its next version, a new one only when none is free, and
 * fails for want of memory only then; a refused batch changes nothing, its memory included; a destroyed handle stays
 * stale; and a snapshot loads into an unbounded world that then creates exactly what the saved one creates, and into a
 * world with the same budget.
 */
class WorldBudgetModelTest
{
    private static final int[] MAX_ENTITIES = {40, 100, 300, 700};

    @Test
    void aWorldAtItsBudgetKeepsEveryPromiseOfThePool()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int run = 0; run < 150; run++)
        {
            final int max = MAX_ENTITIES[random.nextInt(MAX_ENTITIES.length)];
            final long budget = random.nextBoolean() ? 200 + random.nextInt(2500) : 4L * max + random.nextInt(700);
            try (World world = new World(max, budget))
            {
                new Run(world, max, budget, random, random.nextInt(3) == 0, "run " + run).steps(1200);
            }
        }
    }

    private static ByteBuffer save(final World world)
    {
        final ByteBuffer bytes = ByteBuffer.allocate((int)Snapshot.sizeOf(world));
        Snapshot.save(world, bytes);
        return bytes.flip();
    }

    /** One random sequence and its model. */
    private static final class Run
    {
        final World world;
        final int max;
        final long budget;
        final SplittableRandom random;
        final String name;
        final Map<Integer, Integer> alive = new HashMap<>();
        final Map<Integer, Integer> free = new HashMap<>();
        final List<Long> stale = new ArrayList<>();
        int created;
        /** An entity the destroy listener destroys too, or NULL. */
        long chained = Entity.NULL;

        Run(final World world, final int max, final long budget, final SplittableRandom random, final boolean listen,
            final String name)
        {
            this.world = world;
            this.max = max;
            this.budget = budget;
            this.random = random;
            this.name = name + " (maxEntities " + max + ", budget " + budget + ", listener " + listen + ")";
            if (listen)
            {
                world.onDestroying(entity ->
                {
                    final long other = chained;
                    chained = Entity.NULL;
                    if (other != Entity.NULL && other != entity && world.valid(other))
                    {
                        world.destroy(other);
                        destroyed(other);
                    }
                });
            }
        }

        void steps(final int count)
        {
            for (int step = 0; step < count; step++)
            {
                final String context = name + ", step " + step;
                // Phases of mostly creating and mostly destroying, so that the free stack fills and drains.
                final boolean creating = (step / 150) % 2 == 0;
                final int draw = random.nextInt(100);
                final int op = creating || draw >= 50 ? draw : draw + 50;
                if (op < 35)
                {
                    createOne(context);
                }
                else if (op < 45)
                {
                    createBatch(context);
                }
                else if (op < 50)
                {
                    snapshot(context);
                }
                else if (op < 75 && !alive.isEmpty())
                {
                    final long entity = anyAlive();
                    chained = alive.size() > 1 && random.nextBoolean() ? anyAlive() : Entity.NULL;
                    world.destroy(entity);
                    destroyed(entity);
                }
                else if (op < 92 && !alive.isEmpty())
                {
                    destroyBatch(context);
                }
                else if (op < 95)
                {
                    world.clear();
                    new ArrayList<>(alive.keySet()).forEach(index -> destroyed(Entity.of(index, alive.get(index))));
                }
                else if (op < 97)
                {
                    world.reset();
                    alive.clear();
                    free.clear();
                    stale.clear();
                    created = 0;
                }
                check(context);
            }
        }

        void createOne(final String context)
        {
            final long entity;
            try
            {
                entity = world.create();
            }
            catch (final OffHeapExhaustedException ex)
            {
                assertTrue(free.isEmpty(), context + ": a create failed for memory with indices free");
                return;
            }
            catch (final IllegalStateException ex)
            {
                assertTrue(free.isEmpty() && created == max, context + ": " + ex.getMessage());
                return;
            }
            created(entity, context);
        }

        void createBatch(final String context)
        {
            final long[] entities = new long[1 + random.nextInt(30)];
            try
            {
                world.create(entities, entities.length);
            }
            catch (final OffHeapExhaustedException ex)
            {
                assertTrue(entities.length > free.size(), context + ": a batch failed for memory with enough free");
                return;
            }
            catch (final IllegalStateException ex)
            {
                assertTrue(entities.length > free.size() + max - created, context + ": " + ex.getMessage());
                return;
            }
            for (final long entity : entities)
            {
                created(entity, context);
            }
        }

        void destroyBatch(final String context)
        {
            final List<Integer> indices = new ArrayList<>(alive.keySet());
            final int count = 1 + random.nextInt(Math.min(40, indices.size()));
            final int flaw = random.nextInt(4);
            final long[] batch = new long[count + (flaw == 0 ? 0 : 1)];
            for (int i = 0; i < count; i++)
            {
                final int index = indices.remove(random.nextInt(indices.size()));
                batch[i] = Entity.of(index, alive.get(index));
            }
            if (flaw == 0)
            {
                world.destroy(batch, count);
                for (final long entity : batch)
                {
                    destroyed(entity);
                }
                return;
            }
            batch[count] = flaw == 1 ? batch[random.nextInt(count)] :
                flaw == 2 && !stale.isEmpty() ? stale.get(random.nextInt(stale.size())) : Entity.of(max + 5, 0);
            final int at = random.nextInt(batch.length);
            final long swapped = batch[at];
            batch[at] = batch[count];
            batch[count] = swapped;
            final long bytes = world.offHeapBytes();
            assertThrows(IllegalArgumentException.class, () -> world.destroy(batch, batch.length), context);
            assertEquals(bytes, world.offHeapBytes(), context + ": a refused batch took memory");
        }

        void snapshot(final String context)
        {
            final ByteBuffer snapshot = save(world);
            try (World copy = new World(max); World same = new World(max, budget))
            {
                Snapshot.load(copy, snapshot.duplicate());
                Snapshot.load(same, snapshot.duplicate());
                assertEquals(world.remainingCapacity(), copy.remainingCapacity(), context);
                assertEquals(world.remainingCapacity(), same.remainingCapacity(), context);
                final Map<Integer, Integer> freeBefore = new HashMap<>(free);
                final int creates = random.nextInt(1 + Math.min(free.size(), 40));
                for (int i = 0; i < creates; i++)
                {
                    final long entity = world.create();
                    assertEquals(Entity.toString(entity), Entity.toString(copy.create()), context + ", create " + i);
                    final long fromSame = same.create();
                    assertEquals(freeBefore.remove(Entity.index(fromSame)), Entity.version(fromSame),
                        context + ", create " + i + " in a world with the same budget: a free index, once");
                    created(entity, context);
                }
            }
        }

        long anyAlive()
        {
            final List<Integer> indices = new ArrayList<>(alive.keySet());
            final int index = indices.get(random.nextInt(indices.size()));
            return Entity.of(index, alive.get(index));
        }

        void created(final long entity, final String context)
        {
            final int index = Entity.index(entity);
            assertFalse(alive.containsKey(index), context + ": handed out alive index " + index);
            if (free.isEmpty())
            {
                assertEquals(Entity.of(created++, 0), entity, context + ": a new index");
            }
            else
            {
                assertTrue(free.containsKey(index), context + ": handed out index " + index + ", not free");
                assertEquals(free.remove(index), Entity.version(entity), context + ": index " + index);
            }
            alive.put(index, Entity.version(entity));
        }

        void destroyed(final long entity)
        {
            final int index = Entity.index(entity);
            assertEquals(Entity.version(entity), alive.remove(index));
            free.put(index, Entity.version(entity) + 1);
            stale.add(entity);
        }

        void check(final String context)
        {
            assertEquals(alive.size(), world.aliveCount(), context);
            assertEquals(free.size() + max - created, world.remainingCapacity(), context);
            assertTrue(world.offHeapBytes() <= budget, context);
            alive.forEach((index, version) -> assertTrue(world.valid(Entity.of(index, version)), context));
            for (final long entity : stale)
            {
                assertFalse(world.valid(entity), context + ": " + Entity.toString(entity) + " came back");
            }
        }
    }
}
