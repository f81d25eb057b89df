package dev.cairn.bench.demo;

import dev.cairn.world.World;

import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The demo: a particle field with constant churn. Every tick moves every particle through a generated view
 * ({@link MovingView}), ages it ({@link AgingView}), despawns the particles whose lifetime ran out and spawns as many
 * new ones, so the entity count stays constant while all three deletion policies see steady removals and inserts:
 * position and velocity are swap-and-pop, {@link Lifetime} is in-place, the {@link Glowing} tag is swap-only.
 * <p>
 * Run it with {@code java -jar bench/target/cairn-demo.jar [--entities N] [--ticks N]}; the jar's manifest adds the
 * {@code Add-Exports} Agrona needs. Nothing on the heap grows with the entity count: component data is off-heap, the
 * world and its storages reserve their capacity up front, views and their actions are created once, and expired
 * particles are destroyed while the aging view visits them (safe, see {@code docs/views.md}), so a tick allocates
 * nothing and 100 million entities run in a 256 MiB heap.
 * <p>
 * The figures are steady state: {@link #run(int, int, PrintStream)} first runs warm-up ticks that are not measured
 * ({@link #warmUpTicks(int)}), so JIT compilation does not count, then reports the mean and the median tick.
 */
public final class Simulation implements AutoCloseable
{
    /** Side of the square particles move in. */
    public static final float SIZE = 1000f;

    /** Shortest lifetime, in ticks. */
    public static final int MIN_LIFETIME = 20;

    /** Longest lifetime, in ticks. */
    public static final int MAX_LIFETIME = 200;

    /** Entity updates the default warm-up gives the JIT before measuring: enough for C2 to compile the tick. */
    public static final long WARM_UP_ENTITY_TICKS = 2_000_000;

    /** Most warm-up ticks, for tiny worlds. */
    public static final int MAX_WARM_UP_TICKS = 20_000;

    private final int entities;
    private final World world;
    private final PositionStorage positions;
    private final VelocityStorage velocities;
    private final LifetimeStorage lifetimes;
    private final GlowingStorage glowing;
    private final MovingView moving;
    private final AgingView aging;
    private final GlowersView glowers;
    private final SplittableRandom random;
    private final MovingView.Action move = Simulation::move;
    private final AgingView.Action age = this::age;
    private int expiredCount;
    private long spawned;

    /**
     * Creates the world and spawns the particles.
     *
     * @param entities particles alive at every moment, at least 1.
     * @param seed     seed of the random positions, velocities and lifetimes.
     * @throws IllegalArgumentException if {@code entities} is less than 1.
     * @throws IllegalStateException    if the JVM lacks the Agrona add-exports flag.
     */
    public Simulation(final int entities, final long seed)
    {
        if (entities < 1)
        {
            throw new IllegalArgumentException("a simulation needs at least 1 entity, not " + entities);
        }
        this.entities = entities;
        // Destroying before spawning keeps at most `entities` alive, so the id space (and the pool) needs no more.
        this.world = new World(entities);
        this.positions = world.storage(PositionStorage.TYPE);
        this.velocities = world.storage(VelocityStorage.TYPE);
        this.lifetimes = world.storage(LifetimeStorage.TYPE);
        this.glowing = world.storage(GlowingStorage.TYPE);
        this.moving = new MovingView(world);
        this.aging = new AgingView(world);
        this.glowers = new GlowersView(world);
        this.random = new SplittableRandom(seed);
        positions.reserve(entities);
        velocities.reserve(entities);
        lifetimes.reserve(entities);
        // A quarter glow: reserve a quarter plus four standard deviations, so growth is rare and never doubles.
        glowing.reserve((int)Math.min(entities, entities / 4L + 4 * (long)Math.sqrt(entities * 0.1875) + 16));
        for (int i = 0; i < entities; i++)
        {
            spawn();
        }
        spawned = 0;
    }

    /**
     * Command line entry point; see {@link Options#USAGE}. Exits with 2 on a bad option.
     *
     * @param args {@code --entities N}, {@code --ticks N}, {@code --help}.
     */
    public static void main(final String[] args)
    {
        final Options options;
        try
        {
            options = Options.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("cairn-demo: " + ex.getMessage());
            System.err.println("run with --help for usage");
            System.exit(2);
            return;
        }
        if (options.help())
        {
            System.out.println(Options.USAGE);
            return;
        }
        System.out.printf(Locale.ROOT, "Cairn demo: spawning %,d entities...%n", options.entities());
        final long spawnStart = System.nanoTime();
        try (Simulation simulation = new Simulation(options.entities(), 42))
        {
            final long spawnNanos = System.nanoTime() - spawnStart;
            System.out.printf(Locale.ROOT, "  spawned in %.2f s (%.1f ns per entity, cold code and fresh memory " +
                "included)%n", spawnNanos / 1e9, (double)spawnNanos / options.entities());
            simulation.run(warmUpTicks(options.entities()), options.ticks(), System.out).print(System.out);
        }
        catch (final IllegalStateException ex)
        {
            System.err.println("cairn-demo: " + ex.getMessage());
            System.exit(1);
        }
    }

    /**
     * The default warm-up: enough ticks for {@link #WARM_UP_ENTITY_TICKS} entity updates, at least 1 and at most
     * {@link #MAX_WARM_UP_TICKS}.
     *
     * @param entities the particle count.
     * @return warm-up ticks for that many particles.
     */
    public static int warmUpTicks(final int entities)
    {
        final long ticks = (WARM_UP_ENTITY_TICKS + entities - 1) / Math.max(1, entities);
        return (int)Math.max(1, Math.min(MAX_WARM_UP_TICKS, ticks));
    }

    /**
     * Runs warm-up ticks that are not measured, then measured ticks, printing about ten progress lines, and
     * measures the measured ticks only.
     *
     * @param warmUpTicks ticks to run first and leave out of every figure, 0 or more.
     * @param ticks       measured ticks, at least 1.
     * @param progress    where progress lines go.
     * @return what the measured ticks took.
     */
    public Summary run(final int warmUpTicks, final int ticks, final PrintStream progress)
    {
        if (warmUpTicks < 0)
        {
            throw new IllegalArgumentException("warm up for 0 or more ticks, not " + warmUpTicks);
        }
        if (ticks < 1)
        {
            throw new IllegalArgumentException("run at least 1 tick, not " + ticks);
        }
        // Everything the measured loop needs is set up before the warm-up, and nothing runs between the two: the
        // first look at the GC beans loads classes, which can deoptimise compiled code, and printing cools caches.
        final long[] tickNanos = new long[ticks];
        gcCount();
        if (warmUpTicks > 0)
        {
            progress.printf(Locale.ROOT, "  warm-up: %,d tick%s, not measured%n",
                warmUpTicks, warmUpTicks == 1 ? "" : "s");
            for (int tick = 0; tick < warmUpTicks; tick++)
            {
                tick();
            }
        }
        final int every = Math.max(1, ticks / 10);
        final int aliveAtStart = world.aliveCount();
        final long spawnedBefore = spawned;
        final long gcBefore = gcCount();
        final long start = System.nanoTime();
        long lastReport = start;
        long tickStart = start;
        for (int tick = 1; tick <= ticks; tick++)
        {
            tick();
            final long now = System.nanoTime();
            tickNanos[tick - 1] = now - tickStart;
            if (tick % every == 0 || tick == ticks)
            {
                final int done = tick % every == 0 ? every : tick % every;
                progress.printf(Locale.ROOT, "  tick %,d/%,d: %,d entities, %.2f ms/tick%n",
                    tick, ticks, world.aliveCount(), (now - lastReport) / 1e6 / done);
                lastReport = System.nanoTime();
            }
            tickStart = System.nanoTime();
        }
        final long gcAfter = gcCount();
        long elapsed = 0;
        for (final long nanos : tickNanos)
        {
            elapsed += nanos;
        }
        Arrays.sort(tickNanos);
        final Runtime runtime = Runtime.getRuntime();
        return new Summary(
            aliveAtStart,
            world.aliveCount(),
            warmUpTicks,
            ticks,
            elapsed,
            tickNanos[(ticks - 1) / 2],
            spawned - spawnedBefore,
            glowers.count(),
            world.offHeapBytes(),
            runtime.totalMemory() - runtime.freeMemory(),
            gcAfter - gcBefore);
    }

    /**
     * One tick: move, age (destroying the expired), spawn replacements.
     */
    public void tick()
    {
        moving.forEach(move);
        expiredCount = 0;
        aging.forEach(age);
        for (int i = 0, count = expiredCount; i < count; i++)
        {
            spawn();
        }
    }

    /**
     * Entities alive now.
     *
     * @return the count; equals the constructor's {@code entities} between ticks.
     */
    public int aliveCount()
    {
        return world.aliveCount();
    }

    /**
     * The particle count the simulation keeps.
     *
     * @return the constructor's {@code entities}.
     */
    public int entities()
    {
        return entities;
    }

    /** Frees the world's off-heap memory. */
    @Override
    public void close()
    {
        world.close();
    }

    private static void move(final long entity, final PositionStorage.Ref position, final VelocityStorage.Ref velocity)
    {
        float x = position.x() + velocity.dx();
        float y = position.y() + velocity.dy();
        if (x < 0f || x >= SIZE)
        {
            velocity.dx(-velocity.dx());
            x = Math.min(Math.max(x, 0f), Math.nextDown(SIZE));
        }
        if (y < 0f || y >= SIZE)
        {
            velocity.dy(-velocity.dy());
            y = Math.min(Math.max(y, 0f), Math.nextDown(SIZE));
        }
        position.x(x);
        position.y(y);
    }

    private void age(final long entity, final LifetimeStorage.Ref lifetime)
    {
        final int left = lifetime.ticks() - 1;
        if (left <= 0)
        {
            world.destroy(entity);   // the entity being visited: safe, the view goes on with the rest
            expiredCount++;
        }
        else
        {
            lifetime.ticks(left);
        }
    }

    private void spawn()
    {
        final SplittableRandom random = this.random;
        final long entity = world.create();
        positions.emplace(entity, (float)random.nextDouble() * SIZE, (float)random.nextDouble() * SIZE);
        velocities.emplace(entity, (float)random.nextDouble(-1, 1), (float)random.nextDouble(-1, 1));
        lifetimes.emplace(entity, random.nextInt(MIN_LIFETIME, MAX_LIFETIME + 1));
        if (random.nextInt(4) == 0)
        {
            glowing.emplace(entity);
        }
        spawned++;
    }

    private static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    /**
     * What a run measured; every figure but the last three covers the measured ticks only, not the warm-up.
     *
     * @param aliveAtStart     entities alive before the first measured tick.
     * @param aliveAtEnd       entities alive after the last tick.
     * @param warmUpTicks      ticks run before measuring, left out of every figure.
     * @param ticks            measured ticks.
     * @param elapsedNanos     time of the measured ticks, summed.
     * @param medianTickNanos  the median measured tick.
     * @param spawned          entities despawned and replaced during the measured ticks.
     * @param glowing          glowing entities at the end.
     * @param offHeapBytes     off-heap bytes the world holds at the end ({@code World.offHeapBytes()}).
     * @param heapUsedBytes    heap in use at the end.
     * @param gcCount          garbage collections during the measured ticks.
     */
    public record Summary(
        int aliveAtStart,
        int aliveAtEnd,
        int warmUpTicks,
        int ticks,
        long elapsedNanos,
        long medianTickNanos,
        long spawned,
        int glowing,
        long offHeapBytes,
        long heapUsedBytes,
        long gcCount)
    {
        /**
         * Measured ticks per second.
         *
         * @return the rate.
         */
        public double ticksPerSecond()
        {
            return ticks / (elapsedNanos / 1e9);
        }

        /**
         * Nanoseconds per entity per tick, over the measured ticks.
         *
         * @return their time divided by ticks and by entities.
         */
        public double nanosPerEntityTick()
        {
            return (double)elapsedNanos / ticks / Math.max(1, aliveAtEnd);
        }

        /**
         * Nanoseconds per entity in the median measured tick.
         *
         * @return the median tick's time divided by entities.
         */
        public double medianNanosPerEntityTick()
        {
            return (double)medianTickNanos / Math.max(1, aliveAtEnd);
        }

        /**
         * Off-heap bytes per entity alive at the end.
         *
         * @return the world's off-heap bytes divided by entities.
         */
        public double offHeapBytesPerEntity()
        {
            return (double)offHeapBytes / Math.max(1, aliveAtEnd);
        }

        /**
         * Prints the summary.
         *
         * @param out where to print.
         */
        public void print(final PrintStream out)
        {
            out.printf(Locale.ROOT, "Summary (steady state: the %,d warm-up tick%s before these are not counted)%n",
                warmUpTicks, warmUpTicks == 1 ? "" : "s");
            out.printf(Locale.ROOT, "  entities                 %,d (at start %,d)%n", aliveAtEnd, aliveAtStart);
            out.printf(Locale.ROOT, "  ticks                    %,d in %.2f s%n", ticks, elapsedNanos / 1e9);
            out.printf(Locale.ROOT, "  ticks per second         %.1f%n", ticksPerSecond());
            out.printf(Locale.ROOT, "  ns per entity per tick   %.2f mean, %.2f median tick%n",
                nanosPerEntityTick(), medianNanosPerEntityTick());
            out.printf(Locale.ROOT, "  despawned and respawned  %,d%n", spawned);
            out.printf(Locale.ROOT, "  glowing at end           %,d%n", glowing);
            out.printf(Locale.ROOT, "  off-heap bytes           %,d (%.1f MiB, %.1f per entity)%n",
                offHeapBytes, offHeapBytes / (1024.0 * 1024.0), offHeapBytesPerEntity());
            out.printf(Locale.ROOT, "  heap used                %.1f MiB%n", heapUsedBytes / (1024.0 * 1024.0));
            out.printf(Locale.ROOT, "  GC count during run      %d%n", gcCount);
        }
    }
}
