package dev.cairn.snapshot;

import dev.cairn.internal.Access;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.RawWorld;
import dev.cairn.internal.Walks;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.world.World;

/**
 * The world's own part of a snapshot (its change tick, then the entity pool, {@link PoolSection}), and one load into a
 * world: what the world was before it, so that a failed load is undone whole, the world new again, without a signal.
 */
final class WorldSection
{
    private final World world;
    private final RawWorld raw;
    private boolean begun;
    private int tickBefore;
    private int storagesBefore;
    private int versionCapacityBefore;
    private int freeStackCapacityBefore;

    /**
     * Starts a load into {@code world}, which must be new.
     *
     * @param world the world loaded into.
     * @throws IllegalStateException if the world is not new, is closed, walked or held by a listener.
     */
    WorldSection(final World world)
    {
        checkLoadable(world);
        this.world = world;
        this.raw = Access.rawWorld(world);
    }

    /**
     * Checks that a snapshot may load into {@code world}: it is open and new (or reset since), and nothing walks or
     * holds it.
     *
     * @param world the world.
     * @throws IllegalStateException naming why not.
     */
    static void checkLoadable(final World world)
    {
        Access.walks(world).refuseWhileDeferring("load a snapshot into the World", "load after the walk or listener " +
            "returns");
        if (Access.walks(world).isWalked())
        {
            throw new IllegalStateException("a snapshot cannot load into this World while another thread walks it, " +
                "or loads into it: the walk would go on over the loaded entities, two loads would mix; nothing was " +
                "changed: load after the walk returns, or the other load");
        }
        checkNew(world);
    }

    /**
     * The world loaded into.
     *
     * @return the world.
     */
    World world()
    {
        return world;
    }

    /**
     * The bytes {@link #write} writes.
     *
     * @param world the world.
     * @return the size of the world's own part of a snapshot.
     */
    static long bytes(final World world)
    {
        final RawWorld raw = Access.rawWorld(world);
        raw.ensureOpen();
        return Integer.BYTES + PoolSection.bytes(raw.pool());
    }

    /**
     * Writes the world's own state: the change tick and the entity pool.
     *
     * @param world the world.
     * @param out   the snapshot being written.
     */
    static void write(final World world, final SnapshotOutput out)
    {
        final RawWorld raw = Access.rawWorld(world);
        raw.ensureOpen();
        out.putInt(world.tick());
        PoolSection.write(raw.pool(), out);
    }

    /**
     * Runs a save as a walk of {@code world}: what the save's code (a channel's) changes is applied when it ends, and
     * closing the world, from this thread or another, is refused until then.
     *
     * @param world the world saved.
     * @param what  names the walk, for messages.
     * @param save  what saves it.
     */
    static void saveAsWalk(final World world, final String what, final Runnable save)
    {
        final RawWorld raw = Access.rawWorld(world);
        raw.ensureOpen();
        final Walks walks = Access.walks(world);
        copying(raw.pool(), what, () -> walks.run(walks.beginWalk(what), save));
    }

    /**
     * Runs the load as one operation of the world: closing it from another thread is refused meanwhile, and what
     * listeners change is applied when it returns.
     *
     * @param load what loads.
     */
    void runAsOperation(final Runnable load)
    {
        raw.ensureOpen();
        final Walks walks = Access.walks(world);
        copying(raw.pool(), "Snapshot.load", () -> walks.run(walks.beginGuardedOperation("Snapshot.load"), load));
    }

    /**
     * Runs {@code handOut}, which hands the load's tasks to the program's executor, as a hold: the executor's
     * {@code execute} runs on the loading thread, and changes it makes wait for the end of the load.
     *
     * @param handOut what calls the executor.
     */
    void handOutTasks(final Runnable handOut)
    {
        final Walks walks = Access.walks(world);
        walks.run(walks.hold("Snapshot.load's executor, whose execute() must only hand the task on,"), handOut);
    }

    /** Runs {@code body} with creating refused: it copies the pool's memory, and runs the program's code meanwhile. */
    private static void copying(final EntityPool pool, final String what, final Runnable body)
    {
        pool.beginCopy(what);
        try
        {
            body.run();
        }
        finally
        {
            pool.endCopy();
        }
    }

    /**
     * Reads the world's section: its tick and entities come back with their indices and versions.
     *
     * @param in the section.
     */
    void read(final SnapshotInput in)
    {
        // The loader checked for walks before announcing itself as one: checking again would find the load.
        checkNew(world);
        // Only the holes a reset() under an in-place storage's walk left: no member is lost.
        raw.unloadStorages();
        final EntityPool pool = raw.pool();
        tickBefore = world.tick();
        storagesBefore = raw.storageCount();
        versionCapacityBefore = pool.versionCapacity();
        freeStackCapacityBefore = pool.freeStackCapacity();
        begun = true;
        final int tick = in.getInt();
        PoolSection.read(pool, in);
        raw.restoreTick(tick);
    }

    /**
     * Ends a load that read every section: rebuilds the groups over the storages it wrote without signals. Still part
     * of the load: if rebuilding a group runs out of memory, the load fails and is undone whole.
     */
    void finish()
    {
        raw.rebuildGroups();
        begun = false;
    }

    /**
     * Makes the world new again after the load failed half-way: no entity, every storage empty, the storages the load
     * made forgotten, the memory the pool took for it given back, its tick as before, no signal sent.
     */
    void undo()
    {
        raw.ensureOpen();
        raw.unloadStorages();
        final EntityPool pool = raw.pool();
        if (begun)
        {
            raw.forgetStoragesFrom(storagesBefore);
            pool.resetTo(versionCapacityBefore, freeStackCapacityBefore);
            raw.restoreTick(tickBefore);
            begun = false;
        }
        else
        {
            pool.reset();
        }
        raw.rebuildGroups();
    }

    /**
     * Empties a staging world a loader reads into: no entity, every storage empty, no signal; the memory stays for the
     * next load.
     *
     * @param world the staging world.
     */
    static void empty(final World world)
    {
        final RawWorld raw = Access.rawWorld(world);
        raw.ensureOpen();
        raw.unloadStorages();
        raw.pool().reset();
        raw.rebuildGroups();
    }

    private static void checkNew(final World world)
    {
        final RawWorld raw = Access.rawWorld(world);
        raw.ensureOpen();
        final int created = raw.pool().createdCount();
        boolean empty = true;
        for (final ComponentStorage<?> storage : world.storages())
        {
            empty &= storage.memberCount() == 0;
        }
        if (created != 0 || !empty)
        {
            throw new IllegalStateException(
                "a snapshot loads into a new World, where no entity was ever created and every storage is empty; " +
                "this one has created " + created + (created == 1 ? " entity" : " entities") +
                ": load into a new World or one reset() since, or use a ContinuousLoader to bring a live world up " +
                "to date");
        }
    }
}
