package dev.cairn.deferral;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

import java.util.SplittableRandom;

/**
 * Where the harness gets its decisions: a seeded generator for {@link DeferralModelTest} (one per top-level
 * operation, so that a failing sequence can be shrunk by leaving operations out), or Jazzer's input for
 * {@link DeferralFuzzTest}. One harness serves both.
 */
interface Choices
{
    /**
     * A value from 0 (inclusive) to {@code bound} (exclusive).
     *
     * @param bound 1 or more.
     * @return the choice.
     */
    int pick(int bound);

    /**
     * Any {@code long}: the salt from which the visits of a parallel walk draw decisions of their own, independent
     * of the threads that run them.
     *
     * @return the value.
     */
    long salt();

    /**
     * Whether more decisions can be made: always for a seeded source, until the input is used up for a fuzzer.
     *
     * @return true if the harness may go on.
     */
    boolean hasMore();

    /**
     * Whether something happens, one time in {@code odds}.
     *
     * @param odds 1 or more.
     * @return true one time in {@code odds}.
     */
    default boolean oneIn(final int odds)
    {
        return pick(odds) == 0;
    }

    /** Decisions from a seeded generator: the same seed gives the same decisions. */
    final class Seeded implements Choices
    {
        private final SplittableRandom random;

        Seeded(final long seed)
        {
            this.random = new SplittableRandom(seed);
        }

        @Override
        public int pick(final int bound)
        {
            return random.nextInt(bound);
        }

        @Override
        public long salt()
        {
            return random.nextLong();
        }

        @Override
        public boolean hasMore()
        {
            return true;
        }
    }

    /** Decisions from Jazzer's input; once it is used up every choice is 0, so any input is a valid sequence. */
    final class Fuzzed implements Choices
    {
        private final FuzzedDataProvider data;

        Fuzzed(final FuzzedDataProvider data)
        {
            this.data = data;
        }

        @Override
        public int pick(final int bound)
        {
            return bound == 1 ? 0 : data.consumeInt(0, bound - 1);
        }

        @Override
        public long salt()
        {
            return data.consumeLong();
        }

        @Override
        public boolean hasMore()
        {
            return data.remainingBytes() > 0;
        }
    }
}
