package dev.cairn.snapshot;

import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.Schema;
import dev.cairn.world.World;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.zip.CRC32C;

/**
 * Saves a world and loads it back, whole: every entity keeps its index and version, every storage its members, their
 * order, its policy's state (tombstones, free lists, released entries) and its values, and the pool recycles and
 * retires exactly as it would have. Columns move as bulk copies of their memory, never entity by entity.
 * <pre>{@code
 * ByteBuffer bytes = ByteBuffer.allocateDirect((int)Snapshot.sizeOf(world));
 * Snapshot.save(world, bytes);
 * bytes.flip();
 * try (World copy = new World()) {
 *     Snapshot.load(copy, bytes);
 * }
 * }</pre>
 * <b>Hostile input.</b> Loading checks everything before it is trusted: the magic and format version, a CRC32C per
 * section (a section that fails it is reported as changed, whatever else the change broke first), every count against
 * the bytes that remain, and every structural invariant (counts that fit the policy, handles that are well formed and
 * alive, each entity index once, free lists that link each free slot once, change ticks the clock could hold). A
 * snapshot that fails any check is a {@link SnapshotFormatException} that says what and where, and the world is left
 * as it was: new, with the storages it had.
 * <p>
 * <b>Signals.</b> A load sends no event: listeners and observers hear nothing of the loaded entities; groups are
 * rebuilt over the loaded storages. To bring a live world up to date, with events, use a {@link ContinuousLoader}.
 * <p>
 * The format is in {@code docs/snapshots.md}. Snapshots are at most 2 GiB, the size of one {@link ByteBuffer}.
 */
public final class Snapshot
{
    /** "CAIRNSNP" read as a little-endian long. */
    static final long MAGIC = 0x504E534E52494143L;
    /** The format version this Cairn writes and reads. */
    public static final int FORMAT_VERSION = 1;
    static final int WORLD_SECTION = 1;
    static final int STORAGE_SECTION = 2;
    static final int HEADER_BYTES = 24;
    /** Kind, length and CRC around every section's body. */
    static final int SECTION_OVERHEAD = 16;
    private static final int CHANNEL_BUFFER = 1 << 20;

    private Snapshot()
    {
    }

    /**
     * The bytes a snapshot of {@code world} takes.
     *
     * @param world the world.
     * @param types the components to save; none for every storage of the world. A component the world has no storage
     *              of is left out (it holds no instance), and no storage is made for it.
     * @return the size in bytes.
     * @throws IllegalStateException if the world is closed.
     */
    public static long sizeOf(final World world, final ComponentType<?, ?>... types)
    {
        requireWorld(world);
        long bytes = HEADER_BYTES + SECTION_OVERHEAD + WorldSection.bytes(world);
        for (final ComponentStorage<?> storage : storages(world, types))
        {
            bytes += SECTION_OVERHEAD + StorageSection.bytes(storage);
        }
        return bytes;
    }

    /**
     * Writes a snapshot of {@code world} into a buffer, from its position, which ends after the snapshot.
     *
     * @param world  the world.
     * @param target a writable buffer with at least {@link #sizeOf} bytes remaining; direct buffers are fastest. Its
     *               byte order is left as it was.
     * @param types  the components to save; none for every storage of the world. A component the world has no storage
     *               of is left out (it holds no instance), and no storage is made for it.
     * @throws IllegalArgumentException if the buffer is read-only or has too little room; nothing is written then.
     * @throws IllegalStateException    if the world is closed, or being closed by another thread (a close from
     *                                  another thread while the save runs is refused).
     */
    public static void save(final World world, final ByteBuffer target, final ComponentType<?, ?>... types)
    {
        requireWorld(world);
        java.util.Objects.requireNonNull(target, "target");
        if (target.isReadOnly())
        {
            throw new IllegalArgumentException(
                "the buffer " + target + " is read-only, so a snapshot cannot be written into it; pass a writable " +
                "one, sized with Snapshot.sizeOf(world)");
        }
        final long size = sizeOf(world, types);
        if (size > target.remaining())
        {
            throw new IllegalArgumentException(
                "the snapshot takes " + size + " bytes but the buffer has " + target.remaining() + " left; size it " +
                "with Snapshot.sizeOf(world)");
        }
        final ByteOrder order = target.order();
        final List<ComponentStorage<?>> storages = storages(world, types);
        final SnapshotOutput out = new SnapshotOutput(target, null);
        try
        {
            // A walk of the world, so that a close from another thread is refused, not run under the copy.
            WorldSection.saveAsWalk(world, "Snapshot.save", () -> write(world, out, storages));
        }
        finally
        {
            target.order(order);
        }
    }

    /**
     * Writes a snapshot of {@code world} to a channel, through a buffer of 1 MiB. A save is a walk of the world, and
     * the channel's code runs inside it, between copies of the world's memory: what that code destroys, adds, removes
     * or clears is made when the save returns, so the snapshot holds the world as it was when the save began, and a
     * create, a change of the tick, a reset or a close throws {@link IllegalStateException} (the save copies the
     * entity pool and the tick). A close from another thread is refused until the save returns.
     *
     * @param world   the world.
     * @param channel where the bytes go, for example a {@link java.nio.channels.FileChannel}.
     * @param types   the components to save; none for every storage of the world. A component the world has no
     *                storage of is left out (it holds no instance), and no storage is made for it.
     * @throws UncheckedIOException  if the channel fails.
     * @throws IllegalArgumentException if the channel takes no byte of a write (it is non-blocking); part of the
     *                               snapshot may have been written then.
     * @throws IllegalStateException if the world is closed, or being closed by another thread.
     */
    public static void save(final World world, final WritableByteChannel channel, final ComponentType<?, ?>... types)
    {
        requireWorld(world);
        java.util.Objects.requireNonNull(channel, "channel");
        final List<ComponentStorage<?>> storages = storages(world, types);
        final SnapshotOutput out = new SnapshotOutput(ByteBuffer.allocateDirect(CHANNEL_BUFFER), channel);
        // The channel's code runs between copies: it must not move or free the memory being copied.
        WorldSection.saveAsWalk(world, "Snapshot.save to a channel", () ->
        {
            write(world, out, storages);
            out.flush();
        });
    }

    /**
     * Loads a snapshot into a new world, from the buffer's position, which ends after the snapshot. A
     * {@link java.nio.MappedByteBuffer} of a file loads without copying the file first.
     *
     * @param world  a new world: no entity ever created in it, every storage empty.
     * @param source the snapshot.
     * @throws SnapshotFormatException  if the snapshot is truncated, corrupted, forged, of another format version, or
     *                                  holds a component this program does not declare or whose fields cannot be
     *                                  mapped; the world is left new.
     * @throws IllegalStateException    if the world is not new, or closed.
     * @throws dev.cairn.OffHeapExhaustedException if the world's memory cannot hold it; the world is left new.
     */
    public static void load(final World world, final ByteBuffer source)
    {
        requireWorld(world);
        java.util.Objects.requireNonNull(source, "source");
        loadInto(world, source, false, null);
    }

    /**
     * Loads as {@link #load(World, ByteBuffer)} does, spread over the calling thread and tasks it gives
     * {@code executor}: the sections' checksums start on the helpers while the calling thread reads the entity pool,
     * then the storages' sections are taken one at a time, the largest first, and the call returns once all are done.
     * Worth it for large worlds with several large storages (a world of 10,000,000 entities in three storages loads
     * about 1.6 times as fast on two cores); the entity pool and each storage are still read by one thread. The outcome
     * is a sequential load's, exceptions included: if several sections fail, the first in the snapshot's order is
     * reported, and the world is left as it was. Helpers never wait for each other or for the calling thread, so an
     * executor that rejects the tasks, runs them on the calling thread, or runs them late only leaves more of the work
     * to the calling thread. The executor's {@code execute} runs on the calling thread and must only hand the task on:
     * it runs before any helper writes into the world, as a listener of the load: what it destroys, adds or removes is
     * made when the load returns, and creating, reserving, resetting or closing throws {@link IllegalStateException},
     * which the load takes as the executor refusing the task. The task it hands on must run as given, with nothing of
     * the program's around it that touches the world: a world belongs to one thread, and the load is using it.
     *
     * @param world    a new world.
     * @param source   the snapshot.
     * @param executor runs the helping tasks, for example {@link java.util.concurrent.ForkJoinPool#commonPool()}.
     * @throws SnapshotFormatException  as {@link #load(World, ByteBuffer)}.
     * @throws IllegalStateException    as {@link #load(World, ByteBuffer)}.
     * @throws dev.cairn.OffHeapExhaustedException as {@link #load(World, ByteBuffer)}.
     */
    public static void load(final World world, final ByteBuffer source, final Executor executor)
    {
        requireWorld(world);
        java.util.Objects.requireNonNull(source, "source");
        java.util.Objects.requireNonNull(executor, "executor: pass one, for example ForkJoinPool.commonPool()");
        loadInto(world, source, false, executor);
    }

    /**
     * Loads as {@link #load(World, ByteBuffer)} does; returns the components loaded, in the snapshot's order, each
     * with its fields as the snapshot saved them.
     *
     * @param whole    true if the snapshot must end where {@code source} does (it was read from a channel to its
     *                 end): bytes after the last section are then an error, not the next message.
     * @param executor where storages are read in parallel with the calling thread; null to read them one by one.
     */
    static Map<ComponentType<?, ?>, Schema> loadInto(
        final World world, final ByteBuffer source, final boolean whole, final Executor executor)
    {
        final WorldSection load = new WorldSection(world);
        final SnapshotInput in = new SnapshotInput(source);
        final int sections = readHeader(in);
        final SnapshotSections parts = new SnapshotSections(executor != null);
        try
        {
            load.runAsOperation(() ->
            {
                boolean done = false;
                try
                {
                    readSections(load, source, whole, executor, in, sections, parts);
                    done = true;
                }
                finally
                {
                    if (!done)
                    {
                        load.undo();
                    }
                }
            });
        }
        catch (final RuntimeException | Error ex)
        {
            if (executor == null || !parts.ranOutOfMemory())
            {
                throw ex;
            }
            // Which sections held memory when it ran out depended on the threads: start again, one section after the
            // other, so that the load succeeds or fails exactly as a sequential load does.
            return loadInto(world, source, whole, null);
        }
        source.position(source.position() + (int)in.offset());
        return parts.savedSchemas();
    }

    /** Finds the sections, then reads them and ends the load; the caller undoes the load if this throws. */
    private static void readSections(final WorldSection load, final ByteBuffer source, final boolean whole,
        final Executor executor, final SnapshotInput in, final int sections, final SnapshotSections parts)
    {
        try
        {
            final int kind = in.beginSection("section 0 (world)");
            if (kind != WORLD_SECTION)
            {
                throw in.error("the first section is of kind " + kind + ", not the world's (" + WORLD_SECTION + ")");
            }
        }
        catch (final RuntimeException ex)
        {
            throw SnapshotSections.preferCorruption(in, ex);
        }
        parts.addWorld(in, load);
        SnapshotInput reading = in;
        try
        {
            for (int s = 1; s < sections; s++)
            {
                reading = in;
                final int kind = in.beginSection("section " + s);
                if (kind != STORAGE_SECTION)
                {
                    throw in.error("it is of kind " + kind + " where a storage's (" + STORAGE_SECTION + ") comes: " +
                        "a snapshot holds one world section (" + WORLD_SECTION + "), first, then storage sections");
                }
                final SnapshotSections.Section section = parts.addStorage(in);
                reading = section.in;
                final ComponentType<?, ?> type = readType(reading, s);
                section.name("section " + s + " (" + type.recordClass().getName() + ")");
                if (parts.contains(type))
                {
                    throw reading.error("component " + type.recordClass().getName() + " has a second section");
                }
                section.type = type;
            }
            reading = in;
            if (whole && source.position() + in.offset() != source.limit())
            {
                throw in.error((source.limit() - source.position() - in.offset()) + " bytes follow the " +
                    sections + " sections the header declares; a snapshot read from a channel ends with its " +
                    "last section");
            }
        }
        catch (final RuntimeException ex)
        {
            parts.scanFailed(ex, reading);
        }
        parts.readAll(executor);
        load.finish();
    }

    /**
     * Loads a snapshot from a channel into a new world: the channel is read to its end first, into a buffer that grows
     * with what arrives, so that no count in the snapshot is trusted to size anything.
     *
     * @param world   a new world.
     * @param channel the snapshot, to its end.
     * @throws SnapshotFormatException as {@link #load(World, ByteBuffer)}.
     * @throws UncheckedIOException    if the channel fails.
     * @throws IllegalArgumentException if a read of the channel gives no byte before its end (it is non-blocking);
     *                                  the world is left new.
     * @throws IllegalStateException   if the world is not new, or closed.
     */
    public static void load(final World world, final ReadableByteChannel channel)
    {
        requireWorld(world);
        java.util.Objects.requireNonNull(channel, "channel");
        WorldSection.checkLoadable(world);
        loadInto(world, readFully(channel), true, null);
    }

    /**
     * Loads a snapshot from a channel, read to its end first, with the storages read in parallel as
     * {@link #load(World, ByteBuffer, Executor)} does.
     *
     * @param world    a new world.
     * @param channel  the snapshot, to its end.
     * @param executor runs the helping tasks.
     * @throws SnapshotFormatException as {@link #load(World, ByteBuffer)}.
     * @throws UncheckedIOException    if the channel fails.
     * @throws IllegalArgumentException if a read of the channel gives no byte before its end (it is non-blocking);
     *                                  the world is left new.
     * @throws IllegalStateException   if the world is not new, or closed.
     */
    public static void load(final World world, final ReadableByteChannel channel, final Executor executor)
    {
        requireWorld(world);
        java.util.Objects.requireNonNull(channel, "channel");
        java.util.Objects.requireNonNull(executor, "executor: pass one, for example ForkJoinPool.commonPool()");
        WorldSection.checkLoadable(world);
        loadInto(world, readFully(channel), true, executor);
    }

    /**
     * Reads a channel to its end into a direct buffer, flipped.
     *
     * @param channel the channel.
     * @return a buffer holding everything it gave.
     */
    static ByteBuffer readFully(final ReadableByteChannel channel)
    {
        ByteBuffer buffer = ByteBuffer.allocateDirect(CHANNEL_BUFFER);
        try
        {
            int read;
            while ((read = channel.read(buffer)) >= 0)
            {
                if (read == 0 && buffer.hasRemaining())
                {
                    throw new IllegalArgumentException("the channel gave no byte and did not end: it is " +
                        "non-blocking (or has nothing yet), and a load reads the channel to its end; pass a blocking " +
                        "channel, or gather the snapshot into a ByteBuffer and load that");
                }
                if (!buffer.hasRemaining())
                {
                    if (buffer.capacity() == Integer.MAX_VALUE)
                    {
                        throw new SnapshotFormatException("header", buffer.capacity(),
                            "the channel gives more than the 2 GiB a snapshot can be");
                    }
                    final ByteBuffer grown = ByteBuffer.allocateDirect(
                        (int)Math.min(Integer.MAX_VALUE, 2L * buffer.capacity()));
                    buffer.flip();
                    grown.put(buffer);
                    buffer = grown;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the snapshot: " + ex.getMessage(), ex);
        }
        return buffer.flip();
    }

    static void write(final World world, final SnapshotOutput out, final List<ComponentStorage<?>> storages)
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES - 4).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(MAGIC).putInt(FORMAT_VERSION).putInt(1 + storages.size()).putInt(0).flip();
        final CRC32C crc = new CRC32C();
        crc.update(header.duplicate());
        out.putLong(MAGIC);
        out.putInt(FORMAT_VERSION);
        out.putInt(1 + storages.size());
        out.putInt(0);
        out.putInt((int)crc.getValue());
        out.beginSection(WORLD_SECTION, WorldSection.bytes(world));
        WorldSection.write(world, out);
        out.endSection();
        for (final ComponentStorage<?> storage : storages)
        {
            out.beginSection(STORAGE_SECTION, StorageSection.bytes(storage));
            StorageSection.write(storage, out);
            out.endSection();
        }
    }

    /** Reads and checks the header; returns the number of sections. */
    static int readHeader(final SnapshotInput in)
    {
        final ByteBuffer source = in.raw();
        final int position = source.position();
        if (!source.hasRemaining())
        {
            throw new SnapshotFormatException("header", 0, "there is no byte to read: the source is empty, or is a " +
                "ByteBuffer read from where Snapshot.save left its position (flip() it before loading)");
        }
        if (position >= Long.BYTES && source.getLong(0) == MAGIC &&
            (source.remaining() < Long.BYTES || source.getLong(position) != MAGIC))
        {
            throw new SnapshotFormatException("header", 0, "it does not start with CAIRNSNP, but this buffer holds " +
                "a snapshot from byte 0, before its position " + position + ": flip() a buffer Snapshot.save wrote " +
                "into before loading it");
        }
        in.require(HEADER_BYTES, "the header");
        final int from = (int)in.offset();
        final long magic = in.getLong();
        if (magic != MAGIC)
        {
            throw new SnapshotFormatException("header", 0, "it does not start with CAIRNSNP: it is not a Cairn " +
                "snapshot");
        }
        final int version = in.getInt();
        final int sections = in.getInt();
        final int flags = in.getInt();
        final int stored = in.getInt();
        final CRC32C crc = new CRC32C();
        final ByteBuffer bytes = in.raw().duplicate();
        bytes.position(bytes.position() - HEADER_BYTES + from).limit(bytes.position() + HEADER_BYTES - 4);
        crc.update(bytes);
        if ((int)crc.getValue() != stored)
        {
            throw new SnapshotFormatException("header", 20, "its CRC32C does not match: the header was changed");
        }
        if (version != FORMAT_VERSION)
        {
            throw new SnapshotFormatException("header", 8, "it is format version " + version + "; this Cairn reads " +
                "version " + FORMAT_VERSION + " only");
        }
        if (flags != 0)
        {
            throw new SnapshotFormatException("header", 16, "it sets flags " + flags + " that version " +
                FORMAT_VERSION + " does not define");
        }
        if (sections < 1)
        {
            throw new SnapshotFormatException("header", 12, "it declares " + sections + " sections, where a snapshot " +
                "has at least one, the world's");
        }
        if (sections > in.remaining() / SECTION_OVERHEAD)
        {
            throw new SnapshotFormatException("header", 12, "it declares " + sections + " sections, which the " +
                in.remaining() + " bytes that follow cannot hold (each takes at least " + SECTION_OVERHEAD + ")");
        }
        return sections;
    }

    /** Reads a storage section's record name and finds its component type. */
    static ComponentType<?, ?> readType(final SnapshotInput in, final int section)
    {
        final String name = in.getString();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null)
        {
            loader = Snapshot.class.getClassLoader();
        }
        final ComponentType<?, ?> type = ComponentType.named(name, loader);
        if (type == null)
        {
            throw in.error("section " + section + " holds components of " + name + ", which is not a @Component " +
                "record of this program (its storage was not found); declare it, or save without it");
        }
        return type;
    }

    private static void requireWorld(final World world)
    {
        java.util.Objects.requireNonNull(world, "world: pass the World to save, or to load into");
    }

    private static List<ComponentStorage<?>> storages(final World world, final ComponentType<?, ?>... types)
    {
        java.util.Objects.requireNonNull(types, "types: pass the components to save, or none for every storage");
        if (types.length == 0)
        {
            return world.storages();
        }
        // A component the world has no storage of holds nothing: it is left out, not given a storage by the save.
        final List<ComponentStorage<?>> existing = world.storages();
        final List<ComponentStorage<?>> storages = new ArrayList<>();
        for (final ComponentType<?, ?> type : types)
        {
            java.util.Objects.requireNonNull(type, "types: a component to save is null");
            for (final ComponentStorage<?> storage : existing)
            {
                if (storage.type() == type && !storages.contains(storage))
                {
                    storages.add(storage);
                }
            }
        }
        return storages;
    }
}
