package dev.cairn.snapshot;

import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.ComponentType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The storage sections of a snapshot being loaded, found by the loader's first pass over the section headers and then
 * read one after the other, or by several threads at once. Whichever way, the outcome is a sequential load's: the
 * first failure in the snapshot's order is the one reported, a changed byte reported as such.
 * <p>
 * In parallel, each section is two jobs: reading it (copies and checks) and computing its CRC32C, which a sequential
 * load does together a block ahead of the copy. Apart, they balance over the threads; reading bytes whose checksum
 * is not known yet is safe, since every read is checked against the section's bounds and every structure's invariants,
 * and a section whose checksum then fails is reported as changed and unloaded with the rest.
 */
final class StorageSections
{
    /** A checksum reads the bytes once; a read copies them and checks what they hold: about four times the work. */
    private static final int CHECKSUM_WEIGHT_DIVISOR = 4;

    private final boolean parallel;
    private final List<Section> sections = new ArrayList<>();
    private RuntimeException headerFailure;
    private SnapshotInput headerInput;

    StorageSections(final boolean parallel)
    {
        this.parallel = parallel;
    }

    /**
     * Takes the section the loader has just begun, to read later.
     *
     * @param in the loader's input, at the start of the section's body; it moves past the section.
     * @return the section, whose input then reads its component's name.
     */
    Section add(final SnapshotInput in)
    {
        final SnapshotInput body = in.splitSection();
        final Section section = new Section(body, parallel ? body.checksumApart() : null);
        sections.add(section);
        return section;
    }

    boolean contains(final ComponentType<?, ?> type)
    {
        for (final Section section : sections)
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
        if (!sections.isEmpty() && sections.get(sections.size() - 1).in == in)
        {
            sections.get(sections.size() - 1).failure = failure;
        }
        else
        {
            headerFailure = failure;
            headerInput = in;
        }
    }

    /**
     * Reads every section the first pass found; throws the first failure in the snapshot's order.
     *
     * @param executor helps the calling thread in parallel; null for one after the other.
     */
    void readAll(final Executor executor)
    {
        if (parallel)
        {
            readTogether(executor);
        }
        else
        {
            for (final Section section : sections)
            {
                if (section.storage == null || section.read() != null)
                {
                    break;
                }
            }
        }
        for (final Section section : sections)
        {
            section.rethrowOutcome();
        }
        if (headerFailure != null)
        {
            throw preferCorruption(headerInput, headerFailure);
        }
    }

    /** Reads and checksums the sections on this thread and the executor's, the largest jobs first. */
    private void readTogether(final Executor executor)
    {
        final List<Job> jobs = new ArrayList<>();
        for (final Section section : sections)
        {
            if (section.storage != null)
            {
                jobs.add(new Job(section, false));
                jobs.add(new Job(section, true));
            }
        }
        final Job[] largestFirst = jobs.toArray(new Job[0]);
        Arrays.sort(largestFirst, (a, b) -> Long.compare(b.weight(), a.weight()));
        final SharedJobs shared = new SharedJobs(largestFirst);
        for (int helpers = 1; helpers < largestFirst.length && !shared.allTaken(); helpers++)
        {
            try
            {
                executor.execute(shared::runUntilNoneLeft);
            }
            catch (final RuntimeException rejected)
            {
                // Rejected, or the executor failed to start it: this thread runs what no helper takes.
                break;
            }
        }
        shared.runUntilNoneLeft();
        shared.awaitAll();
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

    /** One storage's section: its input, the component it holds, and what reading it gave. */
    static final class Section
    {
        final SnapshotInput in;
        /** The section's CRC32C, computed apart from the read in a parallel load; null in a sequential one. */
        private final SnapshotInput checksum;
        ComponentType<?, ?> type;
        private ComponentStorage<?> storage;
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

        /** Names what the section holds and where it goes, once its first bytes said. */
        void target(final ComponentType<?, ?> type, final ComponentStorage<?> storage)
        {
            this.type = type;
            this.storage = storage;
        }

        /** Reads the section into its storage; returns what that threw, or null. */
        Throwable read()
        {
            try
            {
                storage.readSnapshot(in);
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
                throw new IllegalStateException("loading " + type + " failed: " + failure, failure);
            }
        }
    }

    /** Reading a section, or computing its checksum. */
    private static final class Job
    {
        final Section section;
        final boolean checksum;

        Job(final Section section, final boolean checksum)
        {
            this.section = section;
            this.checksum = checksum;
        }

        long weight()
        {
            final long length = section.in.sectionLength();
            return checksum ? length / CHECKSUM_WEIGHT_DIVISOR : length;
        }

        void run()
        {
            if (checksum)
            {
                section.check();
            }
            else
            {
                section.read();
            }
        }
    }

    /** The jobs of a parallel load, taken one at a time by the calling thread and the helping tasks. */
    private static final class SharedJobs
    {
        private final Job[] jobs;
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch unfinished;

        SharedJobs(final Job[] jobs)
        {
            this.jobs = jobs;
            this.unfinished = new CountDownLatch(jobs.length);
        }

        boolean allTaken()
        {
            return next.get() >= jobs.length;
        }

        void runUntilNoneLeft()
        {
            for (int k = next.getAndIncrement(); k < jobs.length; k = next.getAndIncrement())
            {
                try
                {
                    jobs[k].run();
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
