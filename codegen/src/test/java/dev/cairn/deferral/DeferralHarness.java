package dev.cairn.deferral;

import dev.cairn.Entity;
import dev.cairn.deferral.DeferralFixtures.Hp;
import dev.cairn.deferral.DeferralFixtures.Mark;
import dev.cairn.deferral.DeferralFixtures.Pos;
import dev.cairn.deferral.DeferralFixtures.Tag;
import dev.cairn.deferral.DeferralFixtures.Vel;
import dev.cairn.deferral.DeferralModel.Change;
import dev.cairn.deferral.DeferralModel.Comp;
import dev.cairn.deferral.DeferralModel.Disagreement;
import dev.cairn.deferral.DeferralModel.Event;
import dev.cairn.deferral.DeferralModel.Listener;
import dev.cairn.deferral.DeferralModel.Packed;
import dev.cairn.deferral.DeferralModel.Signal;
import dev.cairn.set.IndexComparator;
import dev.cairn.signal.Connection;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.view.RuntimeView;
import dev.cairn.world.World;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Drives a {@link World} of {@link DeferralFixtures} and a {@link DeferralModel} through the same random operations,
 * and checks that they agree after every operation and during every walk and listener call. Both
 * {@link DeferralModelTest} (seeded) and {@link DeferralFuzzTest} (Jazzer) drive it through {@link #step(Choices)}:
 * one top-level operation per call, its decisions taken from the {@link Choices} given. The world has the five
 * storages, the four generated views and a runtime view; in most worlds the owning group Movement, in half of those
 * Racing nested in it, the non-owning group Living, the observer Healed; and a random set of listeners.
 * <p>
 * <b>Top-level operations</b>: create (one or a batch), destroy (one or a batch), add (three APIs), remove (remove,
 * {@code World.remove}, erase), patch and {@code markUpdated}, clear of a storage, of the observer or of the world,
 * connecting or disconnecting a listener, reorders (compact, sort, sortAs, a group's sort), calls that must be
 * refused, a walk of any kind, leaving a cursor's walk open for later operations (which are then recorded and
 * reorders refused) and ending it (to its end, by {@code close()}, or by the next {@code cursor()}).
 * <p>
 * <b>Walks</b>: the generated views' {@code forEach} and cursor; the owning groups' {@code forEach}, cursor,
 * {@code forEachIndex}, Movement's {@code forEachBlock}, their {@code RuntimeGroup.forEach}; the non-owning group's
 * {@code forEach}, cursor and {@code RuntimeGroup.forEach}; the runtime view; {@code World.forEachEntity}; a
 * storage's {@code forEach}; the observer's {@code forEach}; and the parallel walks of the views and groups on a pool
 * of two threads in chunks of 1 to 6. Each must visit exactly the entities the model says matched when it began, in
 * the model's order (front to back of the lead's packed array, the group's range, the set's order, ascending index),
 * each once, handing over the values the model holds; a cursor loop may be left early (and is closed).
 * <p>
 * <b>In every action and listener</b> the harness reads and writes the visited entity's fields, makes random changes
 * to it, to other entities and to entities it creates (destroy, add, remove, patch, create, clears, calls that must be
 * refused with an {@link IllegalStateException} naming what holds the structure, calls with a dead handle or a
 * component already there that must throw at once), walks again (nested), and checks that {@code valid},
 * {@code contains}, {@code size} and {@code count} answer as the structure was. Now and then an action or a listener
 * throws: the exception must reach the caller, the later ones suppressed in it, and the changes recorded before must
 * be applied. Each listener call must be the one the model expects next (which listener, which entity, which packed
 * index). Parallel actions do what a parallel action may: write their entity's fields, destroy, add, remove, clear,
 * patch where nobody listens; and check that {@code create()}, a patch someone listens to, connecting listeners,
 * building groups and observers and advancing the tick are refused.
 * <p>
 * <b>After every top-level operation</b> the whole world is compared with the model: alive entities, each storage's
 * packed array and every member's values, the groups' order, the observer, every view's count and membership.
 * <p>
 * <b>Known findings</b> can be stepped around with {@code -Dcairn.deferral.avoid=...} (see {@link #AVOID}), to look
 * for others past them; by default nothing is avoided.
 */
final class DeferralHarness implements AutoCloseable
{
    /** The most entities alive that top-level creates aim for; actions and listeners may create a few more. */
    static final int MAX_ALIVE = Integer.getInteger("cairn.deferral.alive", 40);
    /** Lines of trace kept for a failure's message. */
    static final int TRACE_LINES = Integer.getInteger("cairn.deferral.trace", 120);
    /** Changes listeners may make per top-level operation, so that the rounds settle. */
    private static final int LISTENER_BUDGET = Integer.getInteger("cairn.deferral.budget", 8);
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    private static final String FOR_EACH_ENTITY = "World.forEachEntity";
    /** A small pool for parallel walks, shared by every harness (its threads are daemons). */
    private static final ForkJoinPool POOL = new ForkJoinPool(2);
    /**
     * Patterns not to generate, named in {@code -Dcairn.deferral.avoid=a,b}: to look past a known disagreement for
     * others. Empty by default: the test asserts the contract everywhere. {@code born-in-forEachEntity}: no
     * {@code World.forEachEntity} and no {@code World.clear()} inside a {@code World.forEachEntity};
     * {@code create-in-world-clear}: no listener creates an entity while a {@code World.clear()} is applied;
     * {@code throw-in-world-clear}: no listener throws then; {@code refused-erase-in-walk}: no erase of a
     * component the entity lacks where changes are recorded; {@code throw-in-removal}: no removing listener throws
     * during a remove or a storage's clear made at once.
     */
    private static final Set<String> AVOID = Set.of(System.getProperty("cairn.deferral.avoid", "").split(","));

    /**
     * What the harness throws from an action or a listener, one time in many, to check that the exception reaches
     * the caller and that the changes recorded before are applied all the same.
     */
    static final class Thrown extends RuntimeException
    {
        Thrown(final String message)
        {
            super(message, null, true, false);
        }
    }

    /** One component of the visited entity, read and written through the accessor the walk hands over. */
    private record Slot(Comp comp, Supplier<Record> read, Consumer<Record> write)
    {
    }

    /** What a walk calls for each entity it visits. */
    private interface Visitor
    {
        /**
         * Visits an entity.
         *
         * @return false to leave a cursor's loop early.
         */
        boolean visit(long entity, Slot... slots);

        /** Decisions for a block of a block walk. */
        Choices choicesForBlock(int start);

        /** A field write the engine makes when a block's writable arrays are copied back, for the model. */
        void writtenBack(long entity, Runnable modelWrite);
    }

    /** An open cursor of a generated view or group, seen through one interface. */
    private interface CursorHandle extends AutoCloseable
    {
        boolean next();

        long entity();

        Slot[] slots();

        @Override
        void close();
    }

    /** A kind of walk: its name, what the model says it visits, and how to run it. */
    private record Walk(
        String name,
        Supplier<List<Long>> expected,
        Consumer<Visitor> forEach,
        Supplier<CursorHandle> cursor,
        Object owner,
        ParallelWalk parallel)
    {
    }

    /** Runs a parallel walk on a pool in chunks. */
    private interface ParallelWalk
    {
        void run(ForkJoinPool pool, int chunkSize, Visitor visitor);
    }

    private final Thread thread = Thread.currentThread();
    private final World world;
    private final DeferralModel model;
    private final DeferralFixtures_PosStorage pos;
    private final DeferralFixtures_VelStorage vel;
    private final DeferralFixtures_HpStorage hp;
    private final DeferralFixtures_MarkStorage mark;
    private final DeferralFixtures_TagStorage tag;
    private final DeferralFixtures_PosOnlyView posOnly;
    private final DeferralFixtures_MoversView movers;
    private final DeferralFixtures_MarkedView marked;
    private final DeferralFixtures_TaggedView tagged;
    private final RuntimeView runtime;
    private final DeferralFixtures_MovementGroup movement;
    private final DeferralFixtures_RacingGroup racing;
    private final DeferralFixtures_LivingGroup living;
    private final DeferralFixtures_HealedObserver healed;
    private final List<Walk> walks = new ArrayList<>();
    private final List<Walk> parallelWalks = new ArrayList<>();
    private final Connection[] connections = new Connection[DeferralModel.LISTENERS.size()];
    private final ArrayDeque<String> trace = new ArrayDeque<>();
    /** The objects whose cursor walks are under way: a cursor() of one of them would end that walk. */
    private final Set<Object> cursorsInUse = new HashSet<>();
    /** The entities created during the current top-level operation: targets for later changes in it. */
    private final List<Long> created = new ArrayList<>();
    private final AtomicLong inner = new AtomicLong();
    private Choices choices;
    private int operation;
    private int listenerBudget;
    private volatile Throwable failure;
    private OpenCursor open;
    /** World.forEachEntity walks under way. */
    private int entityWalks;
    /** Whether a remove or a storage's clear is made at once now. */
    private boolean removingAtOnce;
    /** How rarely a listener throws during this top-level operation: one time in this many. */
    private int throwOdds = 60;
    /** What the harness threw during this top-level operation and must reach its caller. */
    private final List<Thrown> thrown = new ArrayList<>();
    /** What happened how often, for {@code -Dcairn.deferral.stats=true}. */
    private final Map<String, Long> stats = new java.util.TreeMap<>();

    /** A cursor's walk left open at the top level. */
    private final class OpenCursor
    {
        final Walk walk;
        final CursorHandle handle;
        final WalkRun run;

        OpenCursor(final Walk walk, final CursorHandle handle, final WalkRun run)
        {
            this.walk = walk;
            this.handle = handle;
            this.run = run;
        }
    }

    /**
     * Builds the world, with or without the groups and the observer, and connects a random set of listeners.
     *
     * @param setup decides the configuration.
     */
    DeferralHarness(final Choices setup)
    {
        this.choices = setup;
        final boolean groups = !setup.oneIn(4);
        final boolean nested = setup.oneIn(2);
        final boolean observer = !setup.oneIn(4);
        world = new World(4096);
        model = new DeferralModel(groups, nested, observer, this::log);
        pos = world.storage(DeferralFixtures_PosStorage.TYPE);
        vel = world.storage(DeferralFixtures_VelStorage.TYPE);
        hp = world.storage(DeferralFixtures_HpStorage.TYPE);
        mark = world.storage(DeferralFixtures_MarkStorage.TYPE);
        tag = world.storage(DeferralFixtures_TagStorage.TYPE);
        posOnly = new DeferralFixtures_PosOnlyView(world);
        movers = new DeferralFixtures_MoversView(world);
        marked = new DeferralFixtures_MarkedView(world);
        tagged = new DeferralFixtures_TaggedView(world);
        runtime = world.view(Hp.class, Pos.class).without(Mark.class);
        movement = groups ? new DeferralFixtures_MovementGroup(world) : null;
        racing = model.nested ? new DeferralFixtures_RacingGroup(world) : null;
        living = groups ? new DeferralFixtures_LivingGroup(world) : null;
        healed = observer ? new DeferralFixtures_HealedObserver(world) : null;
        final List<ComponentStorage<?>> storages = world.storages();
        for (final Comp comp : Comp.values())
        {
            check(storages.get(comp.ordinal()) == storage(comp), "the storages were created in another order");
        }
        log("world" + (groups ? " with the groups" : "") + (model.nested ? " and the nested group" : "") +
            (observer ? " with the observer" : ""));
        for (final Listener listener : DeferralModel.LISTENERS)
        {
            if (setup.oneIn(2))
            {
                connect(listener);
            }
        }
        defineWalks();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Top-level operations.
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Runs one top-level operation with the decisions of {@code source}, then compares the whole world with the
     * model.
     *
     * @param source the decisions.
     * @throws AssertionError if the engine and the model disagree.
     */
    void step(final Choices source)
    {
        choices = source;
        operation++;
        listenerBudget = LISTENER_BUDGET;
        created.clear();
        thrown.clear();
        throwOdds = choices.oneIn(20) ? 4 : 60;
        try
        {
            operation();
        }
        catch (final Thrown caught)
        {
            rethrowFailure();
            checkThrown(caught);
            log("the call threw " + caught.getMessage() + ", as expected");
            model.settle();
        }
        rethrowFailure();
        check(thrown.isEmpty(), "the harness threw " + thrown + " from an action or listener, and the caller " +
            "was not told");
        checkWorld();
    }

    /** The exception a call threw is the first the harness threw, with the later ones suppressed in it. */
    private void checkThrown(final Thrown caught)
    {
        check(thrown.contains(caught), "the call threw " + caught.getMessage() + ", which is not what the harness " +
            "threw last: " + thrown);
        final List<Throwable> reached = new ArrayList<>();
        final ArrayDeque<Throwable> toSee = new ArrayDeque<>(List.of(caught));
        while (!toSee.isEmpty())
        {
            final Throwable next = toSee.pop();
            reached.add(next);
            toSee.addAll(Arrays.asList(next.getSuppressed()));
        }
        for (final Thrown each : thrown)
        {
            check(reached.contains(each), "the harness threw " + each.getMessage() + " from a listener or action, " +
                "which the caller was not told of (it got " + caught.getMessage() + ")");
        }
        thrown.clear();
    }

    private void operation()
    {
        final int roll = choices.pick(1000);
        count("operations" + (open != null ? " with a cursor left open" : ""));
        if (open != null && roll < 150)
        {
            endOpenCursor();
        }
        else if (roll < 155)
        {
            createWithComponents();
        }
        else if (roll < 170)
        {
            createBatch();
        }
        else if (roll < 230)
        {
            destroy(randomTarget(Entity.NULL));
        }
        else if (roll < 245)
        {
            destroyBatch();
        }
        else if (roll < 370)
        {
            final Comp comp = randomComp();
            add(comp, randomTarget(Entity.NULL), randomValue(comp));
        }
        else if (roll < 440)
        {
            remove(randomComp(), randomTarget(Entity.NULL));
        }
        else if (roll < 490)
        {
            final Comp comp = randomComp();
            patch(comp, randomTarget(Entity.NULL), randomValue(comp));
        }
        else if (roll < 500)
        {
            clearStorage(randomComp());
        }
        else if (roll < 504)
        {
            clearWorld();
        }
        else if (roll < 514)
        {
            clearObserver();
        }
        else if (roll < 544)
        {
            toggleListener();
        }
        else if (roll < 560)
        {
            reorder();
        }
        else if (roll < 580)
        {
            invalid(Entity.NULL);
        }
        else if (roll < 585 && open == null)
        {
            openCursor();
        }
        else if (roll < 700)
        {
            runParallel(parallelWalks.get(choices.pick(parallelWalks.size())));
        }
        else
        {
            runWalk(randomWalk(), 0);
        }
    }

    /** How many top-level operations ran, and how many changes, calls and checks actions and listeners made. */
    long operations()
    {
        return operation + inner.get();
    }

    /** What happened how often. */
    Map<String, Long> stats()
    {
        final Map<String, Long> all = new java.util.TreeMap<>(stats);
        for (final DeferralModel.Kind kind : DeferralModel.Kind.values())
        {
            all.put("recorded: " + kind, model.recordedKinds[kind.ordinal()]);
        }
        for (int k = 0; k < model.roundsPerSettlement.length; k++)
        {
            all.put("settled in " + k + (k == 7 ? "+" : "") + " rounds", model.roundsPerSettlement[k]);
        }
        return all;
    }

    private void count(final String what)
    {
        if (Thread.currentThread() == thread)
        {
            stats.merge(what, 1L, Long::sum);
        }
    }

    /** The last lines of the trace, oldest first. */
    String trace()
    {
        return String.join("\n", trace);
    }

    /** Ends an open cursor's walk and closes the world, checking the world once more in between. */
    @Override
    public void close()
    {
        try
        {
            if (open != null)
            {
                model.cursorOpen = false;
                final OpenCursor ending = open;
                open = null;
                log("close " + ending.walk.name + " before closing the world");
                thrown.clear();
                try
                {
                    ending.handle.close();
                }
                catch (final Thrown caught)
                {
                    checkThrown(caught);
                }
                if (failure == null)
                {
                    model.settle();
                    checkWorld();
                }
            }
        }
        finally
        {
            world.close();
        }
    }

    private void createWithComponents()
    {
        if (model.pool.aliveList.size() >= MAX_ALIVE)
        {
            destroy(randomTarget(Entity.NULL));
            return;
        }
        final long entity = create();
        for (final Comp comp : Comp.values())
        {
            if (choices.oneIn(2))
            {
                add(comp, entity, randomValue(comp));
            }
        }
    }

    /** World.create(entities, count): the handles in the order repeated creates give, announced in that order. */
    private void createBatch()
    {
        final int count = 1 + choices.pick(3);
        final long[] entities = new long[count + choices.pick(2)];
        final Change[] announced = new Change[count];
        final long[] expected = new long[count];
        for (int i = 0; i < count; i++)
        {
            expected[i] = model.create();
            announced[i] = new Change(DeferralModel.Kind.CREATED, null, expected[i], null);
        }
        final boolean listening = model.listening(Signal.CREATED, null);
        if (model.deferring())
        {
            log("  create(entities, " + count + ")");
            world.create(entities, count);
            if (listening)
            {
                for (final Change change : announced)
                {
                    model.record(change);
                }
            }
        }
        else
        {
            log("create(entities, " + count + ")");
            if (listening)
            {
                model.direct(announced);
            }
            world.create(entities, count);
            model.settle();
        }
        for (int i = 0; i < count; i++)
        {
            check(entities[i] == expected[i], "create(entities, " + count + ") handed out " +
                names(entities, count) + " where the model expects " + names(expected, count));
            created.add(entities[i]);
        }
    }

    private void destroyBatch()
    {
        final List<Long> alive = model.pool.aliveList;
        final int count = Math.min(alive.size(), 1 + choices.pick(3));
        final long[] batch = new long[count + 1];
        final Set<Long> chosen = new HashSet<>();
        for (int i = 0; i < count; i++)
        {
            batch[i] = alive.get(choices.pick(alive.size()));
            chosen.add(batch[i]);
        }
        if (chosen.size() < count || choices.oneIn(8))
        {
            // A repeated or dead entity: refused as a whole, nothing destroyed.
            batch[count] = chosen.size() < count || model.pool.recentlyDead.isEmpty() ?
                (count > 0 ? batch[0] : Entity.NULL) : model.pool.recentlyDead.peekFirst();
            expectRefused(IllegalArgumentException.class, "destroy(" + names(batch, count + 1) + ")",
                () -> world.destroy(batch, count + 1));
            return;
        }
        final Change[] destroys = new Change[count];
        for (int i = 0; i < count; i++)
        {
            destroys[i] = Change.destroy(batch[i]);
        }
        if (model.deferring())
        {
            world.destroy(batch, count);
            for (final Change change : destroys)
            {
                model.record(change);
            }
            return;
        }
        log("destroy(" + names(batch, count) + ")");
        model.direct(destroys);
        world.destroy(batch, count);
        model.settle();
    }

    private void toggleListener()
    {
        final Listener listener = DeferralModel.LISTENERS.get(choices.pick(DeferralModel.LISTENERS.size()));
        if (connections[listener.id()] == null)
        {
            connect(listener);
        }
        else
        {
            connections[listener.id()].close();
            connections[listener.id()] = null;
            model.connected.remove(listener);
            log("disconnect " + listener);
        }
    }

    private void connect(final Listener listener)
    {
        final int id = listener.id();
        final Connection connection;
        if (listener.comp() == null)
        {
            connection = listener.signal() == Signal.CREATED ?
                world.onCreated(entity -> heard(id, entity, -1)) :
                world.onDestroying(entity -> heard(id, entity, -1));
        }
        else
        {
            final ComponentStorage<?> storage = storage(listener.comp());
            connection = switch (listener.signal())
            {
                case ADDED -> storage.onAdded((entity, index) -> heard(id, entity, index));
                case UPDATED -> storage.onUpdated((entity, index) -> heard(id, entity, index));
                default -> storage.onRemoving((entity, index) -> heard(id, entity, index));
            };
        }
        connections[id] = connection;
        model.connected.add(listener);
        log("connect " + listener);
    }

    /**
     * A reorder: Mark's compact, Hp's sort by value, Hp's sortAs(Mark), the innermost owning group's sort by x. Made at
     * once outside walks, refused while a cursor's walk is left open; where Racing owns Hp, Hp's own order is the
     * group's and sorting it is refused, as is sorting Movement, in which Racing nests.
     */
    private void reorder()
    {
        final int which = choices.pick(racing != null ? 5 : movement != null ? 4 : 3);
        final String what = switch (which)
        {
            case 0 -> "Mark.compact()";
            case 1 -> "Hp.sort by value";
            case 2 -> "Hp.sortAs(Mark)";
            case 3 -> "Movement.sort by x";
            default -> "Racing.sort by x";
        };
        final IndexComparator byX = (left, right) ->
        {
            final int compared = Float.compare(pos.xAt(left), pos.xAt(right));
            return compared != 0 ? compared : Long.compare(pos.entityAt(left), pos.entityAt(right));
        };
        final Runnable call = switch (which)
        {
            case 0 -> mark::compact;
            case 1 -> () -> hp.sort((left, right) ->
            {
                final int byValue = Integer.compare(hp.valueAt(left), hp.valueAt(right));
                return byValue != 0 ? byValue : Long.compare(hp.entityAt(left), hp.entityAt(right));
            });
            case 2 -> () -> hp.sortAs(mark);
            case 3 -> () -> movement.sort(byX);
            default -> () ->
            {
                if (racing != null)
                {
                    racing.sort(byX);
                }
            };
        };
        if (racing != null && which == 3)
        {
            expectRefused(IllegalStateException.class, what + " (Racing nests in it)", call);
            return;
        }
        if (model.deferring())
        {
            refusedNaming(what, call);
            return;
        }
        if (racing != null && (which == 1 || which == 2))
        {
            expectRefused(IllegalStateException.class, what + " (Racing owns Hp and nests in Movement)", call);
            return;
        }
        log(what);
        call.run();
        switch (which)
        {
            case 0 -> model.compactMark();
            case 1 -> model.sortHp();
            case 2 -> model.sortHpAsMark();
            case 3 -> model.sortGroup(model.owning("Movement"));
            default ->
            {
                if (racing != null)
                {
                    model.sortGroup(model.owning("Racing"));
                }
            }
        }
    }

    private void openCursor()
    {
        final List<Walk> cursors = new ArrayList<>();
        for (final Walk walk : walks)
        {
            if (walk.cursor != null)
            {
                cursors.add(walk);
            }
        }
        final Walk walk = cursors.get(choices.pick(cursors.size()));
        final List<Long> expected = walk.expected.get();
        log("open " + walk.name + " over " + names(expected) + " and leave it open");
        model.cursorOpen = true;
        cursorsInUse.add(walk.owner);
        final WalkRun run = new WalkRun(walk, expected, 0, -1);
        open = new OpenCursor(walk, walk.cursor.get(), run);
        advanceOpenCursor(choices.pick(expected.size() + 1));
    }

    private void advanceOpenCursor(final int steps)
    {
        for (int k = 0; k < steps && open.run.at < open.run.expected.size(); k++)
        {
            check(open.handle.next(), open.walk.name + "'s next() returned false after " + open.run.at + " of " +
                open.run.expected.size() + " entities");
            open.run.visit(open.handle.entity(), open.handle.slots());
        }
    }

    /** Ends the open cursor's walk: to its end, by close(), or by the next cursor() of the same object. */
    private void endOpenCursor()
    {
        final int how = choices.pick(4);
        final OpenCursor ending = open;
        if (how == 0)
        {
            advanceOpenCursor(choices.pick(4));
            return;
        }
        model.cursorOpen = false;
        open = null;
        if (how != 1)
        {
            cursorsInUse.remove(ending.walk.owner);
        }
        if (how == 1)
        {
            log("walk " + ending.walk.name + " to its end");
            try
            {
                while (ending.run.at < ending.run.expected.size())
                {
                    check(ending.handle.next(), ending.walk.name + "'s next() returned false after " +
                        ending.run.at + " of " + ending.run.expected.size() + " entities");
                    ending.run.visit(ending.handle.entity(), ending.handle.slots());
                }
            }
            catch (final Thrown caught)
            {
                // As a loop in a try-with-resources block would: what the close throws is suppressed in it.
                try
                {
                    ending.handle.close();
                }
                catch (final RuntimeException | Error closing)
                {
                    caught.addSuppressed(closing);
                }
                throw caught;
            }
            finally
            {
                cursorsInUse.remove(ending.walk.owner);
            }
            check(!ending.handle.next(), ending.walk.name + " visited more than the " +
                ending.run.expected.size() + " entities that matched when it began");
        }
        else if (how == 2)
        {
            log("close " + ending.walk.name);
            ending.handle.close();
        }
        else
        {
            log("restart " + ending.walk.name + " with a new cursor()");
            final CursorHandle restarted = ending.walk.cursor.get();
            model.settle();
            final List<Long> expected = ending.walk.expected.get();
            log("  the new walk is over " + names(expected));
            model.cursorOpen = true;
            cursorsInUse.add(ending.walk.owner);
            open = new OpenCursor(ending.walk, restarted, new WalkRun(ending.walk, expected, 0, -1));
            advanceOpenCursor(choices.pick(expected.size() + 1));
            return;
        }
        model.settle();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Changes, made at once or recorded as the model says; the same code serves top level, actions and listeners.
    // ---------------------------------------------------------------------------------------------------------------

    private long create()
    {
        final long expected = model.create();
        final boolean announced = model.listening(Signal.CREATED, null);
        final long entity;
        if (model.deferring())
        {
            log("  create " + name(expected));
            entity = world.create();
            if (announced)
            {
                model.record(new Change(DeferralModel.Kind.CREATED, null, expected, null));
            }
        }
        else
        {
            log("create " + name(expected));
            if (announced)
            {
                model.direct(new Change(DeferralModel.Kind.CREATED, null, expected, null));
            }
            entity = world.create();
            model.settle();
        }
        check(entity == expected, "create() handed out " + name(entity) + " where the model expects " +
            name(expected));
        check(world.valid(entity) == model.alive(entity), "valid(" + name(entity) + ") is " + world.valid(entity) +
            " after its create()");
        created.add(entity);
        return entity;
    }

    private void destroy(final long entity)
    {
        if (!model.alive(entity))
        {
            expectRefused(IllegalArgumentException.class, "destroy(" + name(entity) + ")",
                () -> world.destroy(entity));
            return;
        }
        if (model.deferring())
        {
            world.destroy(entity);
            model.record(Change.destroy(entity));
            check(world.valid(entity), "destroy(" + name(entity) + ") was made at once where it waits for the walk");
            return;
        }
        log("destroy " + name(entity));
        model.direct(Change.destroy(entity));
        world.destroy(entity);
        model.settle();
    }

    private void add(final Comp comp, final long entity, final Record value)
    {
        final int api = choices.pick(3);
        final Runnable call = () -> engineAdd(comp, entity, value, api);
        if (!model.alive(entity) || model.has(comp, entity))
        {
            expectRefused(IllegalArgumentException.class, "add " + value + " to " + name(entity) +
                (model.alive(entity) ? ", which has one" : ""), call);
            return;
        }
        final Change change = Change.add(comp, entity, value);
        if (model.deferring())
        {
            call.run();
            model.record(change);
            check(!storage(comp).contains(entity), change + " was made at once where it waits for the walk");
            return;
        }
        log(change.toString());
        model.direct(change);
        call.run();
        model.settle();
    }

    private void engineAdd(final Comp comp, final long entity, final Record value, final int api)
    {
        if (api == 0)
        {
            world.add(entity, value);
            return;
        }
        if (api == 1)
        {
            addRecord(storage(comp), entity, value);
            return;
        }
        switch (comp)
        {
            case POS -> pos.emplace(entity, ((Pos)value).x(), ((Pos)value).y());
            case VEL -> vel.emplace(entity, ((Vel)value).dx(), ((Vel)value).dy());
            case HP -> hp.emplace(entity, ((Hp)value).value());
            case MARK -> mark.emplace(entity, ((Mark)value).n());
            default -> tag.emplace(entity);
        }
    }

    @SuppressWarnings("unchecked")
    private static <R extends Record> void addRecord(final ComponentStorage<R> storage, final long entity,
        final Record value)
    {
        storage.add(entity, (R)value);
    }

    @SuppressWarnings("unchecked")
    private static <R extends Record> void patchRecord(final ComponentStorage<R> storage, final long entity,
        final Record value)
    {
        storage.patch(entity, (R)value);
    }

    /**
     * A remove by {@code World.remove}, the storage's {@code remove} or its {@code erase}. In a walk a remove is
     * recorded even if the entity lacks the component now (it undoes an add recorded before it); an erase of a
     * component the entity lacks is refused at once, as outside walks, and records nothing.
     */
    private void remove(final Comp comp, final long entity)
    {
        final int picked = choices.pick(3);
        final int api = picked == 2 && model.deferring() && !model.has(comp, entity) &&
            AVOID.contains("refused-erase-in-walk") ? 1 : picked;
        final Class<? extends Record> type = recordClass(comp);
        final String what = (api == 2 ? "erase " : "remove ") + comp.title() + " from " + name(entity);
        final Change change = Change.remove(comp, entity);
        if (!model.alive(entity))
        {
            if (api == 0)
            {
                expectRefused(IllegalArgumentException.class, what, () -> world.remove(entity, type));
            }
            else if (api == 2)
            {
                expectRefused(IllegalArgumentException.class, what, () -> storage(comp).erase(entity));
            }
            else
            {
                check(!storage(comp).remove(entity), what + " answered true for an entity that is not alive");
                if (model.deferring())
                {
                    model.record(change);
                }
            }
            return;
        }
        final boolean had = model.has(comp, entity);
        if (api == 2 && !had)
        {
            expectRefused(IllegalArgumentException.class, what + ", which has none", () -> storage(comp).erase(entity));
            return;
        }
        final Supplier<Boolean> call = () ->
        {
            switch (api)
            {
                case 0:
                    return world.remove(entity, type);
                case 1:
                    return storage(comp).remove(entity);
                default:
                    storage(comp).erase(entity);
                    return true;
            }
        };
        if (model.deferring())
        {
            check(call.get() == had, what + " answered " + !had + " where the entity " + (had ? "has" : "lacks") +
                " one now");
            model.record(change);
            check(storage(comp).contains(entity) == had, what + " was made at once where it waits for the walk");
            return;
        }
        log(what);
        if (had)
        {
            model.direct(change);
        }
        removingAtOnce = true;
        try
        {
            check(call.get() == had, what + " answered " + !had);
        }
        finally
        {
            removingAtOnce = false;
        }
        model.settle();
    }

    private void patch(final Comp comp, final long entity, final Record value)
    {
        final boolean mark = choices.oneIn(5);
        final String what = (mark ? "markUpdated " : "patch ") + comp.title() + " of " + name(entity) +
            (mark ? "" : " to " + value);
        final Runnable call = mark ? () -> storage(comp).markUpdated(entity) :
            () -> patchRecord(storage(comp), entity, value);
        if (!model.alive(entity) || !model.has(comp, entity))
        {
            expectRefused(IllegalArgumentException.class, what + ", which has none", call);
            return;
        }
        if (!mark)
        {
            model.write(comp, entity, value);
        }
        if (model.deferring())
        {
            call.run();
            if (model.updateSignalled(comp))
            {
                model.record(Change.updated(comp, entity));
            }
            check(read(comp, entity).equals(model.value(comp, entity)), what + " was not written at once");
            return;
        }
        log(what);
        model.direct(Change.updated(comp, entity));
        call.run();
        model.settle();
    }

    private void clearStorage(final Comp comp)
    {
        final Change change = Change.clear(comp);
        if (model.deferring())
        {
            final int members = storage(comp).memberCount();
            storage(comp).clear();
            model.record(change);
            check(storage(comp).memberCount() == members, change + " was made at once where it waits for the walk");
            return;
        }
        log(change.toString());
        model.direct(change);
        removingAtOnce = true;
        try
        {
            storage(comp).clear();
        }
        finally
        {
            removingAtOnce = false;
        }
        model.settle();
    }

    private void clearObserver()
    {
        if (healed == null)
        {
            return;
        }
        final Change change = new Change(DeferralModel.Kind.CLEAR_OBSERVER, null, Entity.NULL, null);
        if (model.deferring())
        {
            final int size = healed.size();
            healed.clear();
            model.record(change);
            check(healed.size() == size, "the observer's clear() was made at once where it waits for the walk");
            return;
        }
        log(change.toString());
        model.direct(change);
        healed.clear();
        model.settle();
    }

    private void clearWorld()
    {
        if (model.deferring())
        {
            final int alive = world.aliveCount();
            world.clear();
            model.recordWorldClear();
            check(world.aliveCount() == alive, "World.clear() was made at once where it waits for the walk");
            return;
        }
        log("clear the world");
        model.direct(new Change(DeferralModel.Kind.CLEAR_WORLD, null, Entity.NULL, null));
        world.clear();
        model.settle();
    }

    /** A call the engine must refuse at once with an IllegalArgumentException: a dead handle, a component there. */
    private void invalid(final long current)
    {
        final long dead = model.pool.recentlyDead.isEmpty() ? Entity.NULL :
            model.pool.recentlyDead.stream().skip(choices.pick(model.pool.recentlyDead.size())).findFirst().get();
        switch (choices.pick(4))
        {
            case 0 -> destroy(dead);
            case 1 ->
            {
                final Comp comp = randomComp();
                add(comp, dead, randomValue(comp));
            }
            case 2 -> patch(Comp.HP, dead, randomValue(Comp.HP));
            default ->
            {
                final long target = randomTarget(current);
                for (final Comp comp : Comp.values())
                {
                    if (model.alive(target) && model.has(comp, target))
                    {
                        add(comp, target, randomValue(comp));
                        return;
                    }
                }
            }
        }
    }

    /** A call the structure refuses while it holds still, with an IllegalStateException naming what holds it. */
    private void refused()
    {
        final int roll = choices.pick(13);
        switch (roll)
        {
            case 0 -> refusedNaming("World.close()", world::close);
            case 1 -> refusedNaming("World.reset()", world::reset);
            case 2 -> refusedNaming("Hp.sort", () -> hp.sort(hp.comparingValue()));
            case 3 -> refusedNaming("Hp.sortAs(Mark)", () -> hp.sortAs(mark));
            case 4 -> refusedNaming("Mark.compact()", mark::compact);
            case 5 ->
            {
                if (hp.memberCount() >= 2)
                {
                    refusedNaming("Hp.swapElements", () -> hp.swapElements(hp.entityAt(0), hp.entityAt(1)));
                }
            }
            case 6 -> refusedNaming("Hp.reserve", () -> hp.reserve(hp.capacity() + 100));
            case 7 -> refusedNaming("Hp.shrinkToFit()", hp::shrinkToFit);
            case 8 ->
            {
                final int groups = world.groups().size();
                refusedNaming("building a group owning Hp", () -> world.group().owning(Hp.class).build());
                check(world.groups().size() == groups, "a refused group build registered a group");
            }
            case 9 ->
            {
                if (movement != null)
                {
                    refusedNaming("Movement.close()", movement::close);
                    check(movement.isOpen(), "a refused close closed the group");
                }
            }
            case 10 ->
            {
                if (healed != null)
                {
                    refusedNaming("Healed.close()", healed::close);
                    check(healed.isOpen(), "a refused close closed the observer");
                }
            }
            case 11 ->
            {
                if (racing != null)
                {
                    refusedNaming("Racing.sort", () -> racing.sort(pos.comparingX()));
                }
                else if (movement != null)
                {
                    refusedNaming("Movement.sort", () -> movement.sort(pos.comparingX()));
                }
            }
            default ->
            {
                if (living != null)
                {
                    refusedNaming("Living.close()", living::close);
                    check(living.isOpen(), "a refused close closed the group");
                }
            }
        }
        check(!world.isClosed(), "a refused close closed the world");
    }

    private void refusedNaming(final String what, final Runnable call)
    {
        count("refused: " + what);
        final String held = world.heldBy();
        final IllegalStateException refused = expectRefused(IllegalStateException.class, what, call);
        if (held == null || !refused.getMessage().contains(held))
        {
            throw new Disagreement("refused " + what + " while " + held + " holds the structure, with a message " +
                "that does not name it: " + refused.getMessage());
        }
    }

    private <T extends Throwable> T expectRefused(final Class<T> type, final String what, final Runnable call)
    {
        log((model.deferring() ? "  " : "") + what + ": must be refused");
        try
        {
            call.run();
        }
        catch (final Throwable thrown)
        {
            if (type.isInstance(thrown))
            {
                return type.cast(thrown);
            }
            throw new Disagreement(what + " threw " + thrown + " where the model expects " + type.getSimpleName());
        }
        throw new Disagreement(what + " was not refused: the model expects " + type.getSimpleName());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Actions: what a walk's action or a listener does.
    // ---------------------------------------------------------------------------------------------------------------

    /** A few random changes, calls and checks, from inside a walk's action or a listener; all deferred. */
    private void act(final long current, final int level)
    {
        final int count = choices.oneIn(3) ? 1 + choices.pick(2) : 0;
        for (int k = 0; k < count; k++)
        {
            inner.incrementAndGet();
            final int roll = choices.pick(1000);
            final long target = randomTarget(current);
            if (roll < 150)
            {
                destroy(target);
            }
            else if (roll < 350)
            {
                final Comp comp = randomComp();
                add(comp, target, randomValue(comp));
            }
            else if (roll < 480)
            {
                remove(randomComp(), target);
            }
            else if (roll < 580)
            {
                final Comp comp = randomComp();
                patch(comp, target, randomValue(comp));
            }
            else if (roll < 690)
            {
                if (model.pool.aliveList.size() < MAX_ALIVE + 16 &&
                    !(model.clearingWorld && AVOID.contains("create-in-world-clear")))
                {
                    final long entity = create();
                    if (choices.oneIn(2))
                    {
                        final Comp comp = randomComp();
                        add(comp, entity, randomValue(comp));
                    }
                }
            }
            else if (roll < 705)
            {
                clearStorage(randomComp());
            }
            else if (roll < 715)
            {
                clearObserver();
            }
            else if (roll < 718)
            {
                if (!(entityWalks > 0 && AVOID.contains("born-in-forEachEntity")))
                {
                    clearWorld();
                }
            }
            else if (roll < 770)
            {
                invalid(current);
            }
            else if (roll < 830)
            {
                refused();
            }
            else if (roll < 900)
            {
                if (level < 2)
                {
                    runWalk(randomWalk(), level + 1);
                }
            }
            else
            {
                checkWhileHeld(target);
            }
        }
    }

    /** A sequential walk, but not a cursor of an object whose cursor walks now (a cursor() would end that walk). */
    private Walk randomWalk()
    {
        final List<Walk> allowed = new ArrayList<>();
        for (final Walk walk : walks)
        {
            if ((walk.cursor == null || !cursorsInUse.contains(walk.owner)) &&
                !(walk.name.equals(FOR_EACH_ENTITY) && entityWalks > 0 && AVOID.contains("born-in-forEachEntity")))
            {
                allowed.add(walk);
            }
        }
        return allowed.get(choices.pick(allowed.size()));
    }

    /** A listener is called: the model must expect exactly this call now; then it acts as a walk's action does. */
    private void heard(final int id, final long entity, final int index)
    {
        if (failure != null)
        {
            return;
        }
        try
        {
            if (Thread.currentThread() != thread)
            {
                throw new Disagreement(DeferralModel.LISTENERS.get(id) + " was called on " +
                    Thread.currentThread().getName() + " during a parallel walk");
            }
            model.event(new Event(id, entity, index));
            inner.incrementAndGet();
            count("listener called: " + DeferralModel.LISTENERS.get(id));
            model.depth++;
            try
            {
                checkDeferring(DeferralModel.LISTENERS.get(id).toString());
                checkEntity(entity);
                if (listenerBudget > 0 && choices.oneIn(3))
                {
                    listenerBudget--;
                    act(entity, 1);
                }
            }
            finally
            {
                model.depth--;
            }
        }
        catch (final RuntimeException | Error thrown)
        {
            fail(thrown);
            throw thrown;
        }
        if (choices.oneIn(throwOdds) && !(model.clearingWorld && AVOID.contains("throw-in-world-clear")) &&
            !(removingAtOnce && DeferralModel.LISTENERS.get(id).signal() == Signal.REMOVING &&
                AVOID.contains("throw-in-removal")))
        {
            final Thrown threw = new Thrown("by " + DeferralModel.LISTENERS.get(id) + " of " + name(entity));
            log("  the listener throws " + threw.getMessage());
            count("thrown by a listener");
            thrown.add(threw);
            throw threw;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Walks.
    // ---------------------------------------------------------------------------------------------------------------

    /** One sequential walk: checks each visit against the order the model expects and acts at each. */
    private final class WalkRun implements Visitor
    {
        final Walk walk;
        final List<Long> expected;
        final int level;
        final int leaveAfter;
        int at;
        boolean left;
        Thrown threw;

        WalkRun(final Walk walk, final List<Long> expected, final int level, final int leaveAfter)
        {
            this.walk = walk;
            this.expected = expected;
            this.level = level;
            this.leaveAfter = leaveAfter;
        }

        @Override
        public boolean visit(final long entity, final Slot... slots)
        {
            rethrowFailure();
            try
            {
                if (at >= expected.size() || expected.get(at) != entity)
                {
                    throw new Disagreement(walk.name + " visited " + name(entity) + " as its visit " + at + " where " +
                        "the model expects " + (at < expected.size() ? name(expected.get(at)) : "no more") +
                        ": the entities that matched when it began are, in order, " + names(expected));
                }
                at++;
                model.depth++;
                try
                {
                    checkDeferring(walk.name);
                    checkSlots(walk.name, entity, slots);
                    writeSlots(entity, slots);
                    act(entity, level);
                }
                finally
                {
                    model.depth--;
                }
            }
            catch (final RuntimeException | Error thrown)
            {
                fail(thrown);
                throw thrown;
            }
            if (choices.oneIn(100))
            {
                threw = new Thrown("by the action of " + walk.name + " at " + name(entity));
                log("  the action throws " + threw.getMessage());
                count("thrown by an action");
                thrown.add(threw);
                throw threw;
            }
            if (at == leaveAfter)
            {
                left = true;
                return false;
            }
            return true;
        }

        @Override
        public Choices choicesForBlock(final int start)
        {
            return choices;
        }

        @Override
        public void writtenBack(final long entity, final Runnable modelWrite)
        {
            modelWrite.run();
        }
    }

    private void runWalk(final Walk walk, final int level)
    {
        final List<Long> expected = walk.expected.get();
        final int leaveAfter = walk.cursor != null && choices.oneIn(4) ? 1 + choices.pick(expected.size() + 1) : -1;
        log(indent(level) + "walk " + walk.name + " over " + names(expected) +
            (leaveAfter > 0 ? ", leaving the loop after visit " + leaveAfter : ""));
        final WalkRun run = new WalkRun(walk, expected, level, leaveAfter);
        count("walk: " + walk.name + (level > 0 ? ", nested" : ""));
        try
        {
            if (walk.cursor != null)
            {
                cursorsInUse.add(walk.owner);
                try (CursorHandle cursor = walk.cursor.get())
                {
                    while (cursor.next())
                    {
                        if (!run.visit(cursor.entity(), cursor.slots()))
                        {
                            break;
                        }
                    }
                }
                finally
                {
                    cursorsInUse.remove(walk.owner);
                }
            }
            else
            {
                walk.forEach.accept(run);
            }
        }
        catch (final Thrown caught)
        {
            if (caught != run.threw || level == 0)
            {
                throw caught;
            }
            // A nested walk's action threw: its caller, the enclosing action, is told and goes on.
            check(caught.getSuppressed().length == 0, "a nested walk's end ran listeners: " +
                Arrays.toString(caught.getSuppressed()));
            thrown.remove(caught);
            log(indent(level) + "the nested walk threw " + caught.getMessage() + ", as expected");
            return;
        }
        rethrowFailure();
        if (!run.left && run.at != expected.size())
        {
            throw new Disagreement(walk.name + " visited " + run.at + " entities and returned, where " +
                expected.size() + " matched when it began: " + names(expected));
        }
        model.settle();
    }

    /** One parallel walk: each visit draws its decisions from its position in the walk, whatever thread runs it. */
    private final class ParallelRun implements Visitor
    {
        final Walk walk;
        final List<Long> expected;
        final Map<Long, Integer> positions = new HashMap<>();
        final AtomicIntegerArray visits;
        final List<List<Change>> lanes = new ArrayList<>();
        final List<List<Runnable>> writes = new ArrayList<>();
        final long salt;
        final List<Long> others;
        final boolean hpPatchRefused;

        ParallelRun(final Walk walk, final List<Long> expected, final long salt)
        {
            this.walk = walk;
            this.expected = expected;
            this.salt = salt;
            this.visits = new AtomicIntegerArray(expected.size());
            for (int i = 0; i < expected.size(); i++)
            {
                positions.put(expected.get(i), i);
                lanes.add(new ArrayList<>());
                writes.add(new ArrayList<>());
            }
            others = new ArrayList<>(model.pool.aliveList);
            hpPatchRefused = model.updateSignalled(Comp.HP);
        }

        @Override
        public boolean visit(final long entity, final Slot... slots)
        {
            try
            {
                final Integer position = positions.get(entity);
                if (position == null)
                {
                    throw new Disagreement(walk.name + " visited " + name(entity) + ", which did not match when it " +
                        "began: " + names(expected));
                }
                if (visits.getAndIncrement(position) != 0)
                {
                    throw new Disagreement(walk.name + " visited " + name(entity) + " twice");
                }
                actInParallel(this, position, entity, slots);
            }
            catch (final RuntimeException | Error thrown)
            {
                fail(thrown);
                throw thrown;
            }
            return true;
        }

        @Override
        public Choices choicesForBlock(final int start)
        {
            return new Choices.Seeded(salt ^ (start + 1) * GOLDEN);
        }

        @Override
        public void writtenBack(final long entity, final Runnable modelWrite)
        {
            writes.get(positions.get(entity)).add(modelWrite);
        }
    }

    private void runParallel(final Walk walk)
    {
        count("walk: " + walk.name);
        final List<Long> expected = walk.expected.get();
        final int chunkSize = 1 + choices.pick(6);
        final ParallelRun run = new ParallelRun(walk, expected, choices.salt());
        log("walk " + walk.name + " in chunks of " + chunkSize + " over " + names(expected));
        model.beginParallel(run.lanes, run.writes);
        walk.parallel.run(POOL, chunkSize, run);
        rethrowFailure();
        for (int i = 0; i < expected.size(); i++)
        {
            if (run.visits.get(i) != 1)
            {
                throw new Disagreement(walk.name + " visited " + name(expected.get(i)) + " " + run.visits.get(i) +
                    " times; every entity that matched when it began is visited once: " + names(expected));
            }
        }
        if (model.deferring())
        {
            model.joinParallel();
        }
        else
        {
            model.settle();
        }
    }

    /**
     * What a parallel action does: its decisions come from its position, its recorded changes go to its lane and its
     * writes to the model wait for the walk's end, in the walk's order, as the engine applies the chunks' changes.
     */
    private void actInParallel(final ParallelRun run, final int position, final long entity, final Slot... slots)
    {
        final Choices mine = new Choices.Seeded(run.salt + (position + 1) * GOLDEN);
        final List<Change> lane = run.lanes.get(position);
        final List<Runnable> writes = run.writes.get(position);
        check(world.isDeferring(), "World.isDeferring() is false in an action of " + run.walk.name);
        checkSlots(run.walk.name, entity, slots);
        for (final Slot slot : slots)
        {
            if (mine.oneIn(2))
            {
                final Record value = DeferralModel.component(slot.comp, mine.pick(100_000));
                slot.write.accept(value);
                writes.add(() -> model.write(slot.comp, entity, value));
            }
        }
        final int count = mine.oneIn(2) ? 1 + mine.pick(2) : 0;
        for (int k = 0; k < count; k++)
        {
            inner.incrementAndGet();
            final long target = mine.oneIn(2) || run.others.isEmpty() ? entity :
                run.others.get(mine.pick(run.others.size()));
            final Comp comp = Comp.values()[mine.pick(Comp.values().length)];
            final int roll = mine.pick(100);
            if (roll < 20)
            {
                world.destroy(target);
                lane.add(Change.destroy(target));
            }
            else if (roll < 45)
            {
                final Record value = DeferralModel.component(comp, mine.pick(100_000));
                if (model.has(comp, target))
                {
                    expectRefusedQuietly(IllegalArgumentException.class, () -> world.add(target, value));
                }
                else
                {
                    world.add(target, value);
                    lane.add(Change.add(comp, target, value));
                }
            }
            else if (roll < 65)
            {
                final boolean had = model.has(comp, target);
                check((mine.oneIn(2) ? storage(comp).remove(target) : world.remove(target, recordClass(comp))) == had,
                    "remove of " + comp.title() + " from " + name(target) + " in " + run.walk.name +
                    " answered " + !had);
                lane.add(Change.remove(comp, target));
            }
            else if (roll < 75)
            {
                // What has no deferred form, or would race, in a parallel walk: refused.
                switch (mine.pick(6))
                {
                    case 0 -> expectRefusedQuietly(IllegalStateException.class, world::create);
                    case 1 -> expectRefusedQuietly(IllegalStateException.class, () -> hp.onAdded((e, i) -> { }));
                    case 2 -> expectRefusedQuietly(IllegalStateException.class, () -> world.onDestroying(e -> { }));
                    case 3 -> expectRefusedQuietly(IllegalStateException.class,
                        () -> world.observer().onAdded(Hp.class).build());
                    case 4 -> expectRefusedQuietly(IllegalStateException.class,
                        () -> world.group().with(Hp.class, Mark.class).build());
                    default -> expectRefusedQuietly(IllegalStateException.class, world::advanceTick);
                }
            }
            else if (roll < 88)
            {
                final Comp patched = mine.oneIn(2) ? Comp.HP : Comp.POS;
                if (model.has(patched, entity))
                {
                    final Record value = DeferralModel.component(patched, mine.pick(100_000));
                    if (patched == Comp.HP && run.hpPatchRefused)
                    {
                        expectRefusedQuietly(IllegalStateException.class, () -> hp.patch(entity, (Hp)value));
                    }
                    else
                    {
                        patchRecord(storage(patched), entity, value);
                        writes.add(() -> model.write(patched, entity, value));
                    }
                }
            }
            else if (roll < 91)
            {
                storage(comp).clear();
                lane.add(Change.clear(comp));
            }
            else
            {
                check(world.valid(target) == model.alive(target), "valid(" + name(target) + ") changed during " +
                    run.walk.name);
                check(storage(comp).contains(target) == model.has(comp, target), comp.title() + ".contains(" +
                    name(target) + ") changed during " + run.walk.name);
            }
        }
    }

    private static void expectRefusedQuietly(final Class<? extends Throwable> type, final Runnable call)
    {
        try
        {
            call.run();
        }
        catch (final Throwable thrown)
        {
            if (type.isInstance(thrown))
            {
                return;
            }
            throw new Disagreement("a call in a parallel action threw " + thrown + " where the model expects " +
                type.getSimpleName());
        }
        throw new Disagreement("a call in a parallel action was not refused: the model expects " +
            type.getSimpleName());
    }

    /** Writes random values through the walk's accessors; the model takes them at once. */
    private void writeSlots(final long entity, final Slot... slots)
    {
        for (final Slot slot : slots)
        {
            if (choices.oneIn(3))
            {
                final Record value = randomValue(slot.comp);
                slot.write.accept(value);
                model.write(slot.comp, entity, value);
                log("  write " + value + " to " + name(entity) + " through the walk's accessor");
            }
        }
    }

    private void checkSlots(final String walk, final long entity, final Slot... slots)
    {
        for (final Slot slot : slots)
        {
            final Record actual = slot.read.get();
            final Record expected = model.value(slot.comp, entity);
            if (!actual.equals(expected))
            {
                throw new Disagreement(walk + " handed " + name(entity) + "'s " + slot.comp.title() + " as " + actual +
                    " where the model holds " + expected);
            }
        }
    }

    /** A block of Movement's block walk: visits its entities, then may rewrite their x through the writable array. */
    private void walkBlock(final DeferralFixtures_MovementGroup.Block block, final Visitor visitor)
    {
        final Choices mine = visitor.choicesForBlock(block.start());
        final int length = block.length();
        final float[] xs = mine.oneIn(2) ? block.posX() : null;
        final long[] entities = new long[length];
        for (int i = 0; i < length; i++)
        {
            entities[i] = block.entity(i);
            if (xs != null && model.has(Comp.POS, entities[i]))
            {
                check(xs[i] == ((Pos)model.value(Comp.POS, entities[i])).x(), "the block's posX() holds " + xs[i] +
                    " for " + name(entities[i]) + ", the model " + model.value(Comp.POS, entities[i]));
            }
        }
        for (int i = 0; i < length; i++)
        {
            final int index = block.start() + i;
            if (!visitor.visit(entities[i], atIndex(Comp.POS, index), atIndex(Comp.VEL, index)))
            {
                return;
            }
        }
        if (xs != null)
        {
            for (int i = 0; i < length; i++)
            {
                final long entity = entities[i];
                final float x = mine.oneIn(2) ? xs[i] : mine.pick(4000) / 4f;
                xs[i] = x;
                visitor.writtenBack(entity, () ->
                    model.write(Comp.POS, entity, new Pos(x, ((Pos)model.value(Comp.POS, entity)).y())));
            }
        }
    }

    private void defineWalks()
    {
        final List<Comp> none = List.of();
        walk("PosOnly.forEach", () -> model.viewOrder(List.of(Comp.POS), none),
            v -> posOnly.forEach((entity, p) -> v.visit(entity, slot(p))));
        cursorWalk("PosOnly.cursor", () -> model.viewOrder(List.of(Comp.POS), none), posOnly, () ->
        {
            final DeferralFixtures_PosOnlyView.Cursor c = posOnly.cursor();
            return cursor(c::next, c::entity, c::close, () -> new Slot[] {slot(c.pos())});
        });
        parallel("PosOnly.parallelForEach", () -> model.viewOrder(List.of(Comp.POS), none),
            (pool, chunk, v) -> posOnly.parallelForEach(pool, chunk, (entity, p) -> v.visit(entity, slot(p))));

        final Supplier<List<Long>> moversOrder = () -> model.viewOrder(List.of(Comp.POS, Comp.VEL), List.of(Comp.TAG));
        walk("Movers.forEach", moversOrder, v -> movers.forEach((entity, p, d) -> v.visit(entity, slot(p), slot(d))));
        cursorWalk("Movers.cursor", moversOrder, movers, () ->
        {
            final DeferralFixtures_MoversView.Cursor c = movers.cursor();
            return cursor(c::next, c::entity, c::close, () -> new Slot[] {slot(c.pos()), slot(c.vel())});
        });
        parallel("Movers.parallelForEach", moversOrder, (pool, chunk, v) ->
            movers.parallelForEach(pool, chunk, (entity, p, d) -> v.visit(entity, slot(p), slot(d))));

        final Supplier<List<Long>> markedOrder = () -> model.viewOrder(List.of(Comp.MARK, Comp.HP), List.of(Comp.VEL));
        walk("Marked.forEach", markedOrder, v -> marked.forEach((entity, m, h) -> v.visit(entity, slot(m), slot(h))));
        cursorWalk("Marked.cursor", markedOrder, marked, () ->
        {
            final DeferralFixtures_MarkedView.Cursor c = marked.cursor();
            return cursor(c::next, c::entity, c::close, () -> new Slot[] {slot(c.mark()), slot(c.hp())});
        });
        parallel("Marked.parallelForEach", markedOrder, (pool, chunk, v) ->
            marked.parallelForEach(pool, chunk, (entity, m, h) -> v.visit(entity, slot(m), slot(h))));

        final Supplier<List<Long>> taggedOrder = () -> model.viewOrder(List.of(Comp.TAG, Comp.HP), none);
        walk("Tagged.forEach", taggedOrder, v -> tagged.forEach((entity, h) -> v.visit(entity, slot(h))));
        cursorWalk("Tagged.cursor", taggedOrder, tagged, () ->
        {
            final DeferralFixtures_TaggedView.Cursor c = tagged.cursor();
            return cursor(c::next, c::entity, c::close, () -> new Slot[] {slot(c.hp())});
        });
        parallel("Tagged.parallelForEach", taggedOrder, (pool, chunk, v) ->
            tagged.parallelForEach(pool, chunk, (entity, h) -> v.visit(entity, slot(h))));

        final Supplier<List<Long>> runtimeOrder = () -> model.viewOrder(List.of(Comp.HP, Comp.POS), List.of(Comp.MARK));
        walk("RuntimeView(Hp, Pos without Mark).forEach", runtimeOrder,
            v -> runtime.forEach(entity -> v.visit(entity, byEntity(Comp.HP, entity), byEntity(Comp.POS, entity))));
        parallel("RuntimeView(Hp, Pos without Mark).parallelForEach", runtimeOrder, (pool, chunk, v) ->
            runtime.parallelForEach(pool, chunk, entity -> v.visit(entity, byEntity(Comp.HP, entity),
                byEntity(Comp.POS, entity))));

        walk(FOR_EACH_ENTITY, model.pool::byIndex, v ->
        {
            entityWalks++;
            try
            {
                world.forEachEntity(entity -> v.visit(entity));
            }
            finally
            {
                entityWalks--;
            }
        });
        walk("Hp storage's forEach", () -> model.storage(Comp.HP).members(),
            v -> hp.forEach(entity -> v.visit(entity, byEntity(Comp.HP, entity))));
        walk("Mark storage's forEach", () -> model.storage(Comp.MARK).members(),
            v -> mark.forEach(entity -> v.visit(entity, byEntity(Comp.MARK, entity))));

        if (movement != null)
        {
            final Supplier<List<Long>> movementOrder = () -> model.groupOrder(model.owning("Movement"));
            walk("Movement.forEach", movementOrder,
                v -> movement.forEach((entity, p, d) -> v.visit(entity, slot(p), slot(d))));
            cursorWalk("Movement.cursor", movementOrder, movement, () ->
            {
                final DeferralFixtures_MovementGroup.Cursor c = movement.cursor();
                return cursor(c::next, c::entity, c::close, () -> new Slot[] {slot(c.pos()), slot(c.vel())});
            });
            walk("Movement.forEachIndex", movementOrder, v -> movement.forEachIndex(
                i -> v.visit(pos.entityAt(i), atIndex(Comp.POS, i), atIndex(Comp.VEL, i))));
            walk("Movement.forEachBlock", movementOrder, v -> movement.forEachBlock(b -> walkBlock(b, v)));
            walk("Movement's RuntimeGroup.forEach", movementOrder, v -> movement.group().forEach(
                entity -> v.visit(entity, byEntity(Comp.POS, entity), byEntity(Comp.VEL, entity))));
            parallel("Movement.parallelForEach", movementOrder, (pool, chunk, v) ->
                movement.parallelForEach(pool, chunk, (entity, p, d) -> v.visit(entity, slot(p), slot(d))));
            parallel("Movement.parallelForEachIndex", movementOrder, (pool, chunk, v) ->
                movement.parallelForEachIndex(pool, chunk,
                    i -> v.visit(pos.entityAt(i), atIndex(Comp.POS, i), atIndex(Comp.VEL, i))));
            parallel("Movement.parallelForEachBlock", movementOrder, (pool, chunk, v) ->
                movement.parallelForEachBlock(pool, chunk, b -> walkBlock(b, v)));
            walk("Living.forEach", model::livingOrder,
                v -> living.forEach((entity, h, m) -> v.visit(entity, slot(h), slot(m))));
            cursorWalk("Living.cursor", model::livingOrder, living, () ->
            {
                final DeferralFixtures_LivingGroup.Cursor c = living.cursor();
                return cursor(c::next, c::entity, c::close, () -> new Slot[] {slot(c.hp()), slot(c.mark())});
            });
            walk("Living's RuntimeGroup.forEach", model::livingOrder, v -> living.group().forEach(
                entity -> v.visit(entity, byEntity(Comp.HP, entity), byEntity(Comp.MARK, entity))));
            parallel("Living.parallelForEach", model::livingOrder, (pool, chunk, v) ->
                living.parallelForEach(pool, chunk, (entity, h, m) -> v.visit(entity, slot(h), slot(m))));
        }
        if (racing != null)
        {
            final Supplier<List<Long>> racingOrder = () -> model.groupOrder(model.owning("Racing"));
            walk("Racing.forEach", racingOrder,
                v -> racing.forEach((entity, p, d, h) -> v.visit(entity, slot(p), slot(d), slot(h))));
            cursorWalk("Racing.cursor", racingOrder, racing, () ->
            {
                final DeferralFixtures_RacingGroup.Cursor c = racing.cursor();
                return cursor(c::next, c::entity, c::close,
                    () -> new Slot[] {slot(c.pos()), slot(c.vel()), slot(c.hp())});
            });
            walk("Racing.forEachIndex", racingOrder, v -> racing.forEachIndex(
                i -> v.visit(pos.entityAt(i), atIndex(Comp.POS, i), atIndex(Comp.VEL, i), atIndex(Comp.HP, i))));
            walk("Racing's RuntimeGroup.forEach", racingOrder, v -> racing.group().forEach(
                entity -> v.visit(entity, byEntity(Comp.HP, entity))));
            parallel("Racing.parallelForEach", racingOrder, (pool, chunk, v) ->
                racing.parallelForEach(pool, chunk, (entity, p, d, h) -> v.visit(entity, slot(p), slot(d), slot(h))));
            parallel("Racing.parallelForEachIndex", racingOrder, (pool, chunk, v) ->
                racing.parallelForEachIndex(pool, chunk,
                    i -> v.visit(pos.entityAt(i), atIndex(Comp.POS, i), atIndex(Comp.VEL, i), atIndex(Comp.HP, i))));
        }
        if (healed != null)
        {
            walk("Healed.forEach", model::healedOrder,
                v -> healed.forEach((entity, h, p) -> v.visit(entity, slot(h), slot(p))));
        }
    }

    private void walk(final String name, final Supplier<List<Long>> expected, final Consumer<Visitor> forEach)
    {
        walks.add(new Walk(name, expected, forEach, null, null, null));
    }

    private void cursorWalk(
        final String name, final Supplier<List<Long>> expected, final Object owner, final Supplier<CursorHandle> cursor)
    {
        walks.add(new Walk(name, expected, null, cursor, owner, null));
    }

    private void parallel(final String name, final Supplier<List<Long>> expected, final ParallelWalk parallel)
    {
        parallelWalks.add(new Walk(name, expected, null, null, null, parallel));
    }

    private static CursorHandle cursor(
        final Supplier<Boolean> next, final Supplier<Long> entity, final Runnable close, final Supplier<Slot[]> slots)
    {
        return new CursorHandle()
        {
            @Override
            public boolean next()
            {
                return next.get();
            }

            @Override
            public long entity()
            {
                return entity.get();
            }

            @Override
            public Slot[] slots()
            {
                return slots.get();
            }

            @Override
            public void close()
            {
                close.run();
            }
        };
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Accessors of the visited entity.
    // ---------------------------------------------------------------------------------------------------------------

    private static Slot slot(final DeferralFixtures_PosStorage.Ref ref)
    {
        return new Slot(Comp.POS, () -> same(new Pos(ref.x(), ref.y()), ref.get()), value ->
        {
            ref.x(((Pos)value).x());
            ref.y(((Pos)value).y());
        });
    }

    private static Slot slot(final DeferralFixtures_VelStorage.Ref ref)
    {
        return new Slot(Comp.VEL, () -> same(new Vel(ref.dx(), ref.dy()), ref.get()), value ->
        {
            ref.dx(((Vel)value).dx());
            ref.dy(((Vel)value).dy());
        });
    }

    private static Slot slot(final DeferralFixtures_HpStorage.Ref ref)
    {
        return new Slot(Comp.HP, () -> same(new Hp(ref.value()), ref.get()), value -> ref.value(((Hp)value).value()));
    }

    private static Slot slot(final DeferralFixtures_MarkStorage.Ref ref)
    {
        return new Slot(Comp.MARK, () -> same(new Mark(ref.n()), ref.get()), value -> ref.n(((Mark)value).n()));
    }

    private static Record same(final Record byField, final Record whole)
    {
        if (!byField.equals(whole))
        {
            throw new Disagreement("a Ref's field reads give " + byField + " where its get() gives " + whole);
        }
        return byField;
    }

    /** A component read and written through the storage by entity (a runtime walk's way). */
    private Slot byEntity(final Comp comp, final long entity)
    {
        return new Slot(comp, () -> read(comp, entity), value ->
        {
            switch (comp)
            {
                case POS ->
                {
                    pos.x(entity, ((Pos)value).x());
                    pos.y(entity, ((Pos)value).y());
                }
                case VEL ->
                {
                    vel.dx(entity, ((Vel)value).dx());
                    vel.dy(entity, ((Vel)value).dy());
                }
                case HP -> hp.value(entity, ((Hp)value).value());
                default -> mark.n(entity, ((Mark)value).n());
            }
        });
    }

    /** A component of an owned storage read and written at a packed index (an index or block walk's way). */
    private Slot atIndex(final Comp comp, final int index)
    {
        if (comp == Comp.POS)
        {
            return new Slot(comp, () -> new Pos(pos.xAt(index), pos.yAt(index)), value ->
            {
                pos.xAt(index, ((Pos)value).x());
                pos.yAt(index, ((Pos)value).y());
            });
        }
        if (comp == Comp.HP)
        {
            return new Slot(comp, () -> new Hp(hp.valueAt(index)), value -> hp.valueAt(index, ((Hp)value).value()));
        }
        return new Slot(comp, () -> new Vel(vel.dxAt(index), vel.dyAt(index)), value ->
        {
            vel.dxAt(index, ((Vel)value).dx());
            vel.dyAt(index, ((Vel)value).dy());
        });
    }

    private Record read(final Comp comp, final long entity)
    {
        return switch (comp)
        {
            case POS -> new Pos(pos.x(entity), pos.y(entity));
            case VEL -> new Vel(vel.dx(entity), vel.dy(entity));
            case HP -> new Hp(hp.value(entity));
            case MARK -> new Mark(mark.n(entity));
            case TAG -> tag.get(entity);
        };
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Checks.
    // ---------------------------------------------------------------------------------------------------------------

    private void checkDeferring(final String where)
    {
        check(world.isDeferring(), "World.isDeferring() is false in " + where);
        check(world.heldBy() != null, "World.heldBy() is null in " + where);
    }

    /** During a walk or listener: an entity and the counts answer as the model (the structure as it was). */
    private void checkWhileHeld(final long entity)
    {
        checkEntity(entity);
        checkCounts();
    }

    /** One entity: alive or not, its components and values, its groups, observer and views. */
    private void checkEntity(final long entity)
    {
        final boolean alive = model.alive(entity);
        check(world.valid(entity) == alive, "valid(" + name(entity) + ") is " + !alive + ", the model says " + alive);
        for (final Comp comp : Comp.values())
        {
            final boolean has = model.has(comp, entity);
            if (storage(comp).contains(entity) != has)
            {
                throw new Disagreement(comp.title() + ".contains(" + name(entity) + ") is " + !has + ", the model " +
                    "says " + has);
            }
            if (has && !read(comp, entity).equals(model.value(comp, entity)))
            {
                throw new Disagreement(name(entity) + "'s " + comp.title() + " is " + read(comp, entity) + ", the " +
                    "model holds " + model.value(comp, entity));
            }
        }
        if (movement != null)
        {
            check(movement.contains(entity) == model.inGroup(model.owning("Movement"), entity), "Movement.contains(" +
                name(entity) + ") is " + movement.contains(entity));
            if (racing != null)
            {
                check(racing.contains(entity) == model.inGroup(model.owning("Racing"), entity), "Racing.contains(" +
                    name(entity) + ") is " + racing.contains(entity));
            }
            check(living.contains(entity) == model.inLiving(entity), "Living.contains(" + name(entity) + ") is " +
                living.contains(entity));
        }
        if (healed != null)
        {
            check(healed.contains(entity) == model.inHealed(entity), "Healed.contains(" + name(entity) + ") is " +
                healed.contains(entity));
        }
        checkView("PosOnly", posOnly.contains(entity), model.matches(entity, List.of(Comp.POS), List.of()), entity);
        checkView("Movers", movers.contains(entity),
            model.matches(entity, List.of(Comp.POS, Comp.VEL), List.of(Comp.TAG)), entity);
        checkView("Marked", marked.contains(entity),
            model.matches(entity, List.of(Comp.MARK, Comp.HP), List.of(Comp.VEL)), entity);
        checkView("Tagged", tagged.contains(entity), model.matches(entity, List.of(Comp.TAG, Comp.HP), List.of()),
            entity);
        checkView("RuntimeView", runtime.contains(entity),
            model.matches(entity, List.of(Comp.HP, Comp.POS), List.of(Comp.MARK)), entity);
    }

    private void checkView(final String view, final boolean actual, final boolean expected, final long entity)
    {
        if (actual != expected)
        {
            throw new Disagreement(view + ".contains(" + name(entity) + ") is " + actual + ", the model says " +
                expected);
        }
    }

    /** Sizes and counts: the storages', the world's, the groups', the observer's, every view's. */
    private void checkCounts()
    {
        check(world.aliveCount() == model.pool.aliveList.size(), "aliveCount() is " + world.aliveCount() +
            ", the model says " + model.pool.aliveList.size());
        for (final Comp comp : Comp.values())
        {
            final Packed packed = model.storage(comp);
            final ComponentStorage<?> storage = storage(comp);
            check(storage.size() == packed.size() && storage.extent() == packed.extent &&
                storage.memberCount() == packed.members().size(), comp.title() + " has size " + storage.size() +
                ", extent " + storage.extent() + ", " + storage.memberCount() + " members; the model says " +
                packed.size() + ", " + packed.extent + ", " + packed.members().size());
        }
        if (movement != null)
        {
            for (final DeferralModel.Owning group : model.family)
            {
                final int size = group.name.equals("Movement") ? movement.size() : racing.size();
                check(size == group.length, group.name + ".size() is " + size + ", the model says " + group.length);
            }
            check(living.size() == model.living.members().size(), "Living.size() is " + living.size() + ", the " +
                "model says " + model.living.members().size());
        }
        if (healed != null)
        {
            check(healed.size() == model.healed.members().size(), "Healed.size() is " + healed.size() + ", the " +
                "model says " + model.healed.members().size());
        }
        checkCount("PosOnly", posOnly.count(), model.viewOrder(List.of(Comp.POS), List.of()).size());
        checkCount("Movers", movers.count(), model.viewOrder(List.of(Comp.POS, Comp.VEL), List.of(Comp.TAG)).size());
        checkCount("Marked", marked.count(), model.viewOrder(List.of(Comp.MARK, Comp.HP), List.of(Comp.VEL)).size());
        checkCount("Tagged", tagged.count(), model.viewOrder(List.of(Comp.TAG, Comp.HP), List.of()).size());
        checkCount("RuntimeView", runtime.count(),
            model.viewOrder(List.of(Comp.HP, Comp.POS), List.of(Comp.MARK)).size());
    }

    private static void checkCount(final String view, final int actual, final int expected)
    {
        if (actual != expected)
        {
            throw new Disagreement(view + ".count() is " + actual + ", the model says " + expected);
        }
    }

    /** After a top-level operation: the whole world against the model. */
    private void checkWorld()
    {
        final boolean deferring = model.deferring();
        check(deferring || model.settled(), "the model has changes left to apply after the operation");
        check(world.isDeferring() == deferring, "World.isDeferring() is " + world.isDeferring() + " after the " +
            "operation" + (open != null ? " (" + open.walk.name + " is left open)" : ""));
        check((world.heldBy() != null) == deferring, "World.heldBy() is " + world.heldBy());
        checkCounts();
        for (final long entity : model.pool.aliveList)
        {
            checkEntity(entity);
        }
        for (final long entity : model.pool.recentlyDead)
        {
            check(!world.valid(entity), "destroyed " + name(entity) + " is still valid");
        }
        for (final Comp comp : Comp.values())
        {
            final Packed packed = model.storage(comp);
            final ComponentStorage<?> storage = storage(comp);
            for (int i = 0; i < packed.size(); i++)
            {
                if (storage.entityAt(i) != packed.entityAt(i))
                {
                    throw new Disagreement(comp.title() + " holds " + name(storage.entityAt(i)) + " at packed index " +
                        i + ", the model " + name(packed.entityAt(i)) + " (the model's packed array: " +
                        names(packed.packed) + ")");
                }
            }
        }
        if (movement != null)
        {
            for (final DeferralModel.Owning group : model.family)
            {
                final dev.cairn.group.RuntimeGroup runtimeGroup =
                    group.name.equals("Movement") ? movement.group() : racing.group();
                final List<Long> order = model.groupOrder(group);
                check(runtimeGroup.extent() == order.size(), group.name + "'s extent is " + runtimeGroup.extent());
                for (int i = 0; i < order.size(); i++)
                {
                    check(runtimeGroup.entityAt(i) == order.get(i), group.name + " holds " +
                        name(runtimeGroup.entityAt(i)) + " at " + i + ", the model " + names(order));
                }
            }
            final List<Long> livingOrder = model.livingOrder();
            check(living.group().extent() == livingOrder.size(), "Living's extent is " + living.group().extent());
            for (int i = 0; i < livingOrder.size(); i++)
            {
                check(living.group().entityAt(i) == livingOrder.get(i), "Living holds " +
                    name(living.group().entityAt(i)) + " at " + i + ", the model " + names(livingOrder));
            }
        }
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new Disagreement(message);
        }
    }

    private void fail(final Throwable thrown)
    {
        if (failure == null)
        {
            failure = thrown;
        }
    }

    private void rethrowFailure()
    {
        final Throwable first = failure;
        if (first instanceof RuntimeException runtimeException)
        {
            throw runtimeException;
        }
        if (first instanceof Error error)
        {
            throw error;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Helpers.
    // ---------------------------------------------------------------------------------------------------------------

    /** The visited entity, another alive one, one created during this operation (maybe destroyed since), or NULL. */
    private long randomTarget(final long current)
    {
        final int roll = choices.pick(10);
        if (roll < 4 && current != Entity.NULL)
        {
            return current;
        }
        if (roll < 6 && !created.isEmpty())
        {
            return created.get(choices.pick(created.size()));
        }
        final List<Long> alive = model.pool.aliveList;
        return alive.isEmpty() ? Entity.NULL : alive.get(choices.pick(alive.size()));
    }

    private Comp randomComp()
    {
        return Comp.values()[choices.pick(Comp.values().length)];
    }

    private Record randomValue(final Comp comp)
    {
        return DeferralModel.component(comp, choices.pick(100_000));
    }

    private ComponentStorage<?> storage(final Comp comp)
    {
        return switch (comp)
        {
            case POS -> pos;
            case VEL -> vel;
            case HP -> hp;
            case MARK -> mark;
            case TAG -> tag;
        };
    }

    private static Class<? extends Record> recordClass(final Comp comp)
    {
        return switch (comp)
        {
            case POS -> Pos.class;
            case VEL -> Vel.class;
            case HP -> Hp.class;
            case MARK -> Mark.class;
            case TAG -> Tag.class;
        };
    }

    private void log(final String line)
    {
        if (Thread.currentThread() != thread)
        {
            return;
        }
        trace.addLast(operation + ": " + indent(model == null ? 0 : model.depth) + line);
        if (trace.size() > TRACE_LINES)
        {
            trace.removeFirst();
        }
    }

    private static String indent(final int level)
    {
        return "  ".repeat(level);
    }

    static String name(final long entity)
    {
        return entity == Packed.HOLE ? "hole" : Entity.toString(entity);
    }

    private static String names(final List<Long> entities)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < entities.size(); i++)
        {
            text.append(i == 0 ? "" : ", ").append(name(entities.get(i)));
        }
        return text.append(']').toString();
    }

    private static String names(final long[] entities, final int count)
    {
        final List<Long> list = new ArrayList<>();
        for (final long entity : Arrays.copyOf(entities, count))
        {
            list.add(entity);
        }
        return names(list);
    }
}
