package dev.cairn.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The seed encoder writes each decision as libFuzzer's {@code ConsumeIntegralInRange} reads it: the fewest whole
 * bytes covering the range, most significant first, consumed from the end of the input.
 */
class SeedCorpusTest
{
    /** Replays fixed decisions. */
    private static final class Fixed implements Choices
    {
        private final long[] values;
        private int next;

        Fixed(final long... values)
        {
            this.values = values;
        }

        @Override
        public int pick(final int bound)
        {
            return (int)values[next++];
        }

        @Override
        public long anyLong()
        {
            return values[next++];
        }

        @Override
        public boolean hasMore()
        {
            return true;
        }
    }

    @Test
    void decisionsAreWrittenLastFirstWithTheFewestBytesThatCoverTheirRange()
    {
        final SeedCorpus.Recording recording = new SeedCorpus.Recording(new Fixed(2, 0, 300, 0x0102_0304_0506_0708L));

        recording.pick(3);
        recording.pick(1);
        recording.pick(1000);
        recording.anyLong();

        assertArrayEquals(
            new byte[]{8, 7, 6, 5, 4, 3, 2, 1, 0x2C, 0x01, 2},
            recording.toFuzzerInput(),
            "pick(3) takes one byte, pick(1) none, pick(1000) two (0x012C), anyLong eight; read from the end");
    }
}
