package dev.cairn.internal;

/**
 * The raw state of a world, as snapshot code saves, loads and undoes it, with no check beyond what each method says.
 * Reached with {@link Access#rawWorld}; its storages are reached through the world's own methods.
 */
public interface RawWorld
{
    /**
     * Throws unless the world is open.
     *
     * @throws IllegalStateException if it is closed.
     */
    void ensureOpen();

    /**
     * The world's entity pool.
     *
     * @return the pool.
     */
    EntityPool pool();

    /**
     * Sets the world's change tick, without the checks {@code World.advanceTick} makes.
     *
     * @param tick the tick.
     */
    void restoreTick(int tick);

    /**
     * How many storages the world has made: they are numbered in the order it made them.
     *
     * @return the count.
     */
    int storageCount();

    /**
     * Empties every storage without signals and gives back its memory: what a failed load, or a loader emptying its
     * staging world, leaves.
     */
    void unloadStorages();

    /**
     * Forgets the storages made after the first {@code count}, freeing their memory: they were made for a load that
     * failed, and nothing else saw them.
     *
     * @param count how many storages to keep.
     */
    void forgetStoragesFrom(int count);

    /**
     * Rebuilds every group of the world over its storages, after a load wrote them without signals.
     */
    void rebuildGroups();
}
