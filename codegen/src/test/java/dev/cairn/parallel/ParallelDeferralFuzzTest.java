package dev.cairn.parallel;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.Entity;
import dev.cairn.parallel.DeferralSubjects.Engine;
import dev.cairn.parallel.DeferralSubjects.Model;
import dev.cairn.parallel.ParallelFixtures.Health;
import dev.cairn.parallel.ParallelFixtures.Heat;
import dev.cairn.parallel.ParallelFixtures.Position;
import dev.cairn.parallel.ParallelFixtures.Velocity;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Coverage-guided fuzzing of the rule of change in parallel walks: the bytes choose the entities and their components,
 * a program of changes (each visited entity runs two of its entries, chosen by the entity's index and the round: a
 * destroy, a removal or an addition on it or on another entity, a join of the owning group, a field write, a
 * storage's clear), then walks, each of a view or group, a pool and a chunk size. After each walk the parallel world
 * must equal, packed arrays and group order included, the same walk made sequentially, and that one the brute-force
 * model of {@link DeferralSubjects.Model}. In a normal build this replays the committed inputs in
 * {@code src/test/resources/dev/cairn/parallel/ParallelDeferralFuzzTestInputs/fuzz/}; {@code .ci/fuzz} runs it in
 * fuzzing mode.
 */
class ParallelDeferralFuzzTest
{
    private static final ForkJoinPool[] POOLS = {new ForkJoinPool(1), new ForkJoinPool(2), new ForkJoinPool(4)};
    private static final int[] CHUNK_SIZES = {1, 2, 3, 7, 64, Chunks.AUTOMATIC};

    @FuzzTest(maxDuration = "60s")
    void fuzz(final FuzzedDataProvider data)
    {
        try (Engine sequential = new Engine(null, 0); Engine parallel = new Engine(null, 0))
        {
            final Model model = new Model();
            final List<Long> victims = new ArrayList<>();
            final int count = data.consumeInt(1, 120);
            for (int i = 0; i < count; i++)
            {
                final int mask = data.consumeInt(0, 15);
                final List<Record> components = new ArrayList<>();
                if ((mask & 1) != 0)
                {
                    components.add(new Position(i, -i));
                    if ((mask & 8) != 0)
                    {
                        components.add(new Heat(i));
                    }
                }
                if ((mask & 2) != 0)
                {
                    components.add(new Velocity(i, 1));
                }
                if ((mask & 4) != 0)
                {
                    components.add(new Health(i, true));
                }
                final long entity = sequential.create(components);
                assertEquals(entity, parallel.create(components));
                model.create(entity, components);
                victims.add(entity);
                if (data.consumeInt(0, 7) == 0)
                {
                    // A hole, a released entry, a free index: destroyed before the walks.
                    sequential.world.destroy(entity);
                    parallel.world.destroy(entity);
                    model.destroyNow(entity);
                }
            }
            final byte[] program = data.consumeBytes(48);
            if (program.length == 0)
            {
                return;
            }
            for (int round = 0; round < 4 && data.remainingBytes() > 0; round++)
            {
                final int kind = data.consumeInt(0, DeferralSubjects.WALK_KINDS - 1);
                final ForkJoinPool pool = POOLS[data.consumeInt(0, POOLS.length - 1)];
                final int chunk = CHUNK_SIZES[data.consumeInt(0, CHUNK_SIZES.length - 1)];
                final int r = round;
                final String where = "round " + round + ", walk " + kind + ", " + pool.getParallelism() +
                    " threads, chunk " + chunk;

                final List<Long> order = new ArrayList<>();
                sequential.walk(kind, entity ->
                {
                    order.add(entity);
                    decide(program, r, entity, victims, sequential, sequential);
                });
                assertEquals(model.matching(kind), new HashSet<>(order), where + ": visits what matched at its start");
                model.walk(order, entity -> decide(program, r, entity, victims, model, model));
                final String expected = model.digest();
                final String actual = ParallelFixtures.digest(sequential.world);
                assertEquals(expected, actual,
                    () -> where + ": against the model, " + DeferralSubjects.difference(expected, actual));

                final Set<Long> visited = ConcurrentHashMap.newKeySet();
                parallel.walk(kind, pool, chunk, entity ->
                {
                    if (!visited.add(entity))
                    {
                        throw new AssertionError("visited twice: " + Entity.toString(entity));
                    }
                    decide(program, r, entity, victims, parallel, parallel);
                });
                assertEquals(new HashSet<>(order), visited, where);
                assertEquals(ParallelFixtures.layout(sequential.world), ParallelFixtures.layout(parallel.world), where);
            }
        }
    }

    /** Two entries of the program, at a place chosen by the entity's index and the round. */
    private static void decide(
        final byte[] program,
        final int round,
        final long entity,
        final List<Long> victims,
        final DeferralSubjects.Reader read,
        final DeferralSubjects.Sink change)
    {
        final int at = Entity.index(entity) * 2 + round * 5;
        for (int k = 0; k < 2; k++)
        {
            final int entry = program[(at + k) % program.length] & 0xFF;
            final long victim = victims.get((entry * 31 + Entity.index(entity)) % victims.size());
            DeferralSubjects.change(entry % (DeferralSubjects.CHANGES + 2), entity, victim, entry + round, round, read,
                change);
        }
    }
}
