package dev.cairn.model;

import dev.cairn.DeletionPolicy;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs operation sequences against a fresh {@link Harness}: generating them from a {@link Choices} source, replaying
 * recorded ones, and shrinking a failing one to a short sequence that still fails the same invariant.
 */
public final class ModelRun
{
    /** Replays the shrinker may spend on one failure; each costs at most one replay of the failing prefix. */
    public static final int SHRINK_BUDGET = 4000;

    /**
     * Where and why a sequence failed.
     *
     * @param step      index of the failing operation in the sequence.
     * @param invariant name of the invariant that failed (or of the unexpected exception).
     * @param error     the assertion error or exception.
     */
    public record Failure(int step, String invariant, Throwable error)
    {
    }

    private ModelRun()
    {
    }

    /**
     * Generates and applies up to {@code maxOperations} operations, checking every invariant after each.
     *
     * @param policy        the policy under test.
     * @param otherPolicy   the second set's policy.
     * @param choices       where decisions come from; generation also stops when it has no more.
     * @param maxOperations the most operations to run.
     * @param trace         receives every operation applied, including the failing one.
     * @return the failure, or null if every operation matched the model.
     */
    public static Failure generate(
        final DeletionPolicy policy,
        final DeletionPolicy otherPolicy,
        final Choices choices,
        final int maxOperations,
        final List<Op> trace)
    {
        final Harness harness = new Harness(policy, otherPolicy);
        try
        {
            final OpGenerator generator = new OpGenerator(harness, choices);
            for (int step = 0; step < maxOperations && choices.hasMore(); step++)
            {
                final Op op = generator.next();
                trace.add(op);
                final Failure failure = step(harness, op, step);
                if (failure != null)
                {
                    return failure;
                }
            }
            return closeAndCheck(harness, trace.size());
        }
        finally
        {
            harness.close();
        }
    }

    /**
     * Applies a recorded sequence to a fresh harness.
     *
     * @param policy      the policy under test.
     * @param otherPolicy the second set's policy.
     * @param ops         the operations.
     * @return the first failure, or null.
     */
    public static Failure replay(final DeletionPolicy policy, final DeletionPolicy otherPolicy, final List<Op> ops)
    {
        final Harness harness = new Harness(policy, otherPolicy);
        try
        {
            for (int step = 0; step < ops.size(); step++)
            {
                final Failure failure = step(harness, ops.get(step), step);
                if (failure != null)
                {
                    return failure;
                }
            }
            return closeAndCheck(harness, ops.size());
        }
        finally
        {
            harness.close();
        }
    }

    /**
     * Shrinks a failing sequence: cuts it after the failing operation, then removes chunks of operations (halving
     * the chunk size down to single operations) as long as what is left still fails the same invariant.
     *
     * @param policy      the policy under test.
     * @param otherPolicy the second set's policy.
     * @param ops         a failing sequence.
     * @param failure     how it failed.
     * @return a sequence, at most as long, that fails the same invariant at its last operation.
     */
    public static List<Op> shrink(
        final DeletionPolicy policy, final DeletionPolicy otherPolicy, final List<Op> ops, final Failure failure)
    {
        List<Op> current = new ArrayList<>(ops.subList(0, Math.min(ops.size(), failure.step() + 1)));
        int budget = SHRINK_BUDGET;
        int chunk = Math.max(1, current.size() / 2);
        while (budget > 0)
        {
            boolean removed = false;
            for (int start = 0; start < current.size() && budget > 0; )
            {
                final List<Op> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
                budget--;
                final Failure result = candidate.isEmpty() ? null : replay(policy, otherPolicy, candidate);
                if (result != null && result.invariant().equals(failure.invariant()))
                {
                    current = new ArrayList<>(candidate.subList(0, Math.min(candidate.size(), result.step() + 1)));
                    removed = true;
                }
                else
                {
                    start += chunk;
                }
            }
            if (!removed)
            {
                if (chunk == 1)
                {
                    break;
                }
                chunk /= 2;
            }
            chunk = Math.max(1, Math.min(chunk, current.size() / 2));
        }
        return current;
    }

    /**
     * Shrinks a failure and describes it: the invariant, how to replay it, and the shortest failing sequence found,
     * one readable operation a line.
     *
     * @param policy      the policy under test.
     * @param otherPolicy the second set's policy.
     * @param ops         the failing sequence as run.
     * @param failure     how it failed.
     * @param replay      how to replay the original run, for example the seed to pass.
     * @return the error to throw, with the shrunk sequence's failure as its cause.
     */
    public static AssertionError report(
        final DeletionPolicy policy,
        final DeletionPolicy otherPolicy,
        final List<Op> ops,
        final Failure failure,
        final String replay)
    {
        final List<Op> shrunk = shrink(policy, otherPolicy, ops, failure);
        Failure shrunkFailure = replay(policy, otherPolicy, shrunk);
        if (shrunkFailure == null)
        {
            shrunkFailure = failure;
        }
        final StringBuilder out = new StringBuilder();
        out.append("SparseSet ").append(policy).append(" (second set ").append(otherPolicy)
            .append(") disagrees with the model: ").append(failure.invariant()).append('\n');
        out.append("  ").append(shrunkFailure.error().getMessage()).append('\n');
        out.append("  replay: ").append(replay).append('\n');
        out.append("  shortest failing sequence found: ").append(shrunk.size()).append(" of ")
            .append(failure.step() + 1).append(" operations\n");
        for (int i = 0; i < shrunk.size(); i++)
        {
            out.append(String.format("  %4d. %s%s%n", i + 1, shrunk.get(i),
                i == shrunkFailure.step() ? "    <-- fails here" : ""));
        }
        return new AssertionError(out.toString(), shrunkFailure.error());
    }

    private static Failure step(final Harness harness, final Op op, final int step)
    {
        try
        {
            harness.apply(op);
            harness.checkInvariants();
            return null;
        }
        catch (final InvariantViolation ex)
        {
            return new Failure(step, ex.invariant(), ex);
        }
        catch (final RuntimeException | Error ex)
        {
            return new Failure(step, "no unexpected exception (" + ex.getClass().getSimpleName() + ")", ex);
        }
    }

    private static Failure closeAndCheck(final Harness harness, final int steps)
    {
        try
        {
            harness.checkEverything();
        }
        catch (final InvariantViolation ex)
        {
            return new Failure(Math.max(0, steps - 1), ex.invariant(), ex);
        }
        harness.close();
        if (harness.allocatedBytes() != 0)
        {
            return new Failure(Math.max(0, steps - 1), "closing every structure frees every byte",
                new InvariantViolation("closing every structure frees every byte",
                    harness.allocatedBytes() + " bytes still allocated after close()", null));
        }
        return null;
    }
}
