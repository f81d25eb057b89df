package dev.cairn.storage;

import dev.cairn.DeletionPolicy;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.internal.Walks;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Identifies a component record and knows how to build its generated storage. Each generated storage declares one
 * as its {@code TYPE} constant; the {@link dev.cairn.world.World} keeps its storages in an array indexed by
 * {@link #id()}, so typed access is an array load.
 *
 * @param <R> the component record.
 * @param <S> its generated storage.
 */
public final class ComponentType<R extends Record, S extends ComponentStorage<R>>
{
    /**
     * Builds a storage over the given memory owner and entity pool.
     *
     * @param <S> the storage class.
     */
    @FunctionalInterface
    public interface Factory<S>
    {
        /**
         * Creates an empty storage.
         *
         * @param offHeap owner of its memory, or null for a storage that owns its memory.
         * @param walks   the walks of the world whose memory it is; null with {@code offHeap}.
         * @param pool    the pool its entities must be alive in, or null to accept any well-formed handle.
         * @param clock   the clock its change ticks come from.
         * @return the new storage.
         */
        S create(OffHeap offHeap, Walks walks, EntityPool pool, Clock clock);
    }

    /** What a generated storage passes to {@link #register} for a {@code @Component(tracked = true)} record. */
    public static final boolean TRACKED = true;

    /** What a generated storage passes to {@link #register} for a record whose storage keeps no change ticks. */
    public static final boolean UNTRACKED = false;

    private static final AtomicInteger NEXT_ID = new AtomicInteger();
    private static final ConcurrentHashMap<Class<?>, ComponentType<?, ?>> BY_RECORD = new ConcurrentHashMap<>();

    private final int id;
    private final Class<R> recordClass;
    private final DeletionPolicy policy;
    private final boolean tracked;
    private final Factory<S> factory;
    private final Schema schema;

    private ComponentType(
        final int id,
        final Class<R> recordClass,
        final DeletionPolicy policy,
        final boolean tracked,
        final Factory<S> factory,
        final Schema schema)
    {
        this.id = id;
        this.recordClass = recordClass;
        this.policy = policy;
        this.tracked = tracked;
        this.factory = factory;
        this.schema = schema;
    }

    /**
     * Registers a component record; called once by each generated storage's static initialiser.
     *
     * @param recordClass the component record.
     * @param policy      its deletion policy.
     * @param tracked     whether its storage records change ticks.
     * @param factory     builds its storage.
     * @param schema      its fields in column order.
     * @param <R>         the component record.
     * @param <S>         its storage.
     * @return the type, with a process-wide unique id.
     * @throws IllegalStateException if the record is already registered.
     */
    public static <R extends Record, S extends ComponentStorage<R>> ComponentType<R, S> register(
        final Class<R> recordClass,
        final DeletionPolicy policy,
        final boolean tracked,
        final Factory<S> factory,
        final Schema schema)
    {
        final ComponentType<R, S> type =
            new ComponentType<>(NEXT_ID.getAndIncrement(), recordClass, policy, tracked, factory, schema);
        if (BY_RECORD.putIfAbsent(recordClass, type) != null)
        {
            throw new IllegalStateException(recordClass.getName() + " is registered twice");
        }
        return type;
    }

    /**
     * The type of a component record, loading its generated storage class if needed. Meant for code that is not
     * hot; hot code uses the storage's {@code TYPE} constant.
     *
     * @param recordClass a {@link dev.cairn.Component} record.
     * @param <R>         the record.
     * @return its type.
     * @throws IllegalArgumentException if no storage was generated for it.
     */
    @SuppressWarnings("unchecked")
    public static <R extends Record> ComponentType<R, ? extends ComponentStorage<R>> of(final Class<R> recordClass)
    {
        java.util.Objects.requireNonNull(recordClass, "recordClass: pass the class of a @Component record");
        ComponentType<?, ?> type = BY_RECORD.get(recordClass);
        if (type == null && recordClass.isLocalClass())
        {
            throw new IllegalArgumentException(
                recordClass.getName() + " is declared inside a method, and a local record cannot be a component: " +
                "generated storages could not name it; move it to a top-level or member declaration");
        }
        if (type == null)
        {
            final String storageName = storageClassName(recordClass);
            final Class<?> storage;
            try
            {
                storage = Class.forName(storageName, false, recordClass.getClassLoader());
            }
            catch (final ClassNotFoundException | LinkageError ex)
            {
                throw new IllegalArgumentException(
                    recordClass.getName() + " has no generated storage (" + storageName + " not found): annotate " +
                    "it with @dev.cairn.Component and put cairn-codegen on the annotation processor path", ex);
            }
            // Checked before it is initialised: a snapshot names records, and must not run any class's initialiser.
            if (!ComponentStorage.class.isAssignableFrom(storage))
            {
                throw new IllegalArgumentException(recordClass.getName() + " is not a component: " + storageName +
                    " is not a storage (it does not extend " + ComponentStorage.class.getName() + "); annotate the " +
                    "record with @dev.cairn.Component, or rename the class");
            }
            try
            {
                Class.forName(storageName, true, recordClass.getClassLoader());
            }
            catch (final ClassNotFoundException | LinkageError ex)
            {
                throw new IllegalArgumentException(
                    storageName + " could not be initialised: " + ex + "; regenerate it with the current cairn-codegen",
                    ex);
            }
            type = BY_RECORD.get(recordClass);
            if (type == null)
            {
                throw new IllegalArgumentException(
                    storageName + " exists but did not register " + recordClass.getName() +
                    "; regenerate it with the current cairn-codegen");
            }
        }
        return (ComponentType<R, ? extends ComponentStorage<R>>)type;
    }

    /**
     * The binary name of the storage generated for a record: {@code p.Position} gives {@code p.PositionStorage},
     * {@code p.Outer.Position} gives {@code p.Outer_PositionStorage}.
     *
     * @param recordClass a component record.
     * @return the storage's binary class name.
     */
    public static String storageClassName(final Class<?> recordClass)
    {
        final StringBuilder simpleName = new StringBuilder(recordClass.getSimpleName());
        for (Class<?> outer = recordClass.getEnclosingClass(); outer != null; outer = outer.getEnclosingClass())
        {
            simpleName.insert(0, outer.getSimpleName() + "_");
        }
        final String packageName = recordClass.getPackageName();
        return packageName.isEmpty() ? simpleName + "Storage" : packageName + "." + simpleName + "Storage";
    }

    /**
     * Process-wide unique, small, dense id.
     *
     * @return the id.
     */
    public int id()
    {
        return id;
    }

    /**
     * The component record.
     *
     * @return its class.
     */
    public Class<R> recordClass()
    {
        return recordClass;
    }

    /**
     * The deletion policy from the record's {@link dev.cairn.Component} annotation.
     *
     * @return the policy.
     */
    public DeletionPolicy policy()
    {
        return policy;
    }

    /**
     * The record's fields in column order, as snapshots write them.
     *
     * @return the schema.
     */
    public Schema schema()
    {
        return schema;
    }

    /**
     * The registered type of a record by its binary class name ({@link Class#getName()}), for code that reads a
     * name from outside, such as a snapshot; loads the record's storage through {@code loader} if it is not
     * registered yet.
     *
     * @param recordName the record's binary name, for example {@code com.example.Outer$Position}.
     * @param loader     where to look for it if it is not registered yet; may be null for the system loader.
     * @return the type, or null if no such component exists.
     */
    public static ComponentType<?, ?> named(final String recordName, final ClassLoader loader)
    {
        for (final ComponentType<?, ?> type : BY_RECORD.values())
        {
            if (type.recordClass.getName().equals(recordName))
            {
                return type;
            }
        }
        try
        {
            final Class<?> recordClass = Class.forName(recordName, false, loader);
            if (!recordClass.isRecord())
            {
                return null;
            }
            @SuppressWarnings("unchecked")
            final Class<? extends Record> record = (Class<? extends Record>)recordClass;
            return of(record);
        }
        catch (final ClassNotFoundException | LinkageError | IllegalArgumentException ex)
        {
            return null;
        }
    }

    /**
     * Whether the record is declared {@code @Component(tracked = true)}: its storage records change ticks.
     *
     * @return true if tracked.
     */
    public boolean isTracked()
    {
        return tracked;
    }

    /**
     * Builds an empty storage.
     *
     * @param offHeap owner of its memory, or null for a storage that owns (and on close frees) its memory.
     * @param walks   the walks of the world whose memory it is; null with {@code offHeap}.
     * @param pool    the pool its entities must be alive in, or null to accept any well-formed handle.
     * @param clock   the clock its change ticks come from.
     * @return the new storage.
     */
    public S newStorage(final OffHeap offHeap, final Walks walks, final EntityPool pool, final Clock clock)
    {
        return factory.create(offHeap, walks, pool, clock);
    }

    @Override
    public String toString()
    {
        return "ComponentType[" + recordClass.getName() + ", id=" + id + ", " + policy + (tracked ? ", tracked" : "") +
            "]";
    }
}
