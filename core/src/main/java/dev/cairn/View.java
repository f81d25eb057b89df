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
 * <p>
 * <b>The rules of walks</b>, which every generated view, group and observer follows, and runtime views and groups
 * too:
 * <ul>
 *     <li>{@code forEach(action)} calls the action once for each matching entity, from the front of the leading
 *     storage's packed array to the back, with a {@code Ref} per passed component positioned on it. The {@code Ref}s
 *     belong to the walk and move at every step: keep the entity handle, not a {@code Ref} (kept, it stays on the
 *     entity it was last positioned on).</li>
 *     <li>{@code cursor()} starts the same walk as an external loop; it lasts until {@code next()} returns false or the
 *     cursor is closed (leave a loop early inside try-with-resources), and the next {@code cursor()} of the same
 *     object ends the previous walk. There is one cursor per generated object, so a loop allocates nothing.</li>
 *     <li>{@code parallelForEach(pool, chunkSize, action)} runs the action on a pool's threads over chunks of the
 *     range, each with {@code Ref}s of its own; the calling thread waits. {@code chunkSize} is 1 or more, or
 *     {@code Chunks.AUTOMATIC}; the one-argument form uses the common pool.</li>
 *     <li>While a walk runs the world's structure holds still: destroys, adds, removes and clears the action makes
 *     are checked at once and made when the walk returns, in the order made (a parallel walk's, in the order
 *     {@code forEach} would have made them); field writes are made at once; closing, resetting, loading, sorting and
 *     building groups are refused. The docs' page on views says it in full.</li>
 *     <li>Every method throws {@link IllegalStateException} once the world is closed, and {@link NullPointerException}
 *     for a null action; nothing is allocated per entity.</li>
 * </ul>
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
