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
    /** Operations the shrinker may replay for one failure (a few seconds' worth). */
    public static final long SHRINK_BUDGET = 1_000_000;

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
     * Shrinks a failing sequence: cuts it after the failing operation, then repeatedly tries to remove every
     * operation of one kind at once (lookups, pool calls and the like are often irrelevant), then chunks of
     * operations, halving the chunk size down to single operations, keeping each removal after which the sequence
     * still fails the same invariant. Stops when nothing more can be removed or after replaying
     * {@link #SHRINK_BUDGET} operations in total.
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
        final Shrinker shrinker = new Shrinker(policy, otherPolicy, failure.invariant());
        shrinker.current = new ArrayList<>(ops.subList(0, Math.min(ops.size(), failure.step() + 1)));
        boolean progress = true;
        while (progress && shrinker.budget > 0)
        {
            progress = false;
            for (final Op.Kind kind : Op.Kind.values())
            {
                final List<Op> candidate = new ArrayList<>();
                for (final Op op : shrinker.current)
                {
                    if (op.kind() != kind)
                    {
                        candidate.add(op);
                    }
                }
                if (candidate.size() < shrinker.current.size() && shrinker.accepts(candidate))
                {
                    progress = true;
                }
            }
            for (int chunk = Math.max(1, shrinker.current.size() / 2); chunk >= 1 && shrinker.budget > 0; chunk /= 2)
            {
                for (int start = 0; start < shrinker.current.size() && shrinker.budget > 0; )
                {
                    final List<Op> candidate = new ArrayList<>(shrinker.current.subList(0, start));
                    candidate.addAll(shrinker.current.subList(
                        Math.min(shrinker.current.size(), start + chunk), shrinker.current.size()));
                    if (shrinker.accepts(candidate))
                    {
                        progress = true;
                    }
                    else
                    {
                        start += chunk;
                    }
                }
            }
        }
        return shrinker.current;
    }

    /** State of one shrink: the shortest failing sequence so far and the replay budget left. */
    private static final class Shrinker
    {
        private final DeletionPolicy policy;
        private final DeletionPolicy otherPolicy;
        private final String invariant;
        private List<Op> current;
        private long budget = SHRINK_BUDGET;

        Shrinker(final DeletionPolicy policy, final DeletionPolicy otherPolicy, final String invariant)
        {
            this.policy = policy;
            this.otherPolicy = otherPolicy;
            this.invariant = invariant;
        }

        /** Replays {@code candidate}; if it fails the same invariant, keeps it (cut after the failure). */
        boolean accepts(final List<Op> candidate)
        {
            if (candidate.isEmpty() || budget <= 0)
            {
                return false;
            }
            budget -= candidate.size();
            final Failure result = replay(policy, otherPolicy, candidate);
            if (result != null && result.invariant().equals(invariant))
            {
                current = new ArrayList<>(candidate.subList(0, Math.min(candidate.size(), result.step() + 1)));
                return true;
            }
            return false;
        }
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
