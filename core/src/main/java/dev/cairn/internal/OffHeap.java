package dev.cairn.internal;

import dev.cairn.OffHeapExhaustedException;
import org.agrona.UnsafeApi;

import java.lang.ref.Cleaner;
import java.util.ArrayList;

/**
 * Owner of off-heap memory: allocates, grows and frees the blocks of one world (or of one standalone set), counts the
 * bytes it holds, and frees every block it still holds when it is closed.
 * <p>
 * <b>All or nothing.</b> {@link #allocate} and {@link #reallocate} either succeed or throw
 * {@link dev.cairn.OffHeapExhaustedException}
 * having changed nothing; structures that grow several blocks at once record each block's new address as soon as it
 * moved and take their capacity from the smallest block (see {@link Columns#grow(int)}), so a failed growth leaves
 * their contents and capacity as they were. An optional byte budget makes an allocation fail before the native
 * allocator is asked.
 * <p>
 * <b>Closing.</b> Every structure built on this memory registers a {@link Holder}. {@link #close()} tells every holder
 * that its memory is gone, so that later calls throw instead of touching it, and frees every block. Whether the memory
 * may be closed now (no walk reads it) is for the owner's {@link Walks} to say.
 * <p>
 * <b>Leaks.</b> Memory whose owner became unreachable without being closed is freed by a {@link Cleaner}, and the
 * leak is reported once through the {@link System.Logger} {@code dev.cairn}; with the system property
 * {@value #LEAK_TRACKING_PROPERTY}{@code =true} the report includes the stack trace of the owner's creation.
 * Every structure built on this memory keeps a reference to it, so the Cleaner runs only when none of them is
 * reachable.
 * <p>
 * {@link #allocate}, {@link #reallocate}, {@link #free} and {@link #allocatedBytes} may be called from several threads
 * at once (a parallel snapshot load grows several storages together), each under this owner's lock, which costs
 * nothing next to the native allocator's call; the rest (closing, registering holders) belongs to the owner's thread.
 */
public final class OffHeap
{
    /**
     * The JVM flag Agrona 2.x needs to reach {@code jdk.internal.misc.Unsafe} when Agrona is on the class path.
     */
    public static final String REQUIRED_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    /** The system property that makes leak reports say where the leaked owner was created. */
    public static final String LEAK_TRACKING_PROPERTY = "cairn.leakTracking";

    /** No budget: allocations fail only when the native allocator fails. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /**
     * Capacity from which arrays grow by a sixteenth instead of a half: their blocks (32 MiB and more for 4-byte
     * elements) are mapped by the native allocator, so growing them remaps pages instead of copying, and the unused
     * tail stays under 1/16 of what is in use.
     */
    private static final long LARGE_CAPACITY = 8L << 20;

    private static final Throwable UNSAFE_UNAVAILABLE = probeUnsafe();
    private static final Cleaner CLEANER = Cleaner.create();

    /**
     * A structure that keeps addresses of this memory: told when the memory is freed, so that it forgets them first.
     */
    @FunctionalInterface
    public interface Holder
    {
        /**
         * Called by {@link #close()} before the memory is freed: the structure forgets its addresses (without freeing
         * them: the close frees every block) and from now on throws {@link IllegalStateException} when used. Called
         * again if a close stopped part-way is retried.
         */
        void memoryFreed();
    }

    private final Blocks blocks;
    private final Cleaner.Cleanable cleanable;
    private final ArrayList<Holder> holders = new ArrayList<>();

    /**
     * Creates an owner that holds no memory yet and has no budget.
     *
     * @param ownerName what leak reports and exception messages call the owner, for example {@code "World"}.
     * @throws IllegalStateException if this JVM cannot reach {@code jdk.internal.misc.Unsafe} (see
     *                               {@link #requireUnsafeAccess()}).
     */
    public OffHeap(final String ownerName)
    {
        this(ownerName, UNLIMITED);
    }

    /**
     * Creates an owner that holds no memory yet and refuses to hold more than {@code budgetBytes}.
     *
     * @param ownerName   what leak reports and exception messages call the owner.
     * @param budgetBytes the most bytes it may hold at once, 0 or more; {@link #UNLIMITED} for no budget.
     * @throws IllegalArgumentException if {@code budgetBytes} is negative.
     * @throws IllegalStateException    if this JVM cannot reach {@code jdk.internal.misc.Unsafe}.
     */
    public OffHeap(final String ownerName, final long budgetBytes)
    {
        requireUnsafeAccess();
        if (budgetBytes < 0)
        {
            throw new IllegalArgumentException("off-heap budget " + budgetBytes + " is negative; pass 0 or more");
        }
        final Throwable creationSite = Boolean.getBoolean(LEAK_TRACKING_PROPERTY) ?
            new Throwable(ownerName + " created here") : null;
        this.blocks = new Blocks(ownerName, budgetBytes, creationSite);
        this.cleanable = CLEANER.register(this, blocks);
    }

    /**
     * Checks that Agrona can reach {@code jdk.internal.misc.Unsafe} in this JVM.
     *
     * @throws IllegalStateException naming the JVM flag that fits how Agrona was loaded (class path or module path)
     *                               if it cannot.
     */
    public static void requireUnsafeAccess()
    {
        if (UNSAFE_UNAVAILABLE != null)
        {
            final boolean modular = UnsafeApi.class.getModule().isNamed();
            throw new IllegalStateException(
                "Cairn keeps its data off-heap through Agrona, which needs the JVM flag " + requiredFlag() + (modular ?
                ": Agrona runs here as the named module " + UnsafeApi.class.getModule().getName() + " (on the " +
                "module path), which =ALL-UNNAMED does not reach; add the flag to the java command line (or to " +
                "Surefire's argLine)" :
                ": add it to the java command line (or to Surefire's argLine, JMH's jvmArgsAppend, the jar " +
                "manifest entry 'Add-Exports: java.base/jdk.internal.misc', or, for mvn exec:java, which runs in " +
                "Maven's own JVM, a line of .mvn/jvm.config)"), UNSAFE_UNAVAILABLE);
        }
    }

    /**
     * The flag this JVM needs: {@link #REQUIRED_FLAG} when Agrona is on the class path, the same export to Agrona's
     * module when it is on the module path.
     *
     * @return the {@code --add-exports} flag.
     */
    public static String requiredFlag()
    {
        final Module agrona = UnsafeApi.class.getModule();
        return agrona.isNamed() ?
            "--add-exports java.base/jdk.internal.misc=" + agrona.getName() : REQUIRED_FLAG;
    }

    /**
     * The capacity an array grows to when it needs {@code needed} elements and holds {@code capacity}: half as much
     * again while small, a sixteenth more once large (see {@link #LARGE_CAPACITY}), at least {@code minimum}, at most
     * {@code maximum}.
     *
     * @param capacity the elements it holds now.
     * @param needed   the elements it must hold.
     * @param minimum  the smallest capacity worth allocating.
     * @param maximum  the most elements it may ever hold; at least {@code needed}.
     * @return the new capacity.
     */
    public static int grownCapacity(final int capacity, final int needed, final int minimum, final int maximum)
    {
        final long grown = capacity < LARGE_CAPACITY ? capacity + (capacity >> 1) : capacity + (capacity >> 4);
        return (int)Math.min(maximum, Math.max(needed, Math.max(minimum, grown)));
    }

    /**
     * Allocates a block of {@code bytes} bytes, every byte set to {@code fill}.
     *
     * @param bytes size in bytes, 1 or more.
     * @param fill  the initial value of every byte.
     * @return the block's address.
     * @throws OffHeapExhaustedException      if the budget or the native allocator refuses; nothing was allocated.
     * @throws IllegalStateException if this memory was closed.
     */
    public long allocate(final long bytes, final byte fill)
    {
        final long address = allocate(bytes);
        UnsafeApi.setMemory(address, bytes, fill);
        return address;
    }

    /**
     * Allocates a block of {@code bytes} bytes whose contents are undefined.
     *
     * @param bytes size in bytes, 1 or more.
     * @return the block's address.
     * @throws OffHeapExhaustedException      if the budget or the native allocator refuses; nothing was allocated.
     * @throws IllegalStateException if this memory was closed.
     */
    public synchronized long allocate(final long bytes)
    {
        final Blocks blocks = this.blocks;
        blocks.ensureOpen();
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("cannot allocate a block of " + bytes + " bytes; pass 1 or more");
        }
        if (bytes > blocks.budget - blocks.allocatedBytes)
        {
            throw new OffHeapExhaustedException(
                "cannot allocate " + bytes + " bytes of off-heap memory for " + blocks.ownerName + ": it holds " +
                blocks.allocatedBytes + " of its budget of " + blocks.budget + " bytes; raise the budget or hold " +
                "fewer entities", null);
        }
        // Room first, and the recording call made once for nothing: the calls after the native allocation then need
        // neither more memory nor more stack than the ones that just returned, so nothing can stop them half-way.
        blocks.table.ensureRoom();
        blocks.table.record(0, 0);
        final long address;
        try
        {
            address = UnsafeApi.allocateMemory(bytes);
        }
        catch (final OutOfMemoryError ex)
        {
            throw new OffHeapExhaustedException(
                "cannot allocate " + bytes + " bytes of native memory for " + blocks.ownerName + " (it holds " +
                blocks.allocatedBytes + " bytes): " + ex.getMessage(), ex);
        }
        blocks.table.record(address, bytes);
        blocks.allocatedBytes += bytes;
        return address;
    }

    /**
     * Resizes a block, keeping its first {@code min(old size, newBytes)} bytes; the rest of a grown block is undefined.
     * The block may move (large blocks are remapped rather than copied). If the budget or the native allocator refuses,
     * the block is left exactly as it was.
     *
     * @param address  a block of this owner, or 0 to allocate a new one.
     * @param newBytes the new size, 0 or more; 0 frees the block.
     * @return the block's address now (0 once freed).
     * @throws OffHeapExhaustedException         if the memory cannot be had; the block is unchanged.
     * @throws IllegalArgumentException if {@code address} is not a block of this owner.
     * @throws IllegalStateException    if this memory was closed.
     */
    public synchronized long reallocate(final long address, final long newBytes)
    {
        if (address == 0)
        {
            return newBytes == 0 ? 0 : allocate(newBytes);
        }
        final Blocks blocks = this.blocks;
        blocks.ensureOpen();
        final long oldBytes = blocks.table.sizeOf(address);
        if (oldBytes == BlockTable.MISSING)
        {
            throw new IllegalArgumentException(
                "0x" + Long.toHexString(address) + " is not a block of " + blocks.ownerName + "'s memory");
        }
        if (newBytes == 0)
        {
            free(address);
            return 0;
        }
        if (newBytes - oldBytes > blocks.budget - blocks.allocatedBytes)
        {
            throw new OffHeapExhaustedException(
                "cannot grow a block of " + blocks.ownerName + "'s off-heap memory from " + oldBytes + " to " +
                newBytes + " bytes: it holds " + blocks.allocatedBytes + " of its budget of " + blocks.budget +
                " bytes; raise the budget or hold fewer entities", null);
        }
        // As in allocate: once the native block moved (freeing the old address), the table must follow it.
        blocks.table.ensureRoom();
        blocks.table.move(0, 0, 0);
        final long moved;
        try
        {
            moved = UnsafeApi.reallocateMemory(address, newBytes);
        }
        catch (final OutOfMemoryError ex)
        {
            throw new OffHeapExhaustedException(
                "cannot grow a block of " + blocks.ownerName + "'s native memory from " + oldBytes + " to " +
                newBytes + " bytes (it holds " + blocks.allocatedBytes + " bytes): " + ex.getMessage(), ex);
        }
        blocks.table.move(address, moved, newBytes);
        blocks.allocatedBytes += newBytes - oldBytes;
        return moved;
    }

    /**
     * Frees a block; a no-op for address 0.
     *
     * @param address a block returned by {@link #allocate} and not freed since, or 0.
     * @throws IllegalArgumentException if {@code address} is not a block of this owner (nothing is freed).
     */
    public synchronized void free(final long address)
    {
        if (address == 0)
        {
            return;
        }
        final Blocks blocks = this.blocks;
        final long bytes = blocks.table.remove(address);
        if (bytes == BlockTable.MISSING)
        {
            throw new IllegalArgumentException(
                "0x" + Long.toHexString(address) + " is not a block of " + blocks.ownerName + "'s memory");
        }
        UnsafeApi.freeMemory(address);
        blocks.allocatedBytes -= bytes;
    }

    /**
     * Bytes currently allocated through this owner and not yet freed.
     *
     * @return the count of off-heap bytes held; 0 once closed.
     */
    public synchronized long allocatedBytes()
    {
        return blocks.allocatedBytes;
    }

    /**
     * The most bytes this owner may hold at once.
     *
     * @return the budget, or {@link #UNLIMITED}.
     */
    public long budget()
    {
        return blocks.budget;
    }

    /**
     * Registers a structure built on this memory.
     *
     * @param holder told when the memory is freed.
     */
    public void register(final Holder holder)
    {
        blocks.ensureOpen();
        holders.add(holder);
    }

    /**
     * Unregisters a structure that freed its own blocks before this owner closes; a no-op if it is not registered.
     *
     * @param holder a holder passed to {@link #register(Holder)}.
     */
    public void unregister(final Holder holder)
    {
        holders.remove(holder);
    }

    /**
     * Frees every block: each holder forgets its addresses first, then the blocks are freed. Idempotent; a close that
     * stopped part-way (the stack running out) may be called again, and frees what is left. Whoever walks the memory
     * must be asked first: the owner's {@link Walks#close} refuses while a walk runs.
     */
    public void close()
    {
        if (blocks.closed)
        {
            return;
        }
        for (int k = 0; k < holders.size(); k++)
        {
            holders.get(k).memoryFreed();
        }
        holders.clear();
        blocks.explicitlyClosed = true;
        cleanable.clean();
    }
    /**
     * What messages call the owner of this memory, for example {@code "World"}.
     *
     * @return the name given when it was made.
     */
    public String ownerName()
    {
        return blocks.ownerName;
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return blocks.closed;
    }

    private static Throwable probeUnsafe()
    {
        try
        {
            final long address = UnsafeApi.allocateMemory(8);
            UnsafeApi.freeMemory(address);
            return null;
        }
        catch (final Throwable ex)
        {
            return ex;
        }
    }

    /**
     * The state the {@link Cleaner} frees: it must not reach the {@link OffHeap} it belongs to, or the owner would
     * never become unreachable.
     */
    private static final class Blocks implements Runnable
    {
        final String ownerName;
        final long budget;
        final Throwable creationSite;
        /** Address to size of every block allocated and not freed. */
        final BlockTable table = new BlockTable();
        long allocatedBytes;
        boolean explicitlyClosed;
        boolean closed;

        Blocks(final String ownerName, final long budget, final Throwable creationSite)
        {
            this.ownerName = ownerName;
            this.budget = budget;
            this.creationSite = creationSite;
        }

        void ensureOpen()
        {
            if (closed)
            {
                throw new IllegalStateException(
                    ownerName + " is closed and its off-heap memory freed; create a new one to continue");
            }
        }

        /** Frees every block: on {@link OffHeap#close()}, or from the Cleaner's thread for a leaked owner. */
        @Override
        public void run()
        {
            final long leakedBytes = allocatedBytes;
            final long[] addresses = table.addresses();
            // Forgotten before they are freed: if this stops part-way (the stack running out), what is left is a leak,
            // never a block freed twice by a later close.
            table.clear();
            allocatedBytes = 0;
            closed = true;
            UnsafeApi.freeMemory(0); // a no-op through the same calls, so that the loop below runs to its end
            for (final long address : addresses)
            {
                UnsafeApi.freeMemory(address);
            }
            if (!explicitlyClosed)
            {
                reportLeak(leakedBytes);
            }
        }

        private void reportLeak(final long leakedBytes)
        {
            final System.Logger logger = System.getLogger("dev.cairn");
            final String message = ownerName + " was not closed before it became unreachable; its " + leakedBytes +
                " bytes of off-heap memory were freed by the garbage collector's Cleaner. Close it (try-with-" +
                "resources) when done" + (creationSite == null ?
                "; run with -D" + LEAK_TRACKING_PROPERTY + "=true to see where it was created" :
                "; it was created at the stack trace below");
            if (creationSite == null)
            {
                logger.log(System.Logger.Level.WARNING, message);
            }
            else
            {
                logger.log(System.Logger.Level.WARNING, message, creationSite);
            }
        }
    }
}
