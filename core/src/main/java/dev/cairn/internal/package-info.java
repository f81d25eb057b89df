/**
 * Not API: the engine's own machinery, public only so that Cairn's other packages and the code its annotation
 * processor generates can reach it. Nothing here is stable between versions, and nothing here checks its arguments
 * beyond what each method says; call it from your code and a change of Cairn may break it, or a wrong argument crash
 * the JVM.
 * <p>
 * It holds the entity pool, the off-heap memory and its columns, the walks that hold a world's structure still and
 * the changes deferred meanwhile, the hooks that groups and observers follow storages with, the raw state snapshots
 * save, and the raw reads and writes of generated storages.
 * <p>
 * <b>What generated code calls.</b> Generated storages, views, groups and observers call these members of Cairn's
 * core, and no others ({@code GeneratedCodeCallsTest} checks it against the bytecode of every class the processor
 * generates for Cairn's tests, both ways):
 * <ul>
 * <li>{@code Access}: walks</li>
 * <li>{@code Chunks}: requireValid, sizeInBlocks</li>
 * <li>{@code Clock}: new</li>
 * <li>{@code CommandBuffer}: add, record, remove</li>
 * <li>{@code ComponentStorage}: new, added, addedSince, changedSince, checkCopyIn, checkCopyOut, column,
 * columnsMoved, deferAdd, indexForPatch, isDeferring, moveTicks, requireConstants, stampChanged, swapTicks,
 * updated</li>
 * <li>{@code ComponentType}: register</li>
 * <li>{@code DeletionPolicy}: IN_PLACE, SWAP_AND_POP, SWAP_ONLY</li>
 * <li>{@code Failures}: propagate</li>
 * <li>{@code FieldType}: BOOLEAN, BYTE, CHAR, DOUBLE, ENTITY, FLOAT, INT, LONG, SHORT</li>
 * <li>{@code GroupBuilder}: build, owning</li>
 * <li>{@code IndexComparator}: of</li>
 * <li>{@code Memory}: copyIn, copyOut, getByte, getChar, getDouble, getFloat, getInt, getLong, getShort, putByte,
 * putChar, putDouble, putFloat, putInt, putLong, putShort, swapByte, swapInt, swapLong, swapShort</li>
 * <li>{@code ObserverBuilder}: build, onAdded, onUpdated</li>
 * <li>{@code Row}: putByte, putChar, putDouble, putFloat, putInt, putLong, putShort</li>
 * <li>{@code RuleBuilder}: named, with, without</li>
 * <li>{@code RuntimeGroup}: close, contains, ensureOpen, entityAt, extent, isEmpty, isOpen, size, sort</li>
 * <li>{@code RuntimeObserver}: clear, close, contains, ensureOpen, entityAt, extent, isEmpty, isOpen, size</li>
 * <li>{@code Schema}: enumField, field, of</li>
 * <li>{@code SparseSet}: checkIndex, columnAddress, contains, ensureOpen, entityAt, extent, indexOf, insertMember,
 * isClosed, layoutVersion, memberAt, memberCount, refIndex, requireIndex</li>
 * <li>{@code Walks}: beginCursorWalk, beginWalk, end, endIfOpen, runParallel</li>
 * <li>{@code World}: group, observer, storage</li>
 * </ul>
 */
package dev.cairn.internal;
