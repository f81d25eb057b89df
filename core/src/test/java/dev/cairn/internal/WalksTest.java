package dev.cairn.internal;

import dev.cairn.Entity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mechanism behind the rule of change, on its own: what a walk, a hold and an operation defer, when the deferred
 * changes are applied, and what closing meets.
 */
class WalksTest
{
    /** A target that logs what is applied to it, and whose entities are alive until it destroys them. */
    private static class Log implements Deferred.Target
    {
        final List<String> applied = new ArrayList<>();
        final java.util.Set<Long> dead = new java.util.HashSet<>();

        @Override
        public boolean isAlive(final long entity)
        {
            return !dead.contains(entity);
        }

        @Override
        public void applyRemove(final long entity)
        {
            applied.add("remove " + Entity.toString(entity));
        }

        @Override
        public void applyDestroy(final long entity)
        {
            applied.add("destroy " + Entity.toString(entity));
            dead.add(entity);
        }

        @Override
        public void applyAdd(final long entity, final byte[] row, final int offset)
        {
            applied.add("add " + Entity.toString(entity) + " " + row[offset]);
        }
    }

    private final Walks walks = new Walks("test world", true);
    private final Log log = new Log();

    @Test
    void changesMadeDuringAWalkAreAppliedWhenTheOutermostWalkEndsInTheOrderMade()
    {
        final int outer = walks.beginWalk("outer walk");
        final int inner = walks.beginWalk("inner walk");
        assertTrue(walks.isDeferring());
        walks.deferred().remove(log, 1);
        walks.deferred().add(log, 2, 1).putByte(0, (byte)7);
        walks.end(inner);
        assertEquals(List.of(), log.applied, "the outer walk still holds the structure");
        walks.deferred().destroy(log, 3);
        walks.end(outer);

        assertEquals(List.of("remove 1v0", "add 2v0 7", "destroy 3v0"), log.applied);
        assertFalse(walks.isDeferring());
        assertNull(walks.heldBy());
    }

    @Test
    void aChangeToAnEntityAnEarlierChangeDestroyedIsDropped()
    {
        final int walk = walks.beginWalk("walk");
        walks.deferred().destroy(log, 5);
        walks.deferred().remove(log, 5);
        walks.deferred().remove(log, 6);
        walks.end(walk);

        assertEquals(List.of("destroy 5v0", "remove 6v0"), log.applied);
    }

    @Test
    void anOperationMakesItsOwnCallsAtOnceAndDefersTheListenersItCalls()
    {
        final int operation = walks.beginOperation("destroy(1v0)");
        assertFalse(walks.isDeferring(), "the engine's own steps are made at once");
        final int listener = walks.hold("a listener of World: destroying");
        assertTrue(walks.isDeferring());
        assertEquals("a listener of World: destroying in destroy(1v0)", walks.describeHold());
        walks.deferred().remove(log, 2);
        walks.end(listener);
        assertEquals(List.of(), log.applied, "applied when the operation ends, not when its listener does");
        walks.end(operation);
        assertEquals(List.of("remove 2v0"), log.applied);
    }

    @Test
    void whatAppliedChangesRecordIsAppliedInTheSamePass()
    {
        final Log chained = new Log()
        {
            @Override
            public void applyRemove(final long entity)
            {
                super.applyRemove(entity);
                if (entity < 3)
                {
                    final int hold = walks.hold("a listener");
                    walks.deferred().remove(this, entity + 1);
                    walks.end(hold);
                }
            }
        };
        final int walk = walks.beginWalk("walk");
        walks.deferred().remove(chained, 1);
        walks.end(walk);

        assertEquals(List.of("remove 1v0", "remove 2v0", "remove 3v0"), chained.applied);
    }

    @Test
    void changesThatNeverSettleStopWithAnExceptionThatSaysWhatWasLeft()
    {
        final Log endless = new Log()
        {
            @Override
            public void applyRemove(final long entity)
            {
                final int hold = walks.hold("a listener");
                walks.deferred().remove(this, entity);
                walks.end(hold);
            }
        };
        final int walk = walks.beginWalk("walk");
        walks.deferred().remove(endless, 1);

        final IllegalStateException error = assertThrows(IllegalStateException.class, () -> walks.end(walk));

        assertTrue(error.getMessage().contains("did not settle: after " + Walks.MAX_ROUNDS + " rounds"),
            error.getMessage());
        assertTrue(error.getMessage().contains("1 change (1 removal, the first removing"), error.getMessage());
        assertFalse(walks.isDeferring(), "the walk ended all the same");
        assertTrue(walks.deferred().isEmpty(), "and nothing is left recorded");
    }

    @Test
    void aFailingChangeDoesNotStopTheOthersAndTheFirstFailureIsThrownAtTheEnd()
    {
        final Log failing = new Log()
        {
            @Override
            public void applyRemove(final long entity)
            {
                super.applyRemove(entity);
                throw new IllegalArgumentException("refused " + entity);
            }
        };
        final int walk = walks.beginWalk("walk");
        walks.deferred().remove(failing, 1);
        walks.deferred().remove(failing, 2);

        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> walks.end(walk));

        assertEquals("refused 1", error.getMessage());
        assertEquals(1, error.getSuppressed().length);
        assertEquals(List.of("remove 1v0", "remove 2v0"), failing.applied);
    }

    @Test
    void aWalkWhoseCodeThrowsAppliesWhatItChangedAndKeepsTheException()
    {
        final int walk = walks.beginWalk("walk");
        walks.deferred().remove(log, 1);
        final RuntimeException thrown = new RuntimeException("the action failed");

        assertSame(thrown, walks.end(walk, thrown));

        assertEquals(List.of("remove 1v0"), log.applied);
        assertFalse(walks.isDeferring());
    }

    @Test
    void aCursorsWalkMayEndAfterAWalkBegunInsideIt()
    {
        final int cursor = walks.beginCursorWalk("MoversView.cursor()", () -> { });
        final int walk = walks.beginWalk("MoversView.forEach");
        walks.end(cursor);
        assertTrue(walks.isDeferring(), "the walk begun later still holds");
        assertEquals("MoversView.forEach", walks.heldBy());
        walks.deferred().remove(log, 1);
        walks.end(walk);
        assertEquals(List.of("remove 1v0"), log.applied);
        assertThrows(IllegalStateException.class, () -> walks.end(walk), "a walk ends once");
    }

    @Test
    void closingIsRefusedDuringAWalkOrHoldAndNamesIt()
    {
        final int[] freed = {0};
        final int walk = walks.beginWalk("MoversView.forEach");
        final IllegalStateException during = assertThrows(IllegalStateException.class, () -> walks.close(() ->
            freed[0]++));
        assertEquals("test world cannot be closed while MoversView.forEach runs: it would free memory that is being " +
            "read; close it after that returns", during.getMessage());
        walks.end(walk);

        walks.close(() -> freed[0]++);
        walks.close(() -> freed[0]++);
        assertEquals(1, freed[0]);
        final IllegalStateException after = assertThrows(IllegalStateException.class, () -> walks.beginWalk("walk"));
        assertTrue(after.getMessage().contains("closed"), after.getMessage());
    }

    @Test
    void closingFromAnotherThreadIsRefusedWhileAWalkRuns() throws Exception
    {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Thread walker = new Thread(() ->
        {
            final int walk = walks.beginWalk("a walk on another thread");
            inside.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            walks.end(walk);
        });
        walker.start();
        inside.await();
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> walks.close(() -> { }));
        assertTrue(refused.getMessage().contains("another thread walks it"), refused.getMessage());
        final IllegalStateException second = assertThrows(IllegalStateException.class, () -> walks.beginWalk("mine"));
        assertTrue(second.getMessage().contains("is used by one thread at a time"), second.getMessage());
        release.countDown();
        walker.join();
        walks.close(() -> { });
        assertTrue(walks.isClosed());
    }

    @Test
    void aCloseThatFailsPartWayCanBeCalledAgain()
    {
        final int[] tries = {0};
        assertThrows(StackOverflowError.class, () -> walks.close(() ->
        {
            if (tries[0]++ == 0)
            {
                throw new StackOverflowError();
            }
        }));
        assertFalse(walks.isClosed(), "a close that did not finish has not closed");
        walks.close(() -> tries[0]++);
        assertTrue(walks.isClosed());
        assertEquals(2, tries[0]);
    }

    @Test
    void theWorkersOfAParallelWalkDeferIntoTheirChunksWhichAreAppliedInTheChunksOrder()
    {
        final List<Long> order = java.util.Collections.synchronizedList(new ArrayList<>());
        final Log target = new Log()
        {
            @Override
            public void applyRemove(final long entity)
            {
                order.add(entity);
            }
        };
        final ForkJoinPool pool = new ForkJoinPool(4);
        try
        {
            walks.runParallel("a parallel walk", pool, 10_000, 7, (from, to) ->
            {
                for (int i = from; i < to; i++)
                {
                    final int nested = walks.beginWalk("a nested walk");
                    walks.deferred().remove(target, i);
                    walks.end(nested);
                }
            });
        }
        finally
        {
            pool.shutdown();
        }
        assertEquals(10_000, order.size());
        for (int i = 0; i < order.size(); i++)
        {
            assertEquals(i, (long)order.get(i), "the order of a sequential walk");
        }
        assertFalse(walks.isDeferring());
    }

    @Test
    void aSetOfItsOwnCannotDeferAndSaysSo()
    {
        final Walks own = new Walks("sparse set", false);
        final int walk = own.beginWalk("sparse set.forEach");
        assertFalse(own.canDefer());
        final IllegalStateException refused = own.refusedChange("insert 1v0 into sparse set", "collect them");
        assertEquals("cannot insert 1v0 into sparse set while sparse set.forEach runs: the structure holds still " +
            "meanwhile; collect them", refused.getMessage());
        own.end(walk);
    }
    @Test
    void aCursorLeftOpenWhenAListenerReturnsIsEndedThenAndClosingItLaterDoesNothing()
    {
        final int listener = walks.hold("a listener of Position's addition");
        final boolean[] closed = new boolean[1];
        final int cursor = walks.beginCursorWalk("MoversView.cursor()", () -> closed[0] = true);
        walks.deferred().remove(log, 1);

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> walks.end(listener));
        assertEquals("MoversView.cursor() was begun in a listener of Position's addition and was still open when " +
            "that returned: its walk was ended then; close a cursor (try-with-resources) before the code that began " +
            "it returns",
            thrown.getMessage());
        assertEquals(List.of("remove 1v0"), log.applied, "what was deferred is applied all the same");
        assertTrue(closed[0], "the cursor was told to stop");
        assertFalse(walks.isWalked());
        assertNull(walks.heldBy());

        walks.endIfOpen(cursor);
        assertThrows(IllegalStateException.class, () -> walks.end(cursor), "ended once only");
    }

    @Test
    void aCursorMayOutliveTheWalkItWasBegunIn()
    {
        final int walk = walks.beginWalk("MoversView.forEach");
        final int cursor = walks.beginCursorWalk("MoversView.cursor()", () -> { });
        walks.end(walk);
        assertTrue(walks.isDeferring(), "the cursor still holds the structure");
        walks.deferred().remove(log, 1);
        walks.endIfOpen(cursor);
        assertEquals(List.of("remove 1v0"), log.applied);
        assertFalse(walks.isWalked());
    }

    @Test
    void aCursorLeftOpenByAListenerInsideAnOperationIsReportedWhenTheOperationEnds()
    {
        final int destroy = walks.beginOperation("World.destroy({})", Entity.of(3, 0));
        final int listener = walks.hold("a listener of World: destroying");
        walks.beginCursorWalk("MoversView.cursor()", () -> { });
        walks.end(listener);
        assertFalse(walks.isDeferring(), "the operation's own steps are made at once again");

        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> walks.end(destroy));
        assertTrue(thrown.getMessage().startsWith("MoversView.cursor() was begun in a listener of World: " +
            "destroying"), thrown.getMessage());
        assertNull(walks.heldBy());
        assertFalse(walks.isWalked());
        walks.end(walks.beginWalk("a later walk"));
    }

    @Test
    void aWalkWhoseEndFailedIsDroppedWhenAWalkItRanInsideEndsAndACursorIsKept()
    {
        final int outer = walks.beginWalk("MoversView.forEach");
        final int cursor = walks.beginCursorWalk("MoversView.cursor()", () -> { });
        walks.beginWalk("World.forEachEntity"); // its end never ran, as where the stack ran out
        walks.beginOperation("World.destroy({})", Entity.of(2, 0)); // nor this one's
        walks.deferred().remove(log, 1);

        walks.end(outer);
        assertEquals("MoversView.cursor()", walks.heldBy(), "only the cursor, which may outlive its walk, is left");
        assertTrue(walks.isDeferring());
        walks.end(cursor);
        assertEquals(List.of("remove 1v0"), log.applied);
        assertNull(walks.heldBy());
        assertFalse(walks.isWalked());
        walks.end(walks.beginWalk("a later walk"));
    }

    @Test
    void aHoldEndingDropsAParallelWalkOrOperationWhoseEndFailedAboveIt()
    {
        final int listener = walks.hold("a listener of World: destroying");
        walks.beginParallel("MoversView.parallelForEach"); // its end never ran, as where the stack ran out
        walks.end(listener);
        assertFalse(walks.isHeld());
        assertFalse(walks.isParallel());
        walks.end(walks.beginParallel("a later parallel walk"));

        final int other = walks.hold("a listener of World: destroying");
        walks.beginOperation("World.destroy({})", Entity.of(1, 0)); // nor this one's
        walks.end(other);
        assertFalse(walks.isHeld());
        assertFalse(walks.isDeferring(), "changes are made at once again");
    }
}
