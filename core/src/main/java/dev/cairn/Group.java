package dev.cairn;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a group: the entities that have every component in {@link #owns()} and {@link #with()} and none in
 * {@link #without()}, kept up to date as components come and go. Put it on an interface; Cairn's annotation processor
 * generates, beside it, a class named after the interface with {@code Group} appended ({@code @Group(...) interface
 * Movement {}} gives {@code MovementGroup}), which iterates the group with positioned component accessors, as a view
 * does.
 * <p>
 * The storages of {@link #owns()} keep the group's entities at their front, aligned, so a group that owns all it
 * requires iterates with no lookup at all; see {@link dev.cairn.group.RuntimeGroup} for the rules of ownership. Its
 * walks follow the rules of {@link View}'s.
 * <p>
 * An owning group also walks <b>by index</b> ({@code forEachIndex}: at index {@code i} every owned storage holds the
 * group's {@code i}th entity, for their indexed accessors) and <b>by block</b> ({@code forEachBlock}: up to
 * {@code Block.CAPACITY} consecutive entities at a time, the block's entities at the group's indices
 * {@code [start(), start() + length())}). A block hands out each owned column as an array whose elements
 * {@code [0, length())} hold the block's entities' values, filled when first asked for: {@code positionX()} returns
 * it writable, and the walk copies it back into the storage when the action returns (stamping a tracked component's
 * change ticks; a write by other means to an owned column of the block's entities is overwritten then);
 * {@code positionXReadOnly()} returns it filled but not copied back. A loop over such arrays is what the JIT
 * vectorises. If the action throws, its block is not copied back; the blocks before it were. A block is valid only
 * during the call of the action it was passed to: its accessors throw afterwards. A parallel block walk rounds its
 * chunk size up to whole blocks, so the blocks, and the order of the changes their actions make, do not depend on it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Group
{
    /**
     * Components the group owns. Their storages must not be {@link DeletionPolicy#IN_PLACE}.
     *
     * @return component records, passed to the action unless they are tags; none for a non-owning group.
     */
    Class<? extends Record>[] owns() default {};

    /**
     * Components the group requires without owning them.
     *
     * @return component records, passed to the action unless they are tags.
     */
    Class<? extends Record>[] with() default {};

    /**
     * Components an entity must not have to be in the group.
     *
     * @return component records.
     */
    Class<? extends Record>[] without() default {};
}
