package dev.cairn.views;

import dev.cairn.world.World;
import dev.cairn.views.ViewFixtures.Frozen;
import dev.cairn.views.ViewFixtures.Hp;
import dev.cairn.views.ViewFixtures.Kind;
import dev.cairn.views.ViewFixtures.Marked;
import dev.cairn.views.ViewFixtures.Pos;
import dev.cairn.views.ViewFixtures.Sleeping;
import dev.cairn.views.ViewFixtures.Vel;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Random worlds, random changes between and during iterations, every generated view of {@link ViewFixtures} and the
 * equivalent runtime views, both iteration forms: each iteration is checked against a brute-force model that filters
 * the live entities by membership and, as the rule of change says (docs/views.md), applies the structural changes
 * made during a walk when the walk ends, in the order made.
 * <p>
 * Per iteration: the walk visits exactly the entities that matched when it began, each once (a cursor loop left early
 * a prefix of them), with the field values the model holds; while it runs, destroys, adds, removes and clears leave
 * {@code count()}, {@code contains()} and {@code valid()} answering as before, creates are made at once, field writes
 * are seen at once, and reordering is refused naming the walk. After it: the recorded changes are in the storages
 * (an add to an entity that has the component by then overwrites it, a change to an entity no longer alive is
 * dropped), values written through the view's accessors are there too, {@code count()} and {@code contains()} agree
 * with the model.
 * <p>
 * Seeds 1..{@code cairn.view.seeds} (default 200) run by default; {@code -Dcairn.view.seed=N} runs just seed N. A
 * failure names its seed, step, view and form, and lists the operations that led to it.
 */
final class ViewModelBasedTest
{
    private static final List<Class<? extends Record>> COMPONENTS = List.of(
        Pos.class, Vel.class, Hp.class, Kind.class, Frozen.class, Marked.class, Sleeping.class);
    private static final int STEPS = 50;
    private static final int MAX_ALIVE = 400;

    private enum Mode
    {
        READ, WRITE, REMOVE_CURRENT, REMOVE_ANY, ADD_AND_CREATE, MIXED
    }

    @Test
    void generatedAndRuntimeViewsVisitExactlyTheMatchingEntities()
    {
        final Long single = Long.getLong("cairn.view.seed");
        if (single != null)
        {
            run(single);
            return;
        }
        final int seeds = Integer.getInteger("cairn.view.seeds", 200);
        for (long seed = 1; seed <= seeds; seed++)
        {
            run(seed);
        }
    }

    private static void run(final long seed)
    {
        new Run(seed).execute();
    }

    /** One seeded run: a world, its model and the operation log. */
    private static final class Run
    {
        private final long seed;
        private final Random random;
        private final World world = new World(4096);
        private final Map<Long, Map<Class<?>, Record>> model = new LinkedHashMap<>();
        private final List<Long> dead = new ArrayList<>();
        private final Deque<String> log = new ArrayDeque<>();
        /** The model's side of the changes recorded during the walk under way, applied in order when it ends. */
        private final List<Runnable> recorded = new ArrayList<>();
        private boolean walking;
        private int step;
        private String context = "setup";

        Run(final long seed)
        {
            this.seed = seed;
            this.random = new Random(seed);
        }

        void execute()
        {
            try
            {
                final List<ViewHarness> views = ViewHarness.all(world);
                final int target = 10 + random.nextInt(MAX_ALIVE);
                for (int k = 0; k < target; k++)
                {
                    create(0.5);
                }
                for (step = 0; step < STEPS; step++)
                {
                    final int ops = random.nextInt(30);
                    for (int k = 0; k < ops; k++)
                    {
                        randomOperation();
                    }
                    final ViewHarness view = views.get(random.nextInt(views.size()));
                    final boolean cursor = random.nextBoolean();
                    final Mode mode = Mode.values()[random.nextInt(Mode.values().length)];
                    context = view + (cursor && !view.isRuntime() ? " cursor" : " forEach") + " " + mode;
                    log("iterate " + context);
                    iterate(view, cursor, mode);
                    checkAll(views);
                }
                context = "close";
                closeDuringIteration(views.get(random.nextInt(views.size())), random.nextBoolean());
            }
            catch (final AssertionError | RuntimeException ex)
            {
                throw new AssertionError(
                    "seed " + seed + " (rerun with -Dcairn.view.seed=" + seed + "), step " + step + ", " + context +
                    ": " + ex.getMessage() + "\nlast operations, oldest first:\n  " + String.join("\n  ", log), ex);
            }
            finally
            {
                world.close();
            }
        }

        private void iterate(final ViewHarness view, final boolean cursor, final Mode mode)
        {
            final Set<Long> atStart = matching(view);
            final Set<Long> visited = new HashSet<>();
            final boolean[] stoppedEarly = new boolean[1];
            final ViewHarness.Visitor visitor = (entity, accessors) ->
            {
                if (!visited.add(entity))
                {
                    throw new AssertionError("visited " + name(entity) + " twice");
                }
                if (!atStart.contains(entity))
                {
                    throw new AssertionError(
                        "visited " + name(entity) + ", which did not match when the walk began; it has " +
                        describe(entity));
                }
                checkAccessors(view, entity, accessors);
                if (mode != Mode.READ && random.nextInt(3) == 0)
                {
                    for (final Map.Entry<Class<?>, ViewHarness.Accessor> entry : accessors.entrySet())
                    {
                        final Record value = ViewHarness.randomValue(entry.getKey(), random);
                        entry.getValue().set(value);
                        model.get(entity).put(entry.getKey(), value);
                        log("  write " + value + " to " + name(entity) + " through the view");
                    }
                }
                if ((mode == Mode.REMOVE_CURRENT || mode == Mode.REMOVE_ANY || mode == Mode.MIXED) &&
                    random.nextInt(4) == 0)
                {
                    removeSomething(entity);
                }
                if ((mode == Mode.REMOVE_ANY || mode == Mode.MIXED) && random.nextInt(4) == 0)
                {
                    final long other = randomAlive();
                    if (other != -1L)
                    {
                        removeSomething(other);
                    }
                }
                if ((mode == Mode.ADD_AND_CREATE || mode == Mode.MIXED) && random.nextInt(3) == 0)
                {
                    if (random.nextBoolean() && model.size() < MAX_ALIVE * 2)
                    {
                        create(0.6);
                    }
                    else
                    {
                        final long target = randomAlive();
                        if (target != -1L)
                        {
                            final Class<? extends Record> recordClass = randomComponent();
                            if (!model.get(target).containsKey(recordClass))
                            {
                                add(target, recordClass);
                            }
                        }
                    }
                }
                if (mode == Mode.MIXED)
                {
                    duringWalkOnly(view);
                }
                if (random.nextInt(20) == 0 && view.count() != atStart.size())
                {
                    throw new AssertionError("count() is " + view.count() + " during the walk; " + atStart.size() +
                        " matched when it began");
                }
                if (cursor && random.nextInt(200) == 0)
                {
                    stoppedEarly[0] = true;
                    return false;
                }
                return true;
            };
            walking = true;
            try
            {
                if (cursor)
                {
                    view.cursor(visitor);
                }
                else
                {
                    view.forEach(visitor);
                }
            }
            finally
            {
                walking = false;
                applyRecorded();
            }
            if (!stoppedEarly[0] && visited.size() != atStart.size())
            {
                final Set<Long> missed = new LinkedHashSet<>(atStart);
                missed.removeAll(visited);
                throw new AssertionError("missed " + missed.size() + " of the " + atStart.size() + " entities " +
                    "that matched when the walk began, first " + name(missed.iterator().next()));
            }
        }

        /** Destroys an entity or removes one of its components; during a walk it is recorded. */
        private void removeSomething(final long entity)
        {
            if (random.nextInt(3) == 0)
            {
                destroy(entity);
            }
            else
            {
                final List<Class<?>> present = new ArrayList<>(model.get(entity).keySet());
                if (!present.isEmpty())
                {
                    remove(entity, present.get(random.nextInt(present.size())));
                }
            }
        }

        /** What only a walk's action does: a refused reorder, a storage's clear, a patch of another entity. */
        private void duringWalkOnly(final ViewHarness view)
        {
            final int choice = random.nextInt(100);
            if (choice < 3)
            {
                final Class<? extends Record> recordClass = randomComponent();
                final IllegalStateException refused = assertThrows(IllegalStateException.class, choice == 0 ?
                    () -> world.storage(recordClass).compact() :
                    () -> world.storage(recordClass).sortAs(world.storage(randomComponent())));
                if (!refused.getMessage().contains(" runs: the structure holds still"))
                {
                    throw new AssertionError("a reorder during the walk of " + view + " was refused with: " +
                        refused.getMessage());
                }
                log("  reorder " + recordClass.getSimpleName() + ", refused");
            }
            else if (choice < 4)
            {
                final Class<? extends Record> recordClass = randomComponent();
                final int members = world.storage(recordClass).memberCount();
                world.storage(recordClass).clear();
                if (world.storage(recordClass).memberCount() != members)
                {
                    throw new AssertionError("clear() of " + recordClass.getSimpleName() + " was made during the walk");
                }
                recorded.add(() ->
                {
                    for (final Map<Class<?>, Record> components : model.values())
                    {
                        components.remove(recordClass);
                    }
                });
                log("  clear " + recordClass.getSimpleName() + " (recorded)");
            }
            else if (choice < 14)
            {
                final long entity = randomAlive();
                final Class<? extends Record> recordClass = randomComponent();
                if (entity != -1L && model.get(entity).containsKey(recordClass))
                {
                    patch(entity, recordClass);
                }
            }
        }

        /** Applies the model's side of the changes recorded during the walk, in order, by the rules of the world. */
        private void applyRecorded()
        {
            for (final Runnable change : recorded)
            {
                change.run();
            }
            recorded.clear();
        }
        private void checkAccessors(
            final ViewHarness view, final long entity, final Map<Class<?>, ViewHarness.Accessor> accessors)
        {
            final Set<Class<?>> expected = new LinkedHashSet<>();
            for (final Class<? extends Record> recordClass : view.with)
            {
                if (!ViewHarness.isTag(recordClass))
                {
                    expected.add(recordClass);
                }
            }
            if (!expected.equals(accessors.keySet()))
            {
                throw new AssertionError("passed accessors " + accessors.keySet() + ", expected " + expected);
            }
            for (final Map.Entry<Class<?>, ViewHarness.Accessor> entry : accessors.entrySet())
            {
                final Record actual = entry.getValue().get();
                final Record wanted = model.get(entity).get(entry.getKey());
                if (!actual.equals(wanted))
                {
                    throw new AssertionError(
                        "read " + actual + " through the view for " + name(entity) + ", the model has " + wanted);
                }
            }
        }

        private void checkAll(final List<ViewHarness> views)
        {
            for (final Map.Entry<Long, Map<Class<?>, Record>> entry : model.entrySet())
            {
                final long entity = entry.getKey();
                for (final Class<? extends Record> recordClass : COMPONENTS)
                {
                    final Record wanted = entry.getValue().get(recordClass);
                    final boolean has = world.storage(recordClass).contains(entity);
                    if (has != (wanted != null))
                    {
                        throw new AssertionError(
                            name(entity) + (has ? " has " : " lacks ") + recordClass.getSimpleName() +
                            "; the model disagrees");
                    }
                    if (wanted != null && !world.get(entity, recordClass).equals(wanted))
                    {
                        throw new AssertionError(
                            name(entity) + " holds " + world.get(entity, recordClass) + ", the model " + wanted);
                    }
                }
            }
            for (final ViewHarness view : views)
            {
                final Set<Long> expected = matching(view);
                final int count = view.count();
                if (count != expected.size())
                {
                    throw new AssertionError(view + ".count() is " + count + ", the model says " + expected.size());
                }
                for (final long entity : model.keySet())
                {
                    if (view.contains(entity) != expected.contains(entity))
                    {
                        throw new AssertionError(
                            view + ".contains(" + name(entity) + ") is " + !expected.contains(entity));
                    }
                }
                for (final long entity : dead.subList(Math.max(0, dead.size() - 20), dead.size()))
                {
                    if (view.contains(entity))
                    {
                        throw new AssertionError(view + " contains destroyed " + name(entity));
                    }
                }
            }
        }

        private void closeDuringIteration(final ViewHarness view, final boolean cursor)
        {
            final int stopAfter = random.nextInt(Math.max(1, matching(view).size()) + 1);
            final int[] visits = new int[1];
            final ViewHarness.Visitor visitor = (entity, accessors) ->
            {
                if (visits[0]++ == stopAfter)
                {
                    // forEach and cursor loops alike hold the world: the close is refused and frees nothing.
                    final IllegalStateException refused =
                        assertThrows(IllegalStateException.class, world::close, "close inside a walk is refused");
                    assertTrue(refused.getMessage().startsWith("World cannot be closed while") &&
                        refused.getMessage().contains("close it after that returns"), refused.getMessage());
                    for (final ViewHarness.Accessor accessor : accessors.values())
                    {
                        accessor.get();
                    }
                }
                return true;
            };
            run(view, cursor, visitor);
            assertFalse(world.isClosed(), "a refused close changes nothing");
            world.close();
            assertThrows(IllegalStateException.class, () -> run(view, cursor, visitor), "iteration after close");
            assertThrows(IllegalStateException.class, view::count, "count after close");
        }

        private static void run(final ViewHarness view, final boolean cursor, final ViewHarness.Visitor visitor)
        {
            if (cursor)
            {
                view.cursor(visitor);
            }
            else
            {
                view.forEach(visitor);
            }
        }

        private void randomOperation()
        {
            final int choice = random.nextInt(100);
            if (choice < 25)
            {
                if (model.size() < MAX_ALIVE * 2)
                {
                    create(random.nextDouble());
                }
            }
            else if (choice < 38)
            {
                final long entity = randomAlive();
                if (entity != -1L)
                {
                    destroy(entity);
                }
            }
            else if (choice < 63)
            {
                final long entity = randomAlive();
                final Class<? extends Record> recordClass = randomComponent();
                if (entity != -1L && !model.get(entity).containsKey(recordClass))
                {
                    add(entity, recordClass);
                }
            }
            else if (choice < 85)
            {
                final long entity = randomAlive();
                final Class<? extends Record> recordClass = randomComponent();
                if (entity != -1L && model.get(entity).containsKey(recordClass))
                {
                    remove(entity, recordClass);
                }
            }
            else if (choice < 93)
            {
                final long entity = randomAlive();
                final Class<? extends Record> recordClass = randomComponent();
                if (entity != -1L && model.get(entity).containsKey(recordClass))
                {
                    patch(entity, recordClass);
                }
            }
            else if (choice < 97)
            {
                final Class<? extends Record> first = randomComponent();
                final Class<? extends Record> second = randomComponent();
                world.storage(first).sortAs(world.storage(second));
                log("sort " + first.getSimpleName() + " as " + second.getSimpleName());
            }
            else if (choice < 99)
            {
                final Class<? extends Record> recordClass = randomComponent();
                world.storage(recordClass).compact();
                log("compact " + recordClass.getSimpleName());
            }
            else
            {
                world.clear();
                dead.addAll(model.keySet());
                model.clear();
                log("clear");
            }
        }

        private long create(final double componentChance)
        {
            final long entity = world.create();
            model.put(entity, new LinkedHashMap<>());
            log("create " + name(entity));
            for (final Class<? extends Record> recordClass : COMPONENTS)
            {
                if (random.nextDouble() < componentChance)
                {
                    add(entity, recordClass);
                }
            }
            return entity;
        }

        private void destroy(final long entity)
        {
            world.destroy(entity);
            if (walking)
            {
                if (!world.valid(entity))
                {
                    throw new AssertionError("destroy(" + name(entity) + ") was made during the walk");
                }
                recorded.add(() ->
                {
                    if (model.remove(entity) != null)
                    {
                        dead.add(entity);
                    }
                });
                log("  destroy " + name(entity) + " (recorded)");
                return;
            }
            model.remove(entity);
            dead.add(entity);
            log("destroy " + name(entity));
        }

        private void add(final long entity, final Class<? extends Record> recordClass)
        {
            final Record value = ViewHarness.randomValue(recordClass, random);
            world.add(entity, value);
            if (walking)
            {
                if (world.storage(recordClass).contains(entity))
                {
                    throw new AssertionError(
                        "an add of " + value + " to " + name(entity) + " was made during the walk");
                }
                recorded.add(() ->
                {
                    final Map<Class<?>, Record> components = model.get(entity);
                    if (components != null)
                    {
                        components.put(recordClass, value);
                    }
                });
                log("  add " + value + " to " + name(entity) + " (recorded)");
                return;
            }
            model.get(entity).put(recordClass, value);
            log("add " + value + " to " + name(entity));
        }

        private void remove(final long entity, final Class<?> recordClass)
        {
            @SuppressWarnings("unchecked")
            final Class<? extends Record> component = (Class<? extends Record>)recordClass;
            if (!world.remove(entity, component))
            {
                throw new AssertionError(
                    "remove " + recordClass.getSimpleName() + " from " + name(entity) + " found none");
            }
            if (walking)
            {
                if (!world.has(entity, component))
                {
                    throw new AssertionError("a remove of " + recordClass.getSimpleName() + " from " + name(entity) +
                        " was made during the walk");
                }
                recorded.add(() ->
                {
                    final Map<Class<?>, Record> components = model.get(entity);
                    if (components != null)
                    {
                        components.remove(recordClass);
                    }
                });
                log("  remove " + recordClass.getSimpleName() + " from " + name(entity) + " (recorded)");
                return;
            }
            model.get(entity).remove(recordClass);
            log("remove " + recordClass.getSimpleName() + " from " + name(entity));
        }

        private void patch(final long entity, final Class<? extends Record> recordClass)
        {
            final Record value = ViewHarness.randomValue(recordClass, random);
            world.storage(recordClass).patch(entity, cast(value));
            model.get(entity).put(recordClass, value);
            log((walking ? "  patch " : "patch ") + name(entity) + " " + value);
        }

        private long randomAlive()
        {
            if (model.isEmpty())
            {
                return -1L;
            }
            int k = random.nextInt(model.size());
            for (final long entity : model.keySet())
            {
                if (k-- == 0)
                {
                    return entity;
                }
            }
            throw new IllegalStateException();
        }

        private Class<? extends Record> randomComponent()
        {
            return COMPONENTS.get(random.nextInt(COMPONENTS.size()));
        }

        private Set<Long> matching(final ViewHarness view)
        {
            final Set<Long> set = new LinkedHashSet<>();
            for (final long entity : model.keySet())
            {
                if (matches(view, entity))
                {
                    set.add(entity);
                }
            }
            return set;
        }

        private boolean matches(final ViewHarness view, final long entity)
        {
            final Map<Class<?>, Record> components = model.get(entity);
            if (components == null)
            {
                return false;
            }
            for (final Class<?> recordClass : view.with)
            {
                if (!components.containsKey(recordClass))
                {
                    return false;
                }
            }
            for (final Class<?> recordClass : view.without)
            {
                if (components.containsKey(recordClass))
                {
                    return false;
                }
            }
            return true;
        }

        private String describe(final long entity)
        {
            final Map<Class<?>, Record> components = model.get(entity);
            return components == null ? "been destroyed" : components.values().toString();
        }

        private void log(final String operation)
        {
            log.addLast(operation);
            if (log.size() > 60)
            {
                log.removeFirst();
            }
        }

        @SuppressWarnings("unchecked")
        private static <R extends Record> R cast(final Record value)
        {
            return (R)value;
        }

        private static String name(final long entity)
        {
            return dev.cairn.Entity.toString(entity);
        }
    }
}
