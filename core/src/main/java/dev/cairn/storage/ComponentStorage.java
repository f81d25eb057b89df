package dev.cairn.storage;

import dev.cairn.entity.EntityPool;
import dev.cairn.memory.OffHeap;
import dev.cairn.set.SparseSet;

/**
 * A sparse set whose payload columns hold one component record per member; the base of every generated storage.
 * <p>
 * Generated subclasses add the allocation-free accessors (one per column, by entity and by packed index); this class
 * gives the record-level operations that the {@link dev.cairn.World}'s convenience methods need. Those allocate a
 * record per call and are meant for code that is not hot.
 *
 * @param <R> the component record.
 */
public abstract class ComponentStorage<R extends Record> extends SparseSet
{
    private final ComponentType<R, ?> type;

    /**
     * Creates an empty storage.
     *
     * @param type         the component type.
     * @param offHeap      owner of the memory, or null for a storage that owns its memory.
     * @param pool         the pool entities must be alive in, or null to accept any well-formed handle.
     * @param columnWidths byte width of each column.
     */
    protected ComponentStorage(
        final ComponentType<R, ?> type, final OffHeap offHeap, final EntityPool pool, final int[] columnWidths)
    {
        super(type.policy(), offHeap, pool, displayName(type.recordClass()) + " storage", columnWidths);
        this.type = type;
    }

    private static String displayName(final Class<?> recordClass)
    {
        final String packageName = recordClass.getPackageName();
        final String binaryName = packageName.isEmpty() ?
            recordClass.getName() : recordClass.getName().substring(packageName.length() + 1);
        return binaryName.replace('$', '.');
    }

    /**
     * The component type this storage holds.
     *
     * @return its type.
     */
    public final ComponentType<R, ?> type()
    {
        return type;
    }

    /**
     * Adds a component to an entity that does not have one.
     *
     * @param entity    the entity.
     * @param component its value.
     * @return the packed index the component occupies.
     * @throws IllegalArgumentException if the entity already has this component or is not alive.
     */
    public abstract int add(long entity, R component);

    /**
     * Overwrites the component of an entity that has one.
     *
     * @param entity    the entity.
     * @param component the new value.
     * @throws IllegalArgumentException if the entity does not have this component.
     */
    public abstract void patch(long entity, R component);

    /**
     * Reads an entity's component into a new record.
     *
     * @param entity the entity.
     * @return a copy of its component.
     * @throws IllegalArgumentException if the entity does not have this component.
     */
    public abstract R get(long entity);

    /**
     * Reads the component at a packed index into a new record.
     *
     * @param index a packed index from 0 to {@link #size()} - 1.
     * @return a copy of the component there.
     * @throws IndexOutOfBoundsException if the index is out of range.
     */
    public abstract R getAt(int index);
}
