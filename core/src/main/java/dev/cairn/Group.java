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
 * requires iterates with no lookup at all; see {@link dev.cairn.group.RuntimeGroup} for the rules of ownership.
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
