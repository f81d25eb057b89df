package dev.cairn.model;

/**
 * Where the operation generator gets its decisions: a seeded {@link java.util.Random} for the JUnit model test, or
 * Jazzer's {@code FuzzedDataProvider} for the fuzz targets. One generator serves both drivers.
 */
public interface Choices
{
    /**
     * A value from 0 (inclusive) to {@code bound} (exclusive).
     *
     * @param bound 1 or more.
     * @return the choice.
     */
    int pick(int bound);

    /**
     * Any {@code long}, for malformed handles.
     *
     * @return the value.
     */
    long anyLong();

    /**
     * Whether more decisions can be made: always for a random source, until the input is used up for a fuzzer.
     *
     * @return true if the generator may continue.
     */
    boolean hasMore();
}
