package dev.cairn.storage;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The rule of a group or an observer as it is built: which components an entity must have ({@link #with}) and must
 * not have ({@link #without}), besides what the structure adds (the components a group owns, those whose changes an
 * observer watches). Components are named by record class, whose storage the world makes if it has none, or by
 * storage of the same world.
 *
 * @param <B> the concrete builder, which every method returns.
 */
public abstract class RuleBuilder<B extends RuleBuilder<B>>
{
    /** The components an entity must also have. */
    protected final List<ComponentStorage<?>> with = new ArrayList<>();
    /** The components an entity must not have. */
    protected final List<ComponentStorage<?>> without = new ArrayList<>();
    private final Storages world;
    private final String built;
    private String name;

    /**
     * Starts a rule over a world's storages.
     *
     * @param world where component classes are looked up, and whose storages alone the rule may name.
     * @param built what is built, for messages: {@code "group"}, {@code "observer"}.
     */
    protected RuleBuilder(final Storages world, final String built)
    {
        this.world = world;
        this.built = built;
    }

    /**
     * Components an entity must also have.
     *
     * @param components component records.
     * @return this builder.
     */
    @SafeVarargs
    public final B with(final Class<? extends Record>... components)
    {
        return add(with, components);
    }

    /**
     * Components an entity must not have.
     *
     * @param components component records.
     * @return this builder.
     */
    @SafeVarargs
    public final B without(final Class<? extends Record>... components)
    {
        return add(without, components);
    }

    /**
     * As {@link #with(Class[])}, with storages of this world.
     *
     * @param storages storages of this world.
     * @return this builder.
     * @throws IllegalArgumentException if a storage is not this world's.
     */
    public final B with(final ComponentStorage<?>... storages)
    {
        return add(with, storages);
    }

    /**
     * As {@link #without(Class[])}, with storages of this world.
     *
     * @param storages storages of this world.
     * @return this builder.
     * @throws IllegalArgumentException if a storage is not this world's.
     */
    public final B without(final ComponentStorage<?>... storages)
    {
        return add(without, storages);
    }

    /**
     * Names what is built in messages, before its rule: a generated group or observer passes its class name, so that
     * messages read "group MovementGroup (owning Position+Velocity)". Without a name, messages give the rule alone.
     *
     * @param name the name.
     * @return this builder.
     */
    public final B named(final String name)
    {
        this.name = Objects.requireNonNull(name, "name");
        return self();
    }

    /**
     * Adds the storages of component classes to one of the rule's lists.
     *
     * @param list       the list.
     * @param components component records.
     * @return this builder.
     */
    @SafeVarargs
    protected final B add(final List<ComponentStorage<?>> list, final Class<? extends Record>... components)
    {
        for (final Class<? extends Record> component : components)
        {
            list.add(world.storage(Objects.requireNonNull(component, "a component class is null")));
        }
        return self();
    }

    /**
     * Adds storages of this world to one of the rule's lists.
     *
     * @param list     the list.
     * @param storages storages of this world.
     * @return this builder.
     */
    protected final B add(final List<ComponentStorage<?>> list, final ComponentStorage<?>... storages)
    {
        for (final ComponentStorage<?> storage : storages)
        {
            list.add(Storages.requireOwn(world, storage, built));
        }
        return self();
    }

    /**
     * Checks every storage the rule names is open and named once across {@code lists}.
     *
     * @param lists the lists in which a component may appear once in all.
     * @throws IllegalArgumentException naming a component named twice.
     * @throws IllegalStateException    if a storage (its world) is closed.
     */
    @SafeVarargs
    protected final void requireEachOnce(final List<ComponentStorage<?>>... lists)
    {
        final Set<ComponentStorage<?>> seen = new LinkedHashSet<>();
        for (final List<ComponentStorage<?>> list : lists)
        {
            for (final ComponentStorage<?> storage : list)
            {
                storage.ensureOpen();
                if (!seen.add(storage))
                {
                    throw new IllegalArgumentException(storage.type().recordClass().getSimpleName() + " appears " +
                        "twice in the rule of " + built + " " + describe() + "; name each component once");
                }
            }
        }
    }

    /**
     * The rule, for messages: the name if any, then each non-empty list as its label and its components joined by
     * {@code +}, for example {@code "MovementGroup (owning Position+Velocity without Frozen)"}.
     *
     * @return the description.
     */
    protected final String describe()
    {
        final StringBuilder text = new StringBuilder();
        describeLists(text);
        append(text, "with", with);
        append(text, "without", without);
        return name == null ? text.toString() : name + " (" + text + ")";
    }

    /**
     * Appends the structure's own lists to a description, each with {@link #append}.
     *
     * @param text the description so far.
     */
    protected abstract void describeLists(StringBuilder text);

    /**
     * Appends one list to a description: its label and its components joined by {@code +}; nothing if it is empty.
     *
     * @param text  the description.
     * @param label the list's label.
     * @param list  the list.
     */
    protected static void append(final StringBuilder text, final String label, final List<ComponentStorage<?>> list)
    {
        if (list.isEmpty())
        {
            return;
        }
        text.append(text.length() == 0 ? "" : " ").append(label).append(' ');
        for (int k = 0; k < list.size(); k++)
        {
            text.append(k == 0 ? "" : "+").append(list.get(k).type().recordClass().getSimpleName());
        }
    }

    /**
     * This builder, as its concrete type.
     *
     * @return {@code this}.
     */
    protected abstract B self();
}
