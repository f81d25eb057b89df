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

    private static long inputs;
    private static long operations;
    private static long firstInputNanos;

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
        if (inputs++ == 0)
        {
            firstInputNanos = System.nanoTime();
        }
        final List<Op> trace = new ArrayList<>();
        final ModelRun.Failure failure =
            ModelRun.generate(policy, otherPolicy, new FuzzChoices(data), MAX_OPERATIONS, trace);
        operations += trace.size();
        if (failure != null)
        {
            throw ModelRun.report(policy, otherPolicy, trace, failure, String.format(
                "the crashing input Jazzer saved (path printed after 'Test unit written to'), which " +
                "`mvn -pl core test -Dtest=%s` replays from the fuzz target's Inputs directory; found at input %d " +
                "(%d operations, %.1f s after the first input of this JVM)", SeedCorpus.targetName(policy), inputs,
                operations, (System.nanoTime() - firstInputNanos) / 1e9));
        }
    }
}
