package dev.cairn;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a view over entities that have every component in {@link #with()} and none in {@link #without()} (and,
 * with {@link #added()} or {@link #changed()}, only those whose tracked components changed since a tick). Put it
 * on an interface; Cairn's annotation processor generates, beside it, a class named after the interface with
 * {@code View} appended ({@code @View(...) interface Movers {}} gives {@code MoversView}).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface View
{
    /**
     * Components an entity must have; each must be a {@link Component} record. Tags filter but are not passed.
     *
     * @return one to eight component records.
     */
    Class<? extends Record>[] with();

    /**
     * Components an entity must not have.
     *
     * @return zero to eight component records.
     */
    Class<? extends Record>[] without() default {};

    /**
     * Included components that must have been added after a tick: the generated view then iterates with
     * {@code forEach(since, action)} and {@code cursor(since)}, and visits an entity only if each of these components
     * was added after tick {@code since}. Each must be in {@link #with()} and declared
     * {@code @Component(tracked = true)}.
     *
     * @return tracked components of {@link #with()}.
     */
    Class<? extends Record>[] added() default {};

    /**
     * Included components that must have been written (or added) after a tick: as {@link #added()}, for changes.
     *
     * @return tracked components of {@link #with()}.
     */
    Class<? extends Record>[] changed() default {};
}
