package dev.cairn.model;

import dev.cairn.DeletionPolicy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes the committed Jazzer seed corpus: long, varied operation sequences drawn from the seeded generator and
 * encoded as the bytes from which Jazzer's {@code FuzzedDataProvider} decodes the same decisions, so the fuzzers
 * start from deep states (full sets, recycled handles, far pages) and every build replays them in regression mode.
 * <p>
 * Encoding follows libFuzzer's {@code ConsumeIntegralInRange}, which Jazzer's provider implements: an integer in a
 * range of width {@code r} takes the fewest whole bytes that cover {@code r}, most significant first, read from the
 * <em>end</em> of the input (a full-range {@code consumeLong()} returns the eight bytes as they are). So the encoder
 * writes each decision's bytes in reading order and reverses the lot.
 * <p>
 * Regenerate (from {@code core/}, after {@code mvn -pl core test-compile}):
 * <pre>
 * mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
 *     dev.cairn.model.SeedCorpus src/test/resources
 * </pre>
 */
public final class SeedCorpus
{
    /** Seeds written per fuzz target. */
    public static final int SEEDS_PER_TARGET = 12;

    /**
     * Operations in the shortest seed; the k-th seed has {@code MIN_LENGTH + k * LENGTH_STEP}, at most 63. Seeds stay
     * at a few hundred bytes: libFuzzer's input size limit starts at the largest seed, and with seeds of 2 KiB
     * (about 400 operations) fuzzing ran 25 times fewer inputs per second and found less. Depth comes from the
     * fuzzer growing inputs and from the 200,000-operation model test of every build.
     */
    private static final int MIN_LENGTH = 8;
    private static final int LENGTH_STEP = 5;

    private SeedCorpus()
    {
    }

    /**
     * {@link Choices} that delegate to a random source and record every decision as the bytes a
     * {@code FuzzedDataProvider} would need to return it.
     */
    public static final class Recording implements Choices
    {
        private final Choices delegate;
        private final ByteArrayOutputStream readingOrder = new ByteArrayOutputStream();

        /**
         * Wraps a source.
         *
         * @param delegate where decisions really come from.
         */
        public Recording(final Choices delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public int pick(final int bound)
        {
            final int value = delegate.pick(bound);
            if (bound > 1)
            {
                record(bound - 1, value);
            }
            return value;
        }

        @Override
        public long anyLong()
        {
            final long value = delegate.anyLong();
            record(-1L, value);
            return value;
        }

        @Override
        public boolean hasMore()
        {
            return true;
        }

        /**
         * The fuzzer input that replays the decisions made so far.
         *
         * @return the bytes, last decision first.
         */
        public byte[] toFuzzerInput()
        {
            final byte[] bytes = readingOrder.toByteArray();
            for (int i = 0, j = bytes.length - 1; i < j; i++, j--)
            {
                final byte swap = bytes[i];
                bytes[i] = bytes[j];
                bytes[j] = swap;
            }
            return bytes;
        }

        private void record(final long range, final long raw)
        {
            int width = 0;
            while (width < Long.SIZE && (range >>> width) != 0)
            {
                width += Byte.SIZE;
            }
            for (int shift = width - Byte.SIZE; shift >= 0; shift -= Byte.SIZE)
            {
                readingOrder.write((int)(raw >>> shift) & 0xFF);
            }
        }
    }

    /**
     * Encodes one run: the second set's policy, then {@code length} generated operations.
     *
     * @param policy the policy under test.
     * @param seed   the generator seed.
     * @param length operations to generate.
     * @param trace  receives the operations.
     * @return the fuzzer input that makes the fuzz target run the same operations.
     */
    public static byte[] encode(final DeletionPolicy policy, final long seed, final int length, final List<Op> trace)
    {
        final Recording choices = new Recording(new RandomChoices(seed));
        final DeletionPolicy otherPolicy = DeletionPolicy.values()[choices.pick(DeletionPolicy.values().length)];
        final ModelRun.Failure failure = ModelRun.generate(policy, otherPolicy, choices, length, trace);
        if (failure != null)
        {
            throw new IllegalStateException("seed " + seed + " fails: " + failure.error().getMessage(),
                failure.error());
        }
        return choices.toFuzzerInput();
    }

    /**
     * Replaces the {@code seed-*} files of each fuzz target with {@link #SEEDS_PER_TARGET} new ones. Other inputs
     * (the {@code kills-*} files: crashes Jazzer found for bugs planted on purpose, kept because they catch such bugs
     * in regression mode) are left alone.
     *
     * @param args the test resources directory, {@code src/test/resources} when run from {@code core/}.
     * @throws IOException if a file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path resources = Path.of(args.length > 0 ? args[0] : "src/test/resources");
        for (final DeletionPolicy policy : DeletionPolicy.values())
        {
            final Path dir = resources.resolve("dev/cairn/set").resolve(targetName(policy) + "Inputs").resolve("fuzz");
            Files.createDirectories(dir);
            try (var old = Files.newDirectoryStream(dir, "seed-*"))
            {
                for (final Path file : old)
                {
                    Files.delete(file);
                }
            }
            for (int k = 0; k < SEEDS_PER_TARGET; k++)
            {
                final long seed = 1000L * (policy.ordinal() + 1) + k;
                final int length = MIN_LENGTH + k * LENGTH_STEP;
                final List<Op> trace = new ArrayList<>();
                final byte[] input = encode(policy, seed, length, trace);
                final Path file = dir.resolve(String.format(Locale.ROOT, "seed-%02d-%dops", k, trace.size()));
                Files.write(file, input);
                System.out.println(file + ": " + input.length + " bytes, " + trace.size() + " operations");
            }
        }
    }

    /**
     * The simple name of the fuzz test class for a policy.
     *
     * @param policy a policy.
     * @return for example {@code SwapAndPopFuzzTest}.
     */
    public static String targetName(final DeletionPolicy policy)
    {
        switch (policy)
        {
            case SWAP_AND_POP:
                return "SwapAndPopFuzzTest";
            case IN_PLACE:
                return "InPlaceFuzzTest";
            default:
                return "SwapOnlyFuzzTest";
        }
    }
}
