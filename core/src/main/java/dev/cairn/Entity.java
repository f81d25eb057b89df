package dev.cairn;

/**
 * Entity handles: a {@code long} holding an index and a version.
 * <p>
 * Layout: bits 0..31 hold the index, bits 32..62 the version, bit 63 is always clear for a real handle. The index
 * says which slot of every sparse array the entity uses; the version tells apart the successive entities that reuse
 * that slot, so a handle kept after its entity was destroyed is recognised as stale instead of silently addressing
 * the entity that now owns the slot.
 * <ul>
 *     <li>Indices run from 0 to {@link #MAX_INDEX} (2<sup>28</sup> - 2), which keeps every packed array addressable
 *     by an {@code int} byte offset.</li>
 *     <li>Versions run from 0 to {@link #MAX_VERSION} (2<sup>31</sup> - 2). {@link #nextVersion(int)} wraps from
 *     {@code MAX_VERSION} back to 0 and never yields {@link #TOMBSTONE_VERSION}, which is reserved.</li>
 *     <li>Bit 63 is clear: sets use negative values for what is not an entity ({@link #NULL}, in-place
 *     tombstones).</li>
 *     <li>{@link #NULL} ({@code -1L}) is never produced by {@link dev.cairn.world.World#create()}, never contained in any set, and
 *     is what lookups return for "no entity".</li>
 * </ul>
 * This class only encodes and decodes handles; it allocates nothing.
 */
public final class Entity
{
    /** The handle that is never an entity. */
    public static final long NULL = -1L;

    /** Largest index a handle may carry. */
    public static final int MAX_INDEX = (1 << 28) - 2;

    /** Reserved version: no handle carries it, so a value with this version is never an entity. */
    public static final int TOMBSTONE_VERSION = Integer.MAX_VALUE;

    /** Largest version a handle may carry; the version after it is 0. */
    public static final int MAX_VERSION = TOMBSTONE_VERSION - 1;

    private static final long INDEX_MASK = 0xFFFF_FFFFL;

    private Entity()
    {
    }

    /**
     * Combines an index and a version into a handle.
     *
     * @param index   from 0 to {@link #MAX_INDEX}.
     * @param version from 0 to {@link #MAX_VERSION}.
     * @return the handle.
     * @throws IllegalArgumentException if either part is out of range.
     */
    public static long of(final int index, final int version)
    {
        if (index < 0 || index > MAX_INDEX)
        {
            throw new IllegalArgumentException(
                "entity index " + index + " is outside [0, " + MAX_INDEX + "]");
        }
        if (version < 0 || version > MAX_VERSION)
        {
            throw new IllegalArgumentException(
                "entity version " + version + " is outside [0, " + MAX_VERSION + "]");
        }
        return combine(index, version);
    }

    /**
     * Combines an index and a version without checking them; for code that already knows both are in range.
     *
     * @param index   the index.
     * @param version the version.
     * @return the handle.
     */
    public static long combine(final int index, final int version)
    {
        return ((long)version << 32) | (index & INDEX_MASK);
    }

    /**
     * The index part of a handle.
     *
     * @param entity a handle.
     * @return its index (for {@link #NULL}: -1).
     */
    public static int index(final long entity)
    {
        return (int)entity;
    }

    /**
     * The version part of a handle.
     *
     * @param entity a handle.
     * @return its version (for {@link #NULL}: -1).
     */
    public static int version(final long entity)
    {
        return (int)(entity >> 32);
    }

    /**
     * The version that follows {@code version}: one more, wrapping from {@link #MAX_VERSION} to 0.
     *
     * @param version a version from 0 to {@link #MAX_VERSION}.
     * @return the next version, never {@link #TOMBSTONE_VERSION}.
     */
    public static int nextVersion(final int version)
    {
        return version >= MAX_VERSION ? 0 : version + 1;
    }

    /**
     * The same index with the next version.
     *
     * @param entity a handle.
     * @return the handle that the next entity to reuse this index will carry.
     */
    public static long next(final long entity)
    {
        return combine(index(entity), nextVersion(version(entity)));
    }

    /**
     * Whether {@code entity} has the shape of a real handle: index and version in range. It says nothing about
     * whether the entity is alive; ask the {@link dev.cairn.world.World} for that.
     *
     * @param entity a value.
     * @return true if it could be a handle produced by an entity pool.
     */
    public static boolean isWellFormed(final long entity)
    {
        final int index = index(entity);
        final int version = version(entity);
        return index >= 0 && index <= MAX_INDEX && version >= 0 && version <= MAX_VERSION;
    }

    /**
     * Human-readable form used in every Cairn exception message, for example {@code 42v3} for index 42 version 3.
     *
     * @param entity a handle.
     * @return its readable form; {@code NULL} for {@link #NULL}.
     */
    public static String toString(final long entity)
    {
        if (entity == NULL)
        {
            return "NULL";
        }
        if (!isWellFormed(entity))
        {
            return "0x" + Long.toHexString(entity) + " (not a well-formed handle)";
        }
        return index(entity) + "v" + version(entity);
    }
}
