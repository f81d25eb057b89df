package dev.cairn.model;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import dev.cairn.DeletionPolicy;

import java.util.ArrayList;
import java.util.List;

/**
 * The body of the Jazzer fuzz targets: one input is one operation sequence on fresh structures.
 */
public final class ModelFuzzing
{
    /** The most operations one input runs; inputs are at most a few KiB, so this is rarely reached. */
    public static final int MAX_OPERATIONS = 4096;

    private ModelFuzzing()
    {
    }

    /**
     * Runs the operations {@code data} encodes and throws, with the shrunk sequence, if any disagrees with the model.
     *
     * @param policy the policy under test.
     * @param data   the fuzzer input: its first choice picks the second set's policy, the rest the operations.
     */
    public static void fuzz(final DeletionPolicy policy, final FuzzedDataProvider data)
    {
        final DeletionPolicy otherPolicy = DeletionPolicy.values()[data.consumeInt(0, DeletionPolicy.values().length - 1)];
        final List<Op> trace = new ArrayList<>();
        final ModelRun.Failure failure =
            ModelRun.generate(policy, otherPolicy, new FuzzChoices(data), MAX_OPERATIONS, trace);
        if (failure != null)
        {
            throw ModelRun.report(policy, otherPolicy, trace, failure,
                "the crashing input Jazzer saved (path printed after 'Test unit written to'); " +
                "mvn test replays it once it is in the fuzz target's Inputs directory");
        }
    }
}
