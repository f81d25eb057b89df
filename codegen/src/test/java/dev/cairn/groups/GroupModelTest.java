package dev.cairn.groups;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.storage.ComponentStorage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Model-based test of groups: seeded random sequences of creates, destroys, adds, removals, clears, group sorts and
 * iterations that remove the entity they visit, with groups of every kind (full-owning, a nested one inside it,
 * partial-owning, non-owning, one that nests with the full-owning one naming as many components; generated and built
 * at run time) created and closed at any point, against a model of
 * the storages. After every operation each open group must hold exactly the entities that match its rule; an owning
 * group's owned storages must hold its entities at {@code [0, size)} in the same order, a nested group's range must be
 * a prefix of its enclosing group's, and every component must read back its values.
 */
final class GroupModelTest
{
    private static final int OPERATIONS = Integer.getInteger("cairn.fuzz.operations", 20_000);
    private static final int MAX_ENTITIES = 64;
    private static final long FIXED_SEED = 0x6A0C9L;
    private static final long SHRINK_BUDGET = 1_000_000;

    /** The storages: Pos (swap-and-pop), Vel (swap-only), Acc, Hp (in-place), Frozen and Marked (tags), Mass. */
    enum Kind
    {
        POS, VEL, ACC, HP, FROZEN, MARKED, MASS
    }

    /** The groups the test may open; each has a rule the model evaluates. */
    enum Rule
    {
        MOVEMENT(Set.of(Kind.POS, Kind.VEL), Set.of(), Set.of()),
        ACCELERATED(Set.of(Kind.POS, Kind.VEL, Kind.ACC), Set.of(), Set.of(Kind.FROZEN)),
        HEAVY(Set.of(Kind.MASS), Set.of(Kind.HP, Kind.MARKED), Set.of()),
        WOUNDED(Set.of(), Set.of(Kind.HP, Kind.POS), Set.of(Kind.FROZEN)),
        RUNTIME_MASS(Set.of(Kind.MASS), Set.of(), Set.of(Kind.FROZEN)),
        RUNTIME_TAGS(Set.of(), Set.of(Kind.MARKED), Set.of(Kind.VEL)),
        /** Names as many components as MOVEMENT, which nests in it: only the nesting relation orders the two. */
        RUNTIME_POS_WITH_VEL(Set.of(Kind.POS), Set.of(Kind.VEL), Set.of()),
        /** MOVEMENT nests in it too, but it does not nest with RUNTIME_POS_WITH_VEL: the two exclude each other. */
        RUNTIME_VEL(Set.of(Kind.VEL), Set.of(), Set.of());

        final Set<Kind> owns;
        final Set<Kind> with;
        final Set<Kind> without;

        Rule(final Set<Kind> owns, final Set<Kind> with, final Set<Kind> without)
        {
            this.owns = owns;
            this.with = with;
            this.without = without;
        }
    }

    enum Action
    {
        CREATE(10), DESTROY(8), ADD(25), REMOVE(15), PATCH(6), CLEAR_STORAGE(1), CLEAR_WORLD(1), OPEN(3), CLOSE(2),
        SORT(2), ITERATE(3);

        final int weight;

        Action(final int weight)
        {
            this.weight = weight;
        }
    }

    record Op(Action action, Kind kind, Rule rule, int pick, int value)
    {
        @Override
        public String toString()
        {
            return action.name().toLowerCase() + "(" + kind + ", " + rule + ", pick " + pick + ", value " + value + ")";
        }
    }

    private record Failure(int operation, Throwable cause)
    {
    }

    @Test
    void groupsStayExactAndAlignedThroughRandomOperations()
    {
        final Long chosen = Long.getLong("cairn.seed");
        for (final long seed : chosen != null ? new long[]{chosen} : new long[]{FIXED_SEED, System.nanoTime()})
        {
            final List<Op> ops = generate(seed);
            System.out.println("GroupModelTest: seed " + seed + ", " + ops.size() + " operations");
            final Failure failure = run(ops);
            if (failure != null)
            {
                final List<Op> shrunk = shrink(ops.subList(0, failure.operation() + 1), failure.cause().getClass());
                final StringBuilder text = new StringBuilder("groups disagree with the model at operation ")
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
            ops.add(new Op(weighted.get(random.nextInt(weighted.size())), Kind.values()[random.nextInt(7)],
                Rule.values()[random.nextInt(Rule.values().length)], random.nextInt(1 << 20), random.nextInt(100)));
        }
        return ops;
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

    /** The world, its open groups, and the model. */
    private static final class Run
    {
        private final World world;
        private final Map<Kind, ComponentStorage<?>> storages = new HashMap<>();
        private final GroupFixtures_PosStorage pos;
        private final GroupFixtures_VelStorage vel;
        private final GroupFixtures_AccStorage acc;
        private final GroupFixtures_HpStorage hp;
        private final GroupFixtures_FrozenStorage frozen;
        private final GroupFixtures_MarkedStorage marked;
        private final GroupFixtures_MassStorage mass;
        private final Map<Rule, RuntimeGroup> open = new HashMap<>();
        private final Map<Rule, GroupFixtures_MovementGroup> movementGroups = new HashMap<>();
        private final Set<Long> alive = new LinkedHashSet<>();
        private final Map<Kind, Map<Long, Integer>> model = new HashMap<>();
        /** Structural changes made during a walk or a comparator, applied to the model when it returns. */
        private final List<Runnable> pending = new ArrayList<>();
        private boolean walkingBlocks;
        /** The entities whose destroy the walk under way recorded. */
        private final List<Long> doomed = new ArrayList<>();

        Run(final World world)
        {
            this.world = world;
            pos = world.storage(GroupFixtures_PosStorage.TYPE);
            vel = world.storage(GroupFixtures_VelStorage.TYPE);
            acc = world.storage(GroupFixtures_AccStorage.TYPE);
            hp = world.storage(GroupFixtures_HpStorage.TYPE);
            frozen = world.storage(GroupFixtures_FrozenStorage.TYPE);
            marked = world.storage(GroupFixtures_MarkedStorage.TYPE);
            mass = world.storage(GroupFixtures_MassStorage.TYPE);
            storages.put(Kind.POS, pos);
            storages.put(Kind.VEL, vel);
            storages.put(Kind.ACC, acc);
            storages.put(Kind.HP, hp);
            storages.put(Kind.FROZEN, frozen);
            storages.put(Kind.MARKED, marked);
            storages.put(Kind.MASS, mass);
            for (final Kind kind : Kind.values())
            {
                model.put(kind, new HashMap<>());
            }
        }

        void apply(final Op op)
        {
            final long e = pick(op.pick());
            final boolean has = e != Entity.NULL && model.get(op.kind()).containsKey(e);
            switch (op.action())
            {
                case CREATE:
                    if (alive.size() < MAX_ENTITIES)
                    {
                        alive.add(world.create());
                    }
                    break;
                case DESTROY:
                    if (e != Entity.NULL)
                    {
                        world.destroy(e);
                        alive.remove(e);
                        for (final Map<Long, Integer> values : model.values())
                        {
                            values.remove(e);
                        }
                    }
                    break;
                case ADD:
                    if (e != Entity.NULL && !has)
                    {
                        add(op.kind(), e, op.value());
                        model.get(op.kind()).put(e, isTag(op.kind()) ? 0 : op.value());
                    }
                    break;
                case REMOVE:
                    if (has)
                    {
                        storages.get(op.kind()).erase(e);
                        model.get(op.kind()).remove(e);
                    }
                    break;
                case PATCH:
                    if (has && !isTag(op.kind()))
                    {
                        write(op.kind(), e, op.value());
                        model.get(op.kind()).put(e, op.value());
                    }
                    break;
                case CLEAR_STORAGE:
                    storages.get(op.kind()).clear();
                    model.get(op.kind()).clear();
                    break;
                case CLEAR_WORLD:
                    world.clear();
                    alive.clear();
                    for (final Map<Long, Integer> values : model.values())
                    {
                        values.clear();
                    }
                    break;
                case OPEN:
                    openGroup(op.rule());
                    break;
                case CLOSE:
                    closeGroup(op.rule());
                    break;
                case SORT:
                    sort(op.rule(), op.value());
                    break;
                case ITERATE:
                    iterate(op.rule(), op.value());
                    break;
                default:
                    throw new IllegalStateException("unknown " + op);
            }
        }

        private void openGroup(final Rule rule)
        {
            if (open.containsKey(rule))
            {
                return;
            }
            final boolean conflicts = conflicts(rule);
            final java.util.function.Supplier<RuntimeGroup> build = () ->
            {
                switch (rule)
                {
                    case MOVEMENT:
                    {
                        final GroupFixtures_MovementGroup group = new GroupFixtures_MovementGroup(world);
                        movementGroups.put(rule, group);
                        return group.group();
                    }
                    case ACCELERATED:
                        return new GroupFixtures_AcceleratedGroup(world).group();
                    case HEAVY:
                        return new GroupFixtures_HeavyGroup(world).group();
                    case WOUNDED:
                        return new GroupFixtures_WoundedGroup(world).group();
                    case RUNTIME_MASS:
                        return world.group().owning(GroupFixtures.Mass.class).without(GroupFixtures.Frozen.class)
                            .build();
                    case RUNTIME_VEL:
                        return world.group().owning(GroupFixtures.Vel.class).build();
                    case RUNTIME_POS_WITH_VEL:
                        return world.group().owning(GroupFixtures.Pos.class).with(GroupFixtures.Vel.class).build();
                    default:
                        return world.group().with(GroupFixtures.Marked.class).without(GroupFixtures.Vel.class)
                            .build();
                }
            };
            if (conflicts)
            {
                try
                {
                    build.get();
                }
                catch (final IllegalStateException expected)
                {
                    check(expected.getMessage().contains("cannot own what group") ||
                        expected.getMessage().contains("cannot join the groups"), "unexpected refusal: " +
                        expected.getMessage());
                    return;
                }
                throw new AssertionError(rule + " was built though it does not nest with an open group");
            }
            open.put(rule, build.get());
        }

        /**
         * Whether building {@code rule} must be refused: with every open owning group it shares an owned storage with,
         * and every group those share owned storages with in turn, it would make one family, whose groups must all
         * nest with each other.
         */
        private boolean conflicts(final Rule rule)
        {
            final Set<Rule> family = new HashSet<>();
            final List<Rule> pending = new ArrayList<>();
            pending.add(rule);
            while (!pending.isEmpty())
            {
                final Rule next = pending.remove(pending.size() - 1);
                for (final Rule other : open.keySet())
                {
                    if (!family.contains(other) && sharesOwned(next, other))
                    {
                        family.add(other);
                        pending.add(other);
                    }
                }
            }
            family.add(rule);
            return family.stream().anyMatch(a -> family.stream().anyMatch(b -> !nested(a, b)));
        }

        private static boolean nested(final Rule a, final Rule b)
        {
            return nests(a, b) || nests(b, a);
        }

        private static boolean nests(final Rule inner, final Rule outer)
        {
            final Set<Kind> innerRequired = new HashSet<>(inner.owns);
            innerRequired.addAll(inner.with);
            final Set<Kind> outerRequired = new HashSet<>(outer.owns);
            outerRequired.addAll(outer.with);
            return inner.owns.containsAll(outer.owns) && innerRequired.containsAll(outerRequired) &&
                inner.without.containsAll(outer.without);
        }

        private void closeGroup(final Rule rule)
        {
            final RuntimeGroup group = open.remove(rule);
            if (group != null)
            {
                group.close();
                check(!group.isOpen(), "a closed group says it is open");
                movementGroups.remove(rule);
            }
        }

        private void sort(final Rule rule, final int value)
        {
            final RuntimeGroup group = open.get(rule);
            if (group == null || !group.isOwning())
            {
                return;
            }
            final boolean innermost = open.keySet().stream().noneMatch(other -> other != rule &&
                !other.owns.isEmpty() && nests(other, rule) && sharesOwned(other, rule));
            final ComponentStorage<?> first = group.owned(0);
            final int size = group.size();
            final boolean[] changed = {value % 2 != 0};
            try
            {
                group.sort((left, right) ->
                {
                    if (!changed[0])
                    {
                        // A comparator's changes wait for the sort's end, as a listener's do.
                        changed[0] = true;
                        final long victim = pick(value * 7919);
                        world.destroy(victim);
                        pending.add(() -> modelDestroy(victim));
                        check(group.size() == size, "a destroy from the comparator of " + rule + " was made at once");
                    }
                    return Integer.compare(valueAt(first, right), valueAt(first, left));
                });
                check(innermost, rule + " was sorted though a group nests in it");
            }
            catch (final IllegalStateException refused)
            {
                check(!innermost && refused.getMessage().contains("nests in it"), "unexpected: " +
                    refused.getMessage());
                return;
            }
            finally
            {
                applyPending();
            }
            if (changed[0] && value % 2 == 0)
            {
                return; // the destroy was made after the sort, which may have swapped the order
            }
            // The comparator's first entity goes to index 0 and walks run from the front: descending values.
            for (int i = 1; i < group.extent(); i++)
            {
                check(valueAt(first, i - 1) >= valueAt(first, i), "the sort did not order " + rule);
            }
        }

        private static boolean sharesOwned(final Rule a, final Rule b)
        {
            return a.owns.stream().anyMatch(b.owns::contains);
        }

        /**
         * Walks a group with an action that changes the world at each visit: destroys the entity it visits or
         * another, removes components, adds components to other entities (which makes them join or leave any group),
         * creates entities and adds to them, writes fields. Structural changes are recorded in the model as pending
         * and applied when the walk returns, as the world applies them; until then the world must answer as the model
         * did when the walk began, and the walk must visit exactly the entities that matched then, each once.
         */
        private void iterate(final Rule chosen, final int value)
        {
            final Rule rule = openRuleFrom(chosen);
            final RuntimeGroup group = rule == null ? null : open.get(rule);
            if (group == null)
            {
                return;
            }
            doomed.clear();
            final Set<Long> expected = matching(rule);
            final Map<Kind, Integer> sizes = new HashMap<>();
            for (final Kind kind : Kind.values())
            {
                sizes.put(kind, model.get(kind).size());
            }
            final Set<Long> seen = new HashSet<>();
            final int[] step = {value};
            final java.util.function.LongConsumer visit = entity ->
            {
                check(seen.add(entity), "a walk of " + rule + " visited " + Entity.toString(entity) + " twice");
                check(expected.contains(entity), "a walk of " + rule + " visited " + Entity.toString(entity) +
                    ", which did not match when the walk began");
                check(group.size() == expected.size(), rule + " changed its size during its walk");
                check(world.isDeferring(), "a walk of " + rule + " does not defer");
                for (final Kind kind : Kind.values())
                {
                    check(storages.get(kind).memberCount() == sizes.get(kind), storages.get(kind).name() +
                        " changed its members during a walk of " + rule);
                }
                change(rule, entity, step[0]++);
            };
            final GroupFixtures_MovementGroup generated = movementGroups.get(rule);
            final int how = generated != null ? value % 5 : group.isOwning() && value % 2 == 1 ? 1 : 4;
            switch (how)
            {
                case 0:
                    generated.forEach((entity, p, v) ->
                    {
                        check(p.x() == model.get(Kind.POS).get(entity) && v.dx() == model.get(Kind.VEL).get(entity),
                            "the Refs of " + Entity.toString(entity) + " read another entity");
                        visit.accept(entity);
                    });
                    break;
                case 1:
                {
                    final java.util.function.IntConsumer byIndex = i ->
                    {
                        final long entity = group.owned(0).entityAt(i);
                        for (int k = 1; k < group.ownedCount(); k++)
                        {
                            check(group.owned(k).entityAt(i) == entity, "index " + i + " of the owned storages " +
                                "holds two entities during a walk of " + rule);
                        }
                        check(valueAt(group.owned(0), i) == model.get(kindOf(group.owned(0))).get(entity),
                            "index " + i + " does not hold the values of " + Entity.toString(entity));
                        visit.accept(entity);
                    };
                    if (generated != null)
                    {
                        generated.forEachIndex(byIndex);
                    }
                    else
                    {
                        group.forEachIndex(byIndex);
                    }
                    break;
                }
                case 2:
                    walkingBlocks = true;
                    try
                    {
                        walkBlocks(rule, generated, expected, value, visit);
                    }
                    finally
                    {
                        walkingBlocks = false;
                    }
                    break;
                case 3:
                    for (GroupFixtures_MovementGroup.Cursor cursor = generated.cursor(); cursor.next(); )
                    {
                        check(cursor.pos().x() == model.get(Kind.POS).get(cursor.entity()), "the cursor of " + rule +
                            " reads another entity");
                        visit.accept(cursor.entity());
                    }
                    break;
                default:
                    group.forEach(visit);
                    break;
            }
            check(!world.isDeferring(), "the walk of " + rule + " left the world deferring");
            applyPending();
            check(seen.equals(expected), "a walk of " + rule + " visited " + seen.size() + " entities, " +
                expected.size() + " matched");
        }

        /** The chosen group's rule if it is open, or else the first open one after it: walks are where deferral is. */
        private Rule openRuleFrom(final Rule chosen)
        {
            for (int k = 0; k < Rule.values().length; k++)
            {
                final Rule rule = Rule.values()[(chosen.ordinal() + k) % Rule.values().length];
                if (open.containsKey(rule))
                {
                    return rule;
                }
            }
            return null;
        }

        /** What the action of a walk does at one visit; the structural changes are pending in the model. */
        private void change(final Rule rule, final long entity, final int step)
        {
            final int what = step % 8;
            final long other = pick(step * 31 + 17);
            final Kind kind = Kind.values()[(step / 8) % Kind.values().length];
            switch (what)
            {
                case 0:
                    world.destroy(entity);
                    doomed.add(entity);
                    pending.add(() -> modelDestroy(entity));
                    break;
                case 1:
                {
                    final Kind required = (rule.owns.isEmpty() ? rule.with : rule.owns).iterator().next();
                    storages.get(required).erase(entity);
                    pending.add(() -> modelRemove(required, entity));
                    break;
                }
                case 2:
                case 3:
                {
                    // Another entity gains a component: it may join or leave any group, the walked one included. One
                    // whose destroy is recorded gains it too: the add is dropped when it is applied after the destroy.
                    final long target = what == 3 && !doomed.isEmpty() ? doomed.get(step % doomed.size()) : other;
                    if (!model.get(kind).containsKey(target))
                    {
                        add(kind, target, step);
                        pending.add(() -> modelAdd(kind, target, step));
                    }
                    else
                    {
                        storages.get(kind).erase(target);
                        pending.add(() -> modelRemove(kind, target));
                    }
                    break;
                }
                case 4:
                    // Destroyed twice now and then: the second destroy is dropped.
                    world.destroy(other);
                    doomed.add(other);
                    pending.add(() -> modelDestroy(other));
                    break;
                case 5:
                    if (alive.size() < MAX_ENTITIES)
                    {
                        final long born = world.create();
                        check(world.valid(born), "a create inside a walk is not made at once");
                        alive.add(born);
                        for (final Kind each : rule.owns.isEmpty() ? rule.with : rule.owns)
                        {
                            add(each, born, step);
                            pending.add(() -> modelAdd(each, born, step));
                        }
                    }
                    break;
                case 6:
                    // A block walk copies its writable Pos arrays back after the action: it keeps those values.
                    if (!isTag(kind) && model.get(kind).containsKey(entity) && !(walkingBlocks && kind == Kind.POS))
                    {
                        write(kind, entity, step);
                        model.get(kind).put(entity, step);
                    }
                    break;
                default:
                    if (step % 40 == 7)
                    {
                        storages.get(kind).clear();
                        pending.add(() -> model.get(kind).clear());
                    }
                    break;
            }
        }

        /** Applies the model's pending changes in the order made, as the world applies deferred ones. */
        private void applyPending()
        {
            for (final Runnable change : pending)
            {
                change.run();
            }
            pending.clear();
        }

        /** A pending destroy: dropped if the entity is no longer alive. */
        private void modelDestroy(final long entity)
        {
            if (alive.remove(entity))
            {
                for (final Map<Long, Integer> values : model.values())
                {
                    values.remove(entity);
                }
            }
        }

        /** A pending add: dropped if the entity is no longer alive; overwrites a component it has by then. */
        private void modelAdd(final Kind kind, final long entity, final int value)
        {
            if (alive.contains(entity))
            {
                model.get(kind).put(entity, isTag(kind) ? 0 : value);
            }
        }

        /** A pending removal: nothing if the entity no longer has the component. */
        private void modelRemove(final Kind kind, final long entity)
        {
            model.get(kind).remove(entity);
        }

        private Kind kindOf(final ComponentStorage<?> storage)
        {
            for (final Map.Entry<Kind, ComponentStorage<?>> entry : storages.entrySet())
            {
                if (entry.getValue() == storage)
                {
                    return entry.getKey();
                }
            }
            throw new IllegalArgumentException(storage.name());
        }

        /**
         * Walks a generated group by block: checks each block against the model, writes new positions through the
         * writable arrays and garbage into a read-only one, and visits each entity with the changing action.
         */
        private void walkBlocks(final Rule rule, final GroupFixtures_MovementGroup generated, final Set<Long> expected,
            final int value, final java.util.function.LongConsumer visit)
        {
            final int[] next = {0};
            generated.forEachBlock(block ->
            {
                check(block.start() == next[0], "a block of " + rule + " starts at " + block.start() + ", not " +
                    next[0]);
                next[0] += block.length();
                final float[] x = block.posX();
                final float[] y = block.posY();
                final float[] dx = block.velDxReadOnly();
                for (int i = 0; i < block.length(); i++)
                {
                    final long entity = block.entity(i);
                    check(pos.entityAt(block.start() + i) == entity && vel.entityAt(block.start() + i) == entity,
                        "element " + i + " of a block of " + rule + " is not the owned storages' entity there");
                    check(expected.contains(entity), "a block walk of " + rule + " visited " +
                        Entity.toString(entity) + ", which does not match");
                    check(x[i] == model.get(Kind.POS).get(entity) && y[i] == -x[i] &&
                        dx[i] == model.get(Kind.VEL).get(entity), "a block of " + rule + " holds other values for " +
                        Entity.toString(entity));
                    final int written = value + i;
                    x[i] = written;
                    y[i] = -written;
                    model.get(Kind.POS).put(entity, written);
                    dx[i] = Float.NaN;
                }
                for (int i = 0; i < block.length(); i++)
                {
                    visit.accept(block.entity(i));
                }
            });
            check(next[0] == expected.size(), "a block walk of " + rule + " covered " + next[0] + " entities, " +
                expected.size() + " matched");
        }

        void verify()
        {
            check(world.groups().size() == open.size(), "the world has " + world.groups().size() + " groups, the " +
                "test opened " + open.size() + ": a refused build left one registered");
            for (final Kind kind : Kind.values())
            {
                final ComponentStorage<?> storage = storages.get(kind);
                check(storage.memberCount() == model.get(kind).size(), storage.name() + " has " +
                    storage.memberCount() + " members, the model " + model.get(kind).size());
                for (final Map.Entry<Long, Integer> entry : model.get(kind).entrySet())
                {
                    check(storage.contains(entry.getKey()), storage.name() + " lost " + Entity.toString(entry.getKey()));
                    check(valueOf(kind, entry.getKey()) == entry.getValue(), Entity.toString(entry.getKey()) +
                        " reads " + valueOf(kind, entry.getKey()) + " from " + storage.name() + ", the model " +
                        entry.getValue());
                }
            }
            for (final Map.Entry<Rule, RuntimeGroup> entry : open.entrySet())
            {
                final Rule rule = entry.getKey();
                final RuntimeGroup group = entry.getValue();
                final Set<Long> expected = matching(rule);
                check(group.size() == expected.size(), rule + " holds " + group.size() + " entities, the model " +
                    expected.size());
                final Set<Long> held = new HashSet<>();
                for (int i = 0; i < group.extent(); i++)
                {
                    final long entity = group.entityAt(i);
                    held.add(entity);
                    for (int k = 0; k < group.ownedCount(); k++)
                    {
                        check(group.owned(k).entityAt(i) == entity, rule + ": owned storage " + k + " holds " +
                            Entity.toString(group.owned(k).entityAt(i)) + " at " + i + ", the first holds " +
                            Entity.toString(entity));
                    }
                }
                check(held.equals(expected), rule + " holds " + held + ", the model " + expected);
                for (final long entity : alive)
                {
                    check(group.contains(entity) == expected.contains(entity), rule + ".contains(" +
                        Entity.toString(entity) + ") is wrong");
                }
                for (final Map.Entry<Rule, RuntimeGroup> other : open.entrySet())
                {
                    if (other.getKey() != rule && group.isOwning() && other.getValue().isOwning() &&
                        nests(rule, other.getKey()) && sharesOwned(rule, other.getKey()))
                    {
                        for (int i = 0; i < group.extent(); i++)
                        {
                            check(other.getValue().entityAt(i) == group.entityAt(i), rule + "'s range is not a " +
                                "prefix of " + other.getKey() + "'s at " + i);
                        }
                    }
                }
            }
        }

        private Set<Long> matching(final Rule rule)
        {
            final Set<Long> result = new HashSet<>();
            for (final long entity : alive)
            {
                boolean matches = true;
                for (final Kind kind : rule.owns)
                {
                    matches &= model.get(kind).containsKey(entity);
                }
                for (final Kind kind : rule.with)
                {
                    matches &= model.get(kind).containsKey(entity);
                }
                for (final Kind kind : rule.without)
                {
                    matches &= !model.get(kind).containsKey(entity);
                }
                if (matches)
                {
                    result.add(entity);
                }
            }
            return result;
        }

        private void add(final Kind kind, final long entity, final int value)
        {
            switch (kind)
            {
                case POS:
                    pos.emplace(entity, value, -value);
                    break;
                case VEL:
                    vel.emplace(entity, value, -value);
                    break;
                case ACC:
                    acc.emplace(entity, value, -value);
                    break;
                case HP:
                    hp.emplace(entity, value);
                    break;
                case FROZEN:
                    frozen.emplace(entity);
                    break;
                case MARKED:
                    marked.emplace(entity);
                    break;
                default:
                    mass.emplace(entity, value);
                    break;
            }
        }

        private void write(final Kind kind, final long entity, final int value)
        {
            switch (kind)
            {
                case POS:
                    pos.patch(entity, value, -value);
                    break;
                case VEL:
                    new GroupFixtures_VelStorage.Ref(vel).moveTo(vel.indexOf(entity)).dx(value);
                    vel.dy(entity, -value);
                    break;
                case ACC:
                    acc.ax(entity, value);
                    acc.ay(entity, -value);
                    break;
                case HP:
                    hp.value(entity, value);
                    break;
                default:
                    mass.kgAt(mass.indexOf(entity), value);
                    break;
            }
        }

        private int valueOf(final Kind kind, final long entity)
        {
            return isTag(kind) ? 0 : valueAt(storages.get(kind), storages.get(kind).indexOf(entity));
        }

        private int valueAt(final ComponentStorage<?> storage, final int index)
        {
            if (storage == pos)
            {
                check(pos.yAt(index) == -pos.xAt(index), "a Pos's fields were split");
                return (int)pos.xAt(index);
            }
            if (storage == vel)
            {
                check(vel.dyAt(index) == -vel.dxAt(index), "a Vel's fields were split");
                return (int)vel.dxAt(index);
            }
            if (storage == acc)
            {
                return (int)acc.axAt(index);
            }
            if (storage == hp)
            {
                return hp.valueAt(index);
            }
            if (storage == mass)
            {
                return (int)mass.kgAt(index);
            }
            return 0;
        }

        private static boolean isTag(final Kind kind)
        {
            return kind == Kind.FROZEN || kind == Kind.MARKED;
        }

        private long pick(final int pick)
        {
            if (alive.isEmpty())
            {
                return Entity.NULL;
            }
            int n = pick % alive.size();
            for (final long entity : alive)
            {
                if (n-- == 0)
                {
                    return entity;
                }
            }
            return Entity.NULL;
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
