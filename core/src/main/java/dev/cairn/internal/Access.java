package dev.cairn.internal;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What generated code and Cairn's other packages reach of a world, a set or a storage that users do not: their walks,
 * a storage's hooks and rows, and the raw state snapshots save. Those classes install an accessor when they are
 * initialised, so that no public member on them serves this.
 */
public final class Access
{
    private static final ConcurrentHashMap<Class<?>, Function<Object, Walks>> WALKS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Class<?>, Function<Object, RawSet>> RAW = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Class<?>, Function<Object, RawStorage>> RAW_STORAGE =
        new ConcurrentHashMap<>();

    private static volatile Function<Object, RawWorld> world;

    private Access()
    {
    }

    /**
     * The walks of a world, or of the world a set or storage belongs to (or of a set made on its own).
     *
     * @param owner a {@code World} or a {@code SparseSet}.
     * @return its walks.
     * @throws IllegalArgumentException if {@code owner} is neither.
     */
    public static Walks walks(final Object owner)
    {
        return find(WALKS, owner).apply(owner);
    }

    /**
     * The raw state of a set or storage, for snapshot code.
     *
     * @param set a {@code SparseSet}.
     * @return its raw state; a new view, cheap to make.
     * @throws IllegalArgumentException if {@code set} is not a set.
     */
    public static RawSet raw(final Object set)
    {
        return find(RAW, set).apply(set);
    }

    /**
     * Installs the accessor of the raw state of a class's instances: the set class does, once.
     *
     * @param type     the class.
     * @param accessor makes an instance's raw view.
     * @throws IllegalStateException if the class installed one already.
     */
    public static void installRaw(final Class<?> type, final Function<Object, RawSet> accessor)
    {
        install(RAW, type, accessor);
    }

    /**
     * What the engine reaches of a component storage: its hooks and rows.
     *
     * @param storage a {@code ComponentStorage}.
     * @return its raw side, the same object every time.
     * @throws IllegalArgumentException if {@code storage} is not a storage.
     */
    public static RawStorage rawStorage(final Object storage)
    {
        return find(RAW_STORAGE, storage).apply(storage);
    }

    /**
     * Installs the accessor of the raw side of a class's instances: the storage class does, once.
     *
     * @param type     the class.
     * @param accessor reads an instance's raw side.
     * @throws IllegalStateException if the class installed one already.
     */
    public static void installRawStorage(final Class<?> type, final Function<Object, RawStorage> accessor)
    {
        install(RAW_STORAGE, type, accessor);
    }

    /**
     * The raw state of a world, for snapshot code.
     *
     * @param owner a {@code World}.
     * @return its raw state.
     * @throws IllegalStateException if no world class is initialised yet.
     */
    public static RawWorld rawWorld(final Object owner)
    {
        final Function<Object, RawWorld> accessor = world;
        if (accessor == null)
        {
            throw new IllegalStateException("no World exists yet");
        }
        return accessor.apply(Objects.requireNonNull(owner, "world"));
    }

    /**
     * Installs the accessor of a world's raw state: the world class does, once.
     *
     * @param accessor makes a world's raw view.
     * @throws IllegalStateException if one is installed already.
     */
    public static synchronized void installRawWorld(final Function<Object, RawWorld> accessor)
    {
        if (world != null)
        {
            throw new IllegalStateException("the raw accessor of World is installed by that class alone");
        }
        world = Objects.requireNonNull(accessor, "accessor");
    }

    private static <T> Function<Object, T> find(final ConcurrentHashMap<Class<?>, Function<Object, T>> map,
        final Object owner)
    {
        Objects.requireNonNull(owner, "owner");
        for (Class<?> type = owner.getClass(); type != null; type = type.getSuperclass())
        {
            final Function<Object, T> accessor = map.get(type);
            if (accessor != null)
            {
                return accessor;
            }
        }
        throw new IllegalArgumentException(owner.getClass().getName() + " is neither a World nor a set");
    }

    private static <T> void install(final ConcurrentHashMap<Class<?>, Function<Object, T>> map, final Class<?> type,
        final Function<Object, T> accessor)
    {
        if (map.putIfAbsent(type, Objects.requireNonNull(accessor, "accessor")) != null)
        {
            throw new IllegalStateException("the accessor of " + type.getName() + " is installed by that class alone");
        }
    }

    /**
     * Installs the accessor of a class whose instances have walks: the class does, once, as it is initialised.
     *
     * @param type     the class.
     * @param accessor reads an instance's walks.
     * @throws IllegalStateException if the class installed one already.
     */
    public static void installWalks(final Class<?> type, final Function<Object, Walks> accessor)
    {
        install(WALKS, type, accessor);
    }
}
