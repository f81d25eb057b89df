package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.internal.Access;
import dev.cairn.internal.Failures;
import dev.cairn.internal.Row;
import dev.cairn.signal.Connection;
import dev.cairn.parallel.ParallelFixtures.Follow;
import dev.cairn.parallel.ParallelFixtures.Mood;
import dev.cairn.parallel.ParallelFixtures.Position;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What each command does when applied, placeholders, commands whose entity is gone, and what is refused when recorded.
 */
final class CommandBufferTest
{
    private final World world = new World(1 << 16);
    private final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
    private final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
    private final ParallelFixtures_FrozenStorage frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
    private final ParallelFixtures_FollowStorage follows = world.storage(ParallelFixtures_FollowStorage.TYPE);
    private final CommandBuffer commands = new CommandBuffer(world);

    @AfterEach
    void close()
    {
        world.close();
    }

    @Test
    void nothingHappensUntilApplyThenEveryCommandInTheOrderRecorded()
    {
        final long a = world.create();
        final long b = world.create();
        positions.emplace(b, 1f, 1f);

        positions.emplace(commands, a, 2f, 3f);
        positions.patch(commands, b, 4f, 5f);
        healths.emplace(commands, a, 10, true);
        frozen.emplace(commands, a);
        commands.remove(b, positions);
        positions.emplace(commands, b, 6f, 7f);
        final long c = commands.create();
        follows.emplace(commands, c, a, Mood.ANGRY, (short)3);

        assertEquals(8, commands.size());
        assertFalse(positions.contains(a), "recording changes nothing");
        assertEquals(2, world.aliveCount());

        assertEquals(0, commands.apply());

        assertEquals(new Position(2f, 3f), positions.get(a));
        assertEquals(new Position(6f, 7f), positions.get(b), "patched, removed, then added again, in that order");
        assertEquals(10, healths.hp(a));
        assertTrue(frozen.contains(a));
        assertEquals(3, world.aliveCount());
        final long created = follows.entityAt(0);
        assertEquals(new Follow(a, Mood.ANGRY, (short)3), follows.get(created));
        assertTrue(commands.isEmpty(), "apply empties the buffer");
        assertEquals(0, commands.apply());
    }

    @Test
    void aLongRunOfAddsDecidesEachCommandAsADirectAddWould()
    {
        final ParallelFixtures_HeatStorage heats = world.storage(ParallelFixtures_HeatStorage.TYPE);
        final int count = 20_000;                     // beyond the storages' first capacity and first sparse page
        final long[] entities = new long[count];
        for (int i = 0; i < count; i++)
        {
            entities[i] = world.create();
        }
        final long member = entities[5];
        positions.emplace(member, -1f, -1f);
        heats.emplace(member, -1f);
        final List<Long> heard = new ArrayList<>();
        long placeholder = Entity.NULL;
        for (int i = 0; i < count; i++)             // one long run of position adds, then one of heat adds
        {
            if (i == 9_000)
            {
                placeholder = commands.create();
                positions.emplace(commands, placeholder, 0.5f, 0.5f);
            }
            positions.emplace(commands, entities[i], i, -i);
        }
        for (int i = 0; i < count; i++)
        {
            heats.emplace(commands, i == 9_002 ? placeholder : entities[i], i); // 9,002: destroyed below
        }
        for (int i = 0; i < count; i += 7)
        {
            world.destroy(entities[i]);
        }
        world.advanceTick();
        positions.onAdded((entity, index) -> heard.add(entity));

        final int skipped = commands.apply();

        final int destroyed = (count + 6) / 7;
        assertEquals(2 * destroyed - 1, skipped, "each add to a destroyed entity is skipped");
        for (int i = 0; i < count; i++)
        {
            if (i % 7 == 0)
            {
                assertFalse(positions.contains(entities[i]));
                assertFalse(heats.contains(entities[i]));
                continue;
            }
            assertEquals(new Position(i, -i), positions.get(entities[i]), "an existing component is overwritten");
            assertEquals(i, heats.t(entities[i]));
            assertEquals(world.tick(), heats.changedTickAt(heats.indexOf(entities[i])));
        }
        final long created = findCreated(entities);
        assertEquals(new Position(0.5f, 0.5f), positions.get(created));
        assertEquals(9_002f, heats.t(created));
        assertEquals(world.tick(), heats.addedTickAt(heats.indexOf(created)), "a new component's added tick is stamped");
        assertEquals(1, heats.addedTickAt(heats.indexOf(member)), "an overwrite keeps the added tick");
        assertEquals(count - destroyed + 1, positions.size());
        assertEquals(count - destroyed, heard.size(), "a listener hears every add but the overwrite");
        assertEquals(entities[1], heard.get(0), "in the order recorded");
    }

    @Test
    void runsOfAddsLeaveEveryPolicysStorageInTheOrderDirectAddsWould()
    {
        final String direct;
        final String applied;
        try (World twin = new World(1 << 16))
        {
            direct = addsToHolesAndReleasedEntries(twin, null);
        }
        applied = addsToHolesAndReleasedEntries(world, commands);
        assertEquals(direct, applied);
    }

    /**
     * Fills storages of every policy, removes some members (leaving holes in the in-place ones and released entries in
     * the swap-only one), then adds to every entity again, directly or through {@code recorder}; returns each storage's
     * packed order and values.
     */
    private static String addsToHolesAndReleasedEntries(final World world, final CommandBuffer recorder)
    {
        final ParallelFixtures_PositionStorage positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
        final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
        final ParallelFixtures_HealthStorage healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
        final ParallelFixtures_FrozenStorage frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
        final long[] entities = new long[3_000];
        for (int i = 0; i < entities.length; i++)
        {
            entities[i] = world.create();
            if (i % 2 == 0)
            {
                positions.emplace(entities[i], i, i);
                velocities.emplace(entities[i], i, i);
                healths.emplace(entities[i], i, true);
                frozen.emplace(entities[i]);
            }
        }
        for (int i = 0; i < entities.length; i += 6)
        {
            positions.remove(entities[i]);
            velocities.remove(entities[i]);
            healths.remove(entities[i]);
            frozen.remove(entities[i]);
        }
        world.destroy(entities[1]);
        for (int i = entities.length - 1; i >= 0; i--)
        {
            if (positions.contains(entities[i]) || !world.valid(entities[i]))
            {
                continue;
            }
            if (recorder == null)
            {
                positions.emplace(entities[i], -i, i);
                velocities.emplace(entities[i], -i, i);
                healths.emplace(entities[i], -i, false);
                frozen.emplace(entities[i]);
            }
            else
            {
                positions.emplace(recorder, entities[i], -i, i);
            }
        }
        if (recorder != null)
        {
            for (int i = entities.length - 1; i >= 0; i--)
            {
                if (!velocities.contains(entities[i]))
                {
                    velocities.emplace(recorder, entities[i], -i, i);
                }
            }
            for (int i = entities.length - 1; i >= 0; i--)
            {
                if (!healths.contains(entities[i]))
                {
                    healths.emplace(recorder, entities[i], -i, false);
                }
            }
            for (int i = entities.length - 1; i >= 0; i--)
            {
                if (!frozen.contains(entities[i]))
                {
                    frozen.emplace(recorder, entities[i]);
                }
            }
            assertEquals(3, recorder.apply(), "the adds of velocity, health and frozen for the destroyed entity 1");
        }
        final StringBuilder layout = new StringBuilder();
        for (final dev.cairn.storage.ComponentStorage<?> storage :
            List.of(positions, velocities, healths, frozen))
        {
            layout.append(storage.name()).append(':');
            for (int i = 0; i < storage.extent(); i++)
            {
                final long entity = storage.entityAt(i);
                layout.append(' ').append(entity == Entity.NULL ? "hole" :
                    Entity.toString(entity) + "=" + storage.get(entity));
            }
            layout.append('\n');
        }
        return layout.toString();
    }

    @Test
    void aRunOfAddsThatRunsOutOfMemoryMakesTheAddsThatFitAndReportsTheRest()
    {
        final int count = 20_000;
        final long[] entities = new long[count];
        final long budget;
        try (World probe = new World(1 << 16))
        {
            for (int i = 0; i < count; i++)
            {
                probe.create();
            }
            probe.storage(ParallelFixtures_PositionStorage.TYPE).emplace(probe.create(), 0f, 0f);
            budget = probe.offHeapBytes() + 40_000;  // room for a few thousand positions, not 20,000
        }
        try (World small = new World(1 << 16, budget))
        {
            final ParallelFixtures_PositionStorage smallPositions = small.storage(ParallelFixtures_PositionStorage.TYPE);
            final CommandBuffer buffer = new CommandBuffer(small);
            for (int i = 0; i < count; i++)
            {
                entities[i] = small.create();
                smallPositions.emplace(buffer, entities[i], i, i);
            }

            final dev.cairn.OffHeapExhaustedException thrown =
                assertThrows(dev.cairn.OffHeapExhaustedException.class, buffer::apply);

            final int added = smallPositions.size();
            assertTrue(added > 0 && added < count, added + " added");
            assertEquals(Math.min(100, count - added - 1), thrown.getSuppressed().length,
                "every add that did not fit is reported, the first thrown and the next 100 suppressed");
            for (int i = 0; i < count; i++)
            {
                assertEquals(i < added, smallPositions.contains(entities[i]), "the adds that fit are the first ones");
            }
            assertEquals(new Position(added - 1, added - 1), smallPositions.get(entities[added - 1]));
            assertTrue(buffer.isEmpty());
            smallPositions.remove(entities[0]);
            smallPositions.emplace(entities[added], 1f, 1f);   // the storage is usable after
            assertEquals(added, smallPositions.size());
        }
    }

    @Test
    void clearingTheBufferDuringAParallelIterationIsRefusedAndLosesNothing()
    {
        final ParallelFixtures_VelocityStorage velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
        for (int i = 0; i < 2_000; i++)
        {
            final long entity = world.create();
            positions.emplace(entity, i, i);
            velocities.emplace(entity, 1, 1);
        }
        final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        final ForkJoinPool pool = new ForkJoinPool(4);
        try
        {
            new ParallelFixtures_MoversView(world).parallelForEach(pool, 16, (entity, position, velocity) ->
            {
                commands.destroy(entity);
                if (Entity.index(entity) % 500 == 0)
                {
                    final IllegalStateException thrown = assertThrows(IllegalStateException.class, commands::clear);
                    assertTrue(thrown.getMessage().contains("clear it after"), thrown.getMessage());
                    refused.incrementAndGet();
                }
            });
        }
        finally
        {
            pool.shutdown();
        }
        assertEquals(4, refused.get());
        assertEquals(2_000, commands.size(), "every thread's commands are still there");
        assertEquals(0, commands.apply());
        assertEquals(0, world.aliveCount());
    }

    /** The one entity of {@code positions} that is not among {@code entities}. */
    private long findCreated(final long[] entities)
    {
        final java.util.Set<Long> known = new java.util.HashSet<>();
        for (final long entity : entities)
        {
            known.add(entity);
        }
        for (int i = 0; i < positions.size(); i++)
        {
            if (!known.contains(positions.entityAt(i)))
            {
                return positions.entityAt(i);
            }
        }
        throw new AssertionError("no entity was created");
    }

    @Test
    void commandsRecordedBeforeAResetAreRefusedWhereTheirHandlesWouldNameNewEntities()
    {
        final long a = world.create();
        positions.emplace(a, 1f, 1f);
        commands.destroy(a);
        positions.emplace(commands, commands.create(), 7f, 7f);

        world.reset();
        final long reborn = world.create();
        positions.emplace(reborn, 2f, 2f);
        assertEquals(Entity.index(a), Entity.index(reborn));
        final IllegalStateException refused = assertThrows(IllegalStateException.class, commands::apply);
        assertTrue(refused.getMessage().contains("before World.reset()") &&
            refused.getMessage().contains("clear()"), refused.getMessage());
        assertTrue(world.valid(reborn), "nothing was applied");
        assertEquals(1, positions.size());
        assertEquals(3, commands.size(), "the buffer keeps its commands");

        positions.patch(commands, reborn, 3f, 3f);
        assertThrows(IllegalStateException.class, commands::apply, "a lane holding commands from both sides");

        commands.clear();
        positions.patch(commands, reborn, 4f, 4f);
        assertEquals(0, commands.apply(), "commands recorded after the reset apply");
        assertEquals(new Position(4f, 4f), positions.get(reborn));

        world.reset();
        final long after = world.create();
        positions.emplace(commands, after, 5f, 5f);
        assertEquals(0, commands.apply(), "a buffer empty at the reset takes commands recorded after it");
        assertEquals(new Position(5f, 5f), positions.get(after));
        assertEquals(2, world.resets());
    }

    @Test
    void aRemovalIsRecordedThroughTheStorageAsAddsAndPatchesAre()
    {
        final long a = world.create();
        positions.emplace(a, 1f, 2f);
        frozen.emplace(a);
        final long b = world.create();

        positions.remove(commands, a);
        frozen.remove(commands, a);
        positions.remove(commands, b);

        assertTrue(positions.contains(a), "recording changes nothing");
        assertEquals(0, commands.apply(), "removing what an entity lacks is no error and skips nothing");
        assertFalse(positions.contains(a));
        assertFalse(frozen.contains(a));
        assertTrue(world.valid(a));
    }

    @Test
    void commandsRecordedOnTheCommonPoolApplyInTheSequentialOrderRunAfterRun()
    {
        // The common pool's workers lose their thread-local values between tasks: the order must not depend on them.
        for (int i = 0; i < 2_000; i++)
        {
            positions.emplace(world.create(), i, 0f);
        }
        final List<Long> sequential = new ArrayList<>();
        world.view(ParallelFixtures.Position.class).forEach(sequential::add);
        final List<Long> applied = new ArrayList<>();
        frozen.onAdded((entity, index) -> applied.add(entity));
        frozen.onRemoving((entity, index) -> applied.add(entity));
        for (int round = 0; round < 12; round++)
        {
            final boolean adding = round % 2 == 0;
            world.view(ParallelFixtures.Position.class).parallelForEach(ForkJoinPool.commonPool(), 16, entity ->
            {
                if (adding)
                {
                    frozen.emplace(commands, entity);
                }
                else
                {
                    commands.remove(entity, frozen);
                }
            });
            applied.clear();

            commands.apply();

            final int round1 = round;
            assertTrue(sequential.equals(applied), () -> "round " + round1 + ": applied " + applied.size() +
                " commands, first out of the sequential order at " + firstDifference(sequential, applied));
        }
    }

    private static int firstDifference(final List<Long> expected, final List<Long> actual)
    {
        int at = 0;
        while (at < Math.min(expected.size(), actual.size()) && expected.get(at).equals(actual.get(at)))
        {
            at++;
        }
        return at;
    }

    @Test
    void aPlaceholderStandsForTheCreatedEntityInLaterCommandsAndInEntityReferenceFields()
    {
        final long leader = commands.create();
        final long follower = commands.create();
        positions.emplace(commands, leader, 1f, 1f);
        follows.emplace(commands, follower, leader, Mood.CALM, (short)1);
        follows.emplace(commands, leader, follower, Mood.CALM, (short)2);

        assertTrue(leader < 0 && leader != Entity.NULL && !Entity.isWellFormed(leader), "never a real handle");
        commands.apply();

        final long realLeader = positions.entityAt(0);
        assertTrue(world.valid(realLeader));
        final long realFollower = follows.get(realLeader).target();
        assertTrue(world.valid(realFollower));
        assertEquals(realLeader, follows.target(realFollower), "a placeholder in an @EntityRef field is resolved");
        assertFalse(world.valid(leader));
    }

    @Test
    void anEntityReferenceToAnotherBuffersPlaceholderOrAnyNegativeValueIsWrittenAsNull()
    {
        final CommandBuffer other = new CommandBuffer(world);
        final long foreign = other.create();
        final long a = world.create();
        final long b = world.create();
        final long c = world.create();
        follows.emplace(commands, a, foreign, Mood.CALM, (short)1);
        follows.emplace(commands, b, -12345L, Mood.CALM, (short)2);
        follows.emplace(commands, c, a, Mood.CALM, (short)3);

        commands.apply();

        assertEquals(Entity.NULL, follows.target(a), "another buffer's placeholder names nothing here");
        assertEquals(Entity.NULL, follows.target(b), "no handle is negative");
        assertEquals(a, follows.target(c), "a handle is kept as it is");
        other.apply();
    }

    @Test
    void commandsWhoseEntityIsGoneAreSkippedAndCounted()
    {
        final long a = world.create();
        final long b = world.create();
        positions.emplace(b, 1f, 1f);
        positions.emplace(commands, a, 1f, 1f);
        commands.destroy(a);
        positions.emplace(commands, a, 2f, 2f);     // a is gone by now: skipped
        commands.destroy(a);                         // again: skipped
        healths.patch(commands, b, 5, true);        // b has no Health: skipped
        commands.remove(b, healths);                // b lacks it: nothing to do, not skipped
        final long kept = commands.create();
        commands.apply();
        assertEquals(2, world.aliveCount(), "b and the created one (a was destroyed)");
        positions.emplace(commands, kept, 1f, 1f);  // a placeholder from an earlier round: unknown now

        final int skipped = commands.apply();

        assertEquals(1, skipped);
        assertFalse(world.valid(a));
        assertEquals(1, positions.size());
    }

    @Test
    void aCommandAppliedToAnEntityDestroyedSinceItWasRecordedIsSkipped()
    {
        final long a = world.create();
        positions.emplace(commands, a, 1f, 1f);
        world.destroy(a);
        final long reused = world.create();
        assertEquals(Entity.index(a), Entity.index(reused));

        assertEquals(1, commands.apply());

        assertFalse(positions.contains(reused), "the stale handle never reaches the entity that took its index");
    }

    @Test
    void recordingRefusesWhatCouldNeverApplyWithAMessage()
    {
        // A null storage first of all, before the lane has met any storage.
        assertThrows(NullPointerException.class, () -> commands.remove(world.create(), null));
        assertThrows(NullPointerException.class, () -> commands.add(world.create(), null));
        final IllegalArgumentException nullEntity =
            assertThrows(IllegalArgumentException.class, () -> commands.destroy(Entity.NULL));
        assertTrue(nullEntity.getMessage().contains("not Entity.NULL"), nullEntity.getMessage());
        final IllegalArgumentException forged =
            assertThrows(IllegalArgumentException.class, () -> commands.destroy(Long.MIN_VALUE + 12));
        assertTrue(forged.getMessage().contains("neither an entity nor a placeholder"), forged.getMessage());
        final CommandBuffer other = new CommandBuffer(world);
        final long foreign = other.create();
        assertThrows(IllegalArgumentException.class, () -> commands.destroy(foreign),
            "another buffer's placeholder");
        final IllegalArgumentException fields =
            assertThrows(IllegalArgumentException.class, () -> commands.add(world.create(), positions));
        assertTrue(fields.getMessage().contains("emplace(commands, entity, fields...)"), fields.getMessage());
        try (World elsewhere = new World())
        {
            final ParallelFixtures_PositionStorage theirs = elsewhere.storage(ParallelFixtures_PositionStorage.TYPE);
            final IllegalArgumentException foreignStorage = assertThrows(IllegalArgumentException.class,
                () -> theirs.emplace(commands, world.create(), 1f, 1f));
            assertTrue(foreignStorage.getMessage().contains("is not this world's"), foreignStorage.getMessage());
        }
        assertThrows(NullPointerException.class, () -> follows.emplace(commands, world.create(), 0, null, (short)0));
        assertEquals(0, commands.size(), "nothing refused was recorded");
    }

    @Test
    void applyIsRefusedDuringAParallelIterationAndAfterClose()
    {
        final long a = world.create();
        positions.emplace(a, 1f, 1f);
        positions.emplace(commands, a, 1f, 1f);
        final ParallelFixtures_PositionStorage storage = positions;
        final IllegalStateException during = assertThrows(IllegalStateException.class, () ->
            world.view(Position.class).parallelForEach(ForkJoinPool.commonPool(), 1, entity -> commands.apply()));
        assertTrue(during.getMessage().contains("cannot be applied while RuntimeView.parallelForEach runs in " +
            "parallel") && during.getMessage().contains("apply it after"), during.getMessage());
        assertEquals(1, commands.size());
        assertTrue(storage.contains(a));
        world.close();
        assertThrows(IllegalStateException.class, commands::apply);
    }

    @Test
    void applyInsideAWalkOrAListenerIsRefusedNamingItAndChangesNothing()
    {
        final long a = world.create();
        positions.emplace(a, 1f, 1f);
        final long b = world.create();
        final long placeholder = commands.create();
        positions.emplace(commands, placeholder, 2f, 2f);
        healths.emplace(commands, a, 5, true);
        commands.destroy(b);
        final List<String> refused = new ArrayList<>();

        positions.forEach(entity -> refused.add(assertThrows(IllegalStateException.class, commands::apply)
            .getMessage()));
        final Connection applying = world.onCreated(entity -> refused.add(
            assertThrows(IllegalStateException.class, commands::apply).getMessage()));
        world.create();
        applying.close();

        assertTrue(refused.get(0).contains("while ParallelFixtures.Position storage.forEach runs") &&
            refused.get(0).contains("apply it after the walk or listener returns"), refused.get(0));
        assertTrue(refused.get(1).contains("a listener of World: created"), refused.get(1));
        assertEquals(3, world.aliveCount(), "nothing was applied: a, b and the entity the listener heard of");
        assertEquals(1, positions.size());
        assertEquals(4, commands.size(), "the commands stay recorded");
        assertEquals(0, commands.apply());
        assertEquals(3, world.aliveCount());
        assertEquals(5, healths.hp(a));
        assertFalse(world.valid(b));
    }

    @Test
    void aCreatedListenerThatClosesTheWorldDuringApplyIsRefusedAndTheApplyGoesOn()
    {
        world.onCreated(entity -> world.close());
        final long placeholder = commands.create();
        positions.emplace(commands, placeholder, 1f, 2f);
        final long other = commands.create();

        final IllegalStateException refused = assertThrows(IllegalStateException.class, commands::apply);

        assertTrue(refused.getMessage().contains("World cannot be closed while a listener of World: created") &&
            refused.getMessage().contains("close it after"), refused.getMessage());
        assertEquals(1, refused.getSuppressed().length, "the second create's listener was refused too");
        assertFalse(world.isClosed());
        assertEquals(2, world.aliveCount(), "both creates were made");
        assertEquals(new Position(1f, 2f), positions.getAt(0), "and the command naming the first");
        assertTrue(commands.isEmpty());
        assertTrue(other < 0, "a placeholder");
    }

    @Test
    void aListenerThatThrowsDuringApplyDoesNotStopTheOtherCommands()
    {
        positions.onAdded((entity, index) ->
        {
            throw new IllegalStateException("listener failed");
        });
        final long a = world.create();
        final long b = world.create();
        positions.emplace(commands, a, 1f, 1f);
        positions.emplace(commands, b, 2f, 2f);

        final IllegalStateException failure = assertThrows(IllegalStateException.class, commands::apply);

        assertEquals("listener failed", failure.getMessage());
        assertEquals(1, failure.getSuppressed().length);
        assertTrue(positions.contains(a) && positions.contains(b));
        assertTrue(commands.isEmpty());
    }

    @Test
    void aThrowingCreatedListenerLeavesTheEntityKnownToLaterCommands()
    {
        final int[] calls = {0};
        world.onCreated(entity ->
        {
            if (calls[0]++ == 0)
            {
                throw new IllegalStateException("created listener failed");
            }
        });
        final long p = commands.create();
        positions.emplace(commands, p, 1f, 1f);
        final long q = commands.create();
        positions.emplace(commands, q, 2f, 2f);

        final IllegalStateException failure = assertThrows(IllegalStateException.class, commands::apply);

        assertEquals("created listener failed", failure.getMessage());
        assertEquals(2, world.aliveCount(), "the entity stays alive, as after a direct create()");
        assertEquals(2, positions.size(), "and the commands naming it still ran");
        assertEquals(List.of(new Position(1f, 1f), new Position(2f, 2f)),
            List.of(positions.getAt(0), positions.getAt(1)));
    }

    @Test
    void aMillionFailingCommandsReportTheFirstFailuresNotAMillion()
    {
        positions.onAdded((entity, index) ->
        {
            throw new IllegalStateException("listener failed on " + Entity.toString(entity));
        });
        final long[] entities = new long[5_000];
        world.create(entities, entities.length);
        for (final long entity : entities)
        {
            positions.emplace(commands, entity, 1f, 1f);
        }

        final IllegalStateException failure = assertThrows(IllegalStateException.class, commands::apply);

        assertTrue(failure.getMessage().startsWith("listener failed on"));
        assertEquals(Failures.MAX_SUPPRESSED, failure.getSuppressed().length);
        assertEquals(entities.length, positions.size(), "every command ran");
    }

    @Test
    void aRowRefusesAWriteOutsideItself()
    {
        final long entity = world.create();
        final Row row = commands.record(false, positions, entity);

        assertThrows(IndexOutOfBoundsException.class, () -> row.putFloat(8, 1f));
        assertThrows(IndexOutOfBoundsException.class, () -> row.putFloat(-1, 1f));
        final IndexOutOfBoundsException wide = assertThrows(IndexOutOfBoundsException.class, () -> row.putLong(4, 1L));
        assertEquals("a field of 8 bytes at 4 does not fit in a row of 8 bytes", wide.getMessage());
        row.putFloat(0, 5f);
        row.putFloat(4, 6f);
        assertEquals(0, commands.apply());
        assertEquals(new Position(5f, 6f), positions.get(entity));
    }

    @Test
    void aRowHoldingABooleanOrEnumByteWithNoValueFailsItsCommandAndTheOthersStillRun()
    {
        final long[] entities = {world.create(), world.create(), world.create(), world.create()};
        commands.record(false, healths, entities[0]).putByte(Access.rawStorage(healths).rowOffset(1), (byte)2);
        healths.emplace(commands, entities[1], 5, true);
        final Row follow = commands.record(false, follows, entities[2]);
        follow.putLong(Access.rawStorage(follows).rowOffset(0), entities[0]);
        follow.putByte(Access.rawStorage(follows).rowOffset(1), (byte)Mood.values().length);
        follows.emplace(commands, entities[3], entities[1], Mood.CALM, (short)1);

        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, commands::apply);
        assertTrue(failure.getMessage().contains("field alive") && failure.getMessage().contains("holds 2"),
            failure.getMessage());
        assertEquals(1, failure.getSuppressed().length);
        assertTrue(failure.getSuppressed()[0].getMessage().contains("field mood"), failure.getSuppressed()[0].getMessage());
        assertFalse(healths.contains(entities[0]));
        assertFalse(follows.contains(entities[2]));
        assertEquals(5, healths.hp(entities[1]), "the valid commands ran");
        assertEquals(new Follow(entities[1], Mood.CALM, (short)1), follows.get(entities[3]));
        assertTrue(commands.isEmpty());
    }

    @Test
    void anotherReachableBuffersPlaceholderIsRefusedHoweverManyBuffersCameAndWent()
    {
        final CommandBuffer first = new CommandBuffer(world);
        final long mine = first.create();
        for (int i = 0; i < 40_000; i++)
        {
            new CommandBuffer(world).create();
        }
        final CommandBuffer last = new CommandBuffer(world);
        final long theirs = last.create();

        assertThrows(IllegalArgumentException.class, () -> positions.emplace(first, theirs, 1f, 1f));
        assertThrows(IllegalArgumentException.class, () -> positions.emplace(last, mine, 1f, 1f));
        positions.emplace(first, mine, 1f, 1f);
        assertEquals(0, first.apply());
        assertEquals(1, positions.size());
    }

    @Test
    void threadsThatEndedLeaveTheirLanesToNewThreadsAndTheirPlaceholdersUnknown() throws Exception
    {
        final long[] earlier = {Entity.NULL};
        for (int round = 0; round < 300; round++)
        {
            final Thread recorder = new Thread(() ->
            {
                if (earlier[0] != Entity.NULL)
                {
                    positions.emplace(commands, earlier[0], 9f, 9f);
                }
                earlier[0] = commands.create();
                positions.emplace(commands, earlier[0], 1f, 1f);
            });
            recorder.start();
            recorder.join();
            assertEquals(round == 0 ? 0 : 1, commands.apply(), "a placeholder of the round before is unknown");
        }

        assertTrue(commands.toString().endsWith("from 0 threads, 1 lanes]"), commands.toString());
        assertEquals(300, positions.size());
        for (int k = 0; k < positions.size(); k++)
        {
            assertEquals(new Position(1f, 1f), positions.getAt(k));
        }
    }

    @Test
    void threadsWhoseIdsCollideStillRecordIntoLanesOfTheirOwn() throws Exception
    {
        final int perThread = 20_000;
        final long[] entities = new long[2 * perThread];
        world.create(entities, entities.length);
        final Thread[] recorders = new Thread[2];
        for (int t = 0; t < recorders.length; t++)
        {
            final int first = t * perThread;
            recorders[t] = new Thread(() ->
            {
                for (int i = first; i < first + perThread; i++)
                {
                    positions.emplace(commands, entities[i], i, -i);
                }
            })
            {
                @Override
                @SuppressWarnings("deprecation")
                public long getId()
                {
                    return 7; // a legal override: the buffer must not tell threads apart by it
                }
            };
        }
        for (final Thread recorder : recorders)
        {
            recorder.start();
        }
        for (final Thread recorder : recorders)
        {
            recorder.join();
        }

        assertEquals(2 * perThread, commands.size());
        assertEquals(0, commands.apply());
        for (int i = 0; i < entities.length; i++)
        {
            assertEquals(new Position(i, -i), positions.get(entities[i]));
        }
    }

    @Test
    void aRowWrittenFromAnotherThreadWhileItsLaneGrowsNeverWritesOutsideTheLane() throws Exception
    {
        final long entity = world.create();
        final Row[] shared = {commands.record(false, positions, entity)};
        final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        final Thread writer = new Thread(() ->
        {
            while (!done.get())
            {
                try
                {
                    shared[0].putLong(0, 0x4141_4141_4141_4141L);
                }
                catch (final IndexOutOfBoundsException | NullPointerException refused)
                {
                    // What a misused row may do; writing outside its array is what it may not.
                }
            }
        });
        writer.start();
        final long until = System.nanoTime() + 500_000_000L;
        int refused = 0;
        while (System.nanoTime() < until)
        {
            final CommandBuffer fresh = new CommandBuffer(world);
            for (int i = 0; i < 2_000; i++)
            {
                // Rows of two lengths, so that the writer may take a longer row's length with a shorter one's start
                // and write over the next command's header.
                shared[0] = fresh.record(false, positions, entity);
                shared[0].putFloat(0, 1f);
                shared[0].putFloat(4, 2f);
                fresh.add(entity, frozen);
            }
            try
            {
                fresh.apply();
            }
            catch (final IllegalStateException overwritten)
            {
                assertTrue(overwritten.getMessage().contains("a Row was written from a thread other than"),
                    overwritten.getMessage());
                refused++;
            }
        }
        done.set(true);
        writer.join();
        assertTrue(world.valid(entity), "the JVM and the world survived (" + refused + " applies found lanes " +
            "overwritten)");
        assertEquals(1, world.aliveCount(), "nothing the writer left in a lane created or destroyed an entity");
        final Position position = positions.get(entity);
        final float written = Float.intBitsToFloat(0x4141_4141);
        assertTrue(position.x() == 1f || position.x() == written, position.toString());
    }

    @Test
    void aListenerThatRunsDuringApplyCannotRecordIntoOrApplyTheSameBuffer()
    {
        final CommandBuffer followUps = new CommandBuffer(world);
        positions.onAdded((entity, index) ->
        {
            final IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> frozen.emplace(commands, entity));
            assertTrue(refused.getMessage().contains("record into another CommandBuffer"), refused.getMessage());
            assertThrows(IllegalStateException.class, commands::apply);
            assertThrows(IllegalStateException.class, commands::clear);
            frozen.emplace(followUps, entity);
        });
        final long a = world.create();
        positions.emplace(commands, a, 1f, 1f);

        commands.apply();
        followUps.apply();

        assertTrue(frozen.contains(a), "recorded into another buffer, applied after");
        frozen.emplace(commands, a);
        assertEquals(1, commands.size(), "the buffer records again once applied");
    }

    @Test
    void clearForgetsEverythingRecorded()
    {
        final List<Long> placeholders = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            placeholders.add(commands.create());
        }
        commands.clear();
        assertEquals(0, commands.apply());
        assertEquals(0, world.aliveCount());
        positions.emplace(commands, placeholders.get(0), 1f, 1f);
        assertEquals(1, commands.apply(), "a placeholder from before clear() is unknown");
    }
}
