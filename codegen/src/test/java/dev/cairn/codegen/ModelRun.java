package dev.cairn.codegen;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs a sequence of {@link Op}s against a generated storage and a plain-Java model ({@code Map<Long, Row>}), checking
 * after every operation that the two agree: membership, and every member's every column through every generated read
 * path, bit for bit.
 */
final class ModelRun implements AutoCloseable
{
    /** Where a run failed. */
    record Failure(int operation, Throwable cause)
    {
    }

    private final StorageSubject subject;
    private final ComponentStorage<?> storage;
    private final SparseSet other = new SparseSet(DeletionPolicy.SWAP_AND_POP);
    private final Map<Integer, Long> otherByIndex = new HashMap<>();
    private final Map<Long, Row> model = new HashMap<>();
    private List<Long> expectedOrder;
    private List<Long> expectedPrefix;
    private Row.Column sortedBy;

    private ModelRun(final StorageSubject subject)
    {
        this.subject = subject;
        this.storage = subject.storage();
    }

    /**
     * Runs {@code ops} on a fresh storage.
     *
     * @param factory makes the storage.
     * @param ops     the operations.
     * @return the first failure, or null if the storage agreed with the model throughout.
     */
    static Failure run(final Supplier<StorageSubject> factory, final List<Op> ops)
    {
        try (ModelRun run = new ModelRun(factory.get()))
        {
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
            try
            {
                run.verifyClose();
            }
            catch (final Throwable ex)
            {
                return new Failure(ops.size(), ex);
            }
            return null;
        }
    }

    private void apply(final Op op)
    {
        final long e = op.entity();
        final boolean member = model.containsKey(e);
        expectedOrder = null;
        expectedPrefix = null;
        sortedBy = null;
        switch (op.kind())
        {
            case EMPLACE:
            case ADD:
                if (member || memberWithIndex(e) != Entity.NULL)
                {
                    expectRejected(e, () -> insert(op));
                }
                else
                {
                    insert(op);
                    final int index = storage.indexOf(e);
                    check(index >= 0 && storage.entityAt(index) == e, op.kind() + " left " + Entity.toString(e) +
                        " at index " + index + ", which holds " + (index < 0 ? "nothing" :
                        Entity.toString(storage.entityAt(index))));
                    model.put(e, subject.hasColumns() ? op.row() : StorageSubject.TAG_ROW);
                }
                break;
            case PATCH:
            case PATCH_RECORD:
            case WRITE:
                if (!member)
                {
                    expectRejected(e, () -> writeByEntity(op));
                }
                else
                {
                    writeByEntity(op);
                    model.put(e, op.kind() == Op.Kind.WRITE ? model.get(e).with(op.row(), op.mask()) :
                        subject.hasColumns() ? op.row() : StorageSubject.TAG_ROW);
                }
                break;
            case WRITE_AT:
            case WRITE_REF:
                writeByIndex(op, member);
                break;
            case ERASE:
                if (member)
                {
                    storage.erase(e);
                    model.remove(e);
                }
                else
                {
                    expectRejected(e, () -> storage.erase(e));
                }
                break;
            case REMOVE:
                check(storage.remove(e) == (model.remove(e) != null), "remove(" + Entity.toString(e) + ") returned " +
                    "the wrong answer");
                break;
            case SWAP:
                if (!member)
                {
                    expectRejected(e, () -> storage.swapElements(e, op.second()));
                }
                else if (!model.containsKey(op.second()))
                {
                    expectRejected(op.second(), () -> storage.swapElements(e, op.second()));
                }
                else
                {
                    storage.swapElements(e, op.second());
                }
                break;
            case COMPACT:
                storage.compact();
                break;
            case SORT:
                sort(op.column());
                break;
            case SORT_AS:
                expectedPrefix = new ArrayList<>();
                for (final long entity : iteration(other))
                {
                    if (model.containsKey(entity))
                    {
                        expectedPrefix.add(entity);
                    }
                }
                storage.sortAs(other);
                break;
            case OTHER_INSERT:
            {
                final Long previous = otherByIndex.put(Entity.index(e), e);
                if (previous != null)
                {
                    other.erase(previous);
                }
                other.insert(e);
                break;
            }
            case OTHER_REMOVE:
                if (other.remove(e))
                {
                    otherByIndex.remove(Entity.index(e));
                }
                break;
            case CLEAR:
                storage.clear();
                model.clear();
                break;
            case RESERVE:
                storage.reserve(storage.capacity() + op.mask() % 64);
                break;
            case SHRINK:
                storage.shrinkToFit();
                break;
            default:
                throw new IllegalStateException("unknown operation " + op);
        }
    }

    private void insert(final Op op)
    {
        if (op.kind() == Op.Kind.EMPLACE)
        {
            subject.emplace(op.entity(), op.row());
        }
        else
        {
            subject.add(op.entity(), op.row());
        }
    }

    private void writeByEntity(final Op op)
    {
        switch (op.kind())
        {
            case PATCH:
                subject.patch(op.entity(), op.row());
                break;
            case PATCH_RECORD:
                subject.patchRecord(op.entity(), op.row());
                break;
            default:
                subject.write(op.entity(), op.row(), op.mask());
                break;
        }
    }

    /** Writes a member through its packed index, or checks that an index outside the storage is refused. */
    private void writeByIndex(final Op op, final boolean member)
    {
        final boolean throughRef = op.kind() == Op.Kind.WRITE_REF;
        if (member)
        {
            final int index = storage.indexOf(op.entity());
            if (throughRef)
            {
                subject.writeRef(index, op.row(), op.mask());
            }
            else
            {
                subject.writeAt(index, op.row(), op.mask());
            }
            model.put(op.entity(), model.get(op.entity()).with(op.row(), op.mask()));
            return;
        }
        final int outside = (op.mask() & 1) == 0 ? storage.size() + (op.mask() >>> 1) % 4 : -1 - (op.mask() >>> 1) % 4;
        expectOutOfBounds(outside, () -> subject.readAt(outside));
        if (subject.hasColumns())
        {
            // A Ref moved outside the storage is on no entity.
            expectOnNoEntity(outside, () -> subject.readRef(outside));
        }
        expectOutOfBounds(outside, () -> subject.getAt(outside));
        if (throughRef)
        {
            expectOnNoEntity(outside, () -> subject.writeRef(outside, op.row(), op.mask()));
        }
        else
        {
            expectOutOfBounds(outside, () -> subject.writeAt(outside, op.row(), op.mask()));
        }
    }

    private void sort(final Row.Column column)
    {
        final boolean tombstones = storage.policy() == DeletionPolicy.IN_PLACE && storage.size() != model.size();
        final List<Long> before = iteration(storage);
        storage.sort(subject.comparing(column));
        sortedBy = column;
        if (!tombstones)
        {
            // Equal keys keep their relative iteration order: the result is a stable sort of the previous order.
            before.sort(Comparator.comparing(model::get, (left, right) -> Row.compare(left, right, column)));
            expectedOrder = before;
        }
    }

    private void verify()
    {
        check(storage.memberCount() == model.size(), "memberCount() is " + storage.memberCount() + ", the model " +
            "has " + model.size() + " members");
        for (int index = 0; index < Op.INDICES; index++)
        {
            for (int version = 0; version < Op.VERSIONS; version++)
            {
                final long entity = Entity.of(index, version);
                check(storage.contains(entity) == model.containsKey(entity), "contains(" + Entity.toString(entity) +
                    ") is " + storage.contains(entity) + ", the model says " + model.containsKey(entity));
            }
        }
        for (final Map.Entry<Long, Row> entry : model.entrySet())
        {
            final long entity = entry.getKey();
            final Row expected = entry.getValue();
            final int index = storage.indexOf(entity);
            check(index >= 0 && index < storage.extent() && storage.entityAt(index) == entity,
                Entity.toString(entity) + " has member index " + index);
            readsBack(entity, "by entity", expected, subject.read(entity));
            readsBack(entity, "by packed index " + index, expected, subject.readAt(index));
            readsBack(entity, "through Ref at " + index, expected, subject.readRef(index));
            readsBack(entity, "through get", expected, subject.get(entity));
            readsBack(entity, "through getAt", expected, subject.getAt(index));
        }
        final List<Long> order = iteration(storage);
        check(order.size() == model.size() && new HashSet<>(order).equals(model.keySet()),
            "forEach visits " + order.size() + " entities, not the model's " + model.size() + " members");
        if (expectedOrder != null)
        {
            check(order.equals(expectedOrder), "after sort(comparing " + sortedBy + ") iteration visits " +
                names(order) + ", expected the stable order " + names(expectedOrder));
        }
        else if (sortedBy != null)
        {
            for (int i = 1; i < order.size(); i++)
            {
                check(Row.compare(model.get(order.get(i - 1)), model.get(order.get(i)), sortedBy) <= 0,
                    "after sort(comparing " + sortedBy + ") iteration is not in order: " + names(order));
            }
        }
        if (expectedPrefix != null)
        {
            check(order.subList(0, expectedPrefix.size()).equals(expectedPrefix), "after sortAs(other) iteration " +
                "visits " + names(order) + ", expected it to start with " + names(expectedPrefix));
        }
    }

    private void verifyClose()
    {
        storage.close();
        check(storage.offHeapBytes() == 0, "a closed storage still holds " + storage.offHeapBytes() + " bytes");
        final long entity = model.isEmpty() ? Entity.of(0, 0) : model.keySet().iterator().next();
        expect(IllegalStateException.class, "closed", () -> storage.contains(entity));
        expect(IllegalStateException.class, "closed", () -> subject.read(entity));
        expect(IllegalStateException.class, "closed", () -> subject.readAt(0));
        expect(IllegalStateException.class, "closed", () -> subject.readRef(0));
        expect(IllegalStateException.class, "closed", () -> subject.emplace(entity, StorageSubject.TAG_ROW));
    }

    private void readsBack(final long entity, final String path, final Row expected, final Row actual)
    {
        if (!expected.equals(actual))
        {
            throw new AssertionError(Entity.toString(entity) + " reads back " + path + " as " + actual +
                ", the model holds " + expected);
        }
    }

    private long memberWithIndex(final long entity)
    {
        for (int version = 0; version < Op.VERSIONS; version++)
        {
            final long candidate = Entity.of(Entity.index(entity), version);
            if (model.containsKey(candidate))
            {
                return candidate;
            }
        }
        return Entity.NULL;
    }

    private void expectRejected(final long entity, final Runnable action)
    {
        expect(IllegalArgumentException.class, Entity.toString(entity), action);
    }

    private void expectOutOfBounds(final int index, final Runnable action)
    {
        expect(IndexOutOfBoundsException.class, "index " + index + " ", action);
    }

    private void expectOnNoEntity(final int index, final Runnable action)
    {
        // The message says the Ref is on no entity and what to do; it no longer names the index it was moved to.
        expect(IllegalStateException.class, "is on no entity", action);
        expect(IllegalStateException.class, "move it to a member", action);
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
        throw new AssertionError("expected " + type.getSimpleName() + " mentioning '" + mention + "', nothing thrown");
    }

    private static List<Long> iteration(final SparseSet set)
    {
        final List<Long> order = new ArrayList<>();
        set.forEach(order::add);
        return order;
    }

    private static String names(final List<Long> entities)
    {
        final StringBuilder text = new StringBuilder("[");
        for (final long entity : entities)
        {
            text.append(text.length() > 1 ? ", " : "").append(Entity.toString(entity));
        }
        return text.append(']').toString();
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new AssertionError(message);
        }
    }

    @Override
    public void close()
    {
        storage.close();
        other.close();
    }
}
