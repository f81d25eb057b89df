package dev.cairn.snapshot;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.OffHeapExhaustedException;
import dev.cairn.internal.Access;
import dev.cairn.internal.Failures;
import dev.cairn.internal.RawStorage;
import dev.cairn.internal.Walks;
import dev.cairn.set.SparseSet;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.FieldType;
import dev.cairn.storage.Schema;
import dev.cairn.world.World;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Brings a live world up to date with snapshots of another world (a server, a replay, an editor), again and again.
 * The loader maps each entity of the source world to a local one: a source entity seen for the first time gets a new
 * local entity, one that is gone from a later snapshot has its local entity destroyed. Components follow: for every
 * component the snapshot holds, local entities gain it, have it overwritten, or lose it to match their source entity.
 * Entity references ({@code @EntityRef} fields) are translated to the local entities; a reference to an entity the
 * snapshot does not hold alive becomes {@link Entity#NULL}. A {@link World#reset()} of the live world empties the map
 * (the reset destroyed every local entity): the next load creates a local entity for every source entity again.
 * <pre>{@code
 * try (ContinuousLoader loader = new ContinuousLoader(world)) {
 *     loader.load(snapshotFromServer);   // creates local entities
 *     loader.load(nextSnapshot);         // updates, creates and destroys to match
 *     long local = loader.local(serverEntity);
 * }
 * }</pre>
 * Unlike {@link Snapshot#load}, this goes through the world's public operations, so listeners, observers, groups and
 * change ticks see every creation, addition, update, removal and destruction. A component whose values did not change
 * since the last load is not written again, so its update listeners and change tick see only real changes. Local
 * entities the loader did not create, and components the snapshot does not hold, are left alone.
 * <p>
 * Each snapshot is first loaded whole into a private staging world, so a truncated, corrupted or forged snapshot is
 * a {@link SnapshotFormatException} and the live world is not touched. Once it is valid it is applied in a fixed
 * order: local entities of source entities that are gone are destroyed, new ones created, then each component in the
 * snapshot's order has its removals, then its additions and updates in the source's packed order (so an observer
 * triggered by one component and requiring another that comes later in that order does not see an entity gaining both
 * in one load). If listeners throw, the load still completes and the first exception is rethrown with the others
 * suppressed. Room for the components the snapshot adds is reserved in the live world before anything changes, so a
 * memory budget too small for them refuses the load whole; memory that runs out later stops the load part-way (see
 * {@link #load(ByteBuffer)}). Not thread-safe.
 */
public final class ContinuousLoader implements AutoCloseable
{
    private final World world;
    private final World stage;
    /** Source handle to local handle. */
    private final SourceMap locals = new SourceMap();
    private final UnsafeBuffer row = new UnsafeBuffer(new byte[64]);
    /** The live component's current row, to skip patches that would change nothing. */
    private final UnsafeBuffer current = new UnsafeBuffer(new byte[64]);
    private long[] scratch = new long[16];
    private boolean closed;
    /** Whether a load is being applied: a listener of the live world may not start another one meanwhile. */
    /** {@link World#resets()} when the map was last right: a reset destroyed every local entity it names. */
    private long resetsMapped;

    /**
     * Creates a loader that brings {@code world} up to date.
     *
     * @param world the live world.
     * @throws IllegalStateException if it is closed.
     */
    public ContinuousLoader(final World world)
    {
        if (java.util.Objects.requireNonNull(world, "world: pass the live World to load into").isClosed())
        {
            throw new IllegalStateException("cannot load into a closed World");
        }
        this.world = world;
        this.resetsMapped = world.resets();
        this.stage = new World();
    }

    /**
     * Applies a snapshot, from the buffer's position, which ends after it.
     *
     * @param snapshot a snapshot written by {@link Snapshot#save}.
     * @throws SnapshotFormatException if it is truncated, corrupted, forged, of another format version, or holds a
     *                                 component this program does not declare or cannot map; nothing is changed then.
     * @throws IllegalStateException   if the world is closed, or fewer local entity indices are free than the
     *                                 snapshot needs (nothing is changed then), or the loader is closed, also by a
     *                                 listener during the load (which then stops part-way), or it is called from a
     *                                 listener while this loader applies a snapshot (that call changes nothing).
     * @throws OffHeapExhaustedException if the live world's memory budget (or the native allocator) cannot hold the
     *                                 components the snapshot adds (nothing is changed then: their room is taken
     *                                 first), or runs out part-way for the rest (new entities, sparse pages, groups'
     *                                 and observers' sets): the load stops there and the message says so; the live
     *                                 world then holds part of the changes, and the next load that succeeds brings
     *                                 it in line with its snapshot.
     * @throws RuntimeException        the first exception a listener threw, once the load completed.
     */
    public void load(final ByteBuffer snapshot)
    {
        load(snapshot, false);
    }

    private void load(final ByteBuffer snapshot, final boolean whole)
    {
        ensureOpen();
        if (world.isClosed())
        {
            throw new IllegalStateException("cannot load into a closed World");
        }
        Access.walks(world).refuseWhileDeferring("load a snapshot into the World", "load after the walk or listener " +
            "returns");
        WorldSection.empty(stage);
        final Map<ComponentType<?, ?>, Schema> types = Snapshot.loadInto(stage, snapshot, whole, null);
        forgetIfReset();
        try
        {
            // One operation of the live world: closing it from another thread is refused meanwhile, and what its
            // listeners change is applied when the load is made.
            final Walks walks = Access.walks(world);
            walks.run(walks.beginGuardedOperation("ContinuousLoader.load"), () -> apply(types));
        }
        finally
        {
            if (!closed)
            {
                WorldSection.empty(stage);
            }
        }
    }

    /**
     * Applies a snapshot read from a channel to its end.
     *
     * @param channel the snapshot.
     * @throws SnapshotFormatException      as {@link #load(ByteBuffer)}.
     * @throws java.io.UncheckedIOException if the channel fails; nothing is changed then.
     * @throws IllegalArgumentException     if a read of the channel gives no byte before its end (it is
     *                                      non-blocking); nothing is changed then.
     * @throws IllegalStateException        as {@link #load(ByteBuffer)}.
     */
    public void load(final ReadableByteChannel channel)
    {
        ensureOpen();
        load(Snapshot.readFully(channel), true);
    }

    /**
     * The local entity a source entity maps to.
     *
     * @param source an entity handle of the source world.
     * @return its local entity, or {@link Entity#NULL} if the last snapshot did not hold it alive.
     * @throws IllegalStateException if the loader is closed.
     */
    public long local(final long source)
    {
        ensureOpen();
        forgetIfReset();
        return locals.get(source);
    }

    /**
     * Whether a source entity maps to a local one.
     *
     * @param source an entity handle of the source world.
     * @return true if the last snapshot held it alive.
     * @throws IllegalStateException if the loader is closed.
     */
    public boolean contains(final long source)
    {
        ensureOpen();
        forgetIfReset();
        return locals.contains(source);
    }

    /**
     * Source entities mapped now: those alive in the last snapshot.
     *
     * @return the count.
     */
    public int size()
    {
        if (!closed)
        {
            forgetIfReset();
        }
        return locals.size();
    }

    /**
     * Forgets the whole map after a {@link World#reset()} of the live world: the reset destroyed every local entity
     * it names, and their handles may name entities created since, which the next load must not take for mirrors.
     */
    private void forgetIfReset()
    {
        if (world.resets() != resetsMapped)
        {
            locals.clear();
            resetsMapped = world.resets();
        }
    }

    /**
     * Forgets the mapping and frees the staging memory. Local entities stay as they are.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            locals.clear();
            stage.close();
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("the ContinuousLoader is closed; make a new one");
        }
    }

    private void apply(final Map<ComponentType<?, ?>, Schema> types)
    {
        final long[] sources = newSources();
        final int room = world.remainingCapacity() + goneRoom();
        if (sources.length > room)
        {
            throw new IllegalStateException("the snapshot needs " + sources.length + " new local entities but the " +
                "World can create " + room + " more; make it with a larger maxEntities");
        }
        reserve(types.keySet());
        Throwable failure = destroyGone(null);
        failure = create(sources, failure);
        for (final Map.Entry<ComponentType<?, ?>, Schema> loaded : types.entrySet())
        {
            final ComponentType<?, ?> type = loaded.getKey();
            failure = copy(stage.storage(type), loaded.getValue(), world.storage(type), failure);
        }
        Failures.rethrow(failure);
    }

    /**
     * Gives each live storage the snapshot fills room for the components it will gain, before anything changes: most
     * of the memory a load needs, so that a live world whose memory budget cannot hold the snapshot refuses it whole.
     * What is left to allocate while applying (sparse pages of new entity indices, the pool's versions, groups' and
     * observers' own sets) is small beside it.
     */
    private void reserve(final Collection<ComponentType<?, ?>> types)
    {
        for (final ComponentType<?, ?> type : types)
        {
            final ComponentStorage<?> staged = stage.storage(type);
            final ComponentStorage<?> target = world.storage(type);
            int gained = 0;
            for (int i = 0; i < staged.extent(); i++)
            {
                final long source = staged.entityAt(i);
                if (source != Entity.NULL)
                {
                    final long local = locals.get(source);
                    if (local == Entity.NULL || !world.valid(local) || !target.contains(local))
                    {
                        gained++;
                    }
                }
            }
            int lost = 0;
            for (int i = 0; i < locals.extent(); i++)
            {
                final long source = locals.sourceAt(i);
                if (source != Entity.NULL && target.contains(locals.localAt(i)) &&
                    (!stage.valid(source) || !staged.contains(source)))
                {
                    lost++;
                }
            }
            // The removals come first: what the storage holds at most once the load is done, by policy.
            final DeletionPolicy policy = target.policy();
            final long wanted = policy == DeletionPolicy.SWAP_AND_POP ? (long)target.memberCount() - lost + gained :
                policy == DeletionPolicy.IN_PLACE ?
                    target.size() + Math.max(0L, (long)gained - lost - (target.size() - target.memberCount())) :
                    (long)target.size() + gained;
            if (wanted <= target.capacity())
            {
                continue;
            }
            try
            {
                target.reserve((int)Math.min(wanted, SparseSet.MAX_CAPACITY));
            }
            catch (final OffHeapExhaustedException ex)
            {
                throw new OffHeapExhaustedException("the live World cannot make room for the " + gained + " " +
                    type.recordClass().getName() + " components this continuous load adds, so nothing was changed " +
                    "(room reserved for components before them stays with their storages): " + ex.getMessage(), ex);
            }
        }
    }

    /**
     * Stops the load when the live world runs out of memory part-way (it held the components reserved for, but not
     * what else the changes needed): going on would leave more entities half made. An exception a listener threw
     * after {@code done} changes is collected, whatever it is.
     */
    private static Throwable stopIfExhausted(final Throwable ex, final Throwable first, final boolean done)
    {
        // The live world's own refusal comes before its change; one thrown after the change came from a listener.
        if (ex instanceof OffHeapExhaustedException && !done)
        {
            final OffHeapExhaustedException stopped = new OffHeapExhaustedException("the live World ran out of " +
                "memory part-way through a continuous load, which stopped there: the world holds part of the " +
                "snapshot's changes, and the next load that succeeds brings it in line with its snapshot; raise the " +
                "World's memory budget or hold fewer entities: " + ex.getMessage(), ex);
            if (first != null)
            {
                stopped.addSuppressed(first);
            }
            throw stopped;
        }
        return Failures.collect(first, ex);
    }

    /** Source entities without a local one yet (seen for the first time, or their local one destroyed), ascending. */
    private long[] newSources()
    {
        final int[] count = {0};
        stage.forEachEntity(source ->
        {
            final long local = locals.get(source);
            if (local == Entity.NULL || !world.valid(local))
            {
                remember(count[0]++, source);
            }
        });
        // The world visits from the lowest index up: local entities are created in the source's order.
        return java.util.Arrays.copyOf(scratch, count[0]);
    }

    /**
     * Local entities still alive whose source entity is gone and whose destroy frees their index: destroying one at
     * {@link Entity#MAX_VERSION} retires its index, which gives no room.
     */
    private int goneRoom()
    {
        int count = 0;
        for (int i = 0; i < locals.extent(); i++)
        {
            final long source = locals.sourceAt(i);
            final long local = locals.localAt(i);
            if (source != Entity.NULL && !stage.valid(source) && world.valid(local) &&
                Entity.version(local) != Entity.MAX_VERSION)
            {
                count++;
            }
        }
        return count;
    }

    /** Destroys the local entities of source entities the snapshot does not hold alive, and forgets them. */
    private Throwable destroyGone(final Throwable failure)
    {
        int count = 0;
        for (int i = 0; i < locals.extent(); i++)
        {
            final long source = locals.sourceAt(i);
            if (source != Entity.NULL && !stage.valid(source))
            {
                remember(count++, locals.localAt(i));
                locals.removeAt(i);
            }
        }
        Throwable first = failure;
        for (int i = 0; i < count; i++)
        {
            final long local = scratch[i];
            if (world.valid(local))
            {
                first = attempt(() -> world.destroy(local), () -> !world.valid(local), first);
            }
        }
        return first;
    }

    /** Creates a local entity for each of {@code sources} and maps it. */
    private Throwable create(final long[] sources, final Throwable failure)
    {
        if (sources.length == 0)
        {
            return failure;
        }
        final long[] created = new long[sources.length];
        // NULL until made: the create may fail before it makes any (the world's memory budget, or listeners of the
        // destroys that used the room up), and a source must then map to nothing, never to the handle 0.
        java.util.Arrays.fill(created, Entity.NULL);
        final Throwable first = attempt(() -> world.create(created, created.length),
            () -> created[created.length - 1] != Entity.NULL, failure);
        for (int i = 0; i < sources.length; i++)
        {
            if (created[i] != Entity.NULL && world.valid(created[i]))
            {
                locals.put(sources[i], created[i]);
            }
        }
        return first;
    }

    /** Makes {@code target}'s components of mapped entities match {@code source}'s. */
    private Throwable copy(final ComponentStorage<?> source, final Schema saved, final ComponentStorage<?> target,
        final Throwable failure)
    {
        Throwable first = failure;
        int count = 0;
        for (int i = 0; i < locals.extent(); i++)
        {
            final long from = locals.sourceAt(i);
            if (from != Entity.NULL && !source.contains(from) && target.contains(locals.localAt(i)))
            {
                remember(count++, locals.localAt(i));
            }
        }
        for (int i = 0; i < count; i++)
        {
            final long local = scratch[i];
            first = attempt(() -> target.remove(local), () -> !target.contains(local), first);
        }
        final RawStorage sourceRows = Access.rawStorage(source);
        final RawStorage targetRows = Access.rawStorage(target);
        final int rowBytes = sourceRows.rowBytes();
        if (row.capacity() < rowBytes)
        {
            row.wrap(new byte[Math.max(rowBytes, 2 * row.capacity())]);
            current.wrap(new byte[row.capacity()]);
        }
        final int[] references = referenceOffsets(source);
        final int[] kept = fieldsNotLoaded(source, saved);
        for (int i = 0; i < source.extent(); i++)
        {
            final long local = locals.get(source.entityAt(i));
            if (local == Entity.NULL || !world.valid(local))
            {
                continue;
            }
            sourceRows.readRow(i, row, 0);
            for (final int offset : references)
            {
                row.putLong(offset, locals.get(row.getLong(offset)), java.nio.ByteOrder.nativeOrder());
            }
            try
            {
                final int index = target.indexOf(local);
                if (index < 0)
                {
                    targetRows.addRow(local, row, 0);
                }
                else
                {
                    targetRows.readRow(index, current, 0);
                    for (int k = 0; k < kept.length; k += 2)
                    {
                        row.putBytes(kept[k], current, kept[k], kept[k + 1]);
                    }
                    if (!rowIsCurrent(rowBytes))
                    {
                        targetRows.patchRow(local, row, 0);
                    }
                }
            }
            catch (final RuntimeException | Error ex)
            {
                first = stopIfExhausted(ex, first, wasWritten(target, local, rowBytes));
            }
            first = stopIfClosed(first);
        }
        return first;
    }

    /**
     * Where the row of a staged storage holds fields the snapshot did not have (it was saved by an older version of the
     * record): offset and width of each, in pairs. The live values of these are kept: the source says nothing of them.
     */
    private static int[] fieldsNotLoaded(final ComponentStorage<?> staged, final Schema saved)
    {
        final List<Schema.Field> fields = staged.type().schema().fields();
        int count = 0;
        final int[] ranges = new int[2 * fields.size()];
        for (int k = 0; k < fields.size(); k++)
        {
            if (saved != null && saved.indexOf(fields.get(k).name()) < 0)
            {
                ranges[count++] = Access.rawStorage(staged).rowOffset(k);
                ranges[count++] = fields.get(k).type().width();
            }
        }
        return java.util.Arrays.copyOf(ranges, count);
    }

    /** Where the row of a storage holds entity references, which the copy translates to local entities. */
    private static int[] referenceOffsets(final ComponentStorage<?> storage)
    {
        final List<Schema.Field> fields = storage.type().schema().fields();
        int count = 0;
        final int[] offsets = new int[fields.size()];
        for (int k = 0; k < fields.size(); k++)
        {
            if (fields.get(k).type() == FieldType.ENTITY)
            {
                offsets[count++] = Access.rawStorage(storage).rowOffset(k);
            }
        }
        return java.util.Arrays.copyOf(offsets, count);
    }

    /** Whether the live entity holds the row that was to be written, read again after an exception. */
    private boolean wasWritten(final ComponentStorage<?> target, final long local, final int rowBytes)
    {
        final int index = world.isClosed() ? -1 : target.indexOf(local);
        if (index < 0)
        {
            return false;
        }
        Access.rawStorage(target).readRow(index, current, 0);
        return rowIsCurrent(rowBytes);
    }

    /** Whether the row about to be written is the live component's, which {@link #current} holds. */
    private boolean rowIsCurrent(final int rowBytes)
    {
        int at = 0;
        for (; at + Long.BYTES <= rowBytes; at += Long.BYTES)
        {
            if (current.getLong(at) != row.getLong(at))
            {
                return false;
            }
        }
        for (; at < rowBytes; at++)
        {
            if (current.getByte(at) != row.getByte(at))
            {
                return false;
            }
        }
        return true;
    }

    private void remember(final int at, final long value)
    {
        if (at == scratch.length)
        {
            scratch = java.util.Arrays.copyOf(scratch, 2 * scratch.length);
        }
        scratch[at] = value;
    }

    /**
     * Runs one change of the live world, collecting what its listeners throw; stops the load if a listener closed this
     * loader meanwhile (its staging world is gone with it).
     */
    private Throwable attempt(final Runnable operation, final BooleanSupplier done, final Throwable failure)
    {
        Throwable first = failure;
        try
        {
            operation.run();
        }
        catch (final RuntimeException | Error ex)
        {
            first = stopIfExhausted(ex, failure, done.getAsBoolean());
        }
        return stopIfClosed(first);
    }

    /**
     * Throws if a listener closed this loader or the live world, with what was collected so far suppressed; else
     * returns it.
     */
    private Throwable stopIfClosed(final Throwable first)
    {
        if (closed || world.isClosed())
        {
            final IllegalStateException stopped = new IllegalStateException(closed ?
                "the ContinuousLoader was closed while it applied a snapshot (by a listener of the live world): the " +
                "load stopped part-way, the live world holds some of the snapshot's changes; make a new loader to " +
                "continue" :
                "the live World was closed while the ContinuousLoader applied a snapshot to it (by a listener of " +
                "that world): the load stopped there; what the listeners threw before is attached as suppressed");
            if (first != null)
            {
                stopped.addSuppressed(first);
            }
            throw stopped;
        }
        return first;
    }
}
