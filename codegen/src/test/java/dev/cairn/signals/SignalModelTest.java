package dev.cairn.signals;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.observer.RuntimeObserver;
import dev.cairn.signals.SignalFixtures.Body;
import dev.cairn.signals.SignalFixtures.Ghost;
import dev.cairn.signals.SignalFixtures.Health;
import dev.cairn.signals.SignalFixtures.Speed;
import dev.cairn.signals.SignalFixtures.Stunned;
import dev.cairn.storage.ComponentStorage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Model-based test of signals, observers and change ticks: seeded random sequences of world and storage operations
 * on five storages (every deletion policy, tracked and untracked, two tags) with listeners connected, some of which
 * change the world (a ghost loses its health, a stun updates the body, a body's removal lifts the stun, a ghost's
 * destroy removes its body first) and one of which throws (a negative speed), and walks whose actions change the
 * world at every visit. What listeners and walks change is deferred: the model records it and applies it, round after
 * round, when the operation that announced it or the walk returns, with the rules of deferral (a change to an entity no
 * longer alive is dropped, an add of a component the entity has by then overwrites it, a removal of one it lacks does
 * nothing). After every operation the events the listeners received must equal the model's expected sequence (in any
 * order where a storage's {@code clear()} announces, whose order follows the packed array), and the storages, the
 * change ticks and four observers (three generated, one built at run time) must equal the model.
 */
final class SignalModelTest
{
    private static final int OPERATIONS = Integer.getInteger("cairn.fuzz.operations", 20_000);
    private static final int MAX_ENTITIES = 48;
    private static final long FIXED_SEED = 0x51C7A1L;
    private static final long SHRINK_BUDGET = 1_000_000;

    /** The storages, in the order the world creates them (destroy removes components in this order). */
    enum Kind
    {
        BODY, SPEED, HEALTH, STUNNED, GHOST
    }

    enum Action
    {
        CREATE(10), CREATE_MANY(2), DESTROY(8), ADD(20), REMOVE(10), PATCH(8), MARK(4), WRITE(8), CLEAR_STORAGE(1),
        CLEAR_WORLD(1), CLEAR_OBSERVER(2), ADVANCE(5), ITERATE(6);

        private final int weight;

        Action(final int weight)
        {
            this.weight = weight;
        }
    }

    /**
     * One operation.
     *
     * @param action what to do.
     * @param kind   on which storage.
     * @param pick   which entity (mostly alive, sometimes stale).
     * @param value  the value written (negative speeds make a listener throw).
     * @param how    which of the equivalent APIs to use.
     */
    record Op(Action action, Kind kind, int pick, int value, int how)
    {
        @Override
        public String toString()
        {
            return action.name().toLowerCase() + "(" + kind + ", pick " + pick + ", value " + value + ", how " + how +
                ")";
        }
    }

    @Test
    void randomOperationsSendTheEventsTheModelExpectsAndKeepObserversAndTicksExact()
    {
        final Long chosen = Long.getLong("cairn.seed");
        for (final long seed : chosen != null ? new long[]{chosen} : new long[]{FIXED_SEED, System.nanoTime()})
        {
            final List<Op> ops = generate(seed);
            final Failure failure = run(ops);
            System.out.println("SignalModelTest: seed " + seed + ", " + ops.size() + " operations");
            if (failure != null)
            {
                final List<Op> shrunk = shrink(ops.subList(0, failure.operation() + 1), failure.cause().getClass());
                final StringBuilder text = new StringBuilder("signals disagree with the model at operation ")
                    .append(failure.operation()).append(" of seed ").append(seed).append(" (replay with -Dcairn.seed=")
                    .append(seed).append("): ").append(failure.cause()).append("\nthese ").append(shrunk.size())
                    .append(" operations still fail:\n");
                for (int i = 0; i < shrunk.size(); i++)
                {
                    text.append(String.format("  %4d: %s%n", i, shrunk.get(i)));
                }
                fail(text.toString(), failure.cause());
            }
        }
    }

    private static List<Op> generate(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Action> weighted = new ArrayList<>();
        for (final Action action : Action.values())
        {
            for (int w = 0; w < action.weight; w++)
            {
                weighted.add(action);
            }
        }
        final List<Op> ops = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++)
        {
            ops.add(new Op(weighted.get(random.nextInt(weighted.size())), Kind.values()[random.nextInt(5)],
                random.nextInt(1 << 20), random.nextInt(-3, 40), random.nextInt(3)));
        }
        return ops;
    }

    private record Failure(int operation, Throwable cause)
    {
    }

    /** What a listener or a walk's action records, to be applied later. */
    enum Change
    {
        CREATED, DESTROY, ADD, REMOVE, UPDATED, CLEAR
    }

    /** One recorded change. */
    private record Recorded(Change what, Kind kind, long entity, double value)
    {
    }

    private static Failure run(final List<Op> ops)
    {
        try (World world = new World(MAX_ENTITIES))
        {
            final Run run = new Run(world);
            for (int k = 0; k < ops.size(); k++)
            {
                try
                {
                    run.apply(ops.get(k));
                    run.verify();
                }
                catch (final Throwable ex)
                {
                    return new Failure(k, ex);
                }
            }
            return null;
        }
    }

    private static List<Op> shrink(final List<Op> failing, final Class<?> failureType)
    {
        List<Op> current = new ArrayList<>(failing);
        long budget = SHRINK_BUDGET;
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && budget > 0; chunk /= 2)
        {
            for (int start = 0; start < current.size() && budget > 0; )
            {
                final List<Op> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
                budget -= candidate.size();
                final Failure failure = candidate.isEmpty() ? null : run(candidate);
                if (failure != null && failure.cause().getClass() == failureType)
                {
                    current = new ArrayList<>(candidate.subList(0, failure.operation() + 1));
                }
                else
                {
                    start += chunk;
                }
            }
        }
        return current;
    }

    /** A model observer: its rule and the entities it holds. */
    private static final class ObserverModel
    {
        final Set<Kind> onAdded;
        final Set<Kind> onUpdated;
        final Set<Kind> required;
        final Set<Kind> without;
        final Set<Long> held = new LinkedHashSet<>();

        ObserverModel(final Set<Kind> onAdded, final Set<Kind> onUpdated, final Set<Kind> with, final Set<Kind> without)
        {
            this.onAdded = onAdded;
            this.onUpdated = onUpdated;
            this.required = new LinkedHashSet<>(onAdded);
            this.required.addAll(onUpdated);
            this.required.addAll(with);
            this.without = without;
        }
    }

    /** The world under test, its listeners, and the model. */
    private static final class Run
    {
        private final World world;
        private final SignalFixtures_BodyStorage bodies;
        private final SignalFixtures_SpeedStorage speeds;
        private final SignalFixtures_HealthStorage healths;
        private final SignalFixtures_StunnedStorage stunned;
        private final SignalFixtures_GhostStorage ghosts;
        private final Map<Kind, ComponentStorage<?>> storages = new HashMap<>();
        private final SignalFixtures_BodyChangesObserver bodyChanges;
        private final SignalFixtures_HurtWhileStunnedObserver hurtWhileStunned;
        private final SignalFixtures_NewGhostsObserver newGhosts;
        private final RuntimeObserver speedsOfTheHealthy;
        private final List<String> log = new ArrayList<>();

        // The model.
        private final Set<Long> alive = new LinkedHashSet<>();
        private final List<Long> recent = new ArrayList<>();
        private final Map<Kind, Map<Long, Double>> values = new HashMap<>();
        private final Map<Kind, Map<Long, int[]>> ticks = new HashMap<>();
        /** Changes listeners and walks recorded, applied when the outermost operation or walk returns. */
        private final List<Recorded> recorded = new ArrayList<>();
        private final List<ObserverModel> observers = new ArrayList<>();
        private final List<String> expected = new ArrayList<>();
        private int tick = 1;

        Run(final World world)
        {
            this.world = world;
            bodies = world.storage(SignalFixtures_BodyStorage.TYPE);
            speeds = world.storage(SignalFixtures_SpeedStorage.TYPE);
            healths = world.storage(SignalFixtures_HealthStorage.TYPE);
            stunned = world.storage(SignalFixtures_StunnedStorage.TYPE);
            ghosts = world.storage(SignalFixtures_GhostStorage.TYPE);
            storages.put(Kind.BODY, bodies);
            storages.put(Kind.SPEED, speeds);
            storages.put(Kind.HEALTH, healths);
            storages.put(Kind.STUNNED, stunned);
            storages.put(Kind.GHOST, ghosts);
            for (final Kind kind : Kind.values())
            {
                values.put(kind, new HashMap<>());
                ticks.put(kind, new HashMap<>());
            }
            // Observers attach before the listeners connect; their order among themselves does not matter.
            bodyChanges = new SignalFixtures_BodyChangesObserver(world);
            observers.add(new ObserverModel(Set.of(Kind.BODY), Set.of(Kind.BODY), Set.of(Kind.SPEED),
                Set.of(Kind.GHOST)));
            hurtWhileStunned = new SignalFixtures_HurtWhileStunnedObserver(world);
            observers.add(new ObserverModel(Set.of(), Set.of(Kind.HEALTH), Set.of(Kind.STUNNED), Set.of()));
            newGhosts = new SignalFixtures_NewGhostsObserver(world);
            observers.add(new ObserverModel(Set.of(Kind.GHOST), Set.of(), Set.of(), Set.of()));
            speedsOfTheHealthy = world.observer().onAdded(Speed.class).onUpdated(Speed.class).with(Health.class)
                .without(Stunned.class).build();
            observers.add(new ObserverModel(Set.of(Kind.SPEED), Set.of(Kind.SPEED), Set.of(Kind.HEALTH),
                Set.of(Kind.STUNNED)));

            for (final Kind kind : Kind.values())
            {
                final ComponentStorage<?> storage = storages.get(kind);
                storage.onAdded((entity, index) -> log.add(kind + "+" + Entity.toString(entity)));
                storage.onUpdated((entity, index) -> log.add(kind + "~" + Entity.toString(entity)));
                storage.onRemoving((entity, index) -> log.add(kind + "-" + Entity.toString(entity)));
            }
            ghosts.onAdded((entity, index) -> healths.remove(entity));
            stunned.onAdded((entity, index) ->
            {
                if (bodies.contains(entity))
                {
                    bodies.patch(entity, bodies.x(entity) + 1, bodies.y(entity));
                }
            });
            bodies.onRemoving((entity, index) -> stunned.remove(entity));
            speeds.onAdded((entity, index) ->
            {
                if (speeds.v(entity) < 0)
                {
                    throw new IllegalStateException("negative speed for " + Entity.toString(entity));
                }
            });
            world.onCreated(entity -> log.add("C" + Entity.toString(entity)));
            world.onDestroying(entity ->
            {
                log.add("D" + Entity.toString(entity));
                if (ghosts.contains(entity))
                {
                    bodies.remove(entity);
                }
            });
        }

        void apply(final Op op)
        {
            log.clear();
            expected.clear();
            final long e = pick(op.pick());
            final boolean isAlive = alive.contains(e);
            final Kind kind = op.kind();
            final boolean has = values.get(kind).containsKey(e);
            boolean sorted = false;
            switch (op.action())
            {
                case CREATE:
                    if (alive.size() < MAX_ENTITIES)
                    {
                        final long entity = world.create();
                        born(entity);
                        announceCreated(entity);
                        settle();
                    }
                    break;
                case CREATE_MANY:
                {
                    final int count = 1 + op.how();
                    if (alive.size() + count <= MAX_ENTITIES)
                    {
                        final long[] made = new long[count];
                        world.create(made, count);
                        for (final long entity : made)
                        {
                            born(entity);
                        }
                        for (final long entity : made)
                        {
                            announceCreated(entity);
                        }
                        settle();
                    }
                    break;
                }
                case DESTROY:
                    if (isAlive)
                    {
                        world.destroy(e);
                        modelDestroy(e);
                        settle();
                    }
                    else
                    {
                        refused(() -> world.destroy(e));
                    }
                    break;
                case ADD:
                    if (!isAlive || has)
                    {
                        refused(() -> add(kind, e, op.value(), op.how()));
                    }
                    else if (kind == Kind.SPEED && op.value() < 0)
                    {
                        expectThrown(IllegalStateException.class, "negative speed", () -> add(kind, e, op.value(),
                            op.how()));
                        modelAdd(kind, e, op.value());
                        settle();
                    }
                    else
                    {
                        add(kind, e, op.value(), op.how());
                        modelAdd(kind, e, op.value());
                        settle();
                    }
                    break;
                case REMOVE:
                    if (op.how() == 2)
                    {
                        if (isAlive)
                        {
                            check(world.remove(e, storages.get(kind).type().recordClass()) == has, "World.remove");
                            modelRemoveIfHas(kind, e);
                            settle();
                        }
                        else
                        {
                            refused(() -> world.remove(e, storages.get(kind).type().recordClass()));
                        }
                    }
                    else if (op.how() == 1 && !has)
                    {
                        refused(() -> storages.get(kind).erase(e));
                    }
                    else
                    {
                        check((op.how() == 1 || storages.get(kind).remove(e)) == has, "remove returned " + !has);
                        if (op.how() == 1)
                        {
                            storages.get(kind).erase(e);
                        }
                        modelRemoveIfHas(kind, e);
                        settle();
                    }
                    break;
                case PATCH:
                    if (has)
                    {
                        patch(kind, e, op.value(), op.how());
                        written(kind, e, isTag(kind) ? 0 : op.value());
                        modelUpdated(kind, e);
                        settle();
                    }
                    else
                    {
                        refused(() -> patch(kind, e, op.value(), op.how()));
                    }
                    break;
                case MARK:
                    if (has)
                    {
                        storages.get(kind).markUpdated(e);
                        written(kind, e, values.get(kind).get(e));
                        modelUpdated(kind, e);
                        settle();
                    }
                    else
                    {
                        refused(() -> storages.get(kind).markUpdated(e));
                    }
                    break;
                case WRITE:
                    if (has && write(kind, e, op.value(), op.how()))
                    {
                        written(kind, e, op.value());
                    }
                    break;
                case CLEAR_STORAGE:
                    storages.get(kind).clear();
                    modelClear(kind);
                    settle();
                    sorted = true;
                    break;
                case CLEAR_WORLD:
                    world.clear();
                    modelClearWorld();
                    settle();
                    break;
                case CLEAR_OBSERVER:
                    switch (op.how())
                    {
                        case 0:
                            bodyChanges.clear();
                            break;
                        case 1:
                            hurtWhileStunned.clear();
                            break;
                        default:
                            speedsOfTheHealthy.clear();
                            break;
                    }
                    observers.get(op.how() == 2 ? 3 : op.how()).held.clear();
                    break;
                case ADVANCE:
                    check(world.advanceTick() == tick, "advanceTick() returned another tick than the model's");
                    tick++;
                    break;
                case ITERATE:
                    sorted = iterate(op);
                    break;
                default:
                    throw new IllegalStateException("unknown " + op);
            }
            check(recorded.isEmpty(), "the model left changes unapplied");
            if (sorted)
            {
                Collections.sort(log);
                Collections.sort(expected);
            }
            check(log.equals(expected), "events " + log + ", the model expects " + expected);
        }

        // ---------------------------------------------------------------------------------------------------------
        // A walk whose action changes the world: every structural change waits for its end.
        // ---------------------------------------------------------------------------------------------------------

        /**
         * Walks a storage, the generated observer or the world's entities; at each visit the action makes a change
         * chosen from the op (destroy, add, remove, patch, markUpdated, write, create, clear), which the model records
         * as the engine does and applies when the walk returns. The walk must visit exactly the entities it began
         * with, each once, and send no event meanwhile.
         *
         * @return whether the events are compared in any order (a storage's clear announces in packed order).
         */
        private boolean iterate(final Op op)
        {
            final Set<Long> atStart;
            final java.util.function.Consumer<LongConsumer> walk;
            switch (op.how())
            {
                case 0:
                    atStart = new LinkedHashSet<>(values.get(op.kind()).keySet());
                    walk = storages.get(op.kind())::forEach;
                    break;
                case 1:
                    atStart = new LinkedHashSet<>(observers.get(0).held);
                    walk = action -> bodyChanges.forEach((entity, body, speed) -> action.accept(entity));
                    break;
                default:
                    atStart = new LinkedHashSet<>(alive);
                    walk = world::forEachEntity;
                    break;
            }
            final Set<Long> visited = new LinkedHashSet<>();
            final int[] step = {op.value() + 3};
            final boolean[] clears = {false};
            Throwable thrown = null;
            try
            {
                walk.accept(entity ->
                {
                    check(visited.add(entity), "a walk visited " + Entity.toString(entity) + " twice");
                    check(atStart.contains(entity), "a walk visited " + Entity.toString(entity) + ", which it did " +
                        "not begin with");
                    check(log.isEmpty(), "events were sent during a walk: " + log);
                    clears[0] |= change(entity, step[0]++, op.kind());
                });
            }
            catch (final RuntimeException ex)
            {
                thrown = ex;
            }
            check(visited.equals(atStart), "a walk visited " + visited.size() + " entities, it began with " +
                atStart.size());
            final boolean failureExpected = settle();
            if (failureExpected)
            {
                check(thrown instanceof IllegalStateException && thrown.getMessage().contains("negative speed"),
                    "expected the walk to throw the listener's refusal of a negative speed, got " + thrown);
            }
            else if (thrown != null)
            {
                throw new AssertionError("the walk threw " + thrown, thrown);
            }
            return clears[0];
        }

        /** One visit's change, made through the engine and recorded in the model; true for a storage's clear. */
        private boolean change(final long visited, final int step, final Kind walked)
        {
            final Kind kind = Kind.values()[(step / 9) % Kind.values().length];
            final long other = pickAlive(step * 31 + 7);
            final int value = step % 43 - 3;
            switch (step % 9)
            {
                case 0:
                    world.destroy(visited);
                    record(Change.DESTROY, null, visited, 0);
                    break;
                case 1:
                    world.destroy(other);
                    record(Change.DESTROY, null, other, 0);
                    break;
                case 2:
                    if (values.get(kind).containsKey(other))
                    {
                        refused(() -> add(kind, other, value, step % 3));
                    }
                    else
                    {
                        add(kind, other, value, step % 3);
                        record(Change.ADD, kind, other, isTag(kind) ? 0 : value);
                    }
                    break;
                case 3:
                {
                    final boolean has = values.get(kind).containsKey(visited);
                    check(storages.get(kind).remove(visited) == has, "a remove in a walk answered " + !has);
                    // Recorded even if absent now: it undoes an add recorded before it.
                    record(Change.REMOVE, kind, visited, 0);
                    break;
                }
                case 4:
                    if (values.get(kind).containsKey(other))
                    {
                        patch(kind, other, value, step % 2);
                        written(kind, other, isTag(kind) ? 0 : value);
                        record(Change.UPDATED, kind, other, 0);
                    }
                    break;
                case 5:
                    if (alive.size() < MAX_ENTITIES)
                    {
                        final long entity = world.create();
                        check(world.valid(entity), "a create in a walk is not made at once");
                        born(entity);
                        record(Change.CREATED, null, entity, 0);
                        add(kind, entity, Math.abs(value), 0);
                        record(Change.ADD, kind, entity, isTag(kind) ? 0 : Math.abs(value));
                    }
                    break;
                case 6:
                    if (values.get(kind).containsKey(visited))
                    {
                        storages.get(kind).markUpdated(visited);
                        written(kind, visited, values.get(kind).get(visited));
                        record(Change.UPDATED, kind, visited, 0);
                    }
                    break;
                case 7:
                    if (values.get(kind).containsKey(visited) && write(kind, visited, value, step % 3))
                    {
                        written(kind, visited, value);
                    }
                    break;
                default:
                    if (step % 5 == 3)
                    {
                        storages.get(walked).clear();
                        record(Change.CLEAR, walked, Entity.NULL, 0);
                        return true;
                    }
                    break;
            }
            check(world.isDeferring(), "a change in a walk was not deferred");
            return false;
        }

        // ---------------------------------------------------------------------------------------------------------
        // The model's account of what the engine does, listeners included. Changes that listeners (and walks) make
        // are recorded and applied after the operation that announced them, round after round.
        // ---------------------------------------------------------------------------------------------------------

        private void record(final Change what, final Kind kind, final long entity, final double value)
        {
            recorded.add(new Recorded(what, kind, entity, value));
        }

        /**
         * Applies what was recorded, round after round, as the engine does when the outermost walk or operation
         * returns: a change to an entity no longer alive is dropped, an add of a component the entity has by then
         * overwrites it (an update), a removal of one it has not does nothing.
         *
         * @return whether a listener threw meanwhile (the negative speed's), which the engine reports at the end.
         */
        private boolean settle()
        {
            boolean failed = false;
            while (!recorded.isEmpty())
            {
                final List<Recorded> round = new ArrayList<>(recorded);
                recorded.clear();
                for (final Recorded change : round)
                {
                    final long entity = change.entity();
                    if (change.what() == Change.CLEAR)
                    {
                        modelClear(change.kind());
                        continue;
                    }
                    if (!alive.contains(entity))
                    {
                        continue;
                    }
                    switch (change.what())
                    {
                        case DESTROY:
                            modelDestroy(entity);
                            break;
                        case CREATED:
                            announceCreated(entity);
                            break;
                        case REMOVE:
                            modelRemoveIfHas(change.kind(), entity);
                            break;
                        case UPDATED:
                            if (values.get(change.kind()).containsKey(entity))
                            {
                                modelUpdated(change.kind(), entity);
                            }
                            break;
                        default:
                            if (values.get(change.kind()).containsKey(entity))
                            {
                                written(change.kind(), entity, change.value());
                                modelUpdated(change.kind(), entity);
                            }
                            else
                            {
                                failed |= change.kind() == Kind.SPEED && change.value() < 0;
                                modelAdd(change.kind(), entity, change.value());
                            }
                            break;
                    }
                }
            }
            return failed;
        }

        /** An add: the hooks (observers) first, then the listeners. */
        private void modelAdd(final Kind kind, final long entity, final double value)
        {
            values.get(kind).put(entity, isTag(kind) ? 0 : value);
            ticks.get(kind).put(entity, new int[]{tick, tick});
            for (final ObserverModel observer : observers)
            {
                if (observer.without.contains(kind))
                {
                    observer.held.remove(entity);
                }
                else if (observer.onAdded.contains(kind))
                {
                    enterIfMatching(observer, entity);
                }
            }
            expected.add(kind + "+" + Entity.toString(entity));
            switch (kind)
            {
                case GHOST:
                    record(Change.REMOVE, Kind.HEALTH, entity, 0);
                    break;
                case STUNNED:
                    if (values.get(Kind.BODY).containsKey(entity))
                    {
                        // The listener's patch writes at once; its update is told after the add.
                        written(Kind.BODY, entity, values.get(Kind.BODY).get(entity) + 1);
                        record(Change.UPDATED, Kind.BODY, entity, 0);
                    }
                    break;
                default:
                    break;
            }
        }

        /** An update told (the value and the change tick were written when the patch was made). */
        private void modelUpdated(final Kind kind, final long entity)
        {
            for (final ObserverModel observer : observers)
            {
                if (observer.onUpdated.contains(kind))
                {
                    enterIfMatching(observer, entity);
                }
            }
            expected.add(kind + "~" + Entity.toString(entity));
        }

        /** A write of a component's value: stamped with the tick at once. */
        private void written(final Kind kind, final long entity, final double value)
        {
            values.get(kind).put(entity, isTag(kind) ? 0 : value);
            final int[] stamp = ticks.get(kind).get(entity);
            if (stamp != null)
            {
                stamp[1] = tick;
            }
        }

        /** A removal: the listeners first, with the component there, then the hooks, then the removal itself. */
        private void modelRemoveIfHas(final Kind kind, final long entity)
        {
            if (!values.get(kind).containsKey(entity))
            {
                return;
            }
            expected.add(kind + "-" + Entity.toString(entity));
            if (kind == Kind.BODY)
            {
                record(Change.REMOVE, Kind.STUNNED, entity, 0);
            }
            for (final ObserverModel observer : observers)
            {
                if (observer.required.contains(kind))
                {
                    observer.held.remove(entity);
                }
            }
            values.get(kind).remove(entity);
            ticks.get(kind).remove(entity);
        }

        /** A destroy: the destroying listeners with the entity whole, then each component, in the storages' order. */
        private void modelDestroy(final long entity)
        {
            expected.add("D" + Entity.toString(entity));
            if (values.get(Kind.GHOST).containsKey(entity) && values.get(Kind.BODY).containsKey(entity))
            {
                record(Change.REMOVE, Kind.BODY, entity, 0);
            }
            for (final Kind kind : Kind.values())
            {
                modelRemoveIfHas(kind, entity);
            }
            alive.remove(entity);
        }

        private void modelClear(final Kind kind)
        {
            for (final long member : new ArrayList<>(values.get(kind).keySet()))
            {
                modelRemoveIfHas(kind, member);
            }
        }

        /** A clear of the world destroys each entity, from the highest index to the lowest. */
        private void modelClearWorld()
        {
            final List<Long> byIndex = new ArrayList<>(alive);
            byIndex.sort((a, b) -> Integer.compare(Entity.index(b), Entity.index(a)));
            for (final long entity : byIndex)
            {
                modelDestroy(entity);
            }
        }

        private void enterIfMatching(final ObserverModel observer, final long entity)
        {
            for (final Kind kind : observer.required)
            {
                if (!values.get(kind).containsKey(entity))
                {
                    return;
                }
            }
            for (final Kind kind : observer.without)
            {
                if (values.get(kind).containsKey(entity))
                {
                    return;
                }
            }
            observer.held.add(entity);
        }

        private void born(final long entity)
        {
            check(!alive.contains(entity), "create() returned the alive " + Entity.toString(entity));
            alive.add(entity);
            recent.remove(entity);
            recent.add(entity);
            if (recent.size() > 96)
            {
                recent.remove(0);
            }
        }

        private void announceCreated(final long entity)
        {
            expected.add("C" + Entity.toString(entity));
        }

        // ---------------------------------------------------------------------------------------------------------
        // The engine's APIs, chosen by 'how'.
        // ---------------------------------------------------------------------------------------------------------

        private void add(final Kind kind, final long entity, final int value, final int how)
        {
            switch (kind)
            {
                case BODY:
                    if (how == 0)
                    {
                        bodies.emplace(entity, value, 0f);
                    }
                    else if (how == 1)
                    {
                        bodies.add(entity, new Body(value, 0f));
                    }
                    else
                    {
                        world.add(entity, new Body(value, 0f));
                    }
                    break;
                case SPEED:
                    if (how == 0)
                    {
                        speeds.emplace(entity, value);
                    }
                    else
                    {
                        world.add(entity, new Speed(value));
                    }
                    break;
                case HEALTH:
                    if (how == 0)
                    {
                        healths.emplace(entity, value);
                    }
                    else
                    {
                        healths.add(entity, new Health(value));
                    }
                    break;
                case STUNNED:
                    if (how == 0)
                    {
                        stunned.emplace(entity);
                    }
                    else
                    {
                        world.add(entity, new Stunned());
                    }
                    break;
                default:
                    if (how == 0)
                    {
                        ghosts.emplace(entity);
                    }
                    else
                    {
                        ghosts.add(entity, new Ghost());
                    }
                    break;
            }
        }

        private void patch(final Kind kind, final long entity, final int value, final int how)
        {
            switch (kind)
            {
                case BODY:
                    if (how == 0)
                    {
                        bodies.patch(entity, value, 0f);
                    }
                    else
                    {
                        bodies.patch(entity, new Body(value, 0f));
                    }
                    break;
                case SPEED:
                    speeds.patch(entity, value);
                    break;
                case HEALTH:
                    healths.patch(entity, new Health(value));
                    break;
                case STUNNED:
                    stunned.patch(entity, new Stunned());
                    break;
                default:
                    ghosts.patch(entity, new Ghost());
                    break;
            }
        }

        /** A write that signals nothing; returns false for tags, which have no field. */
        private boolean write(final Kind kind, final long entity, final int value, final int how)
        {
            switch (kind)
            {
                case BODY:
                    if (how == 0)
                    {
                        bodies.x(entity, value);
                    }
                    else if (how == 1)
                    {
                        bodies.xAt(bodies.indexOf(entity), value);
                    }
                    else
                    {
                        new SignalFixtures_BodyStorage.Ref(bodies).moveTo(bodies.indexOf(entity)).x(value);
                    }
                    return true;
                case SPEED:
                    if (how == 0)
                    {
                        speeds.v(entity, value);
                    }
                    else
                    {
                        new SignalFixtures_SpeedStorage.Ref(speeds).moveTo(speeds.indexOf(entity)).v(value);
                    }
                    return true;
                case HEALTH:
                    healths.hp(entity, value);
                    return true;
                default:
                    return false;
            }
        }

        // ---------------------------------------------------------------------------------------------------------

        void verify()
        {
            check(world.aliveCount() == alive.size(), "aliveCount " + world.aliveCount() + ", model " + alive.size());
            for (final Kind kind : Kind.values())
            {
                final ComponentStorage<?> storage = storages.get(kind);
                final Map<Long, Double> model = values.get(kind);
                check(storage.memberCount() == model.size(), storage.name() + " has " + storage.memberCount() +
                    " members, the model " + model.size());
                for (final Map.Entry<Long, Double> entry : model.entrySet())
                {
                    final long entity = entry.getKey();
                    check(alive.contains(entity), "the model holds a dead entity in " + kind);
                    check(readValue(kind, entity) == entry.getValue(), Entity.toString(entity) + " reads " +
                        readValue(kind, entity) + " from " + storage.name() + ", the model " + entry.getValue());
                    if (storage.isTracked())
                    {
                        final int index = storage.indexOf(entity);
                        final int[] stamp = ticks.get(kind).get(entity);
                        check(storage.addedTickAt(index) == stamp[0] && storage.changedTickAt(index) == stamp[1],
                            Entity.toString(entity) + " in " + storage.name() + " is stamped " +
                            storage.addedTickAt(index) + "/" + storage.changedTickAt(index) + ", the model " +
                            stamp[0] + "/" + stamp[1]);
                    }
                }
            }
            verifyObserver(0, bodyChanges.size(), bodyChanges::contains);
            verifyObserver(1, hurtWhileStunned.size(), hurtWhileStunned::contains);
            verifyObserver(2, newGhosts.size(), newGhosts::contains);
            verifyObserver(3, speedsOfTheHealthy.size(), speedsOfTheHealthy::contains);
            final Set<Long> walked = new TreeSet<>();
            bodyChanges.forEach((entity, body, speed) ->
            {
                check(walked.add(entity), "an observer visited " + Entity.toString(entity) + " twice");
                check(body.x() == values.get(Kind.BODY).get(entity).floatValue(), "the observer's Ref reads " +
                    body.x() + " for " + Entity.toString(entity));
            });
            check(walked.equals(new TreeSet<>(observers.get(0).held)), "the generated observer walked " + walked);
        }

        private void verifyObserver(final int k, final int size, final java.util.function.LongPredicate contains)
        {
            final Set<Long> held = observers.get(k).held;
            check(size == held.size(), "observer " + k + " holds " + size + " entities, the model " + held);
            for (final long entity : recent)
            {
                check(contains.test(entity) == held.contains(entity), "observer " + k + " contains(" +
                    Entity.toString(entity) + ") is " + !held.contains(entity));
            }
        }

        private double readValue(final Kind kind, final long entity)
        {
            switch (kind)
            {
                case BODY:
                    return bodies.x(entity);
                case SPEED:
                    return speeds.v(entity);
                case HEALTH:
                    return healths.hp(entity);
                default:
                    return 0;
            }
        }

        private static boolean isTag(final Kind kind)
        {
            return kind == Kind.STUNNED || kind == Kind.GHOST;
        }

        /** An alive entity; the world has one. */
        private long pickAlive(final int pick)
        {
            int n = Math.floorMod(pick, alive.size());
            for (final long entity : alive)
            {
                if (n-- == 0)
                {
                    return entity;
                }
            }
            throw new IllegalStateException("no entity is alive");
        }

        /** Mostly an alive entity; one time in six a recent handle that may be stale. */
        private long pick(final int pick)
        {
            if (!alive.isEmpty() && pick % 6 != 0)
            {
                int n = (pick / 6) % alive.size();
                for (final long entity : alive)
                {
                    if (n-- == 0)
                    {
                        return entity;
                    }
                }
            }
            return recent.isEmpty() ? Entity.NULL : recent.get((pick / 6) % recent.size());
        }

        private static void refused(final Runnable action)
        {
            expectThrown(IllegalArgumentException.class, "", action);
        }

        private static void expectThrown(final Class<? extends Throwable> type, final String mention,
            final Runnable action)
        {
            try
            {
                action.run();
            }
            catch (final Throwable ex)
            {
                if (!type.isInstance(ex) || !String.valueOf(ex.getMessage()).contains(mention))
                {
                    throw new AssertionError("expected " + type.getSimpleName() + " mentioning '" + mention +
                        "', got " + ex, ex);
                }
                return;
            }
            throw new AssertionError("expected " + type.getSimpleName() + ", nothing was thrown");
        }

        private static void check(final boolean condition, final String message)
        {
            if (!condition)
            {
                throw new AssertionError(message);
            }
        }
    }
}
