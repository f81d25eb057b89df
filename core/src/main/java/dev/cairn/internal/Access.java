package dev.cairn.internal;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What generated code and Cairn's other packages reach of a world or a set that users do not: their walks. The world
 * and set classes install an accessor when they are initialised, so that no public member on them serves this.
 */
public final class Access
{
    private static final ConcurrentHashMap<Class<?>, Function<Object, Walks>> WALKS = new ConcurrentHashMap<>();

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
        Objects.requireNonNull(owner, "owner");
        for (Class<?> type = owner.getClass(); type != null; type = type.getSuperclass())
        {
            final Function<Object, Walks> accessor = WALKS.get(type);
            if (accessor != null)
            {
                return accessor.apply(owner);
            }
        }
        throw new IllegalArgumentException(owner.getClass().getName() + " has no walks: pass a World or a set");
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
        if (WALKS.putIfAbsent(type, Objects.requireNonNull(accessor, "accessor")) != null)
        {
            throw new IllegalStateException("the walks of " + type.getName() + " are reached through that class alone");
        }
    }
}
