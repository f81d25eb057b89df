package dev.cairn.parallel;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the command buffer, the engine's input surface for structural changes: the bytes choose
 * a sequence of commands on entities alive, destroyed, created by the buffer (placeholders of this round and of
 * earlier ones) and forged values, with applies in between. Two worlds start equal; one gets the commands through a
 * {@link CommandBuffer}, the other the same changes made directly in order ({@link CommandSinks.Direct}); after every
 * apply they must be equal. A forged entity must be refused when recorded, with nothing recorded; any other exception,
 * a crash, or a difference between the worlds is a finding. In a normal build this replays the committed inputs in
 * {@code src/test/resources/dev/cairn/parallel/CommandBufferFuzzTestInputs/fuzz/}; {@code .ci/fuzz} runs it in
 * fuzzing mode.
 */
class CommandBufferFuzzTest
{
    @FuzzTest(maxDuration = "60s")
    void fuzz(final FuzzedDataProvider data)
    {
        try (World recorded = new World(1 << 12, 16L << 20); World direct = new World(1 << 12, 16L << 20))
        {
            ParallelFixtures.storages(recorded);
            ParallelFixtures.storages(direct);
            final CommandBuffer commands = new CommandBuffer(recorded);
            final CommandSinks.Recorded viaBuffer = new CommandSinks.Recorded(recorded, commands);
            final CommandSinks.Direct made = new CommandSinks.Direct(direct);
            final List<Long> entities = new ArrayList<>();
            final List<long[]> created = new ArrayList<>();   // {placeholder, token}
            for (int i = 0; i < 8; i++)
            {
                entities.add(recorded.create());
                direct.create();
            }
            final long placeholderTag = viaBuffer.create() & 0xFFFF_0000_0000_0000L;
            made.create();
            int steps = 0;
            while (data.remainingBytes() > 0 && steps++ < 400)
            {
                final int op = data.consumeInt(0, 12);
                if (op == 12)
                {
                    final int skipped = commands.apply();
                    made.run();
                    assertTrue(skipped >= 0);
                    assertEquals(ParallelFixtures.digest(direct), ParallelFixtures.digest(recorded));
                    recorded.forEachEntity(entities::add);
                    continue;
                }
                if (op == 11)
                {
                    final long forged = data.consumeLong();
                    final boolean ours = (forged & 0xFFFF_0000_0000_0000L) == placeholderTag;
                    if (!ours && (forged < 0 || !Entity.isWellFormed(forged)))
                    {
                        final int before = commands.size();
                        assertThrows(IllegalArgumentException.class, () -> commands.destroy(forged));
                        assertEquals(before, commands.size(), "a refused command is not recorded");
                    }
                    continue;
                }
                final long[] target = pick(data, entities, created);
                final long[] other = pick(data, entities, created);
                switch (op)
                {
                    case 0:
                        created.add(new long[]{viaBuffer.create(), made.create()});
                        break;
                    case 1:
                        viaBuffer.destroy(target[0]);
                        made.destroy(target[1]);
                        break;
                    case 2:
                    case 3:
                    {
                        final float x = data.consumeFloat();
                        final float y = data.consumeFloat();
                        if (op == 2)
                        {
                            viaBuffer.position(target[0], x, y);
                            made.position(target[1], x, y);
                        }
                        else
                        {
                            viaBuffer.patchPosition(target[0], x, y);
                            made.patchPosition(target[1], x, y);
                        }
                        break;
                    }
                    case 4:
                    {
                        final double dx = data.consumeRegularDouble();
                        viaBuffer.velocity(target[0], dx, -dx);
                        made.velocity(target[1], dx, -dx);
                        break;
                    }
                    case 5:
                        viaBuffer.removeVelocity(target[0]);
                        made.removeVelocity(target[1]);
                        break;
                    case 6:
                    case 7:
                    {
                        final int hp = data.consumeInt();
                        if (op == 6)
                        {
                            viaBuffer.health(target[0], hp);
                            made.health(target[1], hp);
                        }
                        else
                        {
                            viaBuffer.patchHealth(target[0], hp);
                            made.patchHealth(target[1], hp);
                        }
                        break;
                    }
                    case 8:
                        viaBuffer.frozen(target[0]);
                        made.frozen(target[1]);
                        break;
                    case 9:
                    {
                        final short steps2 = data.consumeShort();
                        viaBuffer.follow(target[0], other[0], steps2);
                        made.follow(target[1], other[1], steps2);
                        break;
                    }
                    default:
                        commands.clear();
                        made.forget();
                        break;
                }
            }
            commands.apply();
            made.run();
            assertEquals(ParallelFixtures.digest(direct), ParallelFixtures.digest(recorded));
        }
    }

    /**
     * An entity for both sides: one ever created in the worlds (alive or destroyed since, equal on both sides), or a
     * placeholder with its token (from this round, or an earlier one whose entity was made since).
     */
    private static long[] pick(final FuzzedDataProvider data, final List<Long> entities, final List<long[]> created)
    {
        if (!created.isEmpty() && data.consumeBoolean())
        {
            return created.get(data.consumeInt(0, created.size() - 1));
        }
        final long entity = entities.get(data.consumeInt(0, entities.size() - 1));
        return new long[]{entity, entity};
    }
}
