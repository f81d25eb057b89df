package dev.cairn.internal;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What the engine's other packages reach of a component storage that users do not: the hooks that groups and
 * observers follow it with, and its rows, which command buffers and snapshot loaders copy components with (see
 * {@code dev.cairn.storage.ComponentStorage}). A row holds a component's fields back to back in column order, each as
 * its column stores it (native byte order; a boolean a byte 0 or 1, an enum its ordinal, an entity reference its
 * handle). Reached with {@link Access#rawStorage}.
 */
public interface RawStorage
{
    /**
     * Attaches an engine structure that must follow the storage exactly (an observer, a group): it hears of every add
     * before the listeners and of every removal after them, and may reserve room before an insert. Hooks run in
     * ascending {@link StorageHook#order()} on adds and updates, descending on removals.
     *
     * @param hook the structure.
     * @throws IllegalStateException if the storage is closed.
     */
    void attach(StorageHook hook);

    /**
     * Detaches a structure attached with {@link #attach}; a no-op if it is not attached.
     *
     * @param hook the structure.
     */
    void detach(StorageHook hook);

    /**
     * The size of a row.
     *
     * @return the sum of the fields' widths; 0 for a tag.
     */
    int rowBytes();

    /**
     * Where a field starts in a row.
     *
     * @param column the field's place in the component's schema.
     * @return its offset.
     * @throws IndexOutOfBoundsException if there is no such field.
     */
    int rowOffset(int column);

    /**
     * Where the entity-reference fields start in a row, for code that translates handles.
     *
     * @return their offsets, in column order; a copy.
     */
    int[] entityRowOffsets();

    /**
     * Copies the component at a packed index into a row.
     *
     * @param index  a packed index below the storage's size.
     * @param target where the row goes.
     * @param offset where in {@code target}.
     * @throws IndexOutOfBoundsException if the index is out of range, or the row does not fit.
     * @throws IllegalStateException     if the storage is closed.
     */
    void readRow(int index, MutableDirectBuffer target, int offset);

    /**
     * Adds the component to an entity from a row, as {@code add} would with a record of those values.
     *
     * @param entity an entity without the component.
     * @param source where the row is.
     * @param offset where in {@code source}.
     * @throws IllegalArgumentException  if the entity has the component or is not alive, or the row holds a value its
     *                                   field cannot (a boolean other than 0 or 1, an enum ordinal past its
     *                                   constants); nothing is added then.
     * @throws IndexOutOfBoundsException if the row does not fit in {@code source}; nothing is added then.
     * @throws IllegalStateException     if the storage is closed.
     */
    void addRow(long entity, DirectBuffer source, int offset);

    /**
     * Overwrites an entity's component with a row, as {@code patch} would.
     *
     * @param entity an entity with the component.
     * @param source where the row is.
     * @param offset where in {@code source}.
     * @throws IllegalArgumentException  as {@link #addRow}, if the entity lacks the component.
     * @throws IndexOutOfBoundsException if the row does not fit in {@code source}; nothing is written then.
     * @throws IllegalStateException     if the storage is closed.
     */
    void patchRow(long entity, DirectBuffer source, int offset);

    /**
     * Adds the component to an alive entity from a row in a byte array or, if the entity has it, overwrites it; an
     * entity that is not alive is left alone: how a command buffer's add is applied. Inside a walk, recorded.
     *
     * @param entity any value.
     * @param row    the array.
     * @param offset where the row starts in it.
     * @return false if the entity is not alive (nothing changed).
     * @throws IllegalArgumentException  if the row holds a value its field cannot; nothing changes then.
     * @throws IndexOutOfBoundsException if the row does not fit; nothing changes then.
     * @throws IllegalStateException     if the storage is closed.
     */
    boolean putRowIfAlive(long entity, byte[] row, int offset);

    /**
     * Adds the component to entities whose rows were written back to back, each right after its 8-byte handle, for as
     * long as an entry takes nothing but the insert and the copy: what a command buffer plays a run of adds with. It
     * stops at the first entry that needs more (an entity not alive or with the component, a page to allocate, a hook
     * or listener to run, a value its field cannot hold) and leaves it and those after it to the caller, which decides
     * each with {@link #putRowIfAlive}.
     *
     * @param entries the entries.
     * @param offset  where the first starts.
     * @param count   how many there are.
     * @return how many, from the first, were added.
     * @throws IndexOutOfBoundsException if the entries do not fit in {@code entries}; nothing is added.
     * @throws IllegalStateException     if the storage is closed.
     */
    int addRowsQuickly(byte[] entries, int offset, int count);
}
