package dev.cairn.internal;

import dev.cairn.Entity;
import dev.cairn.parallel.Chunk;
import dev.cairn.parallel.ChunkAction;
import dev.cairn.parallel.Chunks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/**
 * The one mechanism behind Cairn's rule of change: while a walk or a listener runs, the structure of a world holds
 * still, and the structural changes made meanwhile are recorded and applied when the outermost of them returns.
 * <p>
 * Every structure of a world (its entity pool, storages, groups and observers) shares one {@code Walks}; a set or
 * storage made on its own has one of its own. Three kinds of entries stack here:
 * <ul>
 *     <li>a <b>walk</b> ({@link #beginWalk}): a {@code forEach}, a cursor loop, a block or parallel walk, a snapshot
 *     save. It is also counted where other threads can see it, so that closing the world from another thread is
 *     refused instead of freeing memory under the walk;</li>
 *     <li>a <b>hold</b> ({@link #hold}): code of the user's that the engine calls in the middle of its own work, such
 *     as a listener or a sort's comparator;</li>
 *     <li>an <b>operation</b> ({@link #beginOperation}): a change the engine makes in several steps with listeners
 *     between them (a destroy, a clear, the application of a command buffer). The engine's own calls inside it are
 *     made at once; the listeners it calls sit one level deeper, so their changes wait for the operation's end.</li>
 * </ul>
 * A change is <em>deferred</em> ({@link #isDeferring()}) whenever the stack is deeper than the innermost operation,
 * that is, inside a walk or a hold. When the stack empties, the recorded changes are applied in the order made; the
 * listeners they call record again, and those changes are applied in the same pass, round after round, until nothing
 * is left. Changes that never settle stop after {@link #MAX_ROUNDS} rounds with an exception naming the last round.
 * <p>
 * One thread at a time owns a world; the stack is that thread's. A parallel walk ({@link #beginParallel}) lets other
 * threads run the walk's actions: their own walks and holds are then part of it and leave the stack alone, and what
 * they change is deferred into the lane of their chunk, which keeps the order a sequential walk would have made.
 */
public final class Walks
{
    /** The most rounds of deferred changes applied before the changes are taken to form a cycle. */
    public static final int MAX_ROUNDS = 1000;

    /** The token of a walk or hold made by a parallel walk's worker: ending it does nothing. */
    public static final int PART_OF_PARALLEL_WALK = 0;

    /** What {@link #beginOperation(String, long)} is given when the operation is about no entity. */
    private static final long NO_SUBJECT = Long.MIN_VALUE;

    /** How many frames deeper than {@link #end}'s a walk's beginning reaches: see {@link #reserveStack()}. */
    private static final int RESERVED_FRAMES = 5;

    private static final byte WALK = 1;
    private static final byte HOLD = 2;
    private static final byte OPERATION = 3;
    private static final byte GUARDED_OPERATION = 4;
    private static final VarHandle OPEN;

    static
    {
        try
        {
            OPEN = MethodHandles.lookup().findVarHandle(Walks.class, "open", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Where deferred changes go, or null where none can be recorded (a set or storage of its own). */
    private final Deferred deferral;
    private final String ownerName;
    /** Walks under way on any thread; changed atomically through {@link #OPEN}. */
    @SuppressWarnings("unused")
    private volatile int open;
    private volatile boolean closing;
    private volatile boolean closed;
    /** The entries on the owner thread's stack, innermost last. */
    private int depth;
    /** The depth at which changes are made at once: 0, or the depth of the innermost operation. */
    private int immediateDepth;
    private String[] names = new String[8];
    /** The entity each entry is about, written into its name where {@code {}} stands; {@link #NO_SUBJECT} if none. */
    private long[] subjects = new long[8];
    private byte[] kinds = new byte[8];
    private int[] tokens = new int[8];
    /** For an operation: the {@link #immediateDepth} to restore when it ends. */
    private int[] savedImmediateDepths = new int[8];
    /** For a cursor's walk: what closes the cursor if its walk is ended for it. */
    private Runnable[] closers = new Runnable[8];
    private int nextToken = 1;
    /** The thread whose stack this is while it is not empty: a world is used by one thread at a time. */
    private Thread owner;
    /** The thread that runs a parallel walk while it runs, else null. */
    private volatile Thread parallelCaller;
    private String parallelWalk;
    private int parallelToken;
    private boolean flushing;
    /** Cursors a hold or operation returned with, ended then: thrown when the outermost entry ends. */
    private IllegalStateException leftOpen;

    /**
     * Creates the walks of one world, or of one set or storage.
     *
     * @param ownerName what messages call the owner, for example {@code "World"}.
     * @param defers    whether changes made during walks and holds are recorded (a world's), or refused (a set or
     *                  storage of its own).
     */
    public Walks(final String ownerName, final boolean defers)
    {
        this.ownerName = ownerName;
        this.deferral = defers ? new Deferred(this) : null;
    }

    /**
     * Where the changes made during walks and holds are recorded.
     *
     * @return the queue; null for a set or storage of its own, which refuses such changes.
     */
    public Deferred deferred()
    {
        return deferral;
    }

    /**
     * Begins a walk: until {@link #end} is called with the token returned, the structure holds still and closing from
     * any thread is refused.
     *
     * @param what the walk, for messages: {@code "MoversView.forEach"}.
     * @return the token that ends it.
     * @throws IllegalStateException if the owner is closed, or being closed by another thread.
     */
    public int beginWalk(final String what)
    {
        if (isPartOfParallelWalk())
        {
            return PART_OF_PARALLEL_WALK;
        }
        OPEN.getAndAdd(this, 1);
        if (closing && !awaitCloseDecision() || closed)
        {
            OPEN.getAndAdd(this, -1);
            throw closedForWalks(what);
        }
        try
        {
            return push(what, WALK);
        }
        catch (final RuntimeException | Error refused)
        {
            OPEN.getAndAdd(this, -1);
            throw refused;
        }
    }

    /**
     * Begins a cursor's walk, as {@link #beginWalk} does. A cursor's walk ends when the user closes it, in any order;
     * one begun inside a listener or comparator and still open when that returns is ended then, and
     * {@code close} is run so that the cursor stops.
     *
     * @param what  the walk, for messages: {@code "MoversView.cursor()"}.
     * @param close closes the cursor: it ends the walk with {@link #endIfOpen}.
     * @return the token that ends it.
     * @throws IllegalStateException if the owner is closed, or being closed by another thread.
     */
    public int beginCursorWalk(final String what, final Runnable close)
    {
        final int token = beginWalk(what);
        if (token != PART_OF_PARALLEL_WALK)
        {
            closers[depth - 1] = close;
        }
        return token;
    }

    /**
     * Begins a hold: user code the engine calls in the middle of its work (a listener, a comparator) runs until
     * {@link #end}, and the changes it makes are deferred.
     *
     * @param what what runs, for messages: {@code "a listener of Position's removal"}.
     * @return the token that ends it.
     */
    public int hold(final String what)
    {
        if (isPartOfParallelWalk())
        {
            return PART_OF_PARALLEL_WALK;
        }
        return push(what, HOLD);
    }

    /**
     * Begins an operation made in several steps with listeners between them: the engine's own calls until
     * {@link #end} are made at once; the listeners' changes wait for its end. Call only where {@link #isDeferring()}
     * is false.
     *
     * @param what the operation, for messages: {@code "destroy(3v0)"}.
     * @return the token that ends it.
     */
    public int beginOperation(final String what)
    {
        return beginOperation(what, NO_SUBJECT);
    }

    /**
     * Begins an operation about one entity, as {@link #beginOperation(String)} does, without building its name unless
     * a message needs it: the operations made for every entity while listeners watch allocate nothing.
     *
     * @param what    the operation, with {@code {}} where the entity goes: {@code "destroy({})"}.
     * @param subject the entity.
     * @return the token that ends it.
     */
    public int beginOperation(final String what, final long subject)
    {
        final int token = push(what, OPERATION);
        subjects[depth - 1] = subject;
        savedImmediateDepths[depth - 1] = immediateDepth;
        immediateDepth = depth;
        return token;
    }

    /**
     * Begins an operation, as {@link #beginOperation}, that also keeps other threads from closing the owner until it
     * ends, as a walk does: a snapshot load, which writes into the memory.
     *
     * @param what the operation, for messages: {@code "Snapshot.load"}.
     * @return the token that ends it.
     * @throws IllegalStateException if the owner is closed, or being closed by another thread.
     */
    public int beginGuardedOperation(final String what)
    {
        OPEN.getAndAdd(this, 1);
        if (closing && !awaitCloseDecision() || closed)
        {
            OPEN.getAndAdd(this, -1);
            throw closedForWalks(what);
        }
        final int token;
        try
        {
            token = push(what, GUARDED_OPERATION);
        }
        catch (final RuntimeException | Error refused)
        {
            OPEN.getAndAdd(this, -1);
            throw refused;
        }
        savedImmediateDepths[depth - 1] = immediateDepth;
        immediateDepth = depth;
        return token;
    }

    /**
     * Begins a parallel walk on the calling thread: until {@link #end}, the walks and holds other threads make are
     * part of it.
     *
     * @param what the walk, for messages: {@code "MoversView.parallelForEach"}.
     * @return the token that ends it.
     * @throws IllegalStateException if a parallel walk runs already, or the owner is closed.
     */
    public int beginParallel(final String what)
    {
        final Thread caller = parallelCaller;
        if (caller != null && caller != Thread.currentThread() && !Chunk.current().walksFor(this))
        {
            throw new IllegalStateException("cannot start " + what + " on " + Thread.currentThread().getName() +
                " while " + parallelWalk + " runs on " + caller.getName() + ": a " + ownerName + " is used by one " +
                "thread at a time; walk it after that returns, or give each thread a world of its own");
        }
        if (caller != null)
        {
            throw new IllegalStateException("cannot start " + what + " while " + parallelWalk + " runs: parallel " +
                "walks of one " + ownerName + " do not nest; run it after the first returns, or walk sequentially " +
                "inside the first's action");
        }
        final int token = beginWalk(what);
        parallelWalk = what;
        parallelToken = token;
        parallelCaller = Thread.currentThread();
        return token;
    }

    /**
     * Runs a parallel walk: {@code [0, extent)} in chunks on {@code pool} (see {@link Chunks#run}), with the structure
     * held until every chunk has returned; then the changes the chunks deferred are applied in the order of the
     * chunks.
     *
     * @param what      the walk, for messages: {@code "MoversView.parallelForEach"}.
     * @param pool      where the chunks run; the calling thread waits.
     * @param extent    the length of the range.
     * @param chunkSize indices per chunk, or {@link Chunks#AUTOMATIC}.
     * @param action    walks one chunk.
     * @throws IllegalStateException if a parallel walk runs already, or the owner is closed.
     */
    public void runParallel(
        final String what, final ForkJoinPool pool, final int extent, final int chunkSize, final ChunkAction action)
    {
        final int walk = beginParallel(what);
        try
        {
            Chunks.run(pool, extent, chunkSize, this, action);
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(end(walk, thrown));
        }
        end(walk);
    }

    /**
     * Ends a walk, hold or operation; once the stack is empty, applies the changes deferred meanwhile.
     *
     * @param token what {@code begin...} or {@link #hold} returned.
     * @throws IllegalStateException if the token is not open; if a listener or comparator returned with a cursor open
     *                               (its walk was ended then); or what applying the deferred changes threw.
     */
    public void end(final int token)
    {
        if (token == PART_OF_PARALLEL_WALK)
        {
            return;
        }
        pop(token);
        if (depth != 0 || flushing)
        {
            return;
        }
        try
        {
            flushIfDone();
        }
        catch (final RuntimeException | Error thrown)
        {
            final IllegalStateException leftOpen = takeLeftOpen();
            throw Failures.propagate(leftOpen == null ? thrown : Failures.collect(thrown, leftOpen));
        }
        final IllegalStateException leftOpen = takeLeftOpen();
        if (leftOpen != null)
        {
            throw leftOpen;
        }
    }

    /**
     * Ends a cursor's walk unless it has ended already: a cursor begun inside a listener and left open is ended when
     * the listener returns, and closing it later does nothing.
     *
     * @param token what {@link #beginWalk} returned.
     * @throws IllegalStateException what applying the deferred changes threw.
     */
    public void endIfOpen(final int token)
    {
        if (token != PART_OF_PARALLEL_WALK && isOpen(token))
        {
            end(token);
        }
    }

    /**
     * Ends a walk or hold whose code threw: the deferred changes are applied all the same (those made before the
     * failure stand, as they would have outside a walk), and whatever that throws is attached to {@code failure}.
     *
     * @param token   what {@code begin...} or {@link #hold} returned.
     * @param failure what the walk's or hold's code threw.
     * @return {@code failure}, to be rethrown.
     */
    public Throwable end(final int token, final Throwable failure)
    {
        if (token == PART_OF_PARALLEL_WALK)
        {
            return failure;
        }
        // As deep on the stack as end(token): a failure thrown where the stack runs out must still end the walk.
        try
        {
            pop(token);
            flushIfDone();
            if (depth == 0 && !flushing && leftOpen != null)
            {
                Failures.collect(failure, takeLeftOpen());
            }
        }
        catch (final RuntimeException | Error thrown)
        {
            Failures.collect(failure, thrown);
        }
        return failure;
    }

    /**
     * Runs {@code body} as the walk, hold or operation {@code token} began, and ends it: the changes deferred
     * meanwhile are applied when it returns or throws.
     *
     * @param token what {@code begin...} or {@link #hold} returned.
     * @param body  what runs.
     */
    public void run(final int token, final Runnable body)
    {
        try
        {
            body.run();
        }
        catch (final Throwable thrown)
        {
            throw Failures.propagate(end(token, thrown));
        }
        end(token);
    }

    /**
     * Whether a change made now is deferred: a walk or a hold is under way (on this thread, or a parallel walk's).
     *
     * @return true inside walks and holds.
     */
    public boolean isDeferring()
    {
        return depth != immediateDepth;
    }

    /**
     * Whether a walk, hold or operation is under way: an operation that cannot be deferred (closing, a reset, a
     * load, a sort) is refused then.
     *
     * @return true while the stack is not empty.
     */
    public boolean isHeld()
    {
        return depth != 0 || parallelCaller != null;
    }

    /**
     * Whether changes are recorded rather than refused while deferring.
     *
     * @return false for a set or storage made on its own.
     */
    public boolean canDefer()
    {
        return deferral != null;
    }

    /**
     * Whether a parallel walk runs now.
     *
     * @return true between {@link #beginParallel} and its end.
     */
    public boolean isParallel()
    {
        return parallelCaller != null;
    }

    /**
     * What holds the structure now, for messages: the outermost walk, hold or operation.
     *
     * @return for example {@code "MoversView.forEach"}; null if nothing does.
     */
    public String heldBy()
    {
        if (parallelCaller != null)
        {
            return parallelWalk;
        }
        return depth == 0 ? null : name(0);
    }

    /**
     * What holds the structure now, innermost first, for messages: {@code "a listener of ... in MoversView.forEach"}.
     *
     * @return the description; null if nothing does.
     */
    public String describeHold()
    {
        if (parallelCaller != null && (depth == 0 || Thread.currentThread() != parallelCaller))
        {
            return parallelWalk;
        }
        final int top = depth;
        if (top == 0)
        {
            return null;
        }
        if (owner != Thread.currentThread())
        {
            return "a walk on another thread";
        }
        final StringBuilder text = new StringBuilder(name(top - 1));
        for (int k = top - 2; k >= 0; k--)
        {
            text.append(" in ").append(name(k));
        }
        return text.toString();
    }

    /**
     * Throws unless an operation that cannot be deferred may run now: no walk or hold is under way.
     *
     * @param operation what is refused, for the message: {@code "sort Position storage"}.
     * @param advice    what to do instead, for the message.
     * @throws IllegalStateException if a walk or hold is under way.
     */
    public void refuseWhileDeferring(final String operation, final String advice)
    {
        if (isDeferring())
        {
            throw new IllegalStateException("cannot " + operation + " while " + describeHold() + " runs: " +
                "the structure holds still during walks and listeners, and this cannot wait for their end; " + advice);
        }
    }

    /**
     * The exception for a change made where it can be neither made nor recorded: a set or storage of its own that is
     * walked, or a parallel walk's worker making a change that has no deferred form.
     *
     * @param change what was attempted: {@code "insert 3v0 into sparse set"}.
     * @param advice what to do instead.
     * @return the exception to throw.
     */
    public IllegalStateException refusedChange(final String change, final String advice)
    {
        return new IllegalStateException("cannot " + change + " while " + describeHold() + " runs: the structure " +
            "holds still meanwhile; " + advice);
    }

    /**
     * Closes the owner: refused while anything holds the structure or a walk runs on any thread; otherwise
     * {@code free} runs once and later walks are refused.
     *
     * @param free what frees the owner's memory.
     * @throws IllegalStateException if a walk, hold or operation is under way here, or a walk on another thread.
     */
    public void close(final Runnable free)
    {
        if (closed)
        {
            return;
        }
        if (isHeld() && (owner == Thread.currentThread() || parallelCaller != null))
        {
            throw new IllegalStateException(ownerName + " cannot be closed while " + describeHold() + " runs: it " +
                "would free memory that is being read; close it after that returns");
        }
        closing = true;
        if ((int)OPEN.getVolatile(this) != 0 || depth != 0)
        {
            closing = false;
            throw new IllegalStateException(ownerName + " cannot be closed while another thread walks it: it would " +
                "free memory the walk reads; close it after the walk returns (a cursor's walk lasts until its " +
                "next() returns false or it is closed)");
        }
        try
        {
            free.run();
            closed = true;
        }
        finally
        {
            closing = false;
        }
    }

    /**
     * Whether {@link #close} has run.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Whether any walk is under way on any thread: closing is refused then.
     *
     * @return true while one is.
     */
    public boolean isWalked()
    {
        return (int)OPEN.getVolatile(this) != 0;
    }

    @Override
    public String toString()
    {
        final String hold = describeHold();
        return "Walks[" + ownerName + (hold == null ? "" : ", held by " + hold) + "]";
    }

    /** Whether this thread walks a chunk of this owner's parallel walk: a thread of another walk is not part of it. */
    private boolean isPartOfParallelWalk()
    {
        return parallelCaller != null && Chunk.current().walksFor(this);
    }

    /**
     * Throws unless the calling thread may record a change now: the thread that walks or holds the structure, or a
     * thread walking a chunk of its parallel walk. Another thread (one walking another world's parallel walk, or any
     * other) would race with it.
     *
     * @return true if the thread walks a chunk of the parallel walk, false if it is the owner's thread.
     * @throws IllegalStateException naming both threads.
     */
    boolean recordsFromChunk()
    {
        if (isPartOfParallelWalk())
        {
            return true;
        }
        final Thread thread = Thread.currentThread();
        final Thread holder = parallelCaller != null ? parallelCaller : owner;
        if (holder != null && holder != thread)
        {
            throw new IllegalStateException("cannot change this " + ownerName + " from " + thread.getName() +
                " while " + heldBy() + " runs on " + holder.getName() + ": a " + ownerName + " is used by one thread " +
                "at a time (the actions of its own parallel walk are the exception; those of another world's are " +
                "not); record the change in a dev.cairn.command.CommandBuffer and apply it after the walk");
        }
        return false;
    }

    private int push(final String what, final byte kind)
    {
        reserveStack();
        final Thread thread = Thread.currentThread();
        if (depth == 0)
        {
            owner = thread;
            // Left by an outermost entry whose end failed before reporting it (where the stack ran out).
            leftOpen = null;
        }
        else if (owner != thread)
        {
            throw new IllegalStateException("cannot begin " + what + " on " + thread.getName() + " while " +
                name(0) + " runs on " + owner.getName() + ": a " + ownerName + " is used by one thread at a " +
                "time (the actions of a parallel walk are the exception); walk it after the other thread's walk " +
                "returns, or give each thread a world of its own");
        }
        if (depth == names.length)
        {
            final int grown = depth * 2;
            names = Arrays.copyOf(names, grown);
            subjects = Arrays.copyOf(subjects, grown);
            kinds = Arrays.copyOf(kinds, grown);
            tokens = Arrays.copyOf(tokens, grown);
            savedImmediateDepths = Arrays.copyOf(savedImmediateDepths, grown);
            closers = Arrays.copyOf(closers, grown);
        }
        int token;
        do
        {
            // Positive, and not the token of an entry still open: after 2^31 walks the numbers come round again.
            token = nextToken++;
            if (token <= PART_OF_PARALLEL_WALK)
            {
                nextToken = PART_OF_PARALLEL_WALK + 1;
                token = nextToken++;
            }
        }
        while (isOpen(token));
        names[depth] = what;
        subjects[depth] = NO_SUBJECT;
        kinds[depth] = kind;
        tokens[depth] = token;
        depth++;
        return token;
    }

    /**
     * Reaches a few frames deeper than {@link #end} will from the same caller, before anything is pushed: where the
     * stack runs out, beginning fails and nothing holds the structure, rather than the end failing and the walk
     * staying open for ever.
     */
    private void reserveStack()
    {
        reserveStack(RESERVED_FRAMES);
    }

    private void reserveStack(final int frames)
    {
        if (frames == 0)
        {
            // The same call pop makes: an atomic add of nothing.
            OPEN.getAndAdd(this, 0);
        }
        else
        {
            reserveStack(frames - 1);
        }
    }

    /** Whether {@code token} is the token of an entry on the stack. */
    private boolean isOpen(final int token)
    {
        for (int k = 0; k < depth; k++)
        {
            if (tokens[k] == token)
            {
                return true;
            }
        }
        return false;
    }

    /** The name of the entry at {@code k}, with its entity written in. */
    private String name(final int k)
    {
        return subjects[k] == NO_SUBJECT ? names[k] : names[k].replace("{}", Entity.toString(subjects[k]));
    }

    private IllegalStateException takeLeftOpen()
    {
        final IllegalStateException taken = leftOpen;
        leftOpen = null;
        return taken;
    }

    private void flushIfDone()
    {
        if (depth == 0 && !flushing && deferral != null && !deferral.isEmpty())
        {
            flush();
        }
    }

    /**
     * Takes the entry {@code token} off the stack. Above a hold or operation it first ends the cursors left open;
     * above any other entry but a cursor's walk it drops the entries whose end failed where the stack ran out (the
     * code that began them has returned, since it ran inside this entry's).
     */
    private void pop(final int token)
    {
        int at = depth - 1;
        while (at >= 0 && tokens[at] != token)
        {
            at--;
        }
        if (at < 0)
        {
            throw new IllegalStateException("a walk, listener or operation of " + ownerName + " was ended twice, or " +
                "never begun (token " + token + ")");
        }
        if (at < depth - 1 && closers[at] == null)
        {
            if (kinds[at] == WALK)
            {
                for (int k = depth - 1; k > at; k--)
                {
                    if (closers[k] == null)
                    {
                        removeAt(k);
                    }
                }
            }
            else
            {
                endAbove(at);
            }
        }
        removeAt(at);
    }

    /** Removes the entry at {@code at}, undoing what its beginning did. Only a cursor's walk ends out of order. */
    private void removeAt(final int at)
    {
        final int token = tokens[at];
        final byte kind = kinds[at];
        if (kind == OPERATION || kind == GUARDED_OPERATION)
        {
            immediateDepth = savedImmediateDepths[at];
        }
        if (kind == GUARDED_OPERATION)
        {
            OPEN.getAndAdd(this, -1);
        }
        else if (kind == WALK)
        {
            if (parallelCaller != null && token == parallelToken)
            {
                // First, so that where the stack runs out in it nothing has changed yet and the entry ends later.
                if (deferral != null)
                {
                    deferral.parallelWalkEnded();
                }
                parallelCaller = null;
                parallelWalk = null;
            }
            OPEN.getAndAdd(this, -1);
        }
        // Only a cursor's walk ends out of order: whatever began after it keeps its place.
        final int after = depth - at - 1;
        if (after > 0)
        {
            System.arraycopy(names, at + 1, names, at, after);
            System.arraycopy(subjects, at + 1, subjects, at, after);
            System.arraycopy(kinds, at + 1, kinds, at, after);
            System.arraycopy(tokens, at + 1, tokens, at, after);
            System.arraycopy(savedImmediateDepths, at + 1, savedImmediateDepths, at, after);
            System.arraycopy(closers, at + 1, closers, at, after);
            if (immediateDepth > at)
            {
                immediateDepth--;
            }
            for (int k = at; k < depth - 1; k++)
            {
                if (savedImmediateDepths[k] > at)
                {
                    savedImmediateDepths[k]--;
                }
            }
        }
        depth--;
        names[depth] = null;
        closers[depth] = null;
        if (depth == 0)
        {
            owner = null;
        }
    }

    /**
     * Ends what is left above the hold or operation at {@code at}, which ends now: nothing the engine called may keep
     * the structure held. A cursor begun in it and left open is closed, and the exception saying so waits for the end
     * of the outermost entry, so that the engine's operation under way completes; an entry whose end failed where
     * the stack ran out is dropped. Apart from {@link #pop}, whose frames stay few: see {@link #reserveStack()}.
     */
    private void endAbove(final int at)
    {
        final Runnable[] closing = new Runnable[depth - at - 1];
        String cursor = null;
        for (int k = depth - 1; k > at; k--)
        {
            closing[k - at - 1] = closers[k];
            if (cursor == null && closers[k] != null)
            {
                cursor = names[k];
            }
            removeAt(k);
        }
        for (final Runnable close : closing)
        {
            if (close != null)
            {
                close.run();
            }
        }
        if (cursor != null)
        {
            final IllegalStateException ended = new IllegalStateException(cursor + " was begun in " + name(at) +
                " and was still open when that returned: its walk was ended then; close a cursor " +
                "(try-with-resources) before the code that began it returns");
            leftOpen = leftOpen == null ? ended : (IllegalStateException)Failures.collect(leftOpen, ended);
        }
    }

    private void flush()
    {
        flushing = true;
        Throwable failure = null;
        try
        {
            int rounds = 0;
            while (!deferral.isEmpty())
            {
                if (++rounds > MAX_ROUNDS)
                {
                    final String forgotten = deferral.discardRecorded();
                    failure = Failures.collect(failure, new IllegalStateException("the changes that listeners make " +
                        "did not settle: after " + MAX_ROUNDS + " rounds of applying deferred changes, the " +
                        "listeners had recorded " + forgotten + " (listeners that undo each other's changes, or " +
                        "that create or add without end, form a cycle); those were not applied"));
                    break;
                }
                try
                {
                    deferral.applyRecorded();
                }
                catch (final RuntimeException | Error thrown)
                {
                    failure = Failures.collect(failure, thrown);
                }
            }
        }
        finally
        {
            flushing = false;
        }
        Failures.rethrow(failure);
    }

    private boolean awaitCloseDecision()
    {
        while (closing)
        {
            if (closed)
            {
                return false;
            }
            Thread.onSpinWait();
        }
        return !closed;
    }

    private IllegalStateException closedForWalks(final String what)
    {
        return new IllegalStateException(closed ?
            "this " + ownerName + " is closed and its off-heap memory freed, so " + what + " cannot run; create a new " +
                ownerName + " to continue" :
            what + " cannot run: this " + ownerName + " is being closed by another thread");
    }
}
