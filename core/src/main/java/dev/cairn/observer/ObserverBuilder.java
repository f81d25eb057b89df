package dev.cairn.observer;

import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.Walks;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.storage.RuleBuilder;
import dev.cairn.storage.Storages;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects an observer's rule; {@link dev.cairn.world.World#observer()} makes one. Its triggers ({@link #onAdded},
 * {@link #onUpdated}) are required components whose changes let an entity in; {@link #with} and {@link #without} add
 * what it must also have and must not have.
 */
public final class ObserverBuilder extends RuleBuilder<ObserverBuilder>
{
    private final OffHeap offHeap;
    private final Walks walks;
    private final EntityPool pool;
    private final List<ComponentStorage<?>> onAdded = new ArrayList<>();
    private final List<ComponentStorage<?>> onUpdated = new ArrayList<>();

    /**
     * Starts a rule over a world's storages.
     *
     * @param world   where component classes are looked up.
     * @param offHeap the world's memory, which the observer's set shares.
     * @param walks   the world's walks.
     * @param pool    the world's entities.
     */
    public ObserverBuilder(final Storages world, final OffHeap offHeap, final Walks walks, final EntityPool pool)
    {
        super(world, "observer");
        this.offHeap = offHeap;
        this.walks = walks;
        this.pool = pool;
    }

    /**
     * Entities enter when one of these components is added to them (and they match).
     *
     * @param components component records; each becomes required too.
     * @return this builder.
     */
    @SafeVarargs
    public final ObserverBuilder onAdded(final Class<? extends Record>... components)
    {
        return add(onAdded, components);
    }

    /**
     * Entities enter when one of these components is updated ({@code patch}, {@code markUpdated}; and they match).
     *
     * @param components component records; each becomes required too.
     * @return this builder.
     */
    @SafeVarargs
    public final ObserverBuilder onUpdated(final Class<? extends Record>... components)
    {
        return add(onUpdated, components);
    }

    /**
     * As {@link #onAdded(Class[])}, with storages of this world.
     *
     * @param storages storages of this world.
     * @return this builder.
     * @throws IllegalArgumentException if a storage is not this world's.
     */
    public ObserverBuilder onAdded(final ComponentStorage<?>... storages)
    {
        return add(onAdded, storages);
    }

    /**
     * As {@link #onUpdated(Class[])}, with storages of this world.
     *
     * @param storages storages of this world.
     * @return this builder.
     * @throws IllegalArgumentException if a storage is not this world's.
     */
    public ObserverBuilder onUpdated(final ComponentStorage<?>... storages)
    {
        return add(onUpdated, storages);
    }

    /**
     * Creates the observer; it starts empty and observes from now on.
     *
     * @return the observer.
     * @throws IllegalArgumentException  if the rule has no trigger, or a component is both required and excluded.
     * @throws IllegalStateException     if the world is closed, or a parallel walk runs.
     * @throws dev.cairn.OffHeapExhaustedException if its memory cannot be allocated.
     */
    public RuntimeObserver build()
    {
        if (walks.isParallel())
        {
            throw walks.refusedChange("build an observer", "build it before the parallel walk or after it");
        }
        if (onAdded.isEmpty() && onUpdated.isEmpty())
        {
            throw new IllegalArgumentException(
                "an observer needs a trigger: call onAdded(...) or onUpdated(...) with at least one component");
        }
        final List<ComponentStorage<?>> required = required();
        for (final ComponentStorage<?> storage : without)
        {
            if (required.contains(storage))
            {
                throw new IllegalArgumentException(storage.type().recordClass().getSimpleName() + " is both required " +
                    "and excluded by this observer's rule, so nothing could ever enter it; list it on one side only");
            }
        }
        // A trigger may also be named in with(...), or be both added and updated: required once, checked open.
        requireEachOnce(required, without);
        return new RuntimeObserver(onAdded, onUpdated, required, without, describe(), offHeap, walks, pool);
    }

    @Override
    protected void describeLists(final StringBuilder text)
    {
        append(text, "added", onAdded);
        append(text, "updated", onUpdated);
    }

    @Override
    protected ObserverBuilder self()
    {
        return this;
    }

    /** The triggers and the {@code with} components, each once, in the order given. */
    private List<ComponentStorage<?>> required()
    {
        final List<ComponentStorage<?>> all = new ArrayList<>();
        for (final List<ComponentStorage<?>> list : List.of(onAdded, onUpdated, with))
        {
            for (final ComponentStorage<?> storage : list)
            {
                if (!all.contains(storage))
                {
                    all.add(storage);
                }
            }
        }
        return all;
    }
}
