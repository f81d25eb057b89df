package dev.cairn;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares an observer: the entities that matched its rule when one of its trigger components was added
 * ({@link #added()}) or updated ({@link #updated()}), since it was last cleared. Put it on an interface; Cairn's
 * annotation processor generates, beside it, a class named after the interface with {@code Observer} appended
 * ({@code @Observer(...) interface Moved {}} gives {@code MovedObserver}), which iterates the observed entities with
 * positioned component accessors, as a view does.
 * <p>
 * Every observed entity has every trigger and {@link #with()} component and no {@link #without()} component; see
 * {@link dev.cairn.observer.RuntimeObserver} for the rule in full.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Observer
{
    /**
     * Components whose addition lets an entity enter.
     *
     * @return component records; each is required, and passed to the action unless it is a tag.
     */
    Class<? extends Record>[] added() default {};

    /**
     * Components whose update ({@code patch}, {@code markUpdated}) lets an entity enter. Writes of single fields
     * (a generated storage's setters, a {@code Ref}'s setters) are not updates: a system that writes fields and wants
     * the observer told calls {@code markUpdated(entity)}.
     *
     * @return component records; each is required, and passed to the action unless it is a tag.
     */
    Class<? extends Record>[] updated() default {};

    /**
     * Components an entity must also have to enter and to stay.
     *
     * @return component records, passed to the action unless they are tags.
     */
    Class<? extends Record>[] with() default {};

    /**
     * Components an entity must not have to enter and to stay.
     *
     * @return component records.
     */
    Class<? extends Record>[] without() default {};
}
