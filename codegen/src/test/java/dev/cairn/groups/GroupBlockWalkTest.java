package dev.cairn.groups;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.groups.BlockFixtures.Mood;
import dev.cairn.groups.BlockFixtures.Pair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The walk of an owning group by block: the owned columns of up to {@code Block.CAPACITY} consecutive entities as
 * heap arrays, filled when asked for, the writable ones copied back after the action, with the structure locked.
 */
final class GroupBlockWalkTest
{
    private static final int CAPACITY = BlockFixtures_BodiesGroup.Block.CAPACITY;

    private final World world = new World(1 << 16);
    private final BlockFixtures_BodyStorage bodies = world.storage(BlockFixtures_BodyStorage.TYPE);
    private final BlockFixtures_TintStorage tints = world.storage(BlockFixtures_TintStorage.TYPE);
    private final BlockFixtures_LiveStorage live = world.storage(BlockFixtures_LiveStorage.TYPE);
    private final BlockFixtures_ParkedStorage parked = world.storage(BlockFixtures_ParkedStorage.TYPE);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void blocksCoverTheGroupFrontToBackAndHoldEachEntitysColumnsOfEveryType()
    {
        final Map<Long, Integer> members = populate(2 * CAPACITY + 77);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        assertEquals(members.size(), group.size());
        final List<Long> visited = new ArrayList<>();
        final int[] next = {0};

        group.forEachBlock(block ->
        {
            assertEquals(block.start() / CAPACITY * CAPACITY, block.start(), "blocks start at multiples of CAPACITY");
            assertEquals(next[0], block.start(), "blocks follow each other from the front");
            assertTrue(block.length() > 0 && block.length() <= CAPACITY);
            next[0] += block.length();
            final float[] x = block.bodyXReadOnly();
            final Mood[] mood = block.bodyMoodReadOnly();
            final boolean[] awake = block.bodyAwakeReadOnly();
            final double[] a = block.bodyPairAReadOnly();
            final long[] b = block.bodyPairBReadOnly();
            final long[] target = block.bodyTargetReadOnly();
            final byte[] tb = block.tintBReadOnly();
            final short[] ts = block.tintSReadOnly();
            final char[] tc = block.tintCReadOnly();
            final int[] ti = block.tintIReadOnly();
            for (int i = 0; i < block.length(); i++)
            {
                final long entity = block.entity(i);
                assertEquals(entity, bodies.entityAt(block.start() + i));
                final int n = members.get(entity);
                assertEquals(body(n, entity), new BlockFixtures.Body(x[i], mood[i], awake[i], new Pair(a[i], b[i]),
                    target[i]), "element " + i + " of block " + block.start());
                assertEquals(tint(n), new BlockFixtures.Tint(tb[i], ts[i], tc[i], ti[i]));
                visited.add(entity);
            }
        });

        assertEquals(group.size(), next[0], "the blocks end at the group's end");
        assertEquals(members.keySet(), new java.util.HashSet<>(visited));
        assertEquals(members.size(), visited.size(), "each entity in exactly one block");
    }

    @Test
    void aBlockHoldsAsManyEntitiesAsFitAbout8KiBOfItsColumns()
    {
        assertEquals(512, GroupFixtures_MovementGroup.Block.CAPACITY, "two components of two floats: 16 bytes each");
        assertEquals(256, GroupFixtures_AcceleratedGroup.Block.CAPACITY, "three of two floats: 24 bytes");
        assertEquals(128, CAPACITY, "Body and Tint: 39 bytes an entity");
    }

    @Test
    void writableArraysAreCopiedBackAndReadOnlyOnesAreNot()
    {
        final Map<Long, Integer> members = populate(CAPACITY + 10);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);

        group.forEachBlock(block ->
        {
            final float[] x = block.bodyX();
            final Mood[] mood = block.bodyMood();
            final boolean[] awake = block.bodyAwake();
            final long[] b = block.bodyPairB();
            final int[] ti = block.tintI();
            final double[] a = block.bodyPairAReadOnly();
            final short[] ts = block.tintSReadOnly();
            for (int i = 0; i < block.length(); i++)
            {
                x[i] += 0.5f;
                mood[i] = Mood.ASLEEP;
                awake[i] = !awake[i];
                b[i] = -b[i];
                ti[i] = ti[i] * 2;
                a[i] = -1;
                ts[i] = -1;
            }
        });

        for (final Map.Entry<Long, Integer> member : members.entrySet())
        {
            final long entity = member.getKey();
            final int n = member.getValue();
            final BlockFixtures.Body was = body(n, entity);
            assertEquals(new BlockFixtures.Body(was.x() + 0.5f, Mood.ASLEEP, !was.awake(),
                new Pair(was.pair().a(), -was.pair().b()), was.target()), bodies.get(entity));
            final BlockFixtures.Tint tintWas = tint(n);
            assertEquals(new BlockFixtures.Tint(tintWas.b(), tintWas.s(), tintWas.c(), tintWas.i() * 2),
                tints.get(entity), "the read-only short was not copied back, the writable int was");
        }
    }

    @Test
    void aColumnAskedForReadOnlyAndThenWritableIsCopiedBackWithTheChangesMadeBefore()
    {
        final Map<Long, Integer> members = populate(20);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);

        group.forEachBlock(block ->
        {
            final float[] x = block.bodyXReadOnly();
            for (int i = 0; i < block.length(); i++)
            {
                x[i] = 7;
            }
            assertTrue(x == block.bodyX(), "both accessors return the same array");
        });

        for (final long entity : members.keySet())
        {
            assertEquals(7f, bodies.x(entity));
        }
    }

    @Test
    void writingATrackedColumnStampsItsChangeTicksAndReadingDoesNot()
    {
        final Map<Long, Integer> members = populate(CAPACITY + 3);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final int before = world.advanceTick();
        final int now = world.tick();

        group.forEachBlock(block -> block.bodyXReadOnly());
        for (final long entity : members.keySet())
        {
            assertFalse(bodies.changedSince(bodies.indexOf(entity), before), "reading stamps nothing");
        }

        group.forEachBlock(block -> block.bodyMood());
        for (final long entity : members.keySet())
        {
            assertEquals(now, bodies.changedTickAt(bodies.indexOf(entity)), "the writable column was copied back");
        }
    }

    @Test
    void structuralChangesInsideTheActionAreMadeWhenTheWalkReturnsAndTheWorldAnswersAsItWasMeanwhile()
    {
        final Map<Long, Integer> members = populate(30);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final long[] outsider = {outsider()};
        final long[] created = {Entity.NULL};
        final Map<String, Consumer<Long>> changes = new java.util.LinkedHashMap<>();
        changes.put("destroy", entity -> world.destroy(entity));
        changes.put("create", entity -> created[0] = world.create());
        changes.put("erase", entity -> bodies.erase(entity));
        changes.put("emplace an excluded tag", entity -> parked.emplace(entity));
        changes.put("emplace an owned tag", entity -> live.emplace(outsider[0]));
        changes.put("clear a storage", entity -> bodies.clear());
        changes.put("clear the world", entity -> world.clear());
        final Map<String, Integer> sizeAfter = Map.of("destroy", 29, "create", 30, "erase", 29,
            "emplace an excluded tag", 29, "emplace an owned tag", 31, "clear a storage", 0, "clear the world", 0);

        for (final Map.Entry<String, Consumer<Long>> change : changes.entrySet())
        {
            final String what = change.getKey();
            final long first = group.group().entityAt(0);
            final int aliveBefore = world.aliveCount();
            final int[] visited = {0};
            group.forEachBlock(block ->
            {
                if (block.start() == 0)
                {
                    change.getValue().accept(block.entity(0));
                    block.bodyX()[0] = -5;
                }
                assertEquals(members.size(), group.size(), what + ": the group holds still during the walk");
                assertTrue(world.valid(block.entity(0)) && bodies.contains(block.entity(0)), what);
                assertEquals("BlockFixtures_BodiesGroup.forEachBlock", world.heldBy());
                visited[0] += block.length();
            });

            assertEquals(members.size(), visited[0], what + ": every member was visited");
            assertEquals(sizeAfter.get(what), group.size(), what + ": made when the walk returned");
            assertFalse(world.isDeferring());
            if (what.equals("create"))
            {
                assertEquals(aliveBefore + 1, world.aliveCount(), "a create is made at once");
                assertTrue(world.valid(created[0]));
                assertEquals(-5f, bodies.x(first), "values written in the action are kept");
            }
            else if (what.equals("destroy"))
            {
                assertFalse(world.valid(first));
            }
            world.clear();
            members.clear();
            members.putAll(populate(30));
            outsider[0] = outsider();
        }
    }

    /** An entity with a Body and a Tint but no Live tag: not a member. */
    private long outsider()
    {
        final long outsider = world.create();
        tints.add(outsider, tint(0));
        bodies.add(outsider, body(0, outsider));
        return outsider;
    }

    @Test
    void whatCannotWaitForTheWalksEndIsRefusedNamingTheWalkWithNothingChanged()
    {
        final Map<Long, Integer> members = populate(30);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final List<Consumer<Long>> changes = List.of(
            entity -> group.sort(bodies.comparingX()),
            entity -> group.close(),
            entity -> world.close(),
            entity -> world.reset(),
            entity -> new BlockFixtures_BodiesGroup(world),
            entity -> tints.reserve(1 << 12),
            entity -> tints.shrinkToFit());

        for (final Consumer<Long> change : changes)
        {
            final AtomicReference<IllegalStateException> refused = new AtomicReference<>();
            group.forEachBlock(block ->
            {
                refused.set(assertThrows(IllegalStateException.class, () -> change.accept(block.entity(0))));
                block.bodyX()[0] = -5;
            });
            assertTrue(refused.get().getMessage().contains("BlockFixtures_BodiesGroup.forEachBlock"),
                refused.get().getMessage());
            assertTrue(refused.get().getMessage().contains(" after "), "says to do it after the walk: " +
                refused.get().getMessage());
            assertEquals(members.size(), group.size());
            assertTrue(group.isOpen() && !world.isClosed());
            assertEquals(1, world.groups().size());
            for (final long entity : members.keySet())
            {
                assertTrue(group.contains(entity));
            }
        }
        assertEquals(-5f, bodies.xAt(0), "values written in the action are kept");
        final long entity = members.keySet().iterator().next();
        world.destroy(entity);
        assertFalse(group.contains(entity), "changes are made at once after the walk");
    }

    @Test
    void nestedWalksAndTicksInsideTheActionRunAndTheirChangesWaitForTheOutermostWalk()
    {
        final Map<Long, Integer> members = populate(30);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final int[] nested = {0, 0};
        final int tickBefore = world.tick();
        final ForkJoinPool pool = new ForkJoinPool(2);
        try
        {
            group.forEachBlock(block ->
            {
                group.forEachBlock(inner -> nested[0] += inner.length());
                group.parallelForEach(pool, 4, (e, body, tint) ->
                {
                    synchronized (nested)
                    {
                        nested[1]++;
                    }
                    world.destroy(e);
                });
                world.advanceTick();
                assertEquals(members.size(), group.size(), "the parallel walk's destroys wait for the outer walk");
            });
        }
        finally
        {
            pool.shutdown();
        }

        assertEquals(members.size(), nested[0]);
        assertEquals(members.size(), nested[1]);
        assertEquals(tickBefore + 1, world.tick());
        assertEquals(0, group.size(), "the destroys were made when the outer walk returned");
    }

    @Test
    void changesRecordedInACommandBufferApplyAfterTheWalk()
    {
        final Map<Long, Integer> members = populate(CAPACITY + 40);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final CommandBuffer commands = new CommandBuffer(world);

        group.forEachBlock(block ->
        {
            final boolean[] awake = block.bodyAwakeReadOnly();
            for (int i = 0; i < block.length(); i++)
            {
                if (!awake[i])
                {
                    parked.emplace(commands, block.entity(i));
                }
            }
        });
        commands.apply();

        for (final Map.Entry<Long, Integer> member : members.entrySet())
        {
            final boolean awake = body(member.getValue(), member.getKey()).awake();
            assertEquals(awake, group.contains(member.getKey()));
        }
    }

    @Test
    void anActionThatThrowsStopsTheWalkWithoutCopyingBackItsBlock()
    {
        populate(2 * CAPACITY + 5);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final Map<Long, Float> before = xs();
        final RuntimeException boom = new RuntimeException("boom");

        final RuntimeException thrown = assertThrows(RuntimeException.class, () -> group.forEachBlock(block ->
        {
            final float[] x = block.bodyX();
            for (int i = 0; i < block.length(); i++)
            {
                x[i] = 99;
            }
            if (block.start() > 0)
            {
                throw boom;
            }
        }));

        assertTrue(thrown == boom);
        for (int i = 0; i < group.size(); i++)
        {
            final long entity = bodies.entityAt(i);
            assertEquals(i < CAPACITY ? 99f : before.get(entity), bodies.xAt(i), "index " + i);
        }
        world.destroy(bodies.entityAt(0));
        assertEquals(2 * CAPACITY + 4, group.size(), "the structure is unlocked after a failed walk");
    }

    @Test
    void aNullEnumConstantIsRefusedBeforeAnyColumnOfItsBlockIsCopiedBack()
    {
        populate(CAPACITY + 5);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final Map<Long, Float> before = xs();

        final NullPointerException thrown = assertThrows(NullPointerException.class, () ->
            group.forEachBlock(block ->
            {
                final float[] x = block.bodyX();
                x[0] = 123;
                if (block.start() > 0)
                {
                    block.bodyMood()[4] = null;
                }
            }));

        assertEquals("element 4 of block.bodyMood() is null, but a component's enum field cannot be: put a " +
            "constant there; nothing of this block was copied back", thrown.getMessage());
        assertEquals(123f, bodies.xAt(0), "the first block was copied back");
        assertEquals(before.get(bodies.entityAt(CAPACITY)), bodies.xAt(CAPACITY), "the second was not");
        for (int i = 0; i < group.size(); i++)
        {
            assertNotNull(bodies.moodAt(i));
        }
    }

    @Test
    void aBlockKeptAfterItsActionThrowsOnEveryAccessor()
    {
        populate(10);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final AtomicReference<BlockFixtures_BodiesGroup.Block> kept = new AtomicReference<>();
        group.forEachBlock(block ->
        {
            block.bodyX();
            kept.set(block);
        });
        final BlockFixtures_BodiesGroup.Block block = kept.get();

        final List<Runnable> uses = List.of(block::start, block::length, () -> block.entity(0), block::bodyX,
            block::bodyXReadOnly, block::tintIReadOnly, block::bodyMood);
        for (final Runnable use : uses)
        {
            final IllegalStateException thrown = assertThrows(IllegalStateException.class, use::run);
            assertEquals("this block of BlockFixtures_BodiesGroup was used after the action it was passed to " +
                "returned; use a block only inside that action", thrown.getMessage());
        }
    }

    @Test
    void aWalkWhoseStartIsRefusedInsideAnotherLeavesThatOneHoldingTheStructure()
    {
        populate(10);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final BlockFixtures_BodiesGroup closed = new BlockFixtures_BodiesGroup(world);
        closed.close();
        final long[] destroyed = {Entity.NULL};
        group.forEachBlock(block ->
        {
            assertThrows(IllegalStateException.class, () -> closed.forEachBlock(inner -> fail("a closed group ran")));
            assertEquals("BlockFixtures_BodiesGroup.forEachBlock", world.heldBy());
            destroyed[0] = block.entity(0);
            world.destroy(destroyed[0]);
            assertTrue(world.valid(destroyed[0]), "still deferred");
        });
        assertNull(world.heldBy());
        assertFalse(world.valid(destroyed[0]));
    }

    @Test
    void anotherInstanceOfTheSameGroupWalkingInsideTheActionEndsOnlyItsOwnWalk()
    {
        populate(8);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final BlockFixtures_BodiesGroup twin = new BlockFixtures_BodiesGroup(world);
        final long[] destroyed = {Entity.NULL};

        group.forEachBlock(block ->
        {
            twin.forEachBlock(inner -> assertEquals(
                "BlockFixtures_BodiesGroup.forEachBlock in BlockFixtures_BodiesGroup.forEachBlock", world.heldBy()));
            assertEquals("BlockFixtures_BodiesGroup.forEachBlock", world.heldBy(),
                "an equal description of another walker ends nothing");
            destroyed[0] = block.entity(0);
            world.destroy(destroyed[0]);
            assertTrue(group.contains(destroyed[0]), "still deferred");
        });

        assertNull(world.heldBy());
        assertFalse(group.contains(destroyed[0]));
        assertEquals(7, twin.size());
    }

    @Test
    void aWalkIsAWalkOfTheWorldSoACloseFromAnotherThreadIsRefused() throws Exception
    {
        populate(10);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final AtomicReference<Throwable> closing = new AtomicReference<>();
        group.forEachBlock(block ->
        {
            assertTrue(world.isDeferring());
            final Thread closer = new Thread(() ->
            {
                try
                {
                    world.close();
                }
                catch (final Throwable ex)
                {
                    closing.set(ex);
                }
            });
            closer.start();
            try
            {
                closer.join();
            }
            catch (final InterruptedException ex)
            {
                throw new AssertionError(ex);
            }
            assertEquals(bodies.xAt(0), block.bodyXReadOnly()[0], "the memory is still there");
        });
        assertTrue(closing.get() instanceof IllegalStateException, String.valueOf(closing.get()));
        assertTrue(closing.get().getMessage().contains("cannot be closed while another thread walks it"),
            closing.get().getMessage());
        assertFalse(world.isDeferring());
        assertFalse(world.isClosed());
    }

    @Test
    void aWalkBegunWhereTheStackRunsOutLeavesNothingHoldingTheWorldAndWalksWorkingAfter()
    {
        populate(CAPACITY + 5);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final ForkJoinPool pool = new ForkJoinPool(2);
        try
        {
            final int[] tried = new int[1];
            // At each of the deepest frames in turn, so that the stack runs out somewhere inside the calls that start,
            // run or end a walk: no walk may stay open, and no class of the walk may be left failed to initialise
            // (the first bulk copy's array offsets were, which broke every later walk in the JVM). The action is made
            // up here: linking a lambda where the stack runs out throws an InternalError, which is no walk's doing.
            // The parallel walk is one chunk, run on this thread: a ForkJoinPool whose worker creation runs out of
            // stack can be left counting a worker that never started, and then never runs a task again.
            final BlockFixtures_BodiesGroup.BlockAction bump = block -> block.bodyX()[0]++;
            descendThenRun(tried, () ->
            {
                group.forEachBlock(bump);
                group.parallelForEachBlock(pool, 2 * CAPACITY, bump);
            });
            assertTrue(tried[0] > 0);
            assertNull(world.heldBy(), "a walk that overflowed the stack keeps nothing held: " + world.heldBy());
            assertFalse(world.isDeferring());
            final long entity = world.create();
            bodies.add(entity, body(1, entity));
            assertTrue(bodies.contains(entity), "made at once");
            group.forEachBlock(bump);
            group.parallelForEachBlock(pool, CAPACITY, bump);
        }
        finally
        {
            pool.shutdown();
        }
    }

    /** Recurses until the stack overflows, then runs {@code walk} in each of the deepest frames on the way back. */
    private static void descendThenRun(final int[] tried, final Runnable walk)
    {
        try
        {
            descendThenRun(tried, walk);
        }
        catch (final StackOverflowError expected)
        {
            // the bottom
        }
        if (tried[0] < 4_000)
        {
            tried[0]++;
            try
            {
                walk.run();
            }
            catch (final StackOverflowError expected)
            {
                // too deep for this part of the walk
            }
        }
    }

    @Test
    void applyingACommandBufferInsideTheActionIsRefusedNamingTheWalkAndItAppliesAfterIt()
    {
        populate(10);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final CommandBuffer commands = new CommandBuffer(world);
        final long[] parkedOne = {Entity.NULL};
        final String[] refused = new String[1];
        group.forEachBlock(block ->
        {
            parkedOne[0] = block.entity(0);
            parked.emplace(commands, parkedOne[0]);
            refused[0] = assertThrows(IllegalStateException.class, commands::apply).getMessage();
            assertEquals(10, group.size());
        });
        assertTrue(refused[0].contains("while BlockFixtures_BodiesGroup.forEachBlock runs") &&
            refused[0].contains("apply it after the walk or listener returns"), refused[0]);
        assertEquals(10, group.size(), "the refused apply changed nothing");
        assertEquals(0, commands.apply(), "the commands stayed recorded");
        assertEquals(9, group.size());
        assertFalse(group.contains(parkedOne[0]));
    }

    @Test
    void anIndexOutsideTheBlockIsNamed()
    {
        populate(10);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        group.forEachBlock(block ->
        {
            assertThrows(IndexOutOfBoundsException.class, () -> block.entity(-1));
            final IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class,
                () -> block.entity(10));
            assertEquals("index 10 is outside [0, 10), the entities of this block of BlockFixtures_BodiesGroup",
                past.getMessage());
        });
    }

    @Test
    void anEmptyGroupCallsNothingAndAClosedOneThrows()
    {
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        group.forEachBlock(block -> fail("an empty group has no block"));
        assertThrows(NullPointerException.class, () -> group.forEachBlock(null));

        group.close();
        final IllegalStateException closed = assertThrows(IllegalStateException.class,
            () -> group.forEachBlock(block -> fail("a closed group has no block")));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        final long entity = world.create();
        bodies.emplace(entity, 1, Mood.CALM, true, 1, 2, Entity.NULL);
        assertTrue(bodies.contains(entity), "a refused walk leaves the structure unlocked");
    }

    @Test
    void aBlockWalkInsideAnotherWalkOfTheSameGroupSeesAndKeepsItsValues()
    {
        populate(50);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final int[] inner = {0};
        group.forEach((entity, body, tint) ->
        {
            if (inner[0]++ == 0)
            {
                group.forEachBlock(block ->
                {
                    final float[] x = block.bodyX();
                    for (int i = 0; i < block.length(); i++)
                    {
                        x[i] = 3;
                    }
                });
            }
            assertEquals(3f, body.x(), "the outer walk reads what the block walk wrote");
        });
    }

    @Test
    void theParallelWalkPutsEachEntityInExactlyOneBlockAndCopiesEveryBlockBack() throws Exception
    {
        final Map<Long, Integer> members = populate(5 * CAPACITY + 11);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final ForkJoinPool pool = new ForkJoinPool(3);
        try
        {
            for (final int chunk : new int[] {1, 100, CAPACITY, 3 * CAPACITY, 0})
            {
                final Map<Long, Integer> seen = new ConcurrentHashMap<>();
                group.parallelForEachBlock(pool, chunk, block ->
                {
                    assertTrue(block.length() <= CAPACITY && block.start() % CAPACITY == 0,
                        "chunks are whole blocks: " + block.start() + ", " + block.length());
                    final int[] ti = block.tintI();
                    for (int i = 0; i < block.length(); i++)
                    {
                        assertNull(seen.put(block.entity(i), 1), "an entity in two blocks");
                        ti[i] += 1;
                    }
                });
                assertEquals(members.keySet(), seen.keySet(), "chunk size " + chunk);
            }
        }
        finally
        {
            pool.shutdownNow();
        }
        for (final Map.Entry<Long, Integer> member : members.entrySet())
        {
            assertEquals(tint(member.getValue()).i() + 5, tints.i(member.getKey()));
        }
        final IllegalStateException locked = assertThrows(IllegalStateException.class,
            () -> group.parallelForEachBlock(block -> world.create()));
        assertTrue(locked.getMessage().contains("parallelForEachBlock"), locked.getMessage());
    }

    @Test
    void commandsRecordedByAParallelWalkApplyInTheSequentialWalksOrderWhateverTheChunksAndThreads()
    {
        populate(5 * CAPACITY + 11);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final List<Long> sequential = recordedOrder(group, null, 0);
        assertTrue(sequential.size() > 100, "commands recorded: " + sequential.size());
        for (final int threads : new int[] {1, 2, 5})
        {
            final ForkJoinPool pool = new ForkJoinPool(threads);
            try
            {
                for (final int chunk : new int[] {1, 100, CAPACITY, CAPACITY + 1, 3 * CAPACITY, 0})
                {
                    assertEquals(sequential, recordedOrder(group, pool, chunk),
                        threads + " threads, chunks of " + chunk);
                }
            }
            finally
            {
                pool.shutdownNow();
            }
        }
    }

    /**
     * The entities a walk of {@code group} (sequential if {@code pool} is null) names, in the order a command buffer
     * applies what its action records: it creates an entity referring to every third member it is given, and the
     * created ones, which the group does not take, follow each other in the storage in that order.
     */
    private List<Long> recordedOrder(final BlockFixtures_BodiesGroup group, final ForkJoinPool pool, final int chunk)
    {
        final CommandBuffer commands = new CommandBuffer(world);
        final BlockFixtures_BodiesGroup.BlockAction action = block ->
        {
            for (int i = 0; i < block.length(); i++)
            {
                final long entity = block.entity(i);
                if (Entity.index(entity) % 3 == 0)
                {
                    bodies.emplace(commands, commands.create(), 0f, Mood.CALM, false, 0d, 0L, entity);
                }
            }
        };
        if (pool == null)
        {
            group.forEachBlock(action);
        }
        else
        {
            group.parallelForEachBlock(pool, chunk, action);
        }
        final int before = bodies.size();
        final int groupSize = group.size();
        commands.apply();
        assertEquals(groupSize, group.size(), "the created entities are not members");
        final List<Long> order = new ArrayList<>();
        for (int index = before; index < bodies.size(); index++)
        {
            order.add(bodies.targetAt(index));
        }
        return order;
    }

    @Test
    void aWarmWalkAllocatesNothing()
    {
        populate(3 * CAPACITY);
        final BlockFixtures_BodiesGroup group = new BlockFixtures_BodiesGroup(world);
        final BlockFixtures_BodiesGroup.BlockAction action = block ->
        {
            final float[] x = block.bodyX();
            final int[] ti = block.tintIReadOnly();
            for (int i = 0; i < block.length(); i++)
            {
                x[i] += ti[i];
            }
        };
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 30; round++)
        {
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            group.forEachBlock(action);
            fewest = Math.min(fewest, threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before);
        }
        assertEquals(0, fewest, "bytes allocated by a warm walk");
    }

    @Test
    void theStoragesBulkAccessorsCheckBothRangesAndTheStorage()
    {
        populate(40);
        final int size = bodies.size();
        final float[] x = new float[10];
        bodies.readXAt(5, x, 2, 8);
        for (int i = 0; i < 8; i++)
        {
            assertEquals(bodies.xAt(5 + i), x[2 + i]);
        }

        final IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class,
            () -> bodies.readXAt(size - 5, x, 0, 6));
        assertEquals("packed indices [" + (size - 5) + ", " + (size + 1) + ") are not inside [0, " + size + ") of " +
            bodies.name(), past.getMessage());
        final IndexOutOfBoundsException array = assertThrows(IndexOutOfBoundsException.class,
            () -> bodies.writeXAt(0, x, 5, 6));
        assertEquals("array elements [5, 11) are not inside the array of length 10, for 6 values of " +
            bodies.name(), array.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> bodies.readXAt(0, x, 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> bodies.readXAt(-1, x, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> bodies.readXAt(Integer.MAX_VALUE, x, 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> bodies.readXAt(0, x, Integer.MAX_VALUE, 2));
        bodies.readXAt(size, x, 10, 0);

        final Mood[] moods = {Mood.ANGRY, null, Mood.CALM};
        final Mood before = bodies.moodAt(0);
        final NullPointerException nul = assertThrows(NullPointerException.class,
            () -> bodies.writeMoodAt(0, moods, 0, 3));
        assertEquals("element 1 of the array is null, but mood of " + bodies.name() + " cannot be null: put a " +
            "constant there; nothing was written", nul.getMessage());
        assertEquals(before, bodies.moodAt(0), "nothing was written");
        assertEquals(size, bodies.size());
        final List<Executable> nullArrays = List.of(
            () -> bodies.readXAt(0, null, 0, 1), () -> bodies.writeXAt(0, null, 0, 1),
            () -> bodies.readMoodAt(0, null, 0, 1), () -> bodies.writeMoodAt(0, null, 0, 1),
            () -> bodies.readAwakeAt(0, null, 0, 1), () -> bodies.writeAwakeAt(0, null, 0, 1));
        for (int k = 0; k < nullArrays.size(); k++)
        {
            final String message = assertThrows(NullPointerException.class, nullArrays.get(k)).getMessage();
            assertEquals(k % 2 == 0 ? "target is null: pass the array to copy into" :
                "source is null: pass the array to copy from", message);
        }

        world.close();
        final IllegalStateException closed = assertThrows(IllegalStateException.class,
            () -> bodies.readXAt(0, x, 0, 0));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    /** {@code count} members of the group among entities with every component, some parked, some without Live. */
    private Map<Long, Integer> populate(final int count)
    {
        final Map<Long, Integer> members = new HashMap<>();
        final java.util.Random random = new java.util.Random(count);
        for (int n = 0; members.size() < count; n++)
        {
            final long entity = world.create();
            final BlockFixtures.Body body = body(n, entity);
            bodies.add(entity, body);
            tints.add(entity, tint(n));
            final int kind = random.nextInt(10);
            if (kind == 0)
            {
                live.emplace(entity);
                parked.emplace(entity);
            }
            else if (kind == 1)
            {
                continue;
            }
            else
            {
                live.emplace(entity);
                members.put(entity, n);
            }
        }
        return members;
    }

    private Map<Long, Float> xs()
    {
        final Map<Long, Float> xs = new HashMap<>();
        for (int i = 0; i < bodies.size(); i++)
        {
            xs.put(bodies.entityAt(i), bodies.xAt(i));
        }
        return xs;
    }

    private static BlockFixtures.Body body(final int n, final long entity)
    {
        return new BlockFixtures.Body(n * 0.25f, Mood.values()[n % 3], n % 2 == 0, new Pair(n * 1.5, -n * 3L),
            entity);
    }

    private static BlockFixtures.Tint tint(final int n)
    {
        return new BlockFixtures.Tint((byte)n, (short)(n * 7), (char)('a' + n % 26), n * 11);
    }
}
