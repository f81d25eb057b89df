package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.parallel.ParallelFixtures.Frozen;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.signal.Connection;
import dev.cairn.snapshot.ContinuousLoader;
import dev.cairn.snapshot.Snapshot;
import dev.cairn.view.RuntimeView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parallel iteration of generated views, groups and runtime views: each visits exactly the entities its sequential
 * iteration visits, once, whatever the thread count and chunk size; writes land; structural changes from an action are
 * deferred, each chunk's in its own queue, and made when the walk returns in the order of the chunks, which leaves the
 * world exactly as the same actions in a sequential walk do; what would race or cannot wait (create, a patch someone
 * listens to, listeners, new groups, reordering, loads) is refused and changes nothing; failures reach the caller.
 */
final class ParallelIterationTest
{
    private static final int[] THREADS = {1, 2, 3, 8};
    private static final int[] CHUNK_SIZES = {1, 7, 64, Chunks.AUTOMATIC};
    private static final Map<Integer, ForkJoinPool> POOLS = new HashMap<>();

    private final World world = new World(1 << 16);
    private final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
    private final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
    private final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
    private final ParallelFixtures_FrozenStorage frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
    private final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @AfterAll
    static void shutDown()
    {
        POOLS.values().forEach(ForkJoinPool::shutdownNow);
    }

    private static ForkJoinPool pool(final int threads)
    {
        synchronized (POOLS)
        {
            return POOLS.computeIfAbsent(threads, ForkJoinPool::new);
        }
    }

    @Test
    void eachIterationVisitsExactlyTheSequentialEntitiesOnceForEveryThreadCountAndChunkSize()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        final ParallelFixtures_ToughGroup tough = new ParallelFixtures_ToughGroup(world);
        populate(world, new Random(7), 3000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final ParallelFixtures_FrozensView frozens = new ParallelFixtures_FrozensView(world);
        final RuntimeView runtime = world.view(Health.class, Position.class).without(Frozen.class);
        final Map<String, Iteration> iterations = new LinkedHashMap<>();
        iterations.put("Movers (in-place or swap-and-pop lead)", new Iteration(
            action -> movers.forEach((entity, position, velocity) -> action.accept(entity)),
            (pool, chunk, action) -> movers.parallelForEach(pool, chunk, (entity, position, velocity) ->
            {
                assertEquals(entity, position.entity());
                assertEquals(entity, velocity.entity());
                action.accept(entity);
            })));
        iterations.put("Living (swap-only lead)", new Iteration(
            action -> living.forEach((entity, health) -> action.accept(entity)),
            (pool, chunk, action) -> living.parallelForEach(pool, chunk, (entity, health) -> action.accept(entity))));
        iterations.put("Frozens (tag lead)", new Iteration(
            action -> frozens.forEach(action::accept), (pool, chunk, action) -> frozens.parallelForEach(pool, chunk,
            action::accept)));
        iterations.put("RuntimeView", new Iteration(runtime::forEach, runtime::parallelForEach));
        iterations.put("Hot (full-owning group)", new Iteration(
            action -> hot.forEach((entity, position, heat) -> action.accept(entity)),
            (pool, chunk, action) -> hot.parallelForEach(pool, chunk, (entity, position, heat) ->
            {
                assertEquals(entity, heat.entity());
                action.accept(entity);
            })));
        iterations.put("Tough (non-owning group)", new Iteration(
            action -> tough.forEach((entity, health, velocity) -> action.accept(entity)),
            (pool, chunk, action) -> tough.parallelForEach(pool, chunk,
                (entity, health, velocity) -> action.accept(entity))));

        for (final Map.Entry<String, Iteration> iteration : iterations.entrySet())
        {
            final List<Long> sequential = new ArrayList<>();
            iteration.getValue().sequential.accept(sequential::add);
            assertTrue(sequential.size() > 100, iteration.getKey() + " visits " + sequential.size());
            for (final int threads : THREADS)
            {
                for (final int chunk : CHUNK_SIZES)
                {
                    final ConcurrentHashMap<Long, AtomicInteger> visits = new ConcurrentHashMap<>();
                    iteration.getValue().parallel.run(pool(threads), chunk,
                        entity -> visits.computeIfAbsent(entity, e -> new AtomicInteger()).incrementAndGet());
                    final String where = iteration.getKey() + " on " + threads + " threads, chunk " + chunk;
                    assertEquals(sequential.size(), visits.size(), where);
                    for (final long entity : sequential)
                    {
                        assertEquals(1, visits.get(entity).get(), where + ": " + Entity.toString(entity));
                    }
                }
            }
        }
        assertFalse(world.isDeferring());
    }

    @Test
    void askingAboutAComponentNoEntityHasChangesNothingAndIsAllowedInParallel()
    {
        try (World fresh = new World(1 << 12))
        {
            final ParallelFixtures_PositionStorage ps = fresh.storage(ParallelFixtures_PositionStorage.TYPE);
            for (int i = 0; i < 2000; i++)
            {
                ps.emplace(fresh.create(), i, i);
            }
            final AtomicInteger answered = new AtomicInteger();
            fresh.view(Position.class).parallelForEach(pool(4), 64, entity ->
            {
                assertFalse(fresh.has(entity, Health.class));
                assertFalse(fresh.remove(entity, Health.class), "removing what nobody has changes nothing");
                final IllegalArgumentException lacks =
                    assertThrows(IllegalArgumentException.class, () -> fresh.get(entity, Health.class));
                assertTrue(lacks.getMessage().contains("has no Health"), lacks.getMessage());
                answered.incrementAndGet();
            });
            assertEquals(2000, answered.get());
            assertEquals(1, fresh.storages().size(), "no storage was created by a question");

            final IllegalStateException creating = assertThrows(IllegalStateException.class,
                () -> fresh.view(Position.class).parallelForEach(entity -> fresh.storage(Health.class)));
            assertTrue(creating.getMessage().contains("cannot create the storage of Health while") &&
                creating.getMessage().contains("ask for it before"), creating.getMessage());
            assertEquals(1, fresh.storages().size());
        }
    }

    @Test
    void fieldWritesOfTheVisitedEntityLandAndEqualASequentialRun()
    {
        populate(world, new Random(11), 5000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final Map<Long, Float> expected = new HashMap<>();
        movers.forEach((entity, position, velocity) ->
            expected.put(entity, (float)(position.x() + velocity.dx() * 0.5)));

        movers.parallelForEach(pool(4), 16, (entity, position, velocity) ->
            position.x((float)(position.x() + velocity.dx() * 0.5)));

        for (final Map.Entry<Long, Float> entry : expected.entrySet())
        {
            assertEquals(entry.getValue(), positions.x(entry.getKey()), Entity.toString(entry.getKey()));
        }
    }

    @Test
    void structuralChangesFromAnActionAreDeferredUnderEveryPolicyAndMadeAfterTheWalkAsASequentialWalkMakesThem()
    {
        final Map<String, Change> changes = new LinkedHashMap<>();
        changes.put("destroy the visited entity", (s, entity) -> s.world.destroy(entity));
        changes.put("destroy another entity, from every action", (s, entity) -> s.world.destroy(s.spare));
        changes.put("remove swap-and-pop, owned by a group", (s, entity) -> s.positions.remove(entity));
        changes.put("remove in-place", (s, entity) -> s.velocities.remove(entity));
        changes.put("remove swap-only", (s, entity) -> s.healths.remove(entity));
        changes.put("remove through the world", (s, entity) -> s.world.remove(entity, Health.class));
        changes.put("add the excluded in-place tag", (s, entity) -> s.frozen.emplace(entity));
        changes.put("add swap-only to another entity, from every action",
            (s, entity) -> s.healths.emplace(s.spare, Entity.index(entity), true));
        changes.put("join the owning group", (s, entity) ->
        {
            if (!s.heats.contains(entity))
            {
                s.heats.emplace(entity, Entity.index(entity));
            }
        });
        changes.put("leave and join again", (s, entity) ->
        {
            s.positions.remove(entity);
            s.positions.emplace(s.spare, Entity.index(entity), 0f);
        });
        changes.put("clear a storage", (s, entity) -> s.velocities.clear());
        changes.put("clear the world", (s, entity) -> s.world.clear());
        // Last: its check disturbs the other threads (see destroyingManyFromParallelActionsIsChecked...).
        changes.put("destroy many", (s, entity) -> s.world.destroy(new long[] {entity, s.spare}, 2));

        for (final Map.Entry<String, Change> change : changes.entrySet())
        {
            final String sequential;
            final List<Long> order = new ArrayList<>();
            try (Subject subject = Subject.of(3, 400))
            {
                final String before = ParallelFixtures.digest(subject.world);
                subject.movers.forEach((entity, position, velocity) ->
                {
                    order.add(entity);
                    change.getValue().make(subject, entity);
                });
                assertTrue(order.size() > 100, change.getKey());
                sequential = ParallelFixtures.layout(subject.world);
                assertFalse(before.equals(ParallelFixtures.digest(subject.world)),
                    change.getKey() + " changed nothing");
                if (change.getKey().startsWith("add swap-only"))
                {
                    assertEquals(Entity.index(order.get(order.size() - 1)), subject.healths.hp(subject.spare),
                        "the add of the last entity in walk order is made last");
                }
            }
            for (final int threads : THREADS)
            {
                for (final int chunk : CHUNK_SIZES)
                {
                    final String where = change.getKey() + " on " + threads + " threads, chunk " + chunk;
                    try (Subject subject = Subject.of(3, 400))
                    {
                        final String before = ParallelFixtures.digest(subject.world);
                        final int count = subject.movers.count();
                        final AtomicInteger visits = new AtomicInteger();
                        subject.movers.parallelForEach(pool(threads), chunk, (entity, position, velocity) ->
                        {
                            change.getValue().make(subject, entity);
                            if (!subject.world.isDeferring() || !subject.world.valid(entity) ||
                                !subject.positions.contains(entity) || !subject.velocities.contains(entity) ||
                                subject.frozen.contains(entity) || !subject.world.valid(subject.spare))
                            {
                                throw new AssertionError(where + ": the world changed under the walk at " +
                                    Entity.toString(entity));
                            }
                            visits.incrementAndGet();
                        });

                        assertEquals(count, visits.get(), where + ": every entity matching when the walk began");
                        assertFalse(subject.world.isDeferring(), where);
                        assertFalse(before.equals(ParallelFixtures.digest(subject.world)), where + " changed nothing");
                        assertEquals(sequential, ParallelFixtures.layout(subject.world), where);
                    }
                }
            }
        }
    }

    @Test
    void destroyingManyFromParallelActionsIsCheckedWithoutHidingAliveEntitiesFromOtherThreads()
    {
        populate(world, new Random(13), 20_000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final int count = movers.count();
        final List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
        final int rounds = 20;

        for (int round = 0; round < rounds; round++)
        {
            final long spare = world.create();
            final int alive = world.aliveCount();
            movers.parallelForEach(pool(4), 1, (entity, position, velocity) ->
            {
                for (int k = 0; k < 3; k++)
                {
                    try
                    {
                        // Alive and there once: checked at once, as the direct call checks, and recorded.
                        world.destroy(new long[] {spare}, 1);
                    }
                    catch (final RuntimeException refused)
                    {
                        wrong.add("refused: " + refused.getMessage());
                    }
                    if (!world.valid(spare) || !world.valid(entity) || !positions.contains(entity))
                    {
                        wrong.add("an alive entity read as dead at " + Entity.toString(entity));
                    }
                }
            });
            assertEquals(alive - 1, world.aliveCount());
            assertFalse(world.valid(spare));
        }

        assertEquals(List.of(), wrong.subList(0, Math.min(5, wrong.size())), wrong.size() + " wrong answers in " +
            3 * rounds * count + " destroys");
    }

    @Test
    void aClearOfTheWorldOrAStorageMadeInAWalkLeavesTheStoragesAsAClearMadeAfterTheWalk()
    {
        final Map<String, Change> clears = new LinkedHashMap<>();
        clears.put("the world", (s, entity) -> s.world.clear());
        clears.put("an in-place storage", (s, entity) -> s.velocities.clear());
        clears.put("a swap-only storage", (s, entity) -> s.healths.clear());
        final List<String> wrong = new ArrayList<>();
        for (final Map.Entry<String, Change> clear : clears.entrySet())
        {
            final String after;
            try (Subject subject = Subject.of(6, 300))
            {
                clear.getValue().make(subject, Entity.NULL);
                after = ParallelFixtures.layout(subject.world);
            }
            for (final int threads : new int[] {0, 2})
            {
                try (Subject subject = Subject.of(6, 300))
                {
                    final ParallelFixtures_MoversView.Action action =
                        (entity, position, velocity) -> clear.getValue().make(subject, entity);
                    if (threads == 0)
                    {
                        subject.movers.forEach(action);
                    }
                    else
                    {
                        subject.movers.parallelForEach(pool(threads), 16, action);
                    }
                    final List<String> expected = List.of(after.split("\n"));
                    final List<String> actual = List.of(ParallelFixtures.layout(subject.world).split("\n"));
                    for (int k = 0; k < Math.min(expected.size(), actual.size()); k++)
                    {
                        if (!expected.get(k).equals(actual.get(k)))
                        {
                            wrong.add("a clear of " + clear.getKey() + " made in a " + (threads == 0 ? "sequential" :
                                "parallel") + " walk leaves " + shortened(actual.get(k)) + " where one after it " +
                                "leaves " + shortened(expected.get(k)));
                            break;
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), wrong, "storages' sizes, tombstones and released entries differ from a clear made " +
            "after the walk");
    }

    @Test
    void aRemovalInAWalkUndoesAnAddOfTheSameWalkInOrderAndReAddingWhatItRemovesIsRefused()
    {
        populate(world, new Random(14), 200);
        final long spare = world.create();
        final long member = healths.entityAt(0);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final List<String> answers = java.util.Collections.synchronizedList(new ArrayList<>());

        movers.parallelForEach(pool(2), Integer.MAX_VALUE, (entity, position, velocity) ->
        {
            if (answers.isEmpty())
            {
                healths.emplace(spare, 1, true);
                answers.add("remove what the walk added: " + healths.remove(spare));
                answers.add("remove a member: " + healths.remove(member));
                final IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> healths.emplace(member, 2, true));
                answers.add("add it again: " + refused.getMessage().contains("already has Health"));
            }
        });

        assertEquals(List.of("remove what the walk added: false", "remove a member: true", "add it again: true"),
            answers, "each answer is the world's as the walk began; an add of what it holds is refused at once");
        assertFalse(healths.contains(spare), "the add was made, then the removal recorded after it");
        assertFalse(healths.contains(member), "the removal was made");
    }

    @Test
    void whatAnActionDefersIsInvisibleUntilTheWalkReturnsAndMadeBeforeItReturns()
    {
        populate(world, new Random(12), 2_000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final int count = movers.count();
        final int alive = world.aliveCount();
        final int positionsBefore = positions.size();
        final ConcurrentHashMap<String, Boolean> heldBy = new ConcurrentHashMap<>();
        final AtomicInteger wrong = new AtomicInteger();

        movers.parallelForEach(pool(3), 16, (entity, position, velocity) ->
        {
            world.destroy(entity);
            positions.remove(entity);
            assertThrows(IllegalArgumentException.class, () -> world.destroy(Entity.NULL), "checked at once");
            if (!world.valid(entity) || !positions.contains(entity) || positions.size() != positionsBefore ||
                world.aliveCount() != alive || position.entity() != entity || !world.isDeferring())
            {
                wrong.incrementAndGet();
            }
            heldBy.put(String.valueOf(world.heldBy()), true);
        });

        assertEquals(0, wrong.get(), "valid, contains, size and aliveCount answered as when the walk began");
        assertEquals(Map.of("ParallelFixtures_MoversView.parallelForEach", true), heldBy);
        assertEquals(0, movers.count());
        assertEquals(alive - count, world.aliveCount());
        assertFalse(world.isDeferring());
        assertNull(world.heldBy());
    }

    @Test
    void whatTheChunksThatRanDeferredIsMadeWhenAnActionThrowsAndTheExceptionReachesTheCaller()
    {
        // In one chunk, walked by the calling thread: exactly what the sequential walk makes before its action throws.
        final List<String> outcomes = new ArrayList<>();
        for (final boolean parallel : new boolean[] {false, true})
        {
            try (Subject subject = Subject.of(8, 300))
            {
                final List<Long> order = walkOrder(subject.movers);
                final long failing = order.get(order.size() / 2);
                final ParallelFixtures_MoversView.Action action = (entity, position, velocity) ->
                {
                    subject.world.destroy(entity);
                    if (entity == failing)
                    {
                        throw new IllegalArgumentException("failed at " + Entity.toString(entity));
                    }
                };
                final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () ->
                {
                    if (parallel)
                    {
                        subject.movers.parallelForEach(pool(2), Integer.MAX_VALUE, action);
                    }
                    else
                    {
                        subject.movers.forEach(action);
                    }
                });
                assertEquals("failed at " + Entity.toString(failing), thrown.getMessage());
                assertFalse(subject.world.valid(failing), "destroyed before the action threw");
                assertFalse(subject.world.isDeferring());
                outcomes.add(ParallelFixtures.layout(subject.world));
            }
        }
        assertEquals(outcomes.get(0), outcomes.get(1));

        // In many chunks: which chunks ran depends on timing, but every change of each one that ran is made.
        populate(world, new Random(9), 3_000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final Map<Long, Boolean> visited = new ConcurrentHashMap<>();
        final int alive = world.aliveCount();
        final long failing = walkOrder(movers).get(7);
        assertThrows(IllegalStateException.class, () -> movers.parallelForEach(pool(4), 1, (entity, p, v) ->
        {
            visited.put(entity, true);
            world.destroy(entity);
            if (entity == failing)
            {
                throw new IllegalStateException("failed");
            }
        }));
        assertEquals(alive - visited.size(), world.aliveCount(), "each visited entity's destroy was made");
        for (final long entity : visited.keySet())
        {
            assertFalse(world.valid(entity), Entity.toString(entity));
        }
        assertFalse(world.isDeferring());
    }

    @Test
    void walksNestedEitherWayInsideOneWorldDeferIntoTheOrderOfTheSequentialNesting()
    {
        final List<String> outcomes = new ArrayList<>();
        for (final int threads : new int[] {0, 1, 2, 8})
        {
            for (final int chunk : new int[] {1, 5, Chunks.AUTOMATIC})
            {
                try (Subject subject = Subject.of(5, 300))
                {
                    final ParallelFixtures_FrozensView frozens = new ParallelFixtures_FrozensView(subject.world);
                    final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(subject.world);
                    assertTrue(frozens.count() > 10 && living.count() > 50);
                    // A sequential walk inside each action of a parallel walk, each recording before, inside, after.
                    final ParallelFixtures_LivingView.Action outer = (entity, health) ->
                    {
                        subject.healths.emplace(subject.spare, Entity.index(entity), false);
                        new ParallelFixtures_FrozensView(subject.world).forEach(inner ->
                        {
                            if ((Entity.index(inner) + Entity.index(entity)) % 7 == 0)
                            {
                                subject.healths.emplace(subject.spare, -Entity.index(inner), true);
                                subject.frozen.remove(inner);
                            }
                        });
                        subject.velocities.remove(entity);
                        subject.positions.emplace(subject.spare, Entity.index(entity), 1f);
                    };
                    if (threads == 0)
                    {
                        living.forEach(outer);
                    }
                    else
                    {
                        living.parallelForEach(pool(threads), chunk, outer);
                    }
                    // A parallel walk inside each step of a sequential walk.
                    frozens.forEach(entity ->
                    {
                        subject.velocities.emplace(subject.spare, Entity.index(entity), 0);
                        final ParallelFixtures_MoversView.Action inner = (mover, position, velocity) ->
                        {
                            if ((Entity.index(mover) + Entity.index(entity)) % 11 == 0)
                            {
                                subject.world.destroy(mover);
                                subject.heats.remove(mover);
                            }
                        };
                        if (threads == 0)
                        {
                            subject.movers.forEach(inner);
                        }
                        else
                        {
                            subject.movers.parallelForEach(pool(threads), chunk, inner);
                        }
                        subject.velocities.remove(subject.spare);
                        subject.world.destroy(entity);
                    });
                    outcomes.add(threads + " threads, chunk " + chunk + "\n" + ParallelFixtures.layout(subject.world));
                }
            }
        }
        final String sequential = outcomes.get(0).substring(outcomes.get(0).indexOf('\n'));
        for (final String outcome : outcomes)
        {
            assertEquals(sequential, outcome.substring(outcome.indexOf('\n')), outcome.substring(0,
                outcome.indexOf('\n')));
        }
    }

    @Test
    void aListenerThatRunsAParallelWalkWhileDeferredChangesAreMadeDefersItsChangesToTheNextRoundInOrder()
    {
        final List<String> outcomes = new ArrayList<>();
        for (final int threads : new int[] {0, 1, 2, 8})
        {
            try (Subject subject = Subject.of(10, 300))
            {
                final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(subject.world);
                final List<Long> heard = new ArrayList<>();
                // Heard as each deferred addition is made, on the world's thread: the walk it starts is parallel.
                subject.frozen.onAdded((entity, index) ->
                {
                    heard.add(entity);
                    final ParallelFixtures_LivingView.Action inner = (other, health) ->
                    {
                        if ((Entity.index(other) + Entity.index(entity)) % 9 == 0)
                        {
                            subject.healths.remove(other);
                            subject.velocities.emplace(subject.spare, Entity.index(entity), Entity.index(other));
                        }
                    };
                    if (threads == 0)
                    {
                        living.forEach(inner);
                    }
                    else
                    {
                        living.parallelForEach(pool(threads), 3, inner);
                    }
                    if (!subject.world.isDeferring())
                    {
                        throw new AssertionError("a listener's changes wait");
                    }
                });
                final ParallelFixtures_MoversView.Action outer = (entity, position, velocity) ->
                {
                    if (Entity.index(entity) % 4 == 0)
                    {
                        subject.frozen.emplace(entity);
                    }
                };
                if (threads == 0)
                {
                    subject.movers.forEach(outer);
                }
                else
                {
                    subject.movers.parallelForEach(pool(threads), 5, outer);
                }
                assertTrue(heard.size() > 10, heard.size() + " heard");
                outcomes.add(heard + "\n" + ParallelFixtures.layout(subject.world));
            }
        }
        for (final String outcome : outcomes)
        {
            assertEquals(outcomes.get(0), outcome);
        }
    }

    @Test
    void aListenerThatThrowsWhileAParallelWalksChangesAreMadeReachesTheCallerAndTheOtherChangesAreMade()
    {
        populate(world, new Random(15), 1_000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final int count = movers.count();
        final AtomicInteger heard = new AtomicInteger();
        frozen.onAdded((entity, index) ->
        {
            if (heard.incrementAndGet() % 10 == 1)
            {
                throw new IllegalStateException("listener failed on " + Entity.toString(entity));
            }
        });

        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 7, (entity, position, velocity) -> frozen.emplace(entity)));

        assertTrue(failure.getMessage().startsWith("listener failed on"), failure.getMessage());
        assertEquals((count + 9) / 10 - 1, failure.getSuppressed().length, "the others are attached");
        assertEquals(count, heard.get());
        assertEquals(0, movers.count(), "every addition was made");
        assertFalse(world.isDeferring());
    }

    @Test
    void changesThatWouldRaceOrCannotWaitAreRefusedNamingTheWalkAndChangeNothing()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        populate(world, new Random(3), 400);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        positions.onUpdated((entity, index) -> { });
        // What each refusal must advise, besides naming the walk.
        final Map<String, LongConsumer> changes = new LinkedHashMap<>();
        final Map<String, String> advice = new HashMap<>();
        changes.put("create", entity -> world.create());
        advice.put("create", "CommandBuffer");
        changes.put("create many", entity -> world.create(new long[2], 2));
        advice.put("create many", "CommandBuffer");
        changes.put("patch a signalled storage", entity -> positions.patch(entity, 1f, 1f));
        advice.put("patch a signalled storage", "patch(commands, ...)");
        changes.put("mark a signalled storage updated", entity -> positions.markUpdated(entity));
        advice.put("mark a signalled storage updated", "patch(commands, ...)");
        changes.put("reset the world", entity -> world.reset());
        advice.put("reset the world", "clear()");
        changes.put("sort", entity -> velocities.sort(velocities.comparingDx()));
        changes.put("compact", entity -> velocities.compact());
        changes.put("swap elements", entity -> velocities.swapElements(0, 1));
        changes.put("sort a group", entity -> hot.sort(positions.comparingX()));
        changes.put("reserve", entity -> healths.reserve(100_000));
        changes.put("shrink to fit", entity -> velocities.shrinkToFit());
        changes.put("a new storage", entity -> world.storage(ParallelFixtures_UnaskedStorage.TYPE));
        advice.put("a new storage", "ask for it before");
        changes.put("a new generated group", entity -> new ParallelFixtures_ToughGroup(world));
        changes.put("a new runtime group", entity -> world.group().with(Health.class).build());
        changes.put("a new observer", entity -> world.observer().onAdded(Health.class).build());
        changes.put("connect a listener", entity -> healths.onAdded((e, i) -> { }));
        final Connection watching = healths.onRemoving((e, i) -> { });
        final Connection counting = world.onCreated(e -> { });
        changes.put("disconnect a component listener", entity -> watching.close());
        changes.put("disconnect a world listener", entity -> counting.close());
        changes.put("advance the tick", entity -> world.advanceTick());
        changes.put("advance a storage's clock", entity -> positions.clock().advance());
        changes.put("restore a storage's clock", entity -> positions.clock().restore(1_000));
        changes.put("apply a command buffer", entity -> new CommandBuffer(world).apply());
        changes.put("close the world", entity -> world.close());
        final String before = ParallelFixtures.layout(world);
        final int tick = world.tick();
        final List<String> unclear = new ArrayList<>();

        for (final Map.Entry<String, LongConsumer> change : changes.entrySet())
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) ->
                    change.getValue().accept(entity)), change.getKey());

            final String message = refused.getMessage();
            if (!message.contains("while ParallelFixtures_MoversView.parallelForEach runs") ||
                !message.contains(advice.getOrDefault(change.getKey(), "after")) ||
                message.contains("records such changes"))
            {
                // Names the walk, says what to do, and does not claim that a refused change is recorded.
                unclear.add(change.getKey() + ": " + message);
            }
            assertEquals(before, ParallelFixtures.layout(world), change.getKey() + " changed the world");
            assertFalse(world.isDeferring(), "nothing holds the world once the walk returned");
        }
        assertEquals(List.of(), unclear, "refusals that do not name the walk or say what to do");
        assertEquals(tick, world.tick());
        assertFalse(world.isClosed());
        assertTrue(watching.isConnected() && counting.isConnected(), "refused disconnects leave the listeners");
        final long after = world.create();
        positions.emplace(after, 1f, 2f);
        assertTrue(positions.contains(after), "structural changes are made at once again after the walk");
    }

    @Test
    void closingObserversAndGroupsAndLoadingSnapshotsAreRefusedDuringARunNamingItAndChangeNothing()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        final ParallelFixtures_ToughGroup tough = new ParallelFixtures_ToughGroup(world);
        final RuntimeObserver moved = world.observer().onUpdated(Position.class).build();
        populate(world, new Random(4), 300);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final ByteBuffer snapshot;
        try (World source = new World())
        {
            source.storage(ParallelFixtures_PositionStorage.TYPE).emplace(source.create(), 1f, 2f);
            snapshot = ByteBuffer.allocate((int)Snapshot.sizeOf(source, ParallelFixtures_PositionStorage.TYPE));
            Snapshot.save(source, snapshot, ParallelFixtures_PositionStorage.TYPE);
            snapshot.flip();
        }
        final ContinuousLoader loader = new ContinuousLoader(world);
        final Map<String, Runnable> changes = new LinkedHashMap<>();
        changes.put("close an observer", moved::close);
        changes.put("close a non-owning group", tough::close);
        changes.put("close an owning group", hot::close);
        changes.put("load through a continuous loader", () -> loader.load(snapshot.duplicate()));
        changes.put("load a snapshot", () -> Snapshot.load(world, snapshot.duplicate()));
        final String before = ParallelFixtures.layout(world);
        final int hotSize = hot.size();
        final int toughSize = tough.size();

        for (final Map.Entry<String, Runnable> change : changes.entrySet())
        {
            // From a worker and from the calling thread alike: the caller runs chunks too.
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> living.parallelForEach(pool(2), 16, (entity, health) -> change.getValue().run()),
                change.getKey());

            assertTrue(refused.getMessage().contains("while ParallelFixtures_LivingView.parallelForEach runs") &&
                refused.getMessage().contains("after"), change.getKey() + ": " + refused.getMessage());
            assertEquals(before, ParallelFixtures.layout(world), change.getKey() + " changed the world");
            assertTrue(moved.isOpen() && hot.isOpen() && tough.isOpen(), change.getKey());
            assertEquals(2, world.groups().size(), change.getKey());
            assertEquals(hotSize, hot.size(), change.getKey());
            assertEquals(toughSize, tough.size(), change.getKey());
        }
        final long mover = positions.entityAt(0);
        positions.patch(mover, 5f, 5f);
        assertTrue(moved.contains(mover), "the observer still follows its storages");
        loader.load(snapshot.duplicate());
        assertEquals(1, loader.size(), "the loader is usable after the refused loads");
        loader.close();
        moved.close();
        tough.close();
        hot.close();
        assertEquals(0, world.groups().size());
    }

    @Test
    void aPatchIsRefusedOnlyWhereSomethingFollowsUpdates()
    {
        final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        populate(world, new Random(8), 300);
        positions.onAdded((entity, index) -> { });
        positions.onRemoving((entity, index) -> { });
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);

        // Adds, removals and the owning group do not care about updates: patching is fine.
        movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 3f, 4f));
        hot.parallelForEach(pool(2), 16, (entity, position, heat) -> heats.patch(entity, 9f));

        movers.forEach((entity, position, velocity) -> assertEquals(3f, position.x()));
        hot.forEach((entity, position, heat) -> assertEquals(9f, heat.t()));
        final Connection listener = positions.onUpdated((entity, index) -> { });
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 1f, 1f)));
        assertTrue(refused.getMessage().contains("cannot patch or markUpdated") &&
            refused.getMessage().contains("while ParallelFixtures_MoversView.parallelForEach runs") &&
            refused.getMessage().contains("patch(commands, ...)"), refused.getMessage());
        movers.forEach((entity, position, velocity) -> assertEquals(3f, position.x(), "nothing patched"));
        listener.close();
        final RuntimeObserver updated = world.observer().onUpdated(Position.class).build();
        assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 1f, 1f)));
        updated.close();
        movers.parallelForEach(pool(2), 16, (entity, position, velocity) -> positions.patch(entity, 1f, 1f));
    }

    @Test
    void aParallelIterationOfAnotherWorldInsideAnActionRecordsInTheSequentialOrder()
    {
        final List<String> results = new ArrayList<>();
        for (final int threads : new int[] {1, 2, 8})
        {
            for (final int chunkSize : new int[] {1, 3, Chunks.AUTOMATIC})
            {
                results.add(nestedRun(threads, chunkSize, true));
            }
        }
        final String sequential = nestedRun(1, 1, false);

        for (final String result : results)
        {
            assertEquals(sequential, result);
        }
    }

    /**
     * Twenty outer entities, each with a small world of its own; each visit records before, during (from an inner
     * iteration of its world) and after, into one buffer of the outer world; the created entities' handles and values
     * tell the order the buffer applied them in. Each visit also makes direct changes, deferred by both worlds: before
     * and after the inner walk into the outer world (an add that a later one overwrites), inside it into its own.
     */
    private static String nestedRun(final int threads, final int chunkSize, final boolean parallel)
    {
        try (World outer = new World())
        {
            final ParallelFixtures_HealthStorage outerHealths = outer.storage(ParallelFixtures_HealthStorage.TYPE);
            final ParallelFixtures_PositionStorage outerPositions = outer.storage(ParallelFixtures_PositionStorage.TYPE);
            final ParallelFixtures_VelocityStorage outerVelocities =
                outer.storage(ParallelFixtures_VelocityStorage.TYPE);
            final List<World> inners = new ArrayList<>();
            final Map<Long, ParallelFixtures_HealthStorage> innerStorages = new HashMap<>();
            final Map<Long, Long> innerSpares = new HashMap<>();
            final Map<Long, ParallelFixtures_LivingView> innerViews = new HashMap<>();
            for (int i = 0; i < 20; i++)
            {
                final long entity = outer.create();
                outerHealths.emplace(entity, i, true);
                final World inner = new World();
                final ParallelFixtures_HealthStorage innerHealths = inner.storage(ParallelFixtures_HealthStorage.TYPE);
                for (int j = 0; j < 9; j++)
                {
                    innerHealths.emplace(inner.create(), 100 * i + j, true);
                }
                inners.add(inner);
                innerViews.put(entity, new ParallelFixtures_LivingView(inner));
                innerStorages.put(entity, innerHealths);
                innerSpares.put(entity, inner.create());
            }
            final long spare = outer.create();
            final CommandBuffer commands = new CommandBuffer(outer);
            final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(outer);
            final ParallelFixtures_LivingView.Action action = (entity, health) ->
            {
                outerPositions.emplace(commands, commands.create(), health.hp(), 0f);
                outerVelocities.emplace(spare, health.hp(), 0);
                final ParallelFixtures_HealthStorage innerHealths = innerStorages.get(entity);
                final long innerSpare = innerSpares.get(entity);
                final ParallelFixtures_LivingView.Action inner = (innerEntity, innerHealth) ->
                {
                    outerPositions.emplace(commands, commands.create(), innerHealth.hp(), 1f);
                    if (innerHealth.hp() % 3 == 0)
                    {
                        innerHealths.remove(innerEntity);
                    }
                    else
                    {
                        innerHealths.emplace(innerSpare, innerHealth.hp(), false);
                    }
                };
                if (parallel)
                {
                    innerViews.get(entity).parallelForEach(pool(threads), chunkSize, inner);
                }
                else
                {
                    innerViews.get(entity).forEach(inner);
                }
                outerPositions.emplace(commands, commands.create(), health.hp(), 2f);
                outerVelocities.emplace(spare, health.hp(), 2);
                outer.destroy(entity);
            };
            if (parallel)
            {
                living.parallelForEach(pool(threads), chunkSize, action);
            }
            else
            {
                living.forEach(action);
            }
            commands.apply();
            final StringBuilder digest = new StringBuilder(ParallelFixtures.layout(outer));
            for (final World inner : inners)
            {
                digest.append('\n').append(ParallelFixtures.layout(inner));
                inner.close();
            }
            return digest.toString();
        }
    }

    @Test
    void aShutDownPoolIsRefusedBeforeAnythingRunsWhateverTheChunkCount()
    {
        populate(world, new Random(6), 100);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ForkJoinPool stopped = new ForkJoinPool(2);
        stopped.shutdown();
        final AtomicInteger visits = new AtomicInteger();

        for (final int chunkSize : new int[] {1, Integer.MAX_VALUE})
        {
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> movers.parallelForEach(stopped, chunkSize, (entity, position, velocity) ->
                    visits.incrementAndGet()));
            assertTrue(refused.getMessage().contains("is shut down"), refused.getMessage());
        }
        assertEquals(0, visits.get());
        assertFalse(world.isDeferring());
    }

    @Test
    void aPoolShutDownDuringTheRunStopsItNoActionRunsAfterTheCallReturnsAndWhatTheActionsDeferredIsMade()
        throws InterruptedException
    {
        populate(world, new Random(8), 20_000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final int alive = world.aliveCount();
        final ForkJoinPool dying = new ForkJoinPool(4);
        final AtomicInteger visits = new AtomicInteger();
        final AtomicInteger afterReturn = new AtomicInteger();
        final AtomicBoolean returned = new AtomicBoolean();
        final IllegalStateException stopped = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(dying, 1, (entity, position, velocity) ->
            {
                if (returned.get())
                {
                    afterReturn.incrementAndGet();
                }
                if (visits.incrementAndGet() == 200)
                {
                    dying.shutdownNow();
                }
                float sum = 0;
                for (int k = 0; k < 2_000; k++)
                {
                    sum += position.x() * k;
                }
                position.y(sum);
                world.destroy(entity);
            }));
        returned.set(true);
        final int visited = visits.get();
        assertTrue(stopped.getMessage().contains("was shut down while a parallel walk ran") &&
            stopped.getMessage().contains("chunks did not run"), stopped.getMessage());
        assertFalse(world.isDeferring());
        Thread.sleep(100);
        assertEquals(0, afterReturn.get(), "an action ran after parallelForEach returned");
        assertEquals(visited, visits.get(), "an action ran after parallelForEach returned");
        assertTrue(visited > 0 && movers.count() > 0, visited + " visits");
        assertEquals(alive - visited, world.aliveCount(), "the destroys of the chunks that ran were made");
        positions.emplace(world.create(), 1f, 1f);
        world.clear();
    }

    @Test
    void theFirstExceptionReachesTheCallerWithTheOthersSuppressedAndTheWorldIsUsableAfter()
    {
        populate(world, new Random(5), 4000);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final AtomicInteger thrown = new AtomicInteger();

        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> movers.parallelForEach(pool(4), 1, (entity, position, velocity) ->
            {
                if (thrown.incrementAndGet() <= 3)
                {
                    throw new IllegalArgumentException("action failed for " + Entity.toString(entity));
                }
            }));

        assertTrue(failure.getMessage().startsWith("action failed for"));
        assertTrue(failure.getSuppressed().length <= 2);
        assertFalse(world.isDeferring());
        final AssertionError error = assertThrows(AssertionError.class,
            () -> movers.parallelForEach(pool(2), 64, (entity, position, velocity) ->
            {
                throw new AssertionError("an error too");
            }));
        assertEquals("an error too", error.getMessage());
        movers.forEach((entity, position, velocity) -> world.destroy(entity));
        assertEquals(0, movers.count());
    }

    @Test
    void parallelIterationsDoNotNestAndArgumentsAreChecked()
    {
        populate(world, new Random(9), 200);
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final AtomicInteger inner = new AtomicInteger();

        final IllegalStateException nested = assertThrows(IllegalStateException.class,
            () -> movers.parallelForEach(pool(2), 8, (entity, position, velocity) ->
                living.parallelForEach((e, health) -> inner.incrementAndGet())));

        assertTrue(nested.getMessage().contains("cannot start ParallelFixtures_LivingView.parallelForEach while " +
            "ParallelFixtures_MoversView.parallelForEach runs") &&
            nested.getMessage().contains("parallel walks of one World do not nest") &&
            nested.getMessage().contains("walk sequentially inside"), nested.getMessage());
        assertEquals(0, inner.get());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> movers.parallelForEach(pool(2), -1, (entity, position, velocity) -> { }));
        assertTrue(negative.getMessage().contains("chunk size -1 is negative"), negative.getMessage());
        assertThrows(NullPointerException.class,
            () -> movers.parallelForEach(null, 8, (entity, position, velocity) -> { }));
        assertThrows(NullPointerException.class, () -> movers.parallelForEach(null));
        assertFalse(world.isDeferring());
        final int[] readsOtherEntities = {0};
        living.parallelForEach(pool(1), 4, (entity, health) ->
        {
            if (positions.contains(entity))
            {
                synchronized (readsOtherEntities)
                {
                    readsOtherEntities[0]++;
                }
            }
        });
        assertTrue(readsOtherEntities[0] > 0);
    }

    @Test
    void aWorldWalkedByOneThreadRefusesAWalkFromAnotherNamingBothThreadsAndChangesNothing() throws Exception
    {
        populate(world, new Random(2), 100);
        final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        final String before = ParallelFixtures.layout(world);
        final java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final Thread first = new Thread(() -> living.forEach((entity, health) ->
        {
            inside.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }), "first-iterator");
        first.start();
        inside.await();

        final AtomicInteger ran = new AtomicInteger();
        final List<IllegalStateException> refused = new ArrayList<>();
        refused.add(assertThrows(IllegalStateException.class,
            () -> living.forEach((entity, health) -> world.destroy(entity)), "the same view"));
        refused.add(assertThrows(IllegalStateException.class,
            () -> new ParallelFixtures_MoversView(world).forEach((entity, position, velocity) -> ran.incrementAndGet()),
            "another view of the world"));
        refused.add(assertThrows(IllegalStateException.class,
            () -> world.forEachEntity(entity -> ran.incrementAndGet()), "the world's entities"));
        refused.add(assertThrows(IllegalStateException.class,
            () -> new ParallelFixtures_MoversView(world).parallelForEach(pool(2), 8,
                (entity, position, velocity) -> ran.incrementAndGet()),
            "a parallel walk"));
        final IllegalStateException close = assertThrows(IllegalStateException.class, world::close);

        release.countDown();
        first.join();
        final String thread = Thread.currentThread().getName();
        for (final IllegalStateException shared : refused)
        {
            assertTrue(shared.getMessage().contains(" on " + thread + " while ParallelFixtures_LivingView.forEach " +
                "runs on first-iterator") && shared.getMessage().contains("used by one thread at a time"),
                shared.getMessage());
        }
        assertTrue(close.getMessage().contains("cannot be closed while another thread walks it"), close.getMessage());
        assertEquals(0, ran.get(), "no refused walk ran its action");
        assertEquals(before, ParallelFixtures.layout(world), "nothing was deferred into the other thread's walk");
        assertFalse(world.isClosed());
        final AtomicInteger visits = new AtomicInteger();
        living.forEach((entity, health) -> visits.incrementAndGet());
        assertEquals(living.count(), visits.get(), "usable again once the other thread's loop returned");
    }

    @Test
    void anEmptyViewOrAClosedWorldRunsNoAction()
    {
        final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        movers.parallelForEach((entity, position, velocity) ->
        {
            throw new AssertionError("nothing to visit");
        });
        world.close();
        assertThrows(IllegalStateException.class, () -> movers.parallelForEach((entity, position, velocity) -> { }));
    }

    @Test
    void aRunAllocatesPerChunkNotPerEntity() throws Exception
    {
        final List<Thread> workers = new java.util.concurrent.CopyOnWriteArrayList<>();
        final ForkJoinPool two = new ForkJoinPool(2, pool ->
        {
            final java.util.concurrent.ForkJoinWorkerThread worker =
                ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            workers.add(worker);
            return worker;
        }, null, false);
        try
        {
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
            final long small = allocatedByARun(two, threads, workers, 4_000);
            final long large = allocatedByARun(two, threads, workers, 40_000);
            assertTrue(Math.abs(large - small) < 4096 && large < 16384,
                "bytes allocated by a run of 4 chunks over 4,000 entities: " + small + ", over 40,000: " + large);
            assertEquals(Chunks.MIN_AUTOMATIC_CHUNK, Chunks.automaticSize(100, 8));
            assertEquals(12_500, Chunks.automaticSize(1_000_000, 10));
            assertEquals(12_800, Chunks.sizeInBlocks(Chunks.AUTOMATIC, 1_000_000, 10, 512), "whole blocks");
            assertEquals(1_024, Chunks.sizeInBlocks(Chunks.AUTOMATIC, 100, 8, 512));
            assertEquals(1_024, Chunks.sizeInBlocks(700, 1_000_000, 10, 512), "a size asked for, in whole blocks");
            assertEquals(512, Chunks.sizeInBlocks(1, 1_000_000, 10, 512));
            assertEquals(Integer.MAX_VALUE / 512 * 512, Chunks.sizeInBlocks(Integer.MAX_VALUE, 10, 10, 512));
        }
        finally
        {
            two.shutdownNow();
        }
    }

    /** The fewest bytes one of 30 runs of 4 chunks over {@code count} entities allocated, on every thread. */
    private static long allocatedByARun(
        final ForkJoinPool pool,
        final com.sun.management.ThreadMXBean threads,
        final List<Thread> workers,
        final int count)
    {
        try (World other = new World(1 << 17))
        {
            final ParallelFixtures_PositionStorage positions = other.storage(ParallelFixtures_PositionStorage.TYPE);
            final ParallelFixtures_VelocityStorage velocities = other.storage(ParallelFixtures_VelocityStorage.TYPE);
            for (int i = 0; i < count; i++)
            {
                final long entity = other.create();
                positions.emplace(entity, i, i);
                velocities.emplace(entity, 1, 1);
            }
            final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(other);
            final float[] sink = new float[1];
            long fewest = Long.MAX_VALUE;
            for (int round = 0; round < 30; round++)
            {
                final long before = allocatedBy(threads, workers);
                movers.parallelForEach(pool, count / 4, (entity, position, velocity) -> sink[0] += position.x() * 0f);
                fewest = Math.min(fewest, allocatedBy(threads, workers) - before);
            }
            return fewest;
        }
    }

    private static long allocatedBy(final com.sun.management.ThreadMXBean threads, final List<Thread> workers)
    {
        long bytes = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (final Thread worker : workers)
        {
            bytes += Math.max(0, threads.getThreadAllocatedBytes(worker.getId()));
        }
        return bytes;
    }


    private static String shortened(final String text)
    {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    /** The entities a sequential walk of {@code movers} visits, in its order. */
    private static List<Long> walkOrder(final ParallelFixtures_MoversView movers)
    {
        final List<Long> order = new ArrayList<>();
        movers.forEach((entity, position, velocity) -> order.add(entity));
        return order;
    }

    /** Entities with random components of every policy, with removals in between so that every lead has holes. */
    private static void populate(final World world, final Random random, final int count)
    {
        final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
        final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
        final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
        final ParallelFixtures_FrozenStorage frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
        final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);
        final List<Long> entities = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final long entity = world.create();
            entities.add(entity);
            if (random.nextInt(4) != 0)
            {
                positions.emplace(entity, random.nextFloat(), random.nextFloat());
            }
            if (random.nextInt(3) != 0)
            {
                velocities.emplace(entity, random.nextDouble(), random.nextDouble());
            }
            if (random.nextBoolean())
            {
                healths.emplace(entity, random.nextInt(100), true);
            }
            if (random.nextInt(5) == 0)
            {
                frozen.emplace(entity);
            }
            if (positions.contains(entity) && random.nextBoolean())
            {
                heats.emplace(entity, random.nextFloat());
            }
            if (random.nextInt(6) == 0)
            {
                final long victim = entities.get(random.nextInt(entities.size()));
                if (world.valid(victim))
                {
                    velocities.remove(victim);
                    healths.remove(victim);
                    frozen.remove(victim);
                    if (random.nextBoolean())
                    {
                        world.destroy(victim);
                    }
                }
            }
        }
    }

    /**
     * A world with the groups Hot and Tough, populated from a seed, and a spare entity with no component: the same
     * world, handles included, for the same seed and count.
     */
    private record Subject(
        World world,
        ParallelFixtures_PositionStorage positions,
        ParallelFixtures_VelocityStorage velocities,
        ParallelFixtures_HealthStorage healths,
        ParallelFixtures_FrozenStorage frozen,
        ParallelFixtures_HeatStorage heats,
        ParallelFixtures_MoversView movers,
        long spare) implements AutoCloseable
    {
        static Subject of(final long seed, final int count)
        {
            final World world = new World(1 << 16);
            new ParallelFixtures_HotGroup(world);
            new ParallelFixtures_ToughGroup(world);
            populate(world, new Random(seed), count);
            return new Subject(world, world.storage(ParallelFixtures_PositionStorage.TYPE),
                world.storage(ParallelFixtures_VelocityStorage.TYPE),
                world.storage(ParallelFixtures_HealthStorage.TYPE), world.storage(ParallelFixtures_FrozenStorage.TYPE),
                world.storage(ParallelFixtures_HeatStorage.TYPE), new ParallelFixtures_MoversView(world),
                world.create());
        }

        @Override
        public void close()
        {
            world.close();
        }
    }

    /** A structural change an action makes for the entity it visits. */
    @FunctionalInterface
    private interface Change
    {
        void make(Subject subject, long entity);
    }

    /** A sequential iteration and its parallel counterpart, both reduced to the entity. */
    private record Iteration(Consumer<LongConsumer> sequential, Parallel parallel)
    {
    }

    @FunctionalInterface
    private interface Parallel
    {
        void run(ForkJoinPool pool, int chunkSize, LongConsumer action);
    }
}
