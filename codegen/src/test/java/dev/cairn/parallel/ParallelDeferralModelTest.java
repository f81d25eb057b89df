package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.parallel.ParallelFixtures.Frozen;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Heat;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.parallel.ParallelFixtures.Velocity;
import dev.cairn.view.RuntimeView;
import dev.cairn.world.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule of change in parallel walks, against two references. A system walks a view or a group (swap-and-pop,
 * in-place, swap-only and tag leads, an owning and a non-owning group, a runtime view) and its actions make direct
 * structural changes: destroys, removals and additions to the visited entity and to others, additions that later ones
 * overwrite, joins and leaves of the owning group, a storage's clear, field writes; a listener of one addition
 * removes another component. Run in parallel on every thread count and chunk size, the world must come out exactly,
 * packed arrays and group order included, as the same actions leave it in a sequential walk; and the sequential walk
 * must visit exactly the entities that matched when it began and leave the world as a brute-force model does that
 * makes the changes in order at the walk's end (an entity no longer alive drops its change, an addition of a component
 * the entity has by then overwrites it, a removal of one it lacks does nothing), with what the listener records made
 * in the rounds after.
 */
final class ParallelDeferralModelTest
{
    private static final ForkJoinPool[] POOLS = {new ForkJoinPool(1), new ForkJoinPool(2), new ForkJoinPool(8)};
    private static final int[] CHUNK_SIZES = {1, 7, 100, Chunks.AUTOMATIC};
    private static final int WALK_KINDS = 5;

    @AfterAll
    static void shutDown()
    {
        for (final ForkJoinPool pool : POOLS)
        {
            pool.shutdownNow();
        }
    }

    @Test
    void parallelDirectChangesEqualTheSequentialWalkAndItTheModelOnEveryThreadCountAndChunkSize()
    {
        for (final long seed : new long[] {1, 2, 3, 4})
        {
            run(seed, 14, 1_200);
        }
    }

    @Test
    void theCommonPoolWhoseWorkersForgetTheirThreadLocalsGivesTheSameWorld()
    {
        run(5, 6, 3_000, ForkJoinPool.commonPool(), 16);
    }

    private static void run(final long seed, final int rounds, final int count)
    {
        run(seed, rounds, count, null, 0);
    }

    /**
     * Runs {@code rounds} walks on a sequential engine, parallel engines (every pool and chunk size, or the one given)
     * and the model, all grown alike, comparing them after each walk.
     */
    private static void run(
        final long seed, final int rounds, final int count, final ForkJoinPool onlyPool, final int onlyChunk)
    {
        final Map<String, Engine> parallel = new LinkedHashMap<>();
        try (Engine sequential = new Engine(null, 0))
        {
            if (onlyPool != null)
            {
                parallel.put(onlyPool + ", chunk " + onlyChunk, new Engine(onlyPool, onlyChunk));
            }
            else
            {
                for (final ForkJoinPool pool : POOLS)
                {
                    for (final int chunk : CHUNK_SIZES)
                    {
                        parallel.put(pool.getParallelism() + " threads, chunk " + chunk, new Engine(pool, chunk));
                    }
                }
            }
            final Model model = new Model();
            final Random random = new Random(seed);
            final List<Long> victims = new ArrayList<>();
            grow(random, count, sequential, parallel, model, victims);
            for (int round = 0; round < rounds; round++)
            {
                final int kind = random.nextInt(WALK_KINDS);
                final int r = round;
                final String where = "seed " + seed + ", round " + round + ", walk " + kind;

                final List<Long> order = new ArrayList<>();
                sequential.walk(kind, entity ->
                {
                    order.add(entity);
                    decide(seed, r, entity, victims, sequential, sequential);
                });
                assertEquals(model.matching(kind), new HashSet<>(order),
                    where + ": the sequential walk visits the entities matching when it began");
                assertEquals(order.size(), new HashSet<>(order).size(), where + ": each once");
                model.walk(order, entity -> decide(seed, r, entity, victims, model, model));
                final String layout = ParallelFixtures.layout(sequential.world);
                final String expected = model.digest();
                final String actual = ParallelFixtures.digest(sequential.world);
                assertEquals(expected, actual, () -> where + ": against the model, " + difference(expected, actual));

                for (final Map.Entry<String, Engine> engine : parallel.entrySet())
                {
                    final Set<Long> visited = ConcurrentHashMap.newKeySet();
                    engine.getValue().walk(kind, entity ->
                    {
                        if (!visited.add(entity))
                        {
                            throw new AssertionError("visited twice: " + Entity.toString(entity));
                        }
                        decide(seed, r, entity, victims, engine.getValue(), engine.getValue());
                    });
                    assertEquals(new HashSet<>(order), visited, where + " on " + engine.getKey());
                    assertEquals(layout, ParallelFixtures.layout(engine.getValue().world),
                        where + " on " + engine.getKey());
                }
                if (round % 3 == 2)
                {
                    grow(random, count / 10, sequential, parallel, model, victims);
                }
            }
            assertTrue(sequential.world.aliveCount() > 0, "seed " + seed + ": the world did not die out");
        }
        finally
        {
            parallel.values().forEach(Engine::close);
        }
    }

    /** The entities whose lines of two digests differ, as the model's and the world's lines. */
    private static String difference(final String expected, final String actual)
    {
        final List<String> model = List.of(expected.substring(1, expected.length() - 1).split(", (?=\\d+v\\d+)"));
        final List<String> world = List.of(actual.substring(1, actual.length() - 1).split(", (?=\\d+v\\d+)"));
        final List<String> differences = new ArrayList<>();
        for (final String line : model)
        {
            if (!world.contains(line))
            {
                differences.add("model " + line);
            }
        }
        for (final String line : world)
        {
            if (!model.contains(line))
            {
                differences.add("world " + line);
            }
        }
        return differences.subList(0, Math.min(differences.size(), 8)).toString();
    }

    /**
     * What an action does for one entity: a function of the seed, the round, the entity and what the world answers
     * during the walk (the structure as it was when the walk began, and the entity's own fields), only.
     */
    private static void decide(
        final long seed, final int round, final long entity, final List<Long> victims, final Reader read,
        final Sink change)
    {
        long hash = (entity + 1) * 0x9E3779B97F4A7C15L + (round + 1) * 0xBF58476D1CE4E5B9L + seed * 0x94D049BB133111EBL;
        for (int op = 0; op < 2; op++)
        {
            hash ^= hash >>> 29;
            hash *= 0xBF58476D1CE4E5B9L;
            hash ^= hash >>> 32;
            final long victim = victims.get((int)Long.remainderUnsigned(hash >>> 20, victims.size()));
            final int choice = (int)Long.remainderUnsigned(hash, 23);
            switch (choice)
            {
                case 0:
                    change.destroy(entity);
                    break;
                case 1:
                case 2:
                    if (read.valid(victim))
                    {
                        change.destroy(victim);
                    }
                    break;
                case 3:
                    change.remove(entity, Velocity.class);
                    break;
                case 4:
                    if (read.valid(victim))
                    {
                        change.remove(victim, Position.class);
                    }
                    break;
                case 5:
                case 6:
                    if (!read.has(entity, Frozen.class))
                    {
                        change.add(entity, new Frozen());
                    }
                    break;
                case 7:
                case 8:
                case 9:
                    if (read.valid(victim) && !read.has(victim, Health.class))
                    {
                        // From several actions: the one made last, in walk order, stays.
                        change.add(victim, new Health((int)(hash >>> 40) & 0xFF, round % 2 == 0));
                    }
                    break;
                case 10:
                case 11:
                    if (read.has(entity, Position.class) && !read.has(entity, Heat.class))
                    {
                        change.add(entity, new Heat(round + Entity.index(entity)));
                    }
                    break;
                case 12:
                    change.remove(entity, Health.class);
                    break;
                case 13:
                    if (read.valid(victim))
                    {
                        change.remove(victim, Heat.class);
                    }
                    break;
                case 14:
                case 15:
                    if (read.has(entity, Position.class))
                    {
                        change.writeX(entity, read.x(entity) + 1f);
                    }
                    break;
                case 16:
                    if (read.valid(victim) && !read.has(victim, Position.class))
                    {
                        change.add(victim, new Position(round, Entity.index(entity)));
                    }
                    break;
                case 17:
                    if (Long.remainderUnsigned(hash >>> 8, 40) == 0)
                    {
                        change.clearVelocities();
                    }
                    break;
                default:
                    break;
            }
        }
    }

    /**
     * Creates {@code count} entities with random components in every engine and the model, which takes the handles
     * the sequential engine hands out (the parallel engines must hand out the same).
     */
    private static void grow(
        final Random random,
        final int count,
        final Engine sequential,
        final Map<String, Engine> parallel,
        final Model model,
        final List<Long> victims)
    {
        for (int i = 0; i < count; i++)
        {
            final List<Record> components = new ArrayList<>();
            if (random.nextInt(4) != 0)
            {
                components.add(new Position(random.nextInt(100), random.nextInt(100)));
                if (random.nextBoolean())
                {
                    components.add(new Heat(random.nextInt(100)));
                }
            }
            if (random.nextInt(3) != 0)
            {
                components.add(new Velocity(random.nextInt(10), random.nextInt(10)));
            }
            if (random.nextBoolean())
            {
                components.add(new Health(random.nextInt(50), true));
            }
            final long entity = sequential.create(components);
            for (final Map.Entry<String, Engine> engine : parallel.entrySet())
            {
                assertEquals(entity, engine.getValue().create(components), engine.getKey() + ": the same handle");
            }
            model.create(entity, components);
            victims.add(entity);
        }
    }

    /** What an action may ask: the answers hold still during a walk, but for the visited entity's own fields. */
    private interface Reader
    {
        boolean valid(long entity);

        boolean has(long entity, Class<? extends Record> component);

        float x(long entity);
    }

    /** The changes an action makes. */
    private interface Sink
    {
        void destroy(long entity);

        void add(long entity, Record component);

        void remove(long entity, Class<? extends Record> component);

        void writeX(long entity, float x);

        void clearVelocities();
    }

    /** A world walked sequentially (no pool) or in parallel, whose actions make the changes directly. */
    private static final class Engine implements Reader, Sink, AutoCloseable
    {
        final World world = new World(1 << 16);
        private final ForkJoinPool pool;
        private final int chunk;
        private final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
        private final ParallelFixtures_VelocityStorage velocities =
            world.storage(ParallelFixtures_VelocityStorage.TYPE);
        private final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
        private final ParallelFixtures_FrozenStorage frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
        private final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);
        private final ParallelFixtures_HotGroup hot = new ParallelFixtures_HotGroup(world);
        private final ParallelFixtures_ToughGroup tough = new ParallelFixtures_ToughGroup(world);
        private final ParallelFixtures_MoversView movers = new ParallelFixtures_MoversView(world);
        private final ParallelFixtures_LivingView living = new ParallelFixtures_LivingView(world);
        private final RuntimeView runtime = world.view(Health.class, Position.class).without(Frozen.class);

        Engine(final ForkJoinPool pool, final int chunk)
        {
            this.pool = pool;
            this.chunk = chunk;
            ParallelFixtures.storages(world);
            // Heard when a deferred addition is made: its removal is recorded and made in the next round.
            frozen.onAdded((entity, index) -> healths.remove(entity));
        }

        long create(final List<Record> components)
        {
            final long entity = world.create();
            for (final Record component : components)
            {
                world.add(entity, component);
            }
            return entity;
        }

        void walk(final int kind, final LongConsumer action)
        {
            switch (kind)
            {
                case 0:
                    if (pool == null)
                    {
                        movers.forEach((entity, position, velocity) -> action.accept(entity));
                    }
                    else
                    {
                        movers.parallelForEach(pool, chunk, (entity, position, velocity) -> action.accept(entity));
                    }
                    break;
                case 1:
                    if (pool == null)
                    {
                        living.forEach((entity, health) -> action.accept(entity));
                    }
                    else
                    {
                        living.parallelForEach(pool, chunk, (entity, health) -> action.accept(entity));
                    }
                    break;
                case 2:
                    if (pool == null)
                    {
                        hot.forEach((entity, position, heat) -> action.accept(entity));
                    }
                    else
                    {
                        hot.parallelForEach(pool, chunk, (entity, position, heat) -> action.accept(entity));
                    }
                    break;
                case 3:
                    if (pool == null)
                    {
                        tough.forEach((entity, health, velocity) -> action.accept(entity));
                    }
                    else
                    {
                        tough.parallelForEach(pool, chunk, (entity, health, velocity) -> action.accept(entity));
                    }
                    break;
                default:
                    if (pool == null)
                    {
                        runtime.forEach(action);
                    }
                    else
                    {
                        runtime.parallelForEach(pool, chunk, action);
                    }
                    break;
            }
        }

        @Override
        public boolean valid(final long entity)
        {
            return world.valid(entity);
        }

        @Override
        public boolean has(final long entity, final Class<? extends Record> component)
        {
            return world.has(entity, component);
        }

        @Override
        public float x(final long entity)
        {
            return positions.x(entity);
        }

        @Override
        public void destroy(final long entity)
        {
            world.destroy(entity);
        }

        @Override
        public void add(final long entity, final Record component)
        {
            world.add(entity, component);
        }

        @Override
        public void remove(final long entity, final Class<? extends Record> component)
        {
            world.remove(entity, component);
        }

        @Override
        public void writeX(final long entity, final float x)
        {
            positions.x(entity, x);
        }

        @Override
        public void clearVelocities()
        {
            velocities.clear();
        }

        @Override
        public void close()
        {
            world.close();
        }
    }

    /**
     * The brute-force model: each alive entity's components by type. During a walk its answers are those of the
     * walk's start (field writes aside), and its changes are checked against them as the direct calls check (a removal
     * of a component the entity lacks is no change), queued, then made in order when the walk ends; an addition of
     * {@link Frozen} runs the listener, whose removal of {@link Health} is decided then and made in the next round.
     */
    private static final class Model implements Reader, Sink
    {
        private static final List<Class<? extends Record>> ORDER =
            List.of(Position.class, Velocity.class, Health.class, Frozen.class, ParallelFixtures.Follow.class,
                Heat.class);

        private final Map<Long, Map<Class<? extends Record>, Record>> entities = new HashMap<>();
        private List<Runnable> recorded = new ArrayList<>();

        void create(final long entity, final List<Record> components)
        {
            final Map<Class<? extends Record>, Record> held = new HashMap<>();
            for (final Record component : components)
            {
                held.put(component.getClass(), component);
            }
            entities.put(entity, held);
        }

        Set<Long> matching(final int kind)
        {
            final Set<Long> matching = new HashSet<>();
            for (final Map.Entry<Long, Map<Class<? extends Record>, Record>> entry : entities.entrySet())
            {
                final Map<Class<? extends Record>, Record> held = entry.getValue();
                final boolean matches = switch (kind)
                {
                    case 0 -> held.containsKey(Position.class) && held.containsKey(Velocity.class) &&
                        !held.containsKey(Frozen.class);
                    case 1 -> held.containsKey(Health.class);
                    case 2 -> held.containsKey(Position.class) && held.containsKey(Heat.class);
                    case 3 -> held.containsKey(Health.class) && held.containsKey(Velocity.class);
                    default -> held.containsKey(Health.class) && held.containsKey(Position.class) &&
                        !held.containsKey(Frozen.class);
                };
                if (matches)
                {
                    matching.add(entry.getKey());
                }
            }
            return matching;
        }

        /** Runs the actions in the walk's order, then makes what they recorded, round after round. */
        void walk(final List<Long> order, final LongConsumer action)
        {
            order.forEach(action::accept);
            while (!recorded.isEmpty())
            {
                final List<Runnable> round = recorded;
                recorded = new ArrayList<>();
                round.forEach(Runnable::run);
            }
        }

        String digest()
        {
            final TreeMap<Integer, String> text = new TreeMap<>();
            for (final Map.Entry<Long, Map<Class<? extends Record>, Record>> entry : entities.entrySet())
            {
                final StringBuilder line = new StringBuilder(Entity.toString(entry.getKey()));
                for (final Class<? extends Record> type : ORDER)
                {
                    final Record component = entry.getValue().get(type);
                    if (component != null)
                    {
                        line.append(' ').append(component);
                    }
                }
                text.put(Entity.index(entry.getKey()), line.toString());
            }
            return text.values().toString();
        }

        @Override
        public boolean valid(final long entity)
        {
            return entities.containsKey(entity);
        }

        @Override
        public boolean has(final long entity, final Class<? extends Record> component)
        {
            return entities.containsKey(entity) && entities.get(entity).containsKey(component);
        }

        @Override
        public float x(final long entity)
        {
            return ((Position)entities.get(entity).get(Position.class)).x();
        }

        @Override
        public void destroy(final long entity)
        {
            recorded.add(() -> entities.remove(entity));
        }

        @Override
        public void add(final long entity, final Record component)
        {
            recorded.add(() ->
            {
                final Map<Class<? extends Record>, Record> held = entities.get(entity);
                if (held != null && held.put(component.getClass(), component) == null && component instanceof Frozen)
                {
                    remove(entity, Health.class);
                }
            });
        }

        @Override
        public void remove(final long entity, final Class<? extends Record> component)
        {
            if (!has(entity, component))
            {
                // Decided now, as the direct call decides: a component the entity lacks now is not removed later,
                // even if a change recorded before gives it one by then.
                return;
            }
            recorded.add(() ->
            {
                final Map<Class<? extends Record>, Record> held = entities.get(entity);
                if (held != null)
                {
                    held.remove(component);
                }
            });
        }

        @Override
        public void writeX(final long entity, final float x)
        {
            final Position position = (Position)entities.get(entity).get(Position.class);
            entities.get(entity).put(Position.class, new Position(x, position.y()));
        }

        @Override
        public void clearVelocities()
        {
            recorded.add(() -> entities.values().forEach(held -> held.remove(Velocity.class)));
        }
    }
}
