package dev.cairn.codegen;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.codegen.fixture.Everything;
import dev.cairn.codegen.fixture.Everything_InPlaceStorage;
import dev.cairn.codegen.fixture.Everything_SwapAndPopStorage;
import dev.cairn.codegen.fixture.Everything_SwapOnlyStorage;
import dev.cairn.codegen.fixture.Tags;
import dev.cairn.codegen.fixture.Tags_InPlaceStorage;
import dev.cairn.codegen.fixture.Tags_SwapAndPopStorage;
import dev.cairn.codegen.fixture.Tags_SwapOnlyStorage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Model-based tests of generated storages inside a {@link World}: seeded random sequences of create, destroy, add
 * (through {@code emplace}, {@code add} and {@code World.add}), remove, erase, get, field writes and clear, on six
 * storages at once (every field kind and tags, under each deletion policy), against a model of alive entities and
 * per-storage maps. Destroy must remove the entity from every storage; a stale or destroyed handle must be refused
 * with an {@link IllegalArgumentException} that names it; a full id space refuses creation; after
 * {@link World#close()} every use is an {@link IllegalStateException} and no off-heap byte is left.
 */
final class WorldModelTest
{
    private static final int OPERATIONS = Integer.getInteger("cairn.fuzz.operations", 20_000);
    private static final int MAX_ENTITIES = 64;
    private static final int RECENT = 128;
    private static final long SHRINK_BUDGET = 2_000_000;

    /** What one world operation does; {@code pick} chooses the entity, {@code storage} the storage. */
    enum Kind
    {
        CREATE(15), CREATE_MANY(3), DESTROY(10), DESTROY_MANY(3), EMPLACE(10), ADD(8), WORLD_ADD(8), WORLD_REMOVE(8), ERASE(5),
        GET(6), WRITE(6), CLEAR(1);

        private final int weight;

        Kind(final int weight)
        {
            this.weight = weight;
        }
    }

    /**
     * One operation.
     *
     * @param kind    what to do.
     * @param pick    which entity: mostly an alive one, sometimes a recently destroyed (stale) one.
     * @param storage which of the six storages.
     * @param row     the value written.
     * @param mask    the columns a write touches, or how many entities CREATE_MANY makes (DESTROY_MANY destroys).
     */
    record WorldOp(Kind kind, int pick, int storage, Row row, int mask)
    {
        @Override
        public String toString()
        {
            switch (kind)
            {
                case CREATE:
                case CLEAR:
                    return kind.name().toLowerCase();
                case CREATE_MANY:
                    return "create_many(" + (1 + mask % 4) + ")";
                case DESTROY:
                    return "destroy(pick " + pick + ")";
                case DESTROY_MANY:
                    return "destroy_many(" + (1 + mask % 6) + " alive, then pick " + pick + ")";
                default:
                    return kind.name().toLowerCase() + "(pick " + pick + ", storage " + storage + ", " + row + ")";
            }
        }
    }

    /** A storage of the world under test, with its model. */
    private record Slot(StorageSubject subject, Class<? extends Record> recordClass,
        Function<Row, Record> record, Map<Long, Row> model)
    {
    }

    @Test
    void randomWorldOperationsMatchTheModel()
    {
        for (final long seed : StorageModelTest.seeds())
        {
            final List<WorldOp> ops = generate(seed);
            final Failure failure = run(ops);
            if (failure != null)
            {
                final List<WorldOp> prefix = ops.subList(0, failure.operation() + 1);
                final List<WorldOp> shrunk = shrink(prefix, failure.cause().getClass());
                final StringBuilder text = new StringBuilder()
                    .append("World disagrees with the model at operation ").append(failure.operation())
                    .append(" of seed ").append(seed).append(" (replay with -Dcairn.seed=").append(seed)
                    .append("): ").append(failure.cause()).append('\n')
                    .append("The shortest failing prefix has ").append(prefix.size()).append(" operations; these ")
                    .append(shrunk.size()).append(" of them still fail:\n");
                for (int i = 0; i < shrunk.size(); i++)
                {
                    text.append(String.format("  %4d: %s%n", i, shrunk.get(i)));
                }
                fail(text.toString(), failure.cause());
            }
        }
    }

    private record Failure(int operation, Throwable cause)
    {
    }

    private static List<WorldOp> generate(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Kind> kinds = new ArrayList<>();
        for (final Kind kind : Kind.values())
        {
            for (int w = 0; w < kind.weight * (kind == Kind.CLEAR ? 1 : 20); w++)
            {
                kinds.add(kind);
            }
        }
        final List<WorldOp> ops = new ArrayList<>(OPERATIONS);
        for (int i = 0; i < OPERATIONS; i++)
        {
            ops.add(new WorldOp(kinds.get(random.nextInt(kinds.size())), random.nextInt(1 << 20), random.nextInt(6),
                Row.random(random), 1 + random.nextInt((1 << Row.COLUMNS) - 1)));
        }
        return ops;
    }

    private static List<WorldOp> shrink(final List<WorldOp> failing, final Class<?> failureType)
    {
        List<WorldOp> current = new ArrayList<>(failing);
        long budget = SHRINK_BUDGET;
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && budget > 0; chunk /= 2)
        {
            for (int start = 0; start < current.size() && budget > 0; )
            {
                final List<WorldOp> candidate = new ArrayList<>(current.subList(0, start));
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

    private static Failure run(final List<WorldOp> ops)
    {
        final World world = new World(MAX_ENTITIES);
        try
        {
            final WorldRun run = new WorldRun(world);
            for (int k = 0; k < ops.size(); k++)
            {
                try
                {
                    run.apply(ops.get(k));
                    run.verify(k % 16 == 0 ? -1 : ops.get(k).storage());
                }
                catch (final Throwable ex)
                {
                    return new Failure(k, ex);
                }
            }
            try
            {
                run.verifyClose();
            }
            catch (final Throwable ex)
            {
                return new Failure(ops.size() - 1, ex);
            }
            return null;
        }
        finally
        {
            world.close();
        }
    }

    /** One world and its model. */
    private static final class WorldRun
    {
        private final World world;
        private final List<Slot> slots = new ArrayList<>();
        private final Set<Long> alive = new LinkedHashSet<>();
        private final List<Long> recent = new ArrayList<>();

        WorldRun(final World world)
        {
            this.world = world;
            slots.add(new Slot(new SwapAndPopSubject(world.storage(Everything_SwapAndPopStorage.TYPE)),
                Everything.SwapAndPop.class, SwapAndPopSubject::record, new HashMap<>()));
            slots.add(new Slot(new InPlaceSubject(world.storage(Everything_InPlaceStorage.TYPE)),
                Everything.InPlace.class, InPlaceSubject::record, new HashMap<>()));
            slots.add(new Slot(new SwapOnlySubject(world.storage(Everything_SwapOnlyStorage.TYPE)),
                Everything.SwapOnly.class, SwapOnlySubject::record, new HashMap<>()));
            final Tags_SwapAndPopStorage swapAndPop = world.storage(Tags_SwapAndPopStorage.TYPE);
            slots.add(new Slot(new TagSubject<>(swapAndPop, swapAndPop::emplace, new Tags.SwapAndPop()),
                Tags.SwapAndPop.class, row -> new Tags.SwapAndPop(), new HashMap<>()));
            final Tags_InPlaceStorage inPlace = world.storage(Tags_InPlaceStorage.TYPE);
            slots.add(new Slot(new TagSubject<>(inPlace, inPlace::emplace, new Tags.InPlace()),
                Tags.InPlace.class, row -> new Tags.InPlace(), new HashMap<>()));
            final Tags_SwapOnlyStorage swapOnly = world.storage(Tags_SwapOnlyStorage.TYPE);
            slots.add(new Slot(new TagSubject<>(swapOnly, swapOnly::emplace, new Tags.SwapOnly()),
                Tags.SwapOnly.class, row -> new Tags.SwapOnly(), new HashMap<>()));
        }

        void apply(final WorldOp op)
        {
            final Slot slot = slots.get(op.storage());
            final Row row = slot.subject().hasColumns() ? op.row() : StorageSubject.TAG_ROW;
            final long e = pick(op.pick());
            final boolean isAlive = alive.contains(e);
            final boolean member = slot.model().containsKey(e);
            switch (op.kind())
            {
                case CREATE:
                    if (alive.size() == MAX_ENTITIES)
                    {
                        expect(IllegalStateException.class, "exhausted", world::create);
                    }
                    else
                    {
                        created(world.create());
                    }
                    break;
                case CREATE_MANY:
                {
                    final int count = 1 + op.mask() % 4;
                    final long[] entities = new long[count];
                    if (alive.size() + count > MAX_ENTITIES)
                    {
                        expect(IllegalStateException.class, "cannot create " + count,
                            () -> world.create(entities, count));
                    }
                    else
                    {
                        world.create(entities, count);
                        for (final long entity : entities)
                        {
                            created(entity);
                        }
                    }
                    break;
                }
                case DESTROY:
                    if (isAlive)
                    {
                        world.destroy(e);
                        alive.remove(e);
                        for (final Slot each : slots)
                        {
                            each.model().remove(e);
                        }
                    }
                    else
                    {
                        expectRefused(e, () -> world.destroy(e));
                    }
                    break;
                case DESTROY_MANY:
                {
                    // The first alive entities, then the picked one: refused, changing nothing, if it is not alive
                    // or is one of them.
                    final List<Long> doomed = new ArrayList<>(alive).subList(0, Math.min(alive.size(),
                        1 + op.mask() % 6));
                    final long[] entities = new long[doomed.size() + 1];
                    for (int i = 0; i < doomed.size(); i++)
                    {
                        entities[i] = doomed.get(i);
                    }
                    entities[doomed.size()] = e;
                    if (isAlive && !doomed.contains(e))
                    {
                        world.destroy(entities, entities.length);
                        for (final long entity : entities)
                        {
                            alive.remove(entity);
                            for (final Slot each : slots)
                            {
                                each.model().remove(entity);
                            }
                        }
                    }
                    else
                    {
                        expectRefused(e, () -> world.destroy(entities, entities.length));
                    }
                    break;
                }
                case EMPLACE:
                case ADD:
                case WORLD_ADD:
                {
                    final Runnable action = op.kind() == Kind.EMPLACE ? () -> slot.subject().emplace(e, row) :
                        op.kind() == Kind.ADD ? () -> slot.subject().add(e, row) :
                        () -> world.add(e, slot.record().apply(row));
                    if (!isAlive || member)
                    {
                        expectRefused(e, action);
                    }
                    else
                    {
                        action.run();
                        slot.model().put(e, row);
                    }
                    break;
                }
                case WORLD_REMOVE:
                    if (isAlive)
                    {
                        check(world.remove(e, slot.recordClass()) == member, "World.remove(" +
                            Entity.toString(e) + ") returned " + !member);
                        slot.model().remove(e);
                    }
                    else
                    {
                        expectRefused(e, () -> world.remove(e, slot.recordClass()));
                    }
                    break;
                case ERASE:
                    if (member)
                    {
                        slot.subject().storage().erase(e);
                        slot.model().remove(e);
                    }
                    else
                    {
                        expectRefused(e, () -> slot.subject().storage().erase(e));
                    }
                    break;
                case GET:
                    if (!isAlive)
                    {
                        expectRefused(e, () -> world.has(e, slot.recordClass()));
                        expectRefused(e, () -> world.get(e, slot.recordClass()));
                        expectRefused(e, () -> slot.subject().read(e));
                    }
                    else
                    {
                        check(world.has(e, slot.recordClass()) == member, "World.has(" + Entity.toString(e) +
                            ") is " + !member);
                        if (member)
                        {
                            final Record value = world.get(e, slot.recordClass());
                            check(!slot.subject().hasColumns() ||
                                Row.of((Everything.Fields)value).equals(slot.model().get(e)),
                                "World.get(" + Entity.toString(e) + ") returned " + value);
                        }
                        else
                        {
                            expectRefused(e, () -> world.get(e, slot.recordClass()));
                        }
                    }
                    break;
                case WRITE:
                    if (slot.subject().hasColumns())
                    {
                        if (member)
                        {
                            slot.subject().write(e, row, op.mask());
                            slot.model().put(e, slot.model().get(e).with(row, op.mask()));
                        }
                        else
                        {
                            expectRefused(e, () -> slot.subject().write(e, row, op.mask()));
                        }
                    }
                    break;
                case CLEAR:
                    world.clear();
                    alive.clear();
                    for (final Slot each : slots)
                    {
                        each.model().clear();
                    }
                    break;
                default:
                    throw new IllegalStateException("unknown operation " + op);
            }
        }

        /** Checks membership everywhere, and the values of one storage (of all if {@code checkedStorage} is -1). */
        void verify(final int checkedStorage)
        {
            check(world.aliveCount() == alive.size(), "aliveCount() is " + world.aliveCount() + ", the model has " +
                alive.size());
            for (final long entity : recent)
            {
                check(world.valid(entity) == alive.contains(entity), "valid(" + Entity.toString(entity) + ") is " +
                    world.valid(entity));
                for (final Slot slot : slots)
                {
                    check(slot.subject().storage().contains(entity) == slot.model().containsKey(entity),
                        slot.subject().storage().name() + ".contains(" + Entity.toString(entity) + ") is wrong");
                }
            }
            for (final Slot slot : slots)
            {
                check(slot.subject().storage().memberCount() == slot.model().size(), slot.subject().storage().name() +
                    " has " + slot.subject().storage().memberCount() + " members, the model " + slot.model().size());
                if (checkedStorage != -1 && slot != slots.get(checkedStorage))
                {
                    continue;
                }
                for (final Map.Entry<Long, Row> entry : slot.model().entrySet())
                {
                    check(alive.contains(entry.getKey()), "a dead entity is in the model");
                    final Row actual = slot.subject().read(entry.getKey());
                    check(actual.equals(entry.getValue()), Entity.toString(entry.getKey()) + " reads back from " +
                        slot.subject().storage().name() + " as " + actual + ", the model holds " + entry.getValue());
                }
            }
        }

        void verifyClose()
        {
            final long entity = alive.isEmpty() ? Entity.of(0, 0) : alive.iterator().next();
            world.close();
            check(world.offHeapBytes() == 0, "a closed world still holds " + world.offHeapBytes() + " bytes");
            check(!world.valid(entity), "an entity is still valid after close");
            expect(IllegalStateException.class, "closed", world::create);
            expect(IllegalStateException.class, "closed", () -> world.destroy(entity));
            for (final Slot slot : slots)
            {
                expect(IllegalStateException.class, "this World is closed", () -> slot.subject().storage().contains(entity));
                expect(IllegalStateException.class, "this World is closed", () -> slot.subject().read(entity));
                expect(IllegalStateException.class, "this World is closed", () -> slot.subject().readAt(0));
                expect(IllegalStateException.class, "this World is closed", () -> slot.subject().emplace(entity, slot.subject()
                    .hasColumns() ? Row.random(new SplittableRandom(1)) : StorageSubject.TAG_ROW));
                expect(IllegalStateException.class, "this World is closed", () -> world.add(entity, slot.record().apply(
                    Row.random(new SplittableRandom(2)))));
                expect(IllegalStateException.class, "this World is closed", () -> world.get(entity, slot.recordClass()));
            }
        }

        private void created(final long entity)
        {
            check(!alive.contains(entity), "create() returned the alive entity " + Entity.toString(entity));
            check(world.valid(entity), "create() returned " + Entity.toString(entity) + ", which is not valid");
            alive.add(entity);
            recent.remove(entity);
            recent.add(entity);
            if (recent.size() > RECENT)
            {
                recent.remove(0);
            }
        }

        /** Mostly an alive entity; one time in six a recent handle that may be stale; NULL if there is none. */
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

        private static void expectRefused(final long entity, final Runnable action)
        {
            expect(IllegalArgumentException.class, Entity.toString(entity), action);
        }

        private static void expect(final Class<? extends Throwable> type, final String mention, final Runnable action)
        {
            try
            {
                action.run();
            }
            catch (final Throwable ex)
            {
                if (!type.isInstance(ex) || ex.getMessage() == null || !ex.getMessage().contains(mention))
                {
                    throw new AssertionError("expected " + type.getSimpleName() + " mentioning '" + mention +
                        "', got " + ex, ex);
                }
                return;
            }
            throw new AssertionError("expected " + type.getSimpleName() + " mentioning '" + mention +
                "', nothing thrown");
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
