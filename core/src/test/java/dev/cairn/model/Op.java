package dev.cairn.model;

import dev.cairn.Entity;

/**
 * One step of a model-based test: what to call and with which concrete arguments. Operations carry values, never
 * references to state, so any subsequence of a recorded sequence can be replayed; that is what shrinking relies on.
 * Whether the call must succeed or throw is decided by the model at replay time, so a removed step only changes what
 * is expected of the others.
 *
 * @param kind what to call.
 * @param a    first argument: a handle, an index or a count, depending on {@code kind}.
 * @param b    second argument, used by {@link Kind#SWAP} and {@link Kind#INSERT_MANY} only.
 */
public record Op(Kind kind, long a, long b)
{
    /** The operations, on the set under test ("set"), the second set ("other") and the entity pool ("pool"). */
    public enum Kind
    {
        /** {@code set.insert(a)} and write the payload of a fresh stamp. */
        INSERT,
        /** Insert {@code b} handles with consecutive indices from {@code a}, skipping those whose index is held. */
        INSERT_MANY,
        /** {@code set.erase(a)}. */
        ERASE,
        /** {@code set.remove(a)}. */
        REMOVE,
        /** {@code set.contains(a)}. */
        CONTAINS,
        /** {@code set.indexOf(a)}. */
        INDEX_OF,
        /** {@code set.entityAt((int)a)}. */
        ENTITY_AT,
        /** {@code set.swapElements(a, b)}. */
        SWAP,
        /** {@code set.sort(SortKey.values()[a])}. */
        SORT,
        /** {@code set.sortAs(other)}. */
        SORT_AS,
        /** {@code set.compact()}. */
        COMPACT,
        /** {@code set.clear()}. */
        CLEAR,
        /** {@code set.reserve((int)a)}. */
        RESERVE,
        /** {@code set.shrinkToFit()}. */
        SHRINK_TO_FIT,
        /** {@code set.forEach} erasing each visited member whose index is {@code a} modulo 3. */
        ERASE_WHILE_ITERATING,
        /** {@code set.close()}, check the closed set, then continue with a new empty set. */
        CLOSE_AND_REOPEN,
        /** {@code other.insert(a)}; the other set is bound to the pool. */
        OTHER_INSERT,
        /** {@code other.remove(a)}. */
        OTHER_REMOVE,
        /** {@code pool.create()}. */
        CREATE,
        /** {@code pool.create(new long[a], 0, a)}. */
        CREATE_BATCH,
        /** {@code pool.destroy(a)}. */
        DESTROY,
        /** {@code pool.isAlive(a)}. */
        IS_ALIVE,
        /** {@code pool.currentVersion((int)a)}. */
        CURRENT_VERSION,
        /** {@code pool.clear()}. */
        POOL_CLEAR
    }

    /**
     * An operation without arguments.
     *
     * @param kind what to call.
     * @return the operation.
     */
    public static Op of(final Kind kind)
    {
        return new Op(kind, 0, 0);
    }

    /**
     * An operation with one argument.
     *
     * @param kind what to call.
     * @param a    its argument.
     * @return the operation.
     */
    public static Op of(final Kind kind, final long a)
    {
        return new Op(kind, a, 0);
    }

    @Override
    public String toString()
    {
        switch (kind)
        {
            case INSERT:
                return "set.insert(" + Entity.toString(a) + ")";
            case INSERT_MANY:
                return "set.insert(" + Entity.toString(a) + " .. " + Entity.toString(a + b - 1) +
                    ", skipping indices already held)";
            case ERASE:
                return "set.erase(" + Entity.toString(a) + ")";
            case REMOVE:
                return "set.remove(" + Entity.toString(a) + ")";
            case CONTAINS:
                return "set.contains(" + Entity.toString(a) + ")";
            case INDEX_OF:
                return "set.indexOf(" + Entity.toString(a) + ")";
            case ENTITY_AT:
                return "set.entityAt(" + a + ")";
            case SWAP:
                return "set.swapElements(" + Entity.toString(a) + ", " + Entity.toString(b) + ")";
            case SORT:
                return "set.sort(" + SortKey.values()[(int)a] + ")";
            case SORT_AS:
                return "set.sortAs(other)";
            case COMPACT:
                return "set.compact()";
            case CLEAR:
                return "set.clear()";
            case RESERVE:
                return "set.reserve(" + a + ")";
            case SHRINK_TO_FIT:
                return "set.shrinkToFit()";
            case ERASE_WHILE_ITERATING:
                return "set.forEach(erase members whose index % 3 == " + a + ")";
            case CLOSE_AND_REOPEN:
                return "set.close(), then a new set";
            case OTHER_INSERT:
                return "other.insert(" + Entity.toString(a) + ")";
            case OTHER_REMOVE:
                return "other.remove(" + Entity.toString(a) + ")";
            case CREATE:
                return "pool.create()";
            case CREATE_BATCH:
                return "pool.create(long[" + a + "], 0, " + a + ")";
            case DESTROY:
                return "pool.destroy(" + Entity.toString(a) + ")";
            case IS_ALIVE:
                return "pool.isAlive(" + Entity.toString(a) + ")";
            case CURRENT_VERSION:
                return "pool.currentVersion(" + a + ")";
            case POOL_CLEAR:
                return "pool.clear()";
            default:
                return kind + "(" + a + ", " + b + ")";
        }
    }
}
