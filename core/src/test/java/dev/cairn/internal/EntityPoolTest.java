package dev.cairn.internal;

import dev.cairn.OffHeapExhaustedException;
import dev.cairn.Entity;
import dev.cairn.internal.OffHeap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of {@link EntityPool}: dense creation, LIFO recycling with the next version, validation messages,
 * exhaustion and memory.
 */
class EntityPoolTest
{
    private final OffHeap offHeap = new OffHeap("test world");
    private final EntityPool pool = new EntityPool(offHeap, new Walks("World", true), 8);

    @AfterEach
    void closePool()
    {
        offHeap.close();
        assertEquals(0, offHeap.allocatedBytes(), "a closed pool gives back every byte");
    }

    @Test
    void createHandsOutIndicesDenselyFromZeroWithVersionZero()
    {
        assertEquals(Entity.of(0, 0), pool.create());
        assertEquals(Entity.of(1, 0), pool.create());
        assertEquals(Entity.of(2, 0), pool.create());
        assertEquals(3, pool.aliveCount());
        assertEquals(3, pool.createdCount());
    }

    @Test
    void destroyedEntityIsDeadAndItsIndexComesBackWithTheNextVersion()
    {
        final long first = pool.create();
        pool.create();

        pool.destroy(first);

        assertFalse(pool.isAlive(first));
        assertEquals(1, pool.currentVersion(Entity.index(first)), "a free index already carries its next version");
        final long recycled = pool.create();
        assertEquals(Entity.next(first), recycled);
        assertTrue(pool.isAlive(recycled));
        assertFalse(pool.isAlive(first), "the old handle stays stale");
    }

    @Test
    void recyclingIsLastInFirstOut()
    {
        final long a = pool.create();
        final long b = pool.create();
        final long c = pool.create();

        pool.destroy(a);
        pool.destroy(c);
        pool.destroy(b);

        assertEquals(Entity.next(b), pool.create());
        assertEquals(Entity.next(c), pool.create());
        assertEquals(Entity.next(a), pool.create());
        assertEquals(Entity.of(3, 0), pool.create(), "then new indices again");
    }

    @Test
    void destroyingAStaleHandleThrowsNamingItAndTheCurrentOwner()
    {
        final long first = pool.create();
        pool.destroy(first);
        final long second = pool.create();

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> pool.destroy(first));

        assertTrue(ex.getMessage().contains("entity 0v0 is stale"), ex.getMessage());
        assertTrue(ex.getMessage().contains("now belongs to " + Entity.toString(second)), ex.getMessage());
    }

    @Test
    void destroyingTwiceSaysTheIndexIsFree()
    {
        final long entity = pool.create();
        pool.destroy(entity);

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> pool.destroy(entity));

        assertTrue(ex.getMessage().contains("0v0 is stale"), ex.getMessage());
        assertTrue(ex.getMessage().contains("is free"), ex.getMessage());
    }

    @Test
    void aVersionTheIndexNeverHadIsNotCalledStale()
    {
        final long alive = pool.create();
        final long freed = pool.create();
        pool.destroy(freed);

        final String ahead = assertThrows(IllegalArgumentException.class,
            () -> pool.destroy(Entity.of(0, 1))).getMessage();
        final String beyondNext = assertThrows(IllegalArgumentException.class,
            () -> pool.destroy(Entity.of(1, 1))).getMessage();
        final String stale = assertThrows(IllegalArgumentException.class, () -> pool.destroy(freed)).getMessage();

        assertTrue(ahead.contains("entity 0v1 was never handed out by this World: index 0 now belongs to " +
            Entity.toString(alive)), ahead);
        assertTrue(beyondNext.contains("1v1 was never handed out") &&
            beyondNext.contains("is free and will next be created with version 1"), beyondNext);
        assertTrue(stale.contains("1v0 is stale"), stale);
    }

    @Test
    void nullAndNeverCreatedHandlesAreRejectedByName()
    {
        final IllegalArgumentException nullEx =
            assertThrows(IllegalArgumentException.class, () -> pool.destroy(Entity.NULL));
        assertTrue(nullEx.getMessage().contains("NULL"), nullEx.getMessage());

        final IllegalArgumentException neverEx =
            assertThrows(IllegalArgumentException.class, () -> pool.requireAlive(Entity.of(5, 0)));
        assertTrue(neverEx.getMessage().contains("5v0 was never created"), neverEx.getMessage());

        final long malformed = Entity.combine(1, Entity.TOMBSTONE_VERSION);
        final IllegalArgumentException malformedEx =
            assertThrows(IllegalArgumentException.class, () -> pool.destroy(malformed));
        assertTrue(malformedEx.getMessage().contains(Entity.toString(malformed)), malformedEx.getMessage());
    }

    @Test
    void exhaustedIdSpaceThrowsIllegalStateExceptionThatSaysWhatToDo()
    {
        for (int i = 0; i < 8; i++)
        {
            pool.create();
        }

        final IllegalStateException ex = assertThrows(IllegalStateException.class, pool::create);

        assertTrue(ex.getMessage().contains("exhausted"), ex.getMessage());
        assertTrue(ex.getMessage().contains("8 of the 8 indices are alive, 0 free and 0 retired"), ex.getMessage());
        assertTrue(ex.getMessage().contains("maxEntities"), ex.getMessage());
        assertEquals(8, pool.aliveCount(), "a failed create changes nothing");
    }

    @Test
    void anExhaustedPoolRecoversWhenAnEntityIsDestroyed()
    {
        final List<Long> all = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            all.add(pool.create());
        }

        pool.destroy(all.get(5));

        assertEquals(Entity.next(all.get(5)), pool.create());
    }

    @Test
    void batchCreateIsAllOrNothing()
    {
        final long[] entities = new long[10];

        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> pool.create(entities, 0, 9));
        assertTrue(ex.getMessage().contains("cannot create 9 entities"), ex.getMessage());
        assertEquals(0, pool.aliveCount());

        pool.create(entities, 1, 3);
        assertArrayEquals(new long[]{0, Entity.of(0, 0), Entity.of(1, 0), Entity.of(2, 0), 0, 0, 0, 0, 0, 0},
            entities);
    }

    @Test
    void batchCreateRejectsARangeOutsideTheArray()
    {
        final long[] entities = new long[4];

        assertThrows(IndexOutOfBoundsException.class, () -> pool.create(entities, 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.create(entities, -1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.create(entities, 0, -1));
        assertEquals(0, pool.aliveCount());
    }

    @Test
    void currentVersionOfAnIndexNeverCreatedThrowsNamingIt()
    {
        pool.create();

        final IndexOutOfBoundsException ex =
            assertThrows(IndexOutOfBoundsException.class, () -> pool.currentVersion(1));

        assertTrue(ex.getMessage().contains("entity index 1 was never created"), ex.getMessage());
    }

    @Test
    void clearDestroysEveryEntityAndBumpsEveryVersion()
    {
        final long a = pool.create();
        final long b = pool.create();

        pool.clear();

        assertEquals(0, pool.aliveCount());
        assertEquals(2, pool.createdCount());
        assertFalse(pool.isAlive(a));
        assertFalse(pool.isAlive(b));
        final Set<Long> recreated = Set.of(pool.create(), pool.create());
        assertEquals(Set.of(Entity.next(a), Entity.next(b)), recreated);
    }

    @Test
    void forEachVisitsTheLowestIndexFirst()
    {
        final long a = pool.create();
        final long b = pool.create();
        final long c = pool.create();

        final List<Long> visited = new ArrayList<>();
        pool.forEach(visited::add);

        assertEquals(List.of(a, b, c), visited);
    }

    @Test
    void forEachVisitsEveryAliveEntityAndSurvivesDestroyingTheCurrentOne()
    {
        final Set<Long> created = new HashSet<>();
        for (int i = 0; i < 6; i++)
        {
            created.add(pool.create());
        }
        pool.destroy(Entity.of(2, 0));
        created.remove(Entity.of(2, 0));

        final Set<Long> visited = new HashSet<>();
        pool.forEach(entity ->
        {
            assertTrue(visited.add(entity), "visited twice: " + Entity.toString(entity));
            pool.destroy(entity);
        });

        assertEquals(created, visited);
        assertEquals(0, pool.aliveCount());
    }

    @Test
    void maxEntitiesMustBeInRange()
    {
        assertThrows(IllegalArgumentException.class, () -> new EntityPool(offHeap, new Walks("World", true), 0));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new EntityPool(offHeap, new Walks("World", true), EntityPool.MAX_ENTITIES + 1));
        assertTrue(ex.getMessage().contains(String.valueOf(EntityPool.MAX_ENTITIES + 1)), ex.getMessage());
    }

    @Test
    void offHeapBytesAreWhatTheOwnerCounts()
    {
        assertEquals(0, pool.offHeapBytes());
        pool.create();

        assertTrue(pool.offHeapBytes() > 0);
        assertEquals(offHeap.allocatedBytes(), pool.offHeapBytes());
    }

    @Test
    void aClosedPoolFreesItsMemoryAndRejectsEveryOperation()
    {
        final long entity = pool.create();

        offHeap.close();
        offHeap.close();

        assertTrue(pool.isClosed());
        assertEquals(0, offHeap.allocatedBytes());
        assertThrows(IllegalStateException.class, pool::create);
        assertThrows(IllegalStateException.class, () -> pool.create(new long[1], 0, 1));
        assertThrows(IllegalStateException.class, () -> pool.destroy(entity));
        assertThrows(IllegalStateException.class, () -> pool.requireAlive(entity));
        assertThrows(IllegalStateException.class, () -> pool.currentVersion(0));
        assertThrows(IllegalStateException.class, pool::clear);
        assertThrows(IllegalStateException.class, () -> pool.forEach(e -> { }));
        assertFalse(pool.isAlive(entity), "a closed pool has no alive entity");
        assertEquals(0, pool.aliveCount());
        assertEquals(0, pool.createdCount());
        assertEquals(0, pool.offHeapBytes());
    }

    @Test
    void anIndexWhoseVersionsAreUsedUpIsRetiredSoADestroyedHandleStaysStaleForever()
    {
        final OffHeap budgetHeap = new OffHeap("test world");
        final EntityPool single = new EntityPool(budgetHeap, new Walks("World", true), 2);
        final long first = single.create();
        long entity = first;
        // Every create after a destroy recycles index 0 with the next version: 2^31 - 1 handles in all.
        for (int version = 0; version < Entity.MAX_VERSION; version++)
        {
            single.destroy(entity);
            entity = single.create();
        }
        assertEquals(Entity.of(0, Entity.MAX_VERSION), entity);

        single.destroy(entity);

        assertEquals(1, single.retiredCount());
        assertFalse(single.isAlive(first), "the first handle did not come back to life");
        final long next = single.create();
        assertEquals(1, Entity.index(next), "index 0 is never handed out again");
        assertFalse(single.isAlive(first));
        assertEquals(Entity.MAX_VERSION, single.currentVersion(0));
        final IllegalArgumentException stale =
            assertThrows(IllegalArgumentException.class, () -> single.requireAlive(first));
        assertTrue(stale.getMessage().contains("index 0 is retired"), stale.getMessage());
        final IllegalStateException full = assertThrows(IllegalStateException.class, single::create);
        assertTrue(full.getMessage().contains("1 of the 2 indices are alive, 0 free and 1 retired"),
            full.getMessage());
        budgetHeap.close();
    }

    @Test
    void clearRetiresIndicesAtTheirLastVersionToo()
    {
        final OffHeap budgetHeap = new OffHeap("test world");
        final EntityPool single = new EntityPool(budgetHeap, new Walks("World", true), 4);
        long entity = single.create();
        for (int version = 0; version < Entity.MAX_VERSION; version++)
        {
            single.destroy(entity);
            entity = single.create();
        }
        final long other = single.create();

        single.clear();

        assertEquals(1, single.retiredCount());
        assertEquals(0, single.aliveCount());
        assertEquals(Entity.next(other), single.create(), "the other index is recycled");
        assertEquals(2, Entity.index(single.create()), "index 0 is not");
        budgetHeap.close();
    }

    @Test
    void aGrowthTheBudgetRefusesLeavesThePoolAsItWasAndItCanStillDestroy()
    {
        // 64 versions and a free stack of 64 take 512 bytes; growing the versions to 96 needs 128 more.
        final OffHeap budgetHeap = new OffHeap("test world", 639);
        final EntityPool small = new EntityPool(budgetHeap, new Walks("World", true), 1000);
        final long[] entities = new long[64];
        small.create(entities, 0, 64);
        small.destroy(entities[0]);
        assertEquals(Entity.next(entities[0]), small.create());
        entities[0] = Entity.next(entities[0]);

        final OffHeapExhaustedException error = assertThrows(OffHeapExhaustedException.class, small::create);

        assertTrue(error.getMessage().contains("budget of 639 bytes"), error.getMessage());
        assertEquals(64, small.aliveCount());
        assertEquals(64, small.createdCount());
        for (final long entity : entities)
        {
            assertTrue(small.isAlive(entity));
        }
        assertThrows(OffHeapExhaustedException.class, () -> small.create(new long[2], 0, 2), "a batch is all or nothing");
        assertEquals(64, small.aliveCount());

        small.destroy(entities[5]);
        small.destroy(entities[6]);
        assertFalse(small.isAlive(entities[5]), "destroying needs no memory, so a pool at its budget can free entities");
        assertEquals(62, small.aliveCount());
        assertEquals(Entity.next(entities[6]), small.create(), "and reuse their indices");
        small.clear();
        assertEquals(0, small.aliveCount());
        budgetHeap.close();
    }

    @Test
    void aPoolThatOnlyCreatesHoldsFourBytesPerIndexAndTheFreeStackGrowsWithTheFirstDestroy()
    {
        final OffHeap heap = new OffHeap("test world");
        final EntityPool large = new EntityPool(heap, new Walks("World", true), 1000);
        final long[] entities = new long[64];
        large.create(entities, 0, 64);
        assertEquals(64 * 4, large.offHeapBytes(), "64 versions and no free stack");

        large.destroy(entities[0]);

        assertEquals(2 * 64 * 4, large.offHeapBytes(), "the stack's first 64 entries");
        assertEquals(heap.allocatedBytes(), large.offHeapBytes());
        heap.close();
    }

    @Test
    void anIndexTheFullStackCannotRecordIsFreedAnywayAndCreatedAgain()
    {
        // 64 versions take 256 bytes; neither the stack's first 256 nor 128 more for the versions fit in 356.
        final OffHeap heap = new OffHeap("test world", 356);
        final EntityPool small = new EntityPool(heap, new Walks("World", true), 1000);
        final long[] entities = new long[64];
        small.create(entities, 0, 64);

        small.destroy(entities[40]);
        small.destroy(entities[3]);
        small.destroy(entities[10]);

        assertEquals(256, heap.allocatedBytes(), "no stack: the destroyed indices are free all the same");
        assertFalse(small.isAlive(entities[3]));
        assertEquals(61, small.aliveCount());
        assertEquals(3 + 1000 - 64, small.remainingCapacity());
        assertEquals(Entity.next(entities[3]), small.create(), "found walking the versions from index 0");
        assertEquals(Entity.next(entities[10]), small.create());
        assertEquals(Entity.next(entities[40]), small.create());
        final OffHeapExhaustedException full = assertThrows(OffHeapExhaustedException.class, small::create,
            "the next create needs a new index, whose version entry does not fit");
        assertTrue(full.getMessage().contains("budget of 356 bytes"), full.getMessage());
        assertEquals(64, small.aliveCount());
        heap.close();
    }

    @Test
    void indicesLeftOffAStackThatStoppedGrowingComeBackAfterTheStackedOnes()
    {
        // 96 versions (384 bytes) and a stack of 64 (256) fit in 740; growing either does not.
        final OffHeap heap = new OffHeap("test world", 740);
        final EntityPool small = new EntityPool(heap, new Walks("World", true), 1000);
        final long[] entities = new long[96];
        small.create(entities, 0, 96);

        for (final long entity : entities)
        {
            small.destroy(entity);
        }

        assertEquals(0, small.aliveCount());
        assertEquals(96 + 1000 - 96, small.remainingCapacity());
        for (int index = 63; index >= 0; index--)
        {
            assertEquals(Entity.next(entities[index]), small.create(), "the stacked ones first, last in first out");
        }
        for (int index = 64; index < 96; index++)
        {
            assertEquals(Entity.next(entities[index]), small.create(), "then the others in index order, each once");
        }
        assertThrows(OffHeapExhaustedException.class, small::create);
        assertEquals(96, small.aliveCount());
        heap.close();
    }

    @Test
    void aRefusedBatchDestroyLeavesIndicesLeftOffTheStackAsTheyWere()
    {
        final OffHeap heap = new OffHeap("test world", 356);
        final EntityPool small = new EntityPool(heap, new Walks("World", true), 1000);
        final long[] entities = new long[64];
        small.create(entities, 0, 64);
        small.destroy(entities[7]);

        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
            () -> small.destroy(new long[] {entities[1], entities[2], entities[1]}, 0, 3));

        assertTrue(twice.getMessage().contains("is there twice"), twice.getMessage());
        assertEquals(256, heap.allocatedBytes(), "a refused batch takes no memory");
        assertTrue(small.isAlive(entities[1]));
        assertTrue(small.isAlive(entities[2]));
        assertEquals(63, small.aliveCount());
        assertEquals(1 + 1000 - 64, small.remainingCapacity());
        assertEquals(Entity.next(entities[7]), small.create());
        assertThrows(OffHeapExhaustedException.class, small::create);
        heap.close();
    }

    @Test
    void aRefusedOrCheckedBatchTakesNoMemoryHoweverLong()
    {
        final OffHeap heap = new OffHeap("test world");
        final EntityPool large = new EntityPool(heap, new Walks("World", true), 1000);
        final long entity = large.create();
        final long bytes = heap.allocatedBytes();

        assertThrows(IllegalArgumentException.class, () -> large.destroy(new long[1_000_000], 0, 1_000_000));
        assertThrows(IllegalArgumentException.class, () -> large.destroy(new long[] {entity, entity}, 0, 2));
        large.requireAliveOnce(new long[] {entity}, 0, 1);

        assertEquals(bytes, heap.allocatedBytes());
        assertTrue(large.isAlive(entity));
        heap.close();
    }

    /**
     * Random creates, destroys, batches and clears under random budgets, checked after every operation against a
     * model that knows only which indices are alive, free (with their next version) and never created: a create hands
     * out a free index with its next version, or a new index with version 0 only when none is free, and fails for
     * want of memory only then.
     */
    @Test
    void underAnyBudgetEveryFreeIndexIsHandedOutOnceWithItsNextVersionBeforeANewOne()
    {
        final SplittableRandom random = new SplittableRandom(0x5eed_f00dL);
        for (int run = 0; run < 100; run++)
        {
            final long budget = 256 + random.nextInt(3000);
            final OffHeap heap = new OffHeap("test world", budget);
            final EntityPool pool = new EntityPool(heap, new Walks("World", true), 600);
            final Map<Integer, Integer> alive = new HashMap<>();
            final Map<Integer, Integer> free = new HashMap<>();
            int created = 0;
            for (int step = 0; step < 1500; step++)
            {
                final String context = "run " + run + " (budget " + budget + "), step " + step;
                // Phases of mostly creating and mostly destroying, so that the free stack fills and drains.
                final boolean creating = (step / 250) % 2 == 0;
                final int draw = random.nextInt(10);
                final int op = creating ? (draw < 7 ? 0 : draw) :
                    (draw < 3 ? 0 : draw < 6 ? 5 : draw < 9 ? 6 : draw - 2);
                if (op < 5)
                {
                    final long entity;
                    try
                    {
                        entity = pool.create();
                    }
                    catch (final OffHeapExhaustedException ex)
                    {
                        assertTrue(free.isEmpty(), context + ": a create failed for memory with free indices");
                        continue;
                    }
                    catch (final IllegalStateException ex)
                    {
                        assertTrue(free.isEmpty() && created == 600, context + ": " + ex.getMessage());
                        continue;
                    }
                    final int index = Entity.index(entity);
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
                else if (op < 8 && !alive.isEmpty())
                {
                    final List<Integer> indices = new ArrayList<>(alive.keySet());
                    final int count = op == 5 ? 1 : 1 + random.nextInt(Math.min(20, indices.size()));
                    final long[] batch = new long[count + (op == 7 ? 1 : 0)];
                    for (int i = 0; i < count; i++)
                    {
                        final int index = indices.remove(random.nextInt(indices.size()));
                        batch[i] = Entity.of(index, alive.get(index));
                    }
                    if (op == 7)
                    {
                        batch[count] = batch[random.nextInt(count)];
                        assertThrows(IllegalArgumentException.class, () -> pool.destroy(batch, 0, batch.length),
                            context);
                        continue;
                    }
                    pool.destroy(batch, 0, count);
                    for (int i = 0; i < count; i++)
                    {
                        final int index = Entity.index(batch[i]);
                        free.put(index, alive.remove(index) + 1);
                    }
                }
                else if (op == 8 && random.nextInt(20) == 0)
                {
                    pool.clear();
                    alive.forEach((index, version) -> free.put(index, version + 1));
                    alive.clear();
                }
                assertEquals(alive.size(), pool.aliveCount(), context);
                assertEquals(created, pool.createdCount(), context);
                assertEquals(free.size() + 600 - created, pool.remainingCapacity(), context);
                for (final Map.Entry<Integer, Integer> entry : alive.entrySet())
                {
                    assertTrue(pool.isAlive(Entity.of(entry.getKey(), entry.getValue())), context);
                }
                for (final Map.Entry<Integer, Integer> entry : free.entrySet())
                {
                    assertEquals(entry.getValue(), pool.currentVersion(entry.getKey()), context);
                }
            }
            heap.close();
        }
    }
}
