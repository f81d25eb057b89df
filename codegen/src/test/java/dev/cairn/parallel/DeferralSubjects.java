package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.parallel.ParallelFixtures.Frozen;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Heat;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.parallel.ParallelFixtures.Velocity;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.view.RuntimeView;
import dev.cairn.world.World;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongConsumer;

/**
 * What the deferral model and fuzz tests share: a world whose walks (sequential, or parallel on a pool in chunks of a
 * size) run actions that change it directly ({@link Engine}), a brute-force model of the rule of change
 * ({@link Model}), and the changes a system's action makes ({@link #change}), so that the same decisions run against
 * each.
 */
final class DeferralSubjects
{
    /** The walks an engine makes: Movers, Living, Hot, Tough, a runtime view, and Hot by index and by block. */
    static final int WALK_KINDS = 7;

    private DeferralSubjects()
    {
    }

    /** How many kinds of change {@link #change} makes; choices from there up make none. */
    static final int CHANGES = 18;

    /**
     * One change an action makes for the entity it visits, chosen by {@code choice}, deciding by what the world answers
     * during the walk (the structure as it was when the walk began, and the entity's own fields) only, as a system
     * does.
     *
     * @param choice what to change; {@link #CHANGES} and above change nothing.
     * @param entity the visited entity.
     * @param victim another entity ever created in the world, alive or not.
     * @param value  a value for what is added.
     * @param round  the walk's number.
     */
    static void change(
        final int choice,
        final long entity,
        final long victim,
        final int value,
        final int round,
        final Reader read,
        final Sink change)
    {
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
                    change.add(victim, new Health(value & 0xFF, round % 2 == 0));
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
                change.clearVelocities();
                break;
            default:
                break;
        }
    }

    /** The entities whose lines of two digests differ, as the model's and the world's lines. */
    static String difference(final String expected, final String actual)
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

    /** What an action may ask: the answers hold still during a walk, but for the visited entity's own fields. */
    interface Reader
    {
        boolean valid(long entity);

        boolean has(long entity, Class<? extends Record> component);

        float x(long entity);
    }

    /** The changes an action makes. */
    interface Sink
    {
        void destroy(long entity);

        void add(long entity, Record component);

        void remove(long entity, Class<? extends Record> component);

        void writeX(long entity, float x);

        void clearVelocities();
    }

    /** A world walked sequentially (no pool) or in parallel, whose actions make the changes directly. */
    static final class Engine implements Reader, Sink, AutoCloseable
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
            walk(kind, pool, chunk, action);
        }

        /**
         * Walks the entities of one kind of walk, passing each to {@code action}.
         *
         * @param kind   which view or group, below {@link #WALK_KINDS}.
         * @param pool   where the chunks run; null for a sequential walk.
         * @param chunk  the chunk size of a parallel walk.
         * @param action what runs for each entity.
         */
        void walk(final int kind, final ForkJoinPool pool, final int chunk, final LongConsumer action)
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
                case 4:
                    if (pool == null)
                    {
                        runtime.forEach(action);
                    }
                    else
                    {
                        runtime.parallelForEach(pool, chunk, action);
                    }
                    break;
                case 5:
                    final RuntimeGroup group = hot.group();
                    if (pool == null)
                    {
                        hot.forEachIndex(i -> action.accept(group.entityAt(i)));
                    }
                    else
                    {
                        hot.parallelForEachIndex(pool, chunk, i -> action.accept(group.entityAt(i)));
                    }
                    break;
                default:
                    final ParallelFixtures_HotGroup.BlockAction blocks = block ->
                    {
                        for (int i = 0; i < block.length(); i++)
                        {
                            action.accept(block.entity(i));
                        }
                    };
                    if (pool == null)
                    {
                        hot.forEachBlock(blocks);
                    }
                    else
                    {
                        hot.parallelForEachBlock(pool, chunk, blocks);
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
     * walk's start (field writes aside), and its changes are queued, then made in order when the walk ends (a removal
     * recorded after an addition of the same walk undoes it); an addition of {@link Frozen} runs the listener, whose
     * removal of {@link Health} is made in the next round.
     */
    static final class Model implements Reader, Sink
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

        /** Destroys an entity at once, as a destroy outside any walk does. */
        void destroyNow(final long entity)
        {
            entities.remove(entity);
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
                    case 2, 5, 6 -> held.containsKey(Position.class) && held.containsKey(Heat.class);
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
