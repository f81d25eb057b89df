package dev.cairn.internal;

import dev.cairn.Entity;
import dev.cairn.parallel.Chunk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The structural changes a world recorded while its structure held still, applied in the order made once the
 * outermost walk, listener or operation returns (see {@link Walks}).
 * <p>
 * A change is an operation, its target and an entity, with a row of field values for an addition: the arrays grow and
 * are reused, so recording allocates nothing once warm. Two queues take turns: while one is applied, the listeners it
 * calls record into the other, which the next round applies. During a parallel walk each chunk records into a queue of
 * its own, and the chunks' queues join the world's in the order of the chunks when the walk ends, so the order of the
 * changes does not depend on the threads. Not thread-safe but for that.
 * <p>
 * Applied, each change does what the direct call would do then, with three rules for what earlier changes of the same
 * round already did: a change to an entity that is no longer alive is dropped; an addition of a component the entity
 * has by then overwrites its fields; a removal of a component it no longer has does nothing.
 */
public final class Deferred
{
    /** What a recorded change is made to: a storage, or the world for destroys. */
    public interface Target
    {
        /**
         * Adds the component with the row's values, or overwrites it if the entity has it; nothing if the entity is not
         * alive (the target checks: the queue does not).
         *
         * @param entity the entity.
         * @param row    the bytes holding the values.
         * @param offset where the row starts.
         */
        default void applyAdd(final long entity, final byte[] row, final int offset)
        {
            throw new UnsupportedOperationException(this + " takes no additions");
        }

        /**
         * Removes the component if the entity has it.
         *
         * @param entity the entity.
         */
        default void applyRemove(final long entity)
        {
            throw new UnsupportedOperationException(this + " takes no removals");
        }

        /**
         * Tells the listeners and observers of updates that the entity's component was written, if it still has it.
         *
         * @param entity the entity.
         */
        default void applyUpdated(final long entity)
        {
            throw new UnsupportedOperationException(this + " takes no updates");
        }

        /**
         * Destroys the entity if it is alive.
         *
         * @param entity the entity.
         */
        default void applyDestroy(final long entity)
        {
            throw new UnsupportedOperationException(this + " takes no destroys");
        }

        /**
         * Whether an entity is alive now: a change to one that is not is dropped.
         *
         * @param entity the entity.
         * @return true if alive.
         */
        boolean isAlive(long entity);
    }

    private static final byte ADD = 1;
    private static final byte REMOVE = 2;
    private static final byte UPDATED = 3;
    private static final byte DESTROY = 4;
    private static final byte TASK = 5;

    private final Walks walks;
    private Queue recording = new Queue();
    private Queue spare = new Queue();
    /** The queues the chunks of the parallel walk under way recorded into, by the chunk's first index. */
    private final List<ChunkQueue> chunks = new ArrayList<>();
    private long chunksEpoch = -1;

    /**
     * Creates the queue of the world whose walks are {@code walks}.
     *
     * @param walks the world's walks: they say whether a parallel walk runs.
     */
    Deferred(final Walks walks)
    {
        this.walks = walks;
    }

    /**
     * Records adding a component (or overwriting it, if the entity has it by the time this is applied): the caller
     * writes the values into the row returned.
     *
     * @param target   the storage.
     * @param entity   the entity.
     * @param rowBytes the row's length.
     * @return the row to write the fields into, valid until the next change is recorded on this thread.
     */
    public Row add(final Target target, final long entity, final int rowBytes)
    {
        return queue().add(ADD, target, entity, rowBytes);
    }

    /**
     * Records removing a component.
     *
     * @param target the storage.
     * @param entity the entity.
     */
    public void remove(final Target target, final long entity)
    {
        queue().add(REMOVE, target, entity, 0);
    }

    /**
     * Records telling the listeners and observers of updates that a component was written.
     *
     * @param target the storage.
     * @param entity the entity.
     */
    public void updated(final Target target, final long entity)
    {
        queue().add(UPDATED, target, entity, 0);
    }

    /**
     * Records destroying an entity.
     *
     * @param target the world.
     * @param entity the entity.
     */
    public void destroy(final Target target, final long entity)
    {
        queue().add(DESTROY, target, entity, 0);
    }

    /**
     * Records a change that has no form of its own (a clear, an announcement of a creation), as code to run.
     *
     * @param task what to run when the change is applied.
     */
    public void task(final Runnable task)
    {
        queue().add(TASK, task, Entity.NULL, 0);
    }

    /**
     * Whether nothing waits to be applied.
     *
     * @return true if empty.
     */
    public boolean isEmpty()
    {
        return recording.count == 0 && chunks.isEmpty();
    }

    /**
     * Applies what was recorded, in order; what the listeners it calls record meanwhile waits for the next call. A
     * change that fails does not stop the others: the failures are collected and thrown at the end.
     */
    public void applyRecorded()
    {
        joinChunks();
        final Queue applying = recording;
        recording = spare;
        spare = applying;
        try
        {
            applying.apply();
        }
        finally
        {
            applying.clear();
        }
    }

    /**
     * Forgets what was recorded, for a cycle that never settles.
     *
     * @return a short description of what was forgotten, for the message.
     */
    public String discardRecorded()
    {
        joinChunks();
        final String description = recording.describe();
        recording.clear();
        return description;
    }

    /**
     * Puts what the chunks of a parallel walk recorded in line, in the order of the chunks: called as the walk ends,
     * so that what is recorded afterwards comes after it.
     */
    public void parallelWalkEnded()
    {
        joinChunks();
    }

    private void joinChunks()
    {
        if (chunks.isEmpty())
        {
            return;
        }
        // Last chunk first in the list, so that each leaves it from the end as it is put in line: where the stack runs
        // out, a later end joins the rest, once each.
        chunks.sort((a, b) -> Integer.compare(b.from, a.from));
        while (!chunks.isEmpty())
        {
            final int last = chunks.size() - 1;
            recording.append(chunks.get(last).queue);
            chunks.remove(last);
        }
        chunksEpoch = -1;
    }

    private Queue queue()
    {
        if (!walks.recordsFromChunk())
        {
            // The thread that holds the structure, or runs the parallel walk between chunks: its changes keep their
            // place before the chunks'.
            return recording;
        }
        final Chunk chunk = Chunk.current();
        final Object held = chunk.deferred(walks);
        if (held != null)
        {
            return ((ChunkQueue)held).queue;
        }
        final ChunkQueue created = new ChunkQueue(this, chunk.epoch(), chunk.from());
        chunk.deferred(walks, created);
        synchronized (chunks)
        {
            if (chunksEpoch != chunk.epoch())
            {
                chunksEpoch = chunk.epoch();
            }
            chunks.add(created);
        }
        return created.queue;
    }

    private static final class ChunkQueue
    {
        final Deferred owner;
        final long epoch;
        final int from;
        final Queue queue = new Queue();

        ChunkQueue(final Deferred owner, final long epoch, final int from)
        {
            this.owner = owner;
            this.epoch = epoch;
            this.from = from;
        }
    }

    /**
     * One round of changes: parallel arrays, and the rows of the additions one after the other. Targets are kept as
     * small numbers into a table of the few storages a round changes, so that recording stores no reference per change.
     */
    private static final class Queue
    {
        private byte[] operations = new byte[16];
        private int[] targetIds = new int[16];
        private long[] entities = new long[16];
        private int[] rowOffsets = new int[16];
        private byte[] rows = new byte[256];
        private Object[] targets = new Object[8];
        private int targetCount;
        /** The tasks, each its own entry: a round may hold many, which the targets' table is not searched for. */
        private Object[] tasks = new Object[8];
        private int taskCount;
        private Object lastTarget;
        private int lastTargetId;
        private int rowLength;
        private int count;
        private final Row row = new Row();

        Row add(final byte operation, final Object target, final long entity, final int rowBytes)
        {
            if (count == operations.length)
            {
                final int grown = count * 2;
                operations = Arrays.copyOf(operations, grown);
                targetIds = Arrays.copyOf(targetIds, grown);
                entities = Arrays.copyOf(entities, grown);
                rowOffsets = Arrays.copyOf(rowOffsets, grown);
            }
            if (rowLength > rows.length - rowBytes)
            {
                rows = Arrays.copyOf(rows, Math.max(rows.length * 2, rowLength + rowBytes));
            }
            operations[count] = operation;
            targetIds[count] = operation == TASK ? task(target) : target == lastTarget ? lastTargetId : idOf(target);
            entities[count] = entity;
            rowOffsets[count] = rowLength;
            count++;
            final int at = rowLength;
            rowLength += rowBytes;
            return row.wrap(rows, at, rowBytes);
        }

        private int task(final Object task)
        {
            if (taskCount == tasks.length)
            {
                tasks = Arrays.copyOf(tasks, taskCount * 2);
            }
            tasks[taskCount] = task;
            return taskCount++;
        }

        private Object target(final int k)
        {
            return operations[k] == TASK ? tasks[targetIds[k]] : targets[targetIds[k]];
        }

        private int idOf(final Object target)
        {
            int id = 0;
            while (id < targetCount && targets[id] != target)
            {
                id++;
            }
            if (id == targetCount)
            {
                if (targetCount == targets.length)
                {
                    targets = Arrays.copyOf(targets, targetCount * 2);
                }
                targets[targetCount++] = target;
            }
            lastTarget = target;
            lastTargetId = id;
            return id;
        }

        void append(final Queue other)
        {
            for (int k = 0; k < other.count; k++)
            {
                final int from = other.rowOffsets[k];
                final int to = k + 1 < other.count ? other.rowOffsets[k + 1] : other.rowLength;
                add(other.operations[k], other.target(k), other.entities[k], to - from);
                System.arraycopy(other.rows, from, rows, rowOffsets[count - 1], to - from);
            }
        }

        void apply()
        {
            Throwable failure = null;
            for (int k = 0; k < count; k++)
            {
                final Object target = target(k);
                final long entity = entities[k];
                try
                {
                    switch (operations[k])
                    {
                        case TASK:
                            ((Runnable)target).run();
                            break;
                        case ADD:
                            // The target leaves an entity that is not alive alone: no second look-up here.
                            ((Target)target).applyAdd(entity, rows, rowOffsets[k]);
                            break;
                        case REMOVE:
                            if (((Target)target).isAlive(entity))
                            {
                                ((Target)target).applyRemove(entity);
                            }
                            break;
                        case UPDATED:
                            if (((Target)target).isAlive(entity))
                            {
                                ((Target)target).applyUpdated(entity);
                            }
                            break;
                        default:
                            if (((Target)target).isAlive(entity))
                            {
                                ((Target)target).applyDestroy(entity);
                            }
                            break;
                    }
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = Failures.collect(failure, thrown);
                }
            }
            Failures.rethrow(failure);
        }

        String describe()
        {
            final int[] counts = new int[TASK + 1];
            for (int k = 0; k < count; k++)
            {
                counts[operations[k]]++;
            }
            final StringBuilder text = new StringBuilder().append(count).append(count == 1 ? " change" : " changes");
            final String[] names = {"", "addition", "removal", "update", "destroy", "other change"};
            String separator = " (";
            for (int op = ADD; op <= TASK; op++)
            {
                if (counts[op] > 0)
                {
                    text.append(separator).append(counts[op]).append(' ').append(names[op])
                        .append(counts[op] == 1 ? "" : "s");
                    separator = ", ";
                }
            }
            if (count > 0)
            {
                text.append(", the first ").append(describe(0)).append(')');
            }
            return text.toString();
        }

        private String describe(final int k)
        {
            final String[] verbs = {"", "adding", "removing", "updating", "destroying", "running"};
            final Object target = target(k);
            final String what = operations[k] == TASK ? target.toString() :
                operations[k] == DESTROY ? Entity.toString(entities[k]) :
                    target + " of " + Entity.toString(entities[k]);
            return verbs[operations[k]] + " " + what;
        }

        void clear()
        {
            Arrays.fill(targets, 0, targetCount, null);
            targetCount = 0;
            Arrays.fill(tasks, 0, taskCount, null);
            taskCount = 0;
            lastTarget = null;
            count = 0;
            rowLength = 0;
        }
    }
}
