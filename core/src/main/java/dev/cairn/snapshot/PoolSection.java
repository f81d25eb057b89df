package dev.cairn.snapshot;

import dev.cairn.Entity;
import dev.cairn.internal.EntityPool;
import org.agrona.UnsafeApi;

/**
 * The entity pool's part of a snapshot: its counts, the version entry of every index created and the free stack, so
 * that a loaded pool hands out, recycles and retires exactly the same handles.
 */
final class PoolSection
{
    /** Version entries copied and checked at a time by a load: 64 KiB, which stays in cache. */
    private static final int READ_BLOCK = 16 * 1024;

    private PoolSection()
    {
    }

    /**
     * The bytes {@link #write} writes.
     *
     * @param pool the pool.
     * @return the size of its part of a snapshot.
     */
    static long bytes(final EntityPool pool)
    {
        return 5L * Integer.BYTES +
            ((long)pool.createdCount() + pool.stackedCount() + pool.unlistedCount()) * Integer.BYTES;
    }

    /**
     * Writes the pool's whole state. Indices left off the free stack go at its bottom, the first the pool would find
     * on top, so that the loaded pool recycles them last and in the same order.
     *
     * @param pool the pool.
     * @param out  the snapshot being written.
     */
    static void write(final EntityPool pool, final SnapshotOutput out)
    {
        final int created = pool.createdCount();
        out.putInt(pool.maxEntities());
        out.putInt(created);
        out.putInt(pool.aliveCount());
        out.putInt(pool.stackedCount() + pool.unlistedCount());
        out.putInt(pool.retiredCount());
        out.putMemory(pool.versionsAddress(), (long)created * Integer.BYTES);
        if (pool.unlistedCount() > 0)
        {
            writeUnlisted(pool, out);
        }
        out.putMemory(pool.freeStackAddress(), (long)pool.stackedCount() * Integer.BYTES);
    }

    /** Writes the free indices that are not on the stack, the last the pool's search for them would find first. */
    private static void writeUnlisted(final EntityPool pool, final SnapshotOutput out)
    {
        final int created = pool.createdCount();
        final long[] listed = new long[(created + 63) >>> 6];
        for (int k = 0; k < pool.stackedCount(); k++)
        {
            final int index = UnsafeApi.getInt(pool.freeStackAddress() + ((long)k << 2));
            listed[index >>> 6] |= 1L << index;
        }
        final int[] found = new int[pool.unlistedCount()];
        int count = 0;
        for (int k = 0, index = pool.unlistedFrom(); k < created; k++, index++)
        {
            if (index >= created)
            {
                index = 0;
            }
            final int entry = pool.versionEntry(index);
            if (entry < 0 && entry != EntityPool.RETIRED && (listed[index >>> 6] & (1L << index)) == 0)
            {
                found[count++] = index;
            }
        }
        while (count > 0)
        {
            out.putInt(found[--count]);
        }
    }

    /**
     * Reads a state {@link #write} wrote into a pool that never created an entity. Every count and entry is checked:
     * the counts must agree with the entries, every free index must be on the free stack once. On any failure the
     * pool has created nothing; the memory it grew by stays until the caller gives it back.
     *
     * @param pool the pool.
     * @param in   the snapshot being read.
     * @throws SnapshotFormatException   naming what is inconsistent, where.
     * @throws IllegalStateException     if the pool has created entities already, or is closed.
     * @throws dev.cairn.OffHeapExhaustedException if the memory cannot be allocated.
     */
    static void read(final EntityPool pool, final SnapshotInput in)
    {
        final int savedMax = in.getInt();
        if (savedMax < 1 || savedMax > EntityPool.MAX_ENTITIES)
        {
            throw in.error("its world's maximum of " + savedMax + " entities is not one a world has (from 1 to " +
                EntityPool.MAX_ENTITIES + ")");
        }
        final int created = in.getInt();
        final int alive = in.getInt();
        final int freeCount = in.getInt();
        final int retired = in.getInt();
        if (created < 0 || created > savedMax)
        {
            throw in.error("it holds " + created + " entity indices, which its world's maximum of " + savedMax +
                " entities does not allow");
        }
        if (created > pool.maxEntities())
        {
            throw in.error("it holds " + created + " entity indices, more than this World's " + pool.maxEntities() +
                "; load it into a World made with a larger maxEntities");
        }
        if (alive < 0 || freeCount < 0 || retired < 0 || (long)alive + freeCount + retired != created)
        {
            throw in.error("its counts of alive (" + alive + "), free (" + freeCount + ") and retired (" + retired +
                ") indices do not add up to the " + created + " created");
        }
        in.require(
            ((long)created + freeCount) * Integer.BYTES, created + " versions and " + freeCount + " free indices");
        final int stacked = pool.prepareLoad(created, freeCount);
        readVersions(pool, in, created, alive, retired);
        readFreeStack(pool, in, created, freeCount - stacked, stacked);
        pool.loaded(created, alive, retired, stacked, freeCount - stacked);
    }

    /**
     * Copies the version entries a block at a time, each block checked while the copy has it in cache: every alive
     * version is at most {@link Entity#MAX_VERSION}, and the alive and retired entries are as many as the counts say.
     */
    private static void readVersions(
        final EntityPool pool, final SnapshotInput in, final int created, final int alive, final int retired)
    {
        int countedAlive = 0;
        int countedRetired = 0;
        final long versions = pool.versionsAddress();
        for (int from = 0; from < created; from += READ_BLOCK)
        {
            final int to = Math.min(created, from + READ_BLOCK);
            in.getMemory(versions + ((long)from << 2), (long)(to - from) << 2);
            for (int index = from; index < to; index++)
            {
                final int entry = UnsafeApi.getInt(versions + ((long)index << 2));
                if (entry >= 0)
                {
                    if (entry > Entity.MAX_VERSION)
                    {
                        throw in.error("index " + index + " is alive with version " + entry + ", above the largest, " +
                            Entity.MAX_VERSION);
                    }
                    countedAlive++;
                }
                else if (entry == EntityPool.RETIRED)
                {
                    countedRetired++;
                }
            }
        }
        if (countedAlive != alive || countedRetired != retired)
        {
            throw in.error("its entries hold " + countedAlive + " alive and " + countedRetired + " retired indices " +
                "where its counts say " + alive + " and " + retired);
        }
    }

    /**
     * Reads the saved free stack, bottom first: {@code dropped} indices the pool's stack has no room for, which it
     * leaves off it, then the {@code stacked} it keeps. Checks each: in range, free (neither alive nor retired), and
     * there once.
     */
    private static void readFreeStack(final EntityPool pool, final SnapshotInput in, final int created,
        final int dropped, final int stacked)
    {
        final long versions = pool.versionsAddress();
        final long free = pool.freeStackAddress();
        final long[] seen = new long[(created + 63) >>> 6];
        for (int k = 0; k < dropped; k++)
        {
            checkFreeIndex(versions, in, created, seen, k, in.getInt());
        }
        in.getMemory(free, (long)stacked * Integer.BYTES);
        for (int k = 0; k < stacked; k++)
        {
            checkFreeIndex(versions, in, created, seen, dropped + k, UnsafeApi.getInt(free + ((long)k << 2)));
        }
    }

    private static void checkFreeIndex(final long versions, final SnapshotInput in, final int created,
        final long[] seen, final int k, final int index)
    {
        if (index < 0 || index >= created)
        {
            throw in.error("free index " + k + " is " + index + ", outside the " + created + " created");
        }
        final int entry = UnsafeApi.getInt(versions + ((long)index << 2));
        if (entry >= 0 || entry == EntityPool.RETIRED)
        {
            throw in.error("index " + index + " is on the free stack but " + (entry >= 0 ? "alive" : "retired"));
        }
        if ((seen[index >>> 6] & (1L << index)) != 0)
        {
            throw in.error("index " + index + " is on the free stack twice");
        }
        seen[index >>> 6] |= 1L << index;
    }
}
