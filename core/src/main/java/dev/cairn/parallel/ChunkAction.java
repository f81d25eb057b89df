package dev.cairn.parallel;

/**
 * The work of one chunk of a parallel walk: generated views and groups walk the packed indices
 * {@code [from, to)} of their leading set, from front to back, with accessors of their own.
 */
@FunctionalInterface
public interface ChunkAction
{
    /**
     * Walks one chunk.
     *
     * @param from the first packed index of the chunk.
     * @param to   one past its last packed index.
     */
    void walk(int from, int to);
}
