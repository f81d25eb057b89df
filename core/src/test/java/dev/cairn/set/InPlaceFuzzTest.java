package dev.cairn.set;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.DeletionPolicy;
import dev.cairn.model.ModelFuzzing;

/**
 * Coverage-guided fuzzing of a {@link DeletionPolicy#IN_PLACE} sparse set against the model: the fuzzer's bytes choose
 * the operations and handles. In a normal build this runs in regression mode over the committed inputs in
 * {@code src/test/resources/dev/cairn/set/InPlaceFuzzTestInputs/fuzz/}; {@code .ci/fuzz} runs it in fuzzing mode.
 */
class InPlaceFuzzTest
{
    @FuzzTest(maxDuration = "60s")
    void fuzz(final FuzzedDataProvider data)
    {
        ModelFuzzing.fuzz(DeletionPolicy.IN_PLACE, data);
    }
}
