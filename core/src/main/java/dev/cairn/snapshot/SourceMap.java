package dev.cairn.snapshot;

import dev.cairn.Entity;

import java.util.Arrays;

/**
 * The source entities a {@link ContinuousLoader} mirrors and their local entities, held by the source's entity index:
 * a lookup is an array read, and a walk in the source's index order touches memory front to back. The arrays grow to
 * the highest source index seen, which the staging world holds already.
 */
final class SourceMap
{
    private static final long[] NONE = new long[0];

    /** The source handle mapped at each entity index, or {@link Entity#NULL}. */
    private long[] sources = NONE;
    private long[] locals = NONE;
    private int size;

    /**
     * The local entity of a source entity.
     *
     * @param source any value.
     * @return its local entity, or {@link Entity#NULL} if it is not mapped (a stale version included).
     */
    long get(final long source)
    {
        final int index = Entity.index(source);
        return source >= 0 && index >= 0 && index < sources.length && sources[index] == source ?
            locals[index] : Entity.NULL;
    }

    boolean contains(final long source)
    {
        return get(source) != Entity.NULL;
    }

    /** Maps a well-formed source handle, replacing what its index mapped. */
    void put(final long source, final long local)
    {
        final int index = Entity.index(source);
        if (index >= sources.length)
        {
            final int length = (int)Math.min(Entity.MAX_INDEX + 1L, Math.max(index + 1L, 2L * sources.length));
            final int from = sources.length;
            sources = Arrays.copyOf(sources, length);
            locals = Arrays.copyOf(locals, length);
            Arrays.fill(sources, from, length, Entity.NULL);
        }
        if (sources[index] == Entity.NULL)
        {
            size++;
        }
        sources[index] = source;
        locals[index] = local;
    }

    /** Forgets the source handle at an index of {@link #extent()}; it must be mapped. */
    void removeAt(final int index)
    {
        sources[index] = Entity.NULL;
        size--;
    }

    /** One past the highest source index mapped so far: walks go over {@code [0, extent())}. */
    int extent()
    {
        return sources.length;
    }

    /** The source handle at an index, or {@link Entity#NULL}. */
    long sourceAt(final int index)
    {
        return sources[index];
    }

    /** The local handle at an index that holds a source. */
    long localAt(final int index)
    {
        return locals[index];
    }

    int size()
    {
        return size;
    }

    void clear()
    {
        sources = NONE;
        locals = NONE;
        size = 0;
    }
}
