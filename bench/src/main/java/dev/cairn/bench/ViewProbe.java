package dev.cairn.bench;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.View;
import dev.cairn.world.World;
import dev.cairn.view.RuntimeView;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The views work's design probe: a generated 2-component view, its cursor and a runtime view against hand-written
 * loops over the same storages, at 1M entities, in nanoseconds per entity.
 * <ul>
 *     <li>{@code handAligned}: {@code xAt(i)} on both storages, assuming they hold the same entity at every index
 *     (no membership check: the floor for any loop over these columns);</li>
 *     <li>{@code handChecked}: the same loop checking membership as a view must (lead handle, same-index handle);</li>
 *     <li>{@code viewForEach}, {@code viewCursor}: {@link ViewProbe_PairView};</li>
 *     <li>{@code viewSingle}: {@link ViewProbe_SingleView}, the straight walk;</li>
 *     <li>{@code viewShuffled}: the pair view after the second storage was shuffled, so every probe misses the
 *     same-index fast path and goes through the sparse array;</li>
 *     <li>{@code runtimeForEach}: {@code world.view(...)} with by-entity accessors.</li>
 * </ul>
 * Run: {@code java -jar bench/target/benchmarks.jar ViewProbe -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(ViewProbe.ENTITIES)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class ViewProbe
{
    /** Entities in every world. */
    public static final int ENTITIES = 1_000_000;

    /** A position. */
    @Component
    public record P(float x, float y)
    {
    }

    /** A velocity; in-place, as many physics components would be. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record V(float dx, float dy)
    {
    }

    /** The 2-component view. */
    @View(with = {P.class, V.class})
    public interface Pair
    {
    }

    /** The 1-component view. */
    @View(with = P.class)
    public interface Single
    {
    }

    private World world;
    private ViewProbe_PStorage positions;
    private ViewProbe_VStorage velocities;
    private ViewProbe_PairView pair;
    private ViewProbe_SingleView single;
    private RuntimeView runtime;
    private World shuffledWorld;
    private ViewProbe_PairView shuffled;

    /**
     * Builds a world where every entity has both components, added in step (aligned storages), and a second world
     * whose velocities are in the reverse order.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        world = new World();
        positions = world.storage(ViewProbe_PStorage.TYPE);
        velocities = world.storage(ViewProbe_VStorage.TYPE);
        for (int i = 0; i < ENTITIES; i++)
        {
            final long entity = world.create();
            positions.emplace(entity, i, -i);
            velocities.emplace(entity, 0.5f, 0.25f);
        }
        pair = new ViewProbe_PairView(world);
        single = new ViewProbe_SingleView(world);
        runtime = world.view(P.class, V.class);

        shuffledWorld = new World();
        final ViewProbe_PStorage p = shuffledWorld.storage(ViewProbe_PStorage.TYPE);
        final ViewProbe_VStorage v = shuffledWorld.storage(ViewProbe_VStorage.TYPE);
        final long[] entities = new long[ENTITIES];
        shuffledWorld.create(entities, ENTITIES);
        for (int i = 0; i < ENTITIES; i++)
        {
            p.emplace(entities[i], i, -i);
            v.emplace(entities[ENTITIES - 1 - i], 0.5f, 0.25f);
        }
        shuffled = new ViewProbe_PairView(shuffledWorld);
    }

    /** Frees both worlds. */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        world.close();
        shuffledWorld.close();
    }

    /** Hand-written, storages assumed aligned. */
    @Benchmark
    public void handAligned()
    {
        final ViewProbe_PStorage p = positions;
        final ViewProbe_VStorage v = velocities;
        for (int i = p.size() - 1; i >= 0; i--)
        {
            p.xAt(i, p.xAt(i) + v.dxAt(i));
            p.yAt(i, p.yAt(i) + v.dyAt(i));
        }
    }

    /** Hand-written, membership checked like a view (same-index fast path, sparse lookup otherwise). */
    @Benchmark
    public void handChecked()
    {
        final ViewProbe_PStorage p = positions;
        final ViewProbe_VStorage v = velocities;
        for (int i = p.extent() - 1; i >= 0; i--)
        {
            final long entity = p.entityAt(i);
            if (entity == Entity.NULL)
            {
                continue;
            }
            final int j = i < v.extent() && v.entityAt(i) == entity ? i : v.indexOf(entity);
            if (j < 0)
            {
                continue;
            }
            p.xAt(i, p.xAt(i) + v.dxAt(j));
            p.yAt(i, p.yAt(i) + v.dyAt(j));
        }
    }

    /** The generated view's internal iteration. */
    @Benchmark
    public void viewForEach()
    {
        pair.forEach(ViewProbe::move);
    }

    /** The generated view's cursor. */
    @Benchmark
    public void viewCursor()
    {
        for (ViewProbe_PairView.Cursor c = pair.cursor(); c.next(); )
        {
            move(c.entity(), c.p(), c.v());
        }
    }

    /** A 1-component view: no probe. */
    @Benchmark
    public void viewSingle()
    {
        single.forEach((entity, p) ->
        {
            p.x(p.x() + 0.5f);
            p.y(p.y() + 0.25f);
        });
    }

    /** The generated view where no entity sits at the same index in both storages. */
    @Benchmark
    public void viewShuffled()
    {
        shuffled.forEach(ViewProbe::move);
    }

    /** A runtime view reading and writing through the storages by entity. */
    @Benchmark
    public void runtimeForEach()
    {
        final ViewProbe_PStorage p = positions;
        final ViewProbe_VStorage v = velocities;
        runtime.forEach(entity ->
        {
            p.x(entity, p.x(entity) + v.dx(entity));
            p.y(entity, p.y(entity) + v.dy(entity));
        });
    }

    private static void move(final long entity, final ViewProbe_PStorage.Ref p, final ViewProbe_VStorage.Ref v)
    {
        p.x(p.x() + v.dx());
        p.y(p.y() + v.dy());
    }
}
