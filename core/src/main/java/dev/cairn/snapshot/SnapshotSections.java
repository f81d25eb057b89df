package dev.cairn.snapshot;

import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;
import dev.cairn.storage.Schema;
import dev.cairn.world.World;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The sections of a snapshot being loaded, found by a first pass over their headers and then read: the world's (the
 * entity pool) first, since every storage checks its handles against it, then the storages', one after the other or
 * by several threads at once. Whichever way, the outcome is a sequential load's: the first failure in the snapshot's
 * order is the one reported, a changed byte reported as such.
 * <p>
 * In parallel, each section's CRC32C is a job apart from its read (a sequential load computes it a block ahead of the
 * copy): the checksums start on the helping threads while the calling thread reads the entity pool, and the reads
 * follow once it is loaded, the largest first. Reading bytes whose checksum is not known yet is safe, since every read
 * is checked against the section's bounds and every structure's invariants, and a section whose checksum then fails
 * is reported as changed and unloaded with the rest. Helping tasks never wait for one another or for the calling
 * thread, so no executor can make a load hang: one that runs its tasks on the calling thread, late, or never leaves
 * more of the work to the calling thread.
 */
final class SnapshotSections
{
    private final boolean parallel;
    private Section world;
    private WorldSection load;
    private final List<Section> storages = new ArrayList<>();
    private RuntimeException headerFailure;
    private SnapshotInput headerInput;

    SnapshotSections(final boolean parallel)
    {
        this.parallel = parallel;
    }

    /**
     * Takes the world's section, which the loader has just begun.
     *
     * @param in    the loader's input, at the start of the section's body; it moves past the section.
     * @param load  the load, which reads the section.
     */
    void addWorld(final SnapshotInput in, final WorldSection load)
    {
        this.world = split(in);
        this.world.reader = load::read;
        this.load = load;
    }

    /**
     * Takes a storage's section, which the loader has just begun.
     *
     * @param in the loader's input, at the start of the section's body; it moves past the section.
     * @return the section, whose input then reads its component's name.
     */
    Section addStorage(final SnapshotInput in)
    {
        final Section section = split(in);
        storages.add(section);
        return section;
    }

    private Section split(final SnapshotInput in)
    {
        final SnapshotInput body = in.splitSection();
        return new Section(body, parallel ? body.checksumApart() : null);
    }

    boolean contains(final ComponentType<?, ?> type)
    {
        for (final Section section : storages)
        {
            if (section.type == type)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Records what the first pass met: reported only if every section before it loads, as a sequential load, which
     * would not have got there otherwise, would report it.
     *
     * @param failure what was thrown.
     * @param in      where: the loader's input, or the input of the last section added.
     */
    void scanFailed(final RuntimeException failure, final SnapshotInput in)
    {
        final Section last = storages.isEmpty() ? null : storages.get(storages.size() - 1);
        if (last != null && last.in == in)
        {
            last.failure = failure;
        }
        else
        {
            headerFailure = failure;
            headerInput = in;
        }
    }

    /**
     * Reads the world's section on this thread, makes the storages of the sections the first pass found, and reads
     * them; throws the first failure in the snapshot's order.
     *
     * @param executor helps this thread; null for one section after the other on this thread alone.
     */
    void readAll(final Executor executor)
    {
        final World target = load.world();
        if (parallel)
        {
            readTogether(target, executor);
        }
        else if (world.read() == null)
        {
            makeStorages(target);
            for (final Section section : storages)
            {
                if (section.reader == null || section.read() != null)
                {
                    break;
                }
            }
        }
        world.rethrowOutcome();
        for (final Section section : storages)
        {
            section.rethrowOutcome();
        }
        if (headerFailure != null)
        {
            throw preferCorruption(headerInput, headerFailure);
        }
    }

    /**
     * Reads the sections on this thread and the executor's: the checksums from the start, the storages' sections once
     * this thread has read the world's. Returns only once every job a helper took is done, whatever happens: the
     * world is not to be touched, let alone unloaded, while a helper writes into it.
     * <p>
     * The executor's {@code execute} is the program's code, run on this thread: it runs in a hold of the load, so that
     * its changes wait for the load's end and a create is refused, and before any helper may write into the world, so
     * that nothing it does can move memory under a helper. A helper that starts while tasks are still being handed out
     * waits for the handing out to end, a millisecond at most, and otherwise leaves the storages to the other threads.
     */
    private void readTogether(final World target, final Executor executor)
    {
        final JobQueue checksums = new JobQueue(withChecksums(), true);
        JobQueue reads = null;
        try
        {
            load.handOutTasks(() -> checksums.help(executor, checksums::runAll));
            if (world.read() == null)
            {
                makeStorages(target);
                final JobQueue storageReads = new JobQueue(readable(), false);
                reads = storageReads;
                load.handOutTasks(() -> storageReads.help(executor, () ->
                {
                    if (storageReads.awaitHandedOut())
                    {
                        storageReads.runAll();
                    }
                    checksums.runAll();
                }));
                storageReads.handedOut();
                storageReads.runAll();
            }
        }
        finally
        {
            if (reads != null)
            {
                reads.runAll();
                reads.awaitAll();
            }
            checksums.runAll();
            checksums.awaitAll();
        }
    }

    /**
     * Whether a section failed for want of memory: in parallel, the sections that held memory when it ran out are not
     * those a sequential load would have, so the failure may not be the one a sequential load meets.
     *
     * @return true if any section's read ran out of memory.
     */
    boolean ranOutOfMemory()
    {
        if (world != null && isOutOfMemory(world.failure))
        {
            return true;
        }
        for (final Section section : storages)
        {
            if (isOutOfMemory(section.failure))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isOutOfMemory(final Throwable failure)
    {
        return failure instanceof dev.cairn.OffHeapExhaustedException || failure instanceof OutOfMemoryError;
    }

    /**
     * The components of the storage sections read, in the snapshot's order, each with its fields as the snapshot
     * saved them.
     *
     * @return a new map.
     */
    Map<ComponentType<?, ?>, Schema> savedSchemas()
    {
        final Map<ComponentType<?, ?>, Schema> schemas = new LinkedHashMap<>();
        for (final Section section : storages)
        {
            schemas.put(section.type, section.saved);
        }
        return schemas;
    }

    /** Makes (or finds) the storage of each section, in order, until one fails or a section's name was not read. */
    private void makeStorages(final World target)
    {
        for (final Section section : storages)
        {
            if (section.type == null || section.failure != null)
            {
                return;
            }
            try
            {
                final ComponentStorage<?> storage = target.storage(section.type);
                section.reader = in -> section.saved = StorageSection.read(storage, in);
            }
            catch (final RuntimeException ex)
            {
                section.failure = ex;
                return;
            }
        }
    }

    private Section[] withChecksums()
    {
        final List<Section> all = new ArrayList<>();
        all.add(world);
        all.addAll(storages);
        return all.toArray(new Section[0]);
    }

    private Section[] readable()
    {
        final List<Section> readable = new ArrayList<>();
        for (final Section section : storages)
        {
            if (section.reader != null)
            {
                readable.add(section);
            }
        }
        return readable.toArray(new Section[0]);
    }

    /**
     * {@code failure}, or the exception that says the section {@code in} was reading was changed, with
     * {@code failure} attached: whatever a changed byte broke first, report the change itself.
     */
    static RuntimeException preferCorruption(final SnapshotInput in, final RuntimeException failure)
    {
        final SnapshotFormatException corrupted = in.corruption();
        if (corrupted == null)
        {
            return failure;
        }
        corrupted.addSuppressed(failure);
        return corrupted;
    }

    /** One section: its input, what reads it, and what reading it gave. */
    static final class Section
    {
        final SnapshotInput in;
        /** The section's CRC32C, computed apart from the read in a parallel load; null in a sequential one. */
        private final SnapshotInput checksum;
        /** The component a storage's section holds, once its name was read. */
        ComponentType<?, ?> type;
        /** The fields as the snapshot saved them, once the section is read. */
        private Schema saved;
        private Consumer<SnapshotInput> reader;
        private Throwable failure;
        private SnapshotFormatException corrupted;
        private boolean checked;

        Section(final SnapshotInput in, final SnapshotInput checksum)
        {
            this.in = in;
            this.checksum = checksum;
        }

        /** Names the section more precisely in messages, once its first bytes told what it holds. */
        void name(final String name)
        {
            in.nameSection(name);
            if (checksum != null)
            {
                checksum.nameSection(name);
            }
        }

        /** Reads the section; returns what that threw, or null. */
        Throwable read()
        {
            try
            {
                reader.accept(in);
                in.endSection();
            }
            catch (final Throwable thrown)
            {
                failure = thrown;
            }
            return failure;
        }

        void check()
        {
            corrupted = checksum.corruption();
            checked = true;
        }

        /** Throws what loading this section came to, preferring a changed byte to what it broke. */
        void rethrowOutcome()
        {
            if (checksum != null)
            {
                if (!checked)
                {
                    check();
                }
                if (corrupted != null)
                {
                    if (failure != null)
                    {
                        corrupted.addSuppressed(failure);
                    }
                    throw corrupted;
                }
            }
            if (failure instanceof RuntimeException)
            {
                throw checksum == null ? preferCorruption(in, (RuntimeException)failure) : (RuntimeException)failure;
            }
            if (failure instanceof Error)
            {
                throw (Error)failure;
            }
            if (failure != null)
            {
                throw new IllegalStateException("loading the snapshot failed: " + failure, failure);
            }
        }
    }

    /** Sections to read, or to checksum, taken one at a time, the largest first, by whichever threads run them. */
    private static final class JobQueue
    {
        /** How long a helper that started before the tasks were all handed out waits for that. */
        private static final long HAND_OUT_WAIT_NANOS = 1_000_000;

        private final Section[] sections;
        private final boolean checksums;
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch unfinished;
        private final Thread caller = Thread.currentThread();
        private volatile boolean handedOut;

        JobQueue(final Section[] sections, final boolean checksums)
        {
            this.sections = sections;
            this.checksums = checksums;
            this.unfinished = new CountDownLatch(sections.length);
            Arrays.sort(sections, (a, b) -> Integer.compare(b.in.sectionLength(), a.in.sectionLength()));
        }

        /** Hands {@code task} to the executor about once per spare processor, while jobs are left. */
        void help(final Executor executor, final Runnable task)
        {
            final int helpers = Math.min(sections.length, Runtime.getRuntime().availableProcessors()) - 1;
            for (int k = 0; k < helpers && next.get() < sections.length; k++)
            {
                try
                {
                    executor.execute(task);
                }
                catch (final Throwable refused)
                {
                    // Rejected, or the executor could not start it (a thread it failed to create, whatever it threw):
                    // the calling thread runs what no helper takes, and the load goes on as if it had not asked.
                    return;
                }
            }
        }

        /** Lets the helpers start: every task was handed to the executor, which runs no more code of the program's. */
        void handedOut()
        {
            handedOut = true;
        }

        /**
         * Whether the helper running this may start taking jobs: once the tasks were handed out. A helper that starts
         * before that waits a millisecond at most (its {@code execute} may be waiting for it) and otherwise takes none.
         */
        boolean awaitHandedOut()
        {
            if (handedOut)
            {
                return true;
            }
            if (Thread.currentThread() == caller)
            {
                return false;
            }
            final long deadline = System.nanoTime() + HAND_OUT_WAIT_NANOS;
            while (!handedOut && System.nanoTime() - deadline < 0)
            {
                Thread.onSpinWait();
            }
            return handedOut;
        }

        void runAll()
        {
            for (int k = next.getAndIncrement(); k < sections.length; k = next.getAndIncrement())
            {
                try
                {
                    if (checksums)
                    {
                        sections[k].check();
                    }
                    else
                    {
                        sections[k].read();
                    }
                }
                finally
                {
                    unfinished.countDown();
                }
            }
        }

        /** Waits for the jobs other threads took: the world may not be touched before they are done. */
        void awaitAll()
        {
            boolean interrupted = false;
            while (true)
            {
                try
                {
                    unfinished.await();
                    break;
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
