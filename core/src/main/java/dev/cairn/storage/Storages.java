package dev.cairn.storage;

/**
 * Where component storages are found by type: a {@link dev.cairn.world.World}. Runtime views look their storages up
 * through it, so they depend on this lookup and not on the world.
 */
public interface Storages
{
    /**
     * The storage of a component type, created empty on first use.
     *
     * @param type the storage's {@code TYPE} constant.
     * @param <R>  the component record.
     * @param <S>  its storage class.
     * @return the storage.
     * @throws IllegalStateException if the owner is closed.
     */
    <R extends Record, S extends ComponentStorage<R>> S storage(ComponentType<R, S> type);

    /**
     * The storage of a component record class; looks the type up first.
     *
     * @param recordClass a {@link dev.cairn.Component} record.
     * @param <R>         the record.
     * @return its storage.
     * @throws IllegalArgumentException if no storage was generated for the record.
     * @throws IllegalStateException    if the owner is closed.
     */
    <R extends Record> ComponentStorage<R> storage(Class<R> recordClass);

    /**
     * Checks that a storage is the one these storages hold for its type, for builders of structures that follow it.
     *
     * @param world   the storages.
     * @param storage a storage a caller passed.
     * @param built   what is being built, for the message: "observer", "group".
     * @return the storage.
     * @throws NullPointerException     if it is null.
     * @throws IllegalArgumentException if it belongs to another world or is standalone.
     */
    static ComponentStorage<?> requireOwn(
        final Storages world, final ComponentStorage<?> storage, final String built)
    {
        java.util.Objects.requireNonNull(storage, "a storage is null");
        if (world.storage(storage.type()) != storage)
        {
            throw new IllegalArgumentException(storage.name() + " is not this world's (it belongs to another World, " +
                "or is standalone): build the " + built + " with world.storage(...) of this world");
        }
        return storage;
    }
}
