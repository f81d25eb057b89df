package dev.cairn.deferral;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the rule of change: the fuzzer's bytes are the decisions of {@link DeferralHarness}
 * (which world, which listeners, then each operation, walk, action and listener's changes), so it steers the same
 * model-based run {@link DeferralModelTest} makes from seeds. Every input is a valid run: the harness decides what
 * must succeed or be refused from its model, and when the bytes run out every further decision is 0. A disagreement
 * with the model, an exception the model does not expect, or a crash is a finding; nothing else throws.
 * <p>
 * In a normal build this replays the committed inputs in
 * {@code src/test/resources/dev/cairn/deferral/DeferralFuzzTestInputs/fuzz/}; {@code .ci/fuzz} runs it in fuzzing
 * mode.
 */
class DeferralFuzzTest
{
    /** The most top-level operations one input runs; the inputs are a few KiB, so this is rarely reached. */
    private static final int MAX_OPERATIONS = 2_000;

    @FuzzTest(maxDuration = "60s")
    void fuzz(final FuzzedDataProvider data)
    {
        final Choices choices = new Choices.Fuzzed(data);
        final DeferralHarness harness = new DeferralHarness(choices);
        int operation = 0;
        Throwable failure = null;
        try
        {
            while (choices.hasMore() && operation < MAX_OPERATIONS)
            {
                harness.step(choices);
                operation++;
            }
        }
        catch (final RuntimeException | Error thrown)
        {
            failure = thrown;
        }
        finally
        {
            try
            {
                harness.close();
            }
            catch (final RuntimeException | Error thrown)
            {
                if (failure == null)
                {
                    failure = thrown;
                }
            }
        }
        if (failure != null)
        {
            throw new AssertionError("the world disagrees with the model at operation " + operation + " of the " +
                "input: " + failure.getMessage() + "\ntrace, oldest first (indented: inside walks and listeners):\n" +
                harness.trace() + "\n", failure);
        }
    }
}
