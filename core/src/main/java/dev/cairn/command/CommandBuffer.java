package dev.cairn.command;

import dev.cairn.Entity;
import dev.cairn.internal.Access;
import dev.cairn.internal.ArrayBases;
import dev.cairn.internal.Failures;
import dev.cairn.internal.RawStorage;
import dev.cairn.internal.Walks;
import dev.cairn.parallel.Chunk;
import dev.cairn.parallel.Chunks;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.Storages;
import dev.cairn.world.World;
import org.agrona.UnsafeApi;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * Structural changes recorded now, from any number of threads, and made later by {@link #apply()} once no walk or
 * listener of the world runs: what a {@code parallelForEach} action does for the changes it cannot make directly
 * (creating an entity, a {@code patch} that listeners follow); its destroys, adds and removes are recorded by the walk
 * itself and made when it returns.
 * <pre>{@code
 * CommandBuffer commands = new CommandBuffer(world);
 * movers.parallelForEach((entity, position, velocity) ->
 * {
 *     if (position.y() < 0)
 *     {
 *         commands.destroy(entity);
 *     }
 *     else if (position.y() > 100)
 *     {
 *         long spark = commands.create();             // a placeholder until apply()
 *         positions.emplace(commands, spark, position.x(), position.y());
 *     }
 * });
 * commands.apply();                                    // on the thread that owns the world
 * }</pre>
 * <b>Recording.</b> {@link #create()}, {@link #destroy(long)}, {@link #add(long, ComponentStorage)} (tags),
 * {@link #remove(long, ComponentStorage)}, and the generated {@code emplace(commands, entity, fields...)} and
 * {@code patch(commands, entity, fields...)} of every storage record one command each. Each thread records into a lane
 * of its own, as bytes in a growing array: no object per command, no lock after a thread's first command. Fields are
 * copied when recorded.
 * <p>
 * <b>Order.</b> {@code apply()} makes the changes in the order a sequential run would have recorded them, whatever the
 * thread count, the chunk size or the timing: commands recorded in a chunk of a parallel walk are ordered by the
 * position of that chunk in the walk (front to back, as {@code forEach} walks), and in the order recorded within a
 * chunk; parallel walks and what is recorded between them follow each other in time. Commands recorded outside a
 * parallel walk by several threads at once are ordered by thread (the first thread to record first), which
 * depends on timing: record from one thread there.
 * <p>
 * <b>Placeholders.</b> {@link #create()} returns a placeholder handle (negative, never a real entity) that later
 * commands of this buffer accept wherever they take an entity, and in entity-reference fields; {@code apply()}
 * replaces it with the entity it creates. A placeholder is valid for commands recorded after it in apply order: from
 * the same thread, or from later chunks.
 * <p>
 * <b>Commands whose entity is gone.</b> When {@code apply()} reaches a command whose entity is not alive (destroyed
 * meanwhile, or a placeholder whose create has not been applied), the command is skipped and counted: {@code apply()}
 * returns how many were. An add of a component the entity has replaces its fields (as {@code patch} would); a patch
 * of a component it lacks is skipped and counted; a remove of a component it lacks does nothing. An entity-reference
 * field holding a placeholder that cannot be resolved is written as {@link Entity#NULL}.
 * <p>
 * <b>Threads.</b> Recording is thread-safe. {@code apply()} and {@link #clear()} are not: call them where no thread
 * records, on the thread that owns the world. During a parallel walk of the world both throw, and {@code apply()}
 * throws inside any walk or listener of the world: a buffer is applied whole, in order, after the walk.
 */
public final class CommandBuffer
{
    static final byte CREATE = 1;
    static final byte DESTROY = 2;
    static final byte ADD = 3;
    static final byte PATCH = 4;
    static final byte REMOVE = 5;

    /**
     * Bytes before a run of commands of one kind: an int holding the operation (bits 0 to 2), the row's length (bits
     * 3 to 15) and the type id (bits 16 to 31), then the int count of commands in the run. Each command is then its
     * entity followed by its row. Consecutive commands of one kind share the header, so that a lane holds 16 bytes
     * for a float pair's add rather than 20: recording and playback stream these bytes through memory, which at a
     * million commands is what their cost is made of.
     */
    static final int RUN_HEADER_BYTES = 2 * Integer.BYTES;
    private static final int OPERATION_MASK = 0x7;
    private static final int ROW_SHIFT = 3;
    private static final int MAX_ROW_BYTES = 0x1FFF;
    private static final int TYPE_SHIFT = 16;
    private static final int MAX_TYPE_ID = 0xFFFF;

    private static final int MAX_LANES = 0xFFFF;
    private static final int[] NO_REFERENCES = new int[0];
    /** How many placeholders one thread's lane can hand out over the buffer's life: its numbers are 32 bits. */
    static final long PLACEHOLDERS = 1L << 32;

    private final World world;
    /** This buffer's hold on its tag, which keeps each lane's numbering so that the tag's next buffer numbers on. */
    private final PlaceholderTags.Lease lease;
    /** Bits 48 to 62 of this buffer's placeholders: tells them from another buffer's. */
    private final long tag;
    /**
     * Each recording thread's lane, held weakly: a thread's map of thread-locals holds its values strongly, and a lane
     * holds its world, which may hold this buffer (a listener that records into it), so a strong value would keep the
     * buffer and its world reachable for as long as the thread lives. {@link #lanes} holds the lanes strongly.
     */
    private final ThreadLocal<WeakReference<Lane>> laneOfThread =
        ThreadLocal.withInitial(() -> new WeakReference<>(newLane()));
    /**
     * A cache in front of {@code laneOfThread}, which costs a hash lookup per command: each lane at the slot of its
     * thread's id. Read and written without a lock; a reader checks the lane's thread, so a stale or overwritten
     * slot only sends it to the thread-local.
     */
    private Lane[] lanesByThread = new Lane[16];
    private Lane[] lanes = new Lane[4];
    private int laneCount;
    /** True while {@link #apply()} plays the commands back: a listener may not record into this buffer then. */
    private boolean applying;

    /**
     * Creates an empty buffer for a world's entities and storages.
     *
     * @param world the world {@link #apply()} changes.
     * @throws NullPointerException  if {@code world} is null.
     * @throws IllegalStateException if it is closed.
     */
    public CommandBuffer(final World world)
    {
        this.world = java.util.Objects.requireNonNull(world, "world");
        if (world.isClosed())
        {
            throw new IllegalStateException("the World is closed; create a command buffer for an open one");
        }
        lease = PlaceholderTags.take(this);
        tag = (long)lease.tag << 48;
    }

    /**
     * Records creating an entity.
     *
     * @return a placeholder for it, which later commands of this buffer accept as an entity.
     */
    public long create()
    {
        final Lane lane = lane();
        final long placeholder = lane.placeholder();
        lane.begin(CREATE, 0, placeholder);
        // Reachable until the number is taken: the tag's next buffer numbers on from what this buffer's lanes took.
        java.lang.ref.Reference.reachabilityFence(this);
        return placeholder;
    }

    /**
     * Records destroying an entity.
     *
     * @param entity an entity of the world, or a placeholder of this buffer.
     * @throws IllegalArgumentException if it is neither (NULL, malformed, another buffer's placeholder).
     */
    public void destroy(final long entity)
    {
        lane().begin(DESTROY, 0, requireEntity(entity));
    }

    /**
     * Records adding a tag (a component without fields) to an entity. Components with fields are recorded by their
     * storage's generated {@code emplace(commands, entity, fields...)}.
     *
     * @param entity an entity of the world, or a placeholder of this buffer.
     * @param tags   the world's storage of a tag.
     * @throws IllegalArgumentException if the entity is neither, the storage is not the world's, or the component
     *                                  has fields.
     */
    public void add(final long entity, final ComponentStorage<?> tags)
    {
        if (Access.rawStorage(own(tags)).rowBytes() != 0)
        {
            throw new IllegalArgumentException(tags.name() + " holds components with fields: record them with its " +
                "emplace(commands, entity, fields...) so that the values are recorded too");
        }
        beginRow(ADD, tags, entity);
    }

    /**
     * Records removing a component from an entity.
     *
     * @param entity  an entity of the world, or a placeholder of this buffer.
     * @param storage the world's storage of the component.
     * @throws IllegalArgumentException if the entity is neither, or the storage is not the world's.
     */
    public void remove(final long entity, final ComponentStorage<?> storage)
    {
        final Lane lane = lane();
        lane.begin(REMOVE, lane.known(this, storage), requireEntity(entity), 0);
    }

    /**
     * Starts recording an add (or a patch) whose fields the caller writes next into the returned row: what generated
     * {@code emplace(commands, ...)} and {@code patch(commands, ...)} call. The row is this thread's, valid until its
     * next command. Write every field: a byte not written holds whatever an earlier command left there.
     *
     * @param patch   true for a patch, false for an add.
     * @param storage the world's storage of the component.
     * @param entity  an entity of the world, or a placeholder of this buffer.
     * @return this thread's row, to write the fields into.
     * @throws IllegalArgumentException if the entity is neither, or the storage is not the world's.
     */
    public dev.cairn.internal.Row record(final boolean patch, final ComponentStorage<?> storage, final long entity)
    {
        return beginRow(patch ? PATCH : ADD, storage, entity);
    }

    /**
     * How many commands are recorded. Exact only while no thread records: read while threads record, it is an
     * estimate that may be off by up to a run of each recording thread (consecutive commands of one kind), in either
     * direction.
     *
     * @return the count.
     */
    public int size()
    {
        long size = 0;
        for (int k = 0; k < laneCount(); k++)
        {
            size += lanes[k].commandCount();
        }
        return (int)Math.min(size, Integer.MAX_VALUE);
    }

    /**
     * Whether no command is recorded.
     *
     * @return true if empty.
     */
    public boolean isEmpty()
    {
        for (int k = 0; k < laneCount(); k++)
        {
            if (lanes[k].length != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Forgets every recorded command; placeholders handed out so far become unknown.
     *
     * @throws IllegalStateException if it is being applied, or a parallel walk of the world runs (where other
     *                               threads may be recording into it); nothing is forgotten then.
     */
    public void clear()
    {
        ensureNotApplying("cleared");
        ensureUnlocked("cleared", "other threads may be recording into it; clear it after that returns");
        for (int k = 0; k < laneCount(); k++)
        {
            lanes[k].reset();
        }
    }

    /**
     * Makes the recorded changes in their order (see the class comment) and empties the buffer. Listeners run as
     * for direct calls. A command that throws (a listener, exhausted memory) does not stop the others: the first
     * exception is rethrown when all have run, later ones suppressed in it; the buffer is empty either way.
     *
     * @return how many commands were skipped because their entity was not alive, or their placeholder not created.
     * @throws IllegalStateException if the world is closed, a walk or a listener of it runs (apply after it), or
     *                               commands were recorded before a {@link World#reset()} (clear the buffer); nothing
     *                               is applied then.
     */
    public int apply()
    {
        if (world.isClosed())
        {
            throw new IllegalStateException("the World of this command buffer is closed; nothing was applied");
        }
        ensureUnlocked("applied", "apply it after that returns");
        // Its creates would be made at once and its adds recorded, so that a patch of the same buffer found nothing.
        Access.walks(world).refuseWhileDeferring("apply a command buffer", "a command buffer is applied as a " +
            "whole, in order; apply it after the walk or listener returns");
        ensureNotApplying("applied again");
        final Lane[] lanes = Arrays.copyOf(this.lanes, laneCount());
        for (final Lane lane : lanes)
        {
            if (lane.length > 0 && lane.resetsAtFirstCommand != world.resets())
            {
                throw new IllegalStateException("this command buffer holds " + size() + " commands, some recorded " +
                    "before World.reset(): their handles name entities the reset forgot, or new ones that reuse " +
                    "their indices; nothing was applied: clear() the buffer (and record anew after a reset)");
            }
        }
        for (final Lane lane : lanes)
        {
            lane.endRun();
        }
        final Segments segments = Segments.of(lanes);
        final Playback playback = new Playback(lanes);
        applying = true;
        try
        {
            for (int k = 0; k < segments.count(); k++)
            {
                final Lane lane = lanes[segments.lane(k)];
                final byte[] bytes = lane.bytes;
                int at = segments.start(k);
                final int end = Math.min(segments.end(k), bytes.length);
                while (at <= end - RUN_HEADER_BYTES)
                {
                    final int header = getInt(bytes, at);
                    final int stride = Long.BYTES + (header >>> ROW_SHIFT & MAX_ROW_BYTES);
                    final int first = at + RUN_HEADER_BYTES;
                    final int recorded = getInt(bytes, at + Integer.BYTES);
                    final int fits = (end - first) / stride;
                    if (recorded <= 0 || recorded > fits)
                    {
                        // Only a Row misused from another thread writes over a count; where the next run starts is
                        // then unknown, so the rest of this segment is skipped rather than read past its end.
                        playback.reportOverwritten("the rest of a chunk's commands were");
                        break;
                    }
                    playback.run(lane, bytes, first, header, recorded);
                    at = first + recorded * stride;
                }
            }
        }
        finally
        {
            applying = false;
            for (final Lane lane : lanes)
            {
                lane.reset();
            }
        }
        Failures.rethrow(playback.failure);
        return playback.skipped;
    }

    @Override
    public String toString()
    {
        int recording = 0;
        for (int k = 0; k < laneCount(); k++)
        {
            recording += lanes[k].length != 0 ? 1 : 0;
        }
        // A lane is kept per thread that recorded since the buffer was made (or took over the lane of one that ended).
        return "CommandBuffer[" + size() + " commands from " + recording + " threads, " + laneCount() + " lanes]";
    }

    private static int getInt(final byte[] bytes, final int at)
    {
        return UnsafeApi.getIntUnaligned(bytes, ArrayBases.BYTE + at);
    }

    private static long getLong(final byte[] bytes, final int at)
    {
        return UnsafeApi.getLongUnaligned(bytes, ArrayBases.BYTE + at);
    }

    private static void putLong(final byte[] bytes, final int at, final long value)
    {
        UnsafeApi.putLongUnaligned(bytes, ArrayBases.BYTE + at, value);
    }

    private Lane lane()
    {
        ensureNotApplying("recorded into");
        final Thread thread = Thread.currentThread();
        final Lane[] byThread = lanesByThread;
        // The id only picks the slot (a subclass may override getId): the owner decides.
        final int slot = (int)thread.getId() & (byThread.length - 1);
        final Lane cached = byThread[slot];
        if (cached != null && cached.owner == thread)
        {
            return cached;
        }
        final Lane lane = laneOfThread.get().get();
        byThread[slot] = lane;
        return lane;
    }

    private void ensureUnlocked(final String what, final String advice)
    {
        final Walks walks = Access.walks(world);
        if (walks.isParallel())
        {
            throw new IllegalStateException("a command buffer cannot be " + what + " while " + walks.heldBy() +
                " runs in parallel (other threads may be recording into it): " + advice);
        }
    }

    private void ensureNotApplying(final String what)
    {
        if (applying)
        {
            throw new IllegalStateException("this command buffer is being applied, so it cannot be " + what + " (from " +
                "a listener the apply runs): record into another CommandBuffer, applied after this one");
        }
    }

    private synchronized int laneCount()
    {
        return laneCount;
    }

    private synchronized Lane newLane()
    {
        final Thread thread = Thread.currentThread();
        for (int k = 0; k < laneCount; k++)
        {
            // The thread had a lane before its thread-local values were cleared (the common pool does that after
            // every task): it keeps recording there, so that its commands stay in one lane in the order recorded.
            if (lanes[k].owner == thread)
            {
                return lanes[k];
            }
        }
        for (int k = 0; k < laneCount; k++)
        {
            // A lane whose thread ended is taken over once its commands were applied, so a pool that retires and
            // spawns workers does not grow the buffer. Dead is tested first: seeing the owner ended makes everything
            // it recorded visible here.
            final Lane lane = lanes[k];
            if (!lane.owner.isAlive() && lane.isEmpty())
            {
                lane.adopt();
                return lane;
            }
        }
        if (laneCount == MAX_LANES)
        {
            throw new IllegalStateException("a command buffer records from at most " + MAX_LANES + " threads at " +
                "once (or with commands not yet applied); use a pool of fewer threads, or one buffer per group of " +
                "threads");
        }
        if (laneCount == lanes.length)
        {
            lanes = Arrays.copyOf(lanes, laneCount * 2);
        }
        if (laneCount * 2 >= lanesByThread.length && lanesByThread.length < MAX_LANES)
        {
            lanesByThread = new Lane[lanesByThread.length * 2];
        }
        final Lane lane = new Lane(laneCount, tag, lease.addLane(laneCount), world);
        lanes[laneCount++] = lane;
        return lane;
    }

    private dev.cairn.internal.Row beginRow(final byte operation, final ComponentStorage<?> storage, final long entity)
    {
        final Lane lane = lane();
        final int typeId = lane.known(this, storage);
        lane.begin(operation, typeId, requireEntity(entity), lane.lastRowBytes);
        return lane.row;
    }

    private ComponentStorage<?> own(final ComponentStorage<?> storage)
    {
        return Storages.requireOwn(world, storage, "command");
    }

    private long requireEntity(final long entity)
    {
        if (entity >= 0 ? Entity.isWellFormed(entity) : isPlaceholder(entity))
        {
            return entity;
        }
        throw new IllegalArgumentException(entity == Entity.NULL ?
            "a command needs an entity, not Entity.NULL" :
            Entity.toString(entity) + " is neither an entity nor a placeholder create() of this command buffer " +
                "returned" + (entity < 0 ? " (a placeholder of another command buffer names nothing here)" : ""));
    }

    private boolean isPlaceholder(final long value)
    {
        return value != Entity.NULL && (value & 0xFFFF_0000_0000_0000L) == (Long.MIN_VALUE | tag);
    }

    /** One thread's commands, and where each of its chunks' commands start. */
    static final class Lane
    {
        /** An epoch no run has: epochs start at 0 and grow. */
        private static final long NO_SEGMENT = -1;

        // As in Row: keeps the fields the owner thread writes with every command off other threads' cache lines.
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        final int id;
        /** The thread that records into this lane; once it has ended, a new thread can take the lane over. */
        volatile Thread owner = Thread.currentThread();
        final long placeholderBits;
        /** The commands, back to back, in runs. */
        byte[] bytes = new byte[1024];
        /**
         * Where the open run starts and its header (0 when no run is open: the next command starts one). How many
         * commands it holds follows from where the lane ends; it is written into the header when the run ends.
         */
        int runAt;
        int runHeader;
        final dev.cairn.internal.Row row = new dev.cairn.internal.Row();
        /** The chunk of the owner thread. */
        Chunk chunk = Chunk.current();
        int length;
        /** The commands of the ended runs. */
        int commands;
        /** Each segment: the epoch, the chunk start (or NONE) and the offset where it starts. */
        long[] segmentEpochs = new long[8];
        int[] segmentKeys = new int[8];
        int[] segmentStarts = new int[8];
        int segments;
        /** The chunk start and epoch of the last segment, or {@link #NO_SEGMENT} before the first. */
        int openFrom;
        long openEpoch = NO_SEGMENT;
        /** The entity each create made, by placeholder number less {@code base}; NULL until applied. */
        long[] created = new long[16];
        int createdCount;
        /**
         * The number of this lane's first placeholder since the last apply: numbers keep growing across applies, so
         * a placeholder kept from an earlier round is never taken for a new one. They end at {@link #PLACEHOLDERS}.
         */
        long base;
        /** Where this lane's numbers stand, kept for the tag's next buffer (see {@link PlaceholderTags.Numbering}). */
        private final PlaceholderTags.Numbering numbering;
        /** The world, whose {@link World#resets()} the first segment since the lane was emptied notes. */
        private final World world;
        long resetsAtFirstCommand;
        /** The storage this lane recorded for last, and its type id: most commands name the storage the last did. */
        private ComponentStorage<?> lastStorage;
        private int lastTypeId;
        private int lastRowBytes;
        /** The storage of each type id this lane recorded for. */
        ComponentStorage<?>[] storagesById = new ComponentStorage<?>[8];
        /** The raw side of each storage, by type id: its rows. */
        RawStorage[] rawById = new RawStorage[8];

        Lane(final int id, final long tag, final PlaceholderTags.Numbering numbering, final World world)
        {
            this.id = id;
            this.numbering = numbering;
            this.base = numbering.next;
            this.world = world;
            this.placeholderBits = Long.MIN_VALUE | tag | ((long)id << 32);
        }

        /** Appends a command without a row, opening a segment if the chunk or epoch changed since the last one. */
        Lane begin(final byte operation, final int typeId, final long entity)
        {
            return begin(operation, typeId, entity, 0);
        }

        /**
         * Appends a command (to the open run if it is of the same kind, else in a run of its own) and room for a row
         * of {@code rowBytes} just after its entity, for the caller to fill.
         */
        Lane begin(final byte operation, final int typeId, final long entity, final int rowBytes)
        {
            final int from = chunk.from();
            if (from != openFrom || epochOf(from) != openEpoch)
            {
                openSegment(from);
            }
            final int header = operation | rowBytes << ROW_SHIFT | typeId << TYPE_SHIFT;
            final int entityAt = header == runHeader && length <= bytes.length - Long.BYTES - rowBytes ?
                length : startCommand(header, rowBytes);
            final byte[] bytes = this.bytes;
            UnsafeApi.putLongUnaligned(bytes, ArrayBases.BYTE + entityAt, entity);
            if (row.bytes() != bytes)
            {
                // Only after a growth: a reference store pays G1's write barrier (a memory fence once the row is in
                // the old generation), which with every command slowed recording down.
                row.bytes(bytes);
            }
            row.offset(entityAt + Long.BYTES);
            length = entityAt + Long.BYTES + rowBytes;
            return this;
        }

        /**
         * Makes room for a command with a row of {@code rowBytes} and, unless it joins the open run, starts a run
         * for it; returns where its entity goes.
         */
        private int startCommand(final int header, final int rowBytes)
        {
            final boolean joins = header == runHeader;
            final int entityAt = joins ? length : length + RUN_HEADER_BYTES;
            if (entityAt > bytes.length - Long.BYTES - rowBytes)
            {
                grow(entityAt - length + Long.BYTES + rowBytes);
            }
            if (!joins)
            {
                endRun();
                UnsafeApi.putIntUnaligned(bytes, ArrayBases.BYTE + length, header);
                runAt = length;
                runHeader = header;
                row.length(rowBytes);
            }
            return entityAt;
        }

        /** Writes the open run's count into its header: the next command starts a run of its own. */
        void endRun()
        {
            if (runHeader != 0)
            {
                final int count = openRunCount();
                UnsafeApi.putIntUnaligned(bytes, ArrayBases.BYTE + runAt + Integer.BYTES, count);
                commands += count;
                runHeader = 0;
            }
        }

        /** The commands of the open run: its bytes after the header, each command an entity and a row. */
        private int openRunCount()
        {
            final int header = runHeader;
            if (header == 0)
            {
                return 0;
            }
            // Read from another thread while the owner records, the fields may not belong together: never below 0.
            final int stride = Long.BYTES + (header >>> ROW_SHIFT & MAX_ROW_BYTES);
            return Math.max(0, (length - runAt - RUN_HEADER_BYTES) / stride);
        }

        /** The commands recorded into this lane: those of its ended runs and those of the open one. */
        int commandCount()
        {
            return commands + openRunCount();
        }

        /**
         * The type id of a storage, checked to be the world's the first time this lane meets it.
         *
         * @throws NullPointerException     if it is null.
         * @throws IllegalArgumentException if it is not the world's.
         */
        int known(final CommandBuffer buffer, final ComponentStorage<?> storage)
        {
            if (storage == lastStorage && storage != null)
            {
                return lastTypeId;
            }
            final int id = storage.type().id();
            if (id >= storagesById.length || storagesById[id] != storage)
            {
                register(buffer, storage, id);
            }
            lastStorage = storage;
            lastTypeId = id;
            lastRowBytes = rawById[id].rowBytes();
            return id;
        }

        /** Checks a storage this lane meets for the first time, and files it under its type id. */
        private void register(final CommandBuffer buffer, final ComponentStorage<?> storage, final int id)
        {
            buffer.own(storage);
            final RawStorage raw = Access.rawStorage(storage);
            if (id > MAX_TYPE_ID || raw.rowBytes() > MAX_ROW_BYTES)
            {
                throw new IllegalArgumentException(storage.name() + " cannot be recorded: a command buffer takes " +
                    "component types with ids up to " + MAX_TYPE_ID + " (this one's is " + id + ") and rows of up to " +
                    MAX_ROW_BYTES + " bytes (this one's has " + raw.rowBytes() + ")");
            }
            if (id >= storagesById.length)
            {
                storagesById = Arrays.copyOf(storagesById, Math.max(id + 1, storagesById.length * 2));
                rawById = Arrays.copyOf(rawById, storagesById.length);
            }
            storagesById[id] = storage;
            rawById[id] = raw;
        }

        /** Makes room for {@code more} bytes after {@code length}; returns the new array. */
        private byte[] grow(final int more)
        {
            final long needed = (long)length + more;
            if (needed > Integer.MAX_VALUE - 8)
            {
                throw new IllegalStateException("a thread recorded 2 GiB of commands into one command buffer; " +
                    "apply() it more often");
            }
            bytes = Arrays.copyOf(bytes, (int)Math.min(Integer.MAX_VALUE - 8, Math.max(2L * bytes.length, needed)));
            return bytes;
        }

        long placeholder()
        {
            if (createdCount == created.length)
            {
                created = Arrays.copyOf(created, createdCount * 2);
            }
            if (base + createdCount >= PLACEHOLDERS)
            {
                throw new IllegalStateException("a thread has taken every placeholder number of its lane in this " +
                    "command buffer (" + PLACEHOLDERS + " over the lifetimes of the buffers that held its tag, at " +
                    "least " + PlaceholderTags.RETIRED_AFTER + " of them in this one): a new one could be taken for " +
                    "one handed out before; record creates into a new CommandBuffer");
            }
            created[createdCount] = Entity.NULL;
            final long number = base + createdCount++;
            numbering.next = number + 1;
            return placeholderBits | number;
        }

        /** Where the entity a placeholder of this lane stands for goes in {@code created}: -1 if not this round's. */
        int createdIndex(final long placeholder)
        {
            final long number = (placeholder & 0xFFFF_FFFFL) - base;
            return number >= 0 && number < createdCount ? (int)number : -1;
        }

        /** Starts a segment for the chunk (or, outside one, the epoch) this thread records in now. */
        private void openSegment(final int from)
        {
            if (segments == 0)
            {
                resetsAtFirstCommand = world.resets();
            }
            if (segments == segmentStarts.length)
            {
                segmentEpochs = Arrays.copyOf(segmentEpochs, segments * 2);
                segmentKeys = Arrays.copyOf(segmentKeys, segments * 2);
                segmentStarts = Arrays.copyOf(segmentStarts, segments * 2);
            }
            endRun();
            openFrom = from;
            openEpoch = epochOf(from);
            segmentEpochs[segments] = openEpoch;
            segmentKeys[segments] = from; // Chunk.NONE, -1, before every chunk
            segmentStarts[segments] = length;
            segments++;
        }

        /** The epoch commands recorded now belong to: the chunk's run, or outside any chunk the time between runs. */
        private long epochOf(final int from)
        {
            return from == Chunk.NONE ? Chunks.epoch() : chunk.epoch();
        }

        boolean isEmpty()
        {
            return length == 0 && createdCount == 0;
        }

        /** Makes the calling thread this lane's owner; placeholder numbers go on from the last owner's. */
        void adopt()
        {
            chunk = Chunk.current();
            openEpoch = NO_SEGMENT;
            if (bytes.length > 1 << 20)
            {
                bytes = new byte[1024];
            }
            owner = Thread.currentThread();
        }

        void reset()
        {
            length = 0;
            runHeader = 0;
            commands = 0;
            segments = 0;
            openEpoch = NO_SEGMENT;
            base += createdCount;
            createdCount = 0;
        }
    }

    /** Every lane's segments in apply order: by epoch, then chunk from front to back, then lane, then as recorded. */
    private static final class Segments
    {
        private final int[] lane;
        private final int[] start;
        private final int[] end;

        private Segments(final int count)
        {
            lane = new int[count];
            start = new int[count];
            end = new int[count];
        }

        static Segments of(final Lane[] lanes)
        {
            int count = 0;
            for (final Lane lane : lanes)
            {
                count += lane.segments;
            }
            final Integer[] order = new Integer[count];
            final int[] laneOf = new int[count];
            final int[] segmentOf = new int[count];
            int k = 0;
            for (int l = 0; l < lanes.length; l++)
            {
                for (int s = 0; s < lanes[l].segments; s++)
                {
                    order[k] = k;
                    laneOf[k] = l;
                    segmentOf[k] = s;
                    k++;
                }
            }
            Arrays.sort(order, (a, b) ->
            {
                final Lane left = lanes[laneOf[a]];
                final Lane right = lanes[laneOf[b]];
                final int byEpoch = Long.compare(left.segmentEpochs[segmentOf[a]], right.segmentEpochs[segmentOf[b]]);
                if (byEpoch != 0)
                {
                    return byEpoch;
                }
                // Chunks further front come first, as a sequential walk from front to back would record them.
                final int byChunk = Integer.compare(left.segmentKeys[segmentOf[a]], right.segmentKeys[segmentOf[b]]);
                return byChunk != 0 ? byChunk : Integer.compare(a, b);
            });
            final Segments segments = new Segments(count);
            for (int i = 0; i < count; i++)
            {
                final Lane lane = lanes[laneOf[order[i]]];
                final int s = segmentOf[order[i]];
                segments.lane[i] = laneOf[order[i]];
                segments.start[i] = lane.segmentStarts[s];
                segments.end[i] = s + 1 < lane.segments ? lane.segmentStarts[s + 1] : lane.length;
            }
            return segments;
        }

        int count()
        {
            return lane.length;
        }

        int lane(final int k)
        {
            return lane[k];
        }

        int start(final int k)
        {
            return start[k];
        }

        int end(final int k)
        {
            return end[k];
        }
    }

    /** Runs commands one by one against the world, resolving placeholders. */
    private final class Playback
    {
        private final Lane[] lanes;
        private final long[] created = new long[1];
        int skipped;
        Throwable failure;
        /** The entity-reference row offsets of each type id met so far. */
        private int[][] entityOffsets = new int[8][];

        Playback(final Lane[] lanes)
        {
            this.lanes = lanes;
        }

        /**
         * Runs a run of {@code count} commands of {@code lane} that share {@code header}, the first at {@code first}:
         * what is the same for all of them (the storage, its entity-reference fields) is looked up once.
         */
        void run(final Lane lane, final byte[] bytes, final int first, final int header, final int count)
        {
            final int operation = header & OPERATION_MASK;
            final int stride = Long.BYTES + (header >>> ROW_SHIFT & MAX_ROW_BYTES);
            final ComponentStorage<?> storage;
            final RawStorage raw;
            final int[] references;
            try
            {
                final int typeId = header >>> TYPE_SHIFT;
                storage = operation >= ADD && typeId < lane.storagesById.length ? lane.storagesById[typeId] : null;
                raw = storage == null ? null : lane.rawById[typeId];
                if (operation < CREATE || operation > REMOVE || operation >= ADD && storage == null ||
                    stride - Long.BYTES != (operation == ADD || operation == PATCH ? raw.rowBytes() : 0))
                {
                    throw overwritten(count == 1 ? "1 command was" : count + " commands were");
                }
                references = operation == ADD || operation == PATCH ? entityOffsets(typeId, raw) : null;
            }
            catch (final RuntimeException | Error thrown)
            {
                failure = Failures.collect(failure, thrown);
                return;
            }
            if (operation == ADD && references.length == 0)
            {
                addRun(raw, bytes, first, stride, count);
                return;
            }
            for (int i = 0, at = first; i < count; i++, at += stride)
            {
                final long recorded = getLong(bytes, at);
                final int rowAt = at + Long.BYTES;
                try
                {
                    switch (operation)
                    {
                        case CREATE:
                            create(lane, recorded);
                            break;
                        case ADD:
                            add(raw, references, bytes, at);
                            break;
                        default:
                            change(operation, storage, raw, references, resolve(recorded), bytes, rowAt);
                            break;
                    }
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = Failures.collect(failure, thrown);
                }
            }
        }

        /**
         * A run of adds of a component without entity references: in bulk while the storage takes them that way, one
         * by one where it does not (placeholders to resolve, entities not alive, listeners to run, memory to find).
         */
        private void addRun(
            final RawStorage storage, final byte[] bytes, final int first, final int stride, final int count)
        {
            for (int done = 0; done < count; done++) // each pass: a stretch in bulk, then the command that ended it
            {
                try
                {
                    done += storage.addRowsQuickly(bytes, first + done * stride, count - done);
                    if (done < count)
                    {
                        add(storage, NO_REFERENCES, bytes, first + done * stride);
                    }
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = Failures.collect(failure, thrown);
                }
            }
        }

        /** An add recorded at {@code at}: skipped (and counted) if the entity is not alive. */
        private void add(final RawStorage storage, final int[] references, final byte[] bytes, final int at)
        {
            resolveReferences(references, bytes, at + Long.BYTES);
            if (!storage.putRowIfAlive(resolve(getLong(bytes, at)), bytes, at + Long.BYTES))
            {
                skipped++;
            }
        }

        private void create(final Lane lane, final long placeholder)
        {
            final int number = lane.createdIndex(placeholder);
            if (placeholder >= 0 || number < 0)
            {
                throw overwritten("1 command was");
            }
            // The bulk form hands the entity over before its listeners run, so a listener that throws leaves an
            // entity later commands still find.
            created[0] = Entity.NULL;
            try
            {
                world.create(created, 1);
            }
            catch (final IllegalStateException ex)
            {
                // The create is the world's bulk form, which names itself: say which call the user made.
                throw world.isClosed() ? new IllegalStateException("CommandBuffer.apply() was playing back the " +
                    "create() recorded as placeholder 0x" + Long.toHexString(placeholder) + ": " + ex.getMessage(), ex) :
                    ex;
            }
            finally
            {
                lane.created[number] = created[0];
            }
        }

        /** Only a Row written by a thread that did not record it, racing its lane's owner, leaves such bytes. */
        private IllegalStateException overwritten(final String skipped)
        {
            return new IllegalStateException("a command buffer's lane was overwritten, so " + skipped + " skipped: " +
                "a Row was written from a thread other than the one whose record() returned it");
        }

        /** Reports commands the playback could not read, collected with the other failures of this apply. */
        void reportOverwritten(final String skipped)
        {
            failure = Failures.collect(failure, overwritten(skipped));
        }

        /** A destroy, remove or patch: skipped (and counted) if the entity is not alive. */
        private void change(
            final int operation,
            final ComponentStorage<?> storage,
            final RawStorage raw,
            final int[] references,
            final long entity,
            final byte[] bytes,
            final int rowAt)
        {
            if (!world.valid(entity))
            {
                skipped++;
                return;
            }
            switch (operation)
            {
                case DESTROY:
                    world.destroy(entity);
                    break;
                case REMOVE:
                    storage.remove(entity);
                    break;
                default:
                    if (!storage.contains(entity))
                    {
                        skipped++;
                        break;
                    }
                    resolveReferences(references, bytes, rowAt);
                    raw.putRowIfAlive(entity, bytes, rowAt);
                    break;
            }
        }

        private long resolve(final long value)
        {
            if (value >= 0 || !isPlaceholder(value))
            {
                return value;
            }
            final int laneId = (int)(value >>> 32) & 0xFFFF;
            if (laneId >= lanes.length)
            {
                return Entity.NULL;
            }
            final Lane lane = lanes[laneId];
            final int number = lane.createdIndex(value);
            return number >= 0 ? lane.created[number] : Entity.NULL;
        }

        /** The entity-reference row offsets of a storage, looked up once per type id. */
        private int[] entityOffsets(final int typeId, final RawStorage storage)
        {
            if (typeId >= entityOffsets.length)
            {
                entityOffsets = Arrays.copyOf(entityOffsets, typeId + 1);
            }
            int[] offsets = entityOffsets[typeId];
            if (offsets == null)
            {
                offsets = storage.entityRowOffsets();
                entityOffsets[typeId] = offsets;
            }
            return offsets;
        }

        private void resolveReferences(final int[] offsets, final byte[] bytes, final int at)
        {
            for (final int offset : offsets)
            {
                final long value = getLong(bytes, at + offset);
                if (value < 0 && value != Entity.NULL)
                {
                    // No handle is negative: a placeholder of another buffer, or any other negative value, names
                    // nothing and is written as NULL, as an unresolved placeholder of this one is.
                    putLong(bytes, at + offset, isPlaceholder(value) ? resolve(value) : Entity.NULL);
                }
            }
        }
    }
}
