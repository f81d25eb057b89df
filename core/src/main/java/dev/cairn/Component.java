package dev.cairn;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record as a component. Cairn's annotation processor ({@code cairn-codegen}) generates, beside it, a
 * storage class named after the record with {@code Storage} appended ({@code Position} gives
 * {@code PositionStorage}; a nested {@code Outer.Position} gives {@code Outer_PositionStorage}) that keeps one
 * off-heap column per record component.
 * <p>
 * Supported record components: the eight primitive types, enums (stored as their ordinal), and records whose
 * components are themselves supported (flattened into columns). A record with no components is a tag: its storage
 * is just a sparse set.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Component
{
    /**
     * What removing this component from an entity does to the storage's packed array.
     *
     * @return the deletion policy; {@link DeletionPolicy#SWAP_AND_POP} unless chosen otherwise.
     */
    DeletionPolicy policy() default DeletionPolicy.SWAP_AND_POP;

    /**
     * Whether the storage records change ticks: for each component, the world tick at which it was added and the tick
     * at which it was last written, through any generated write path. Views can then visit only the components added
     * or changed since a tick ({@link View#added()}, {@link View#changed()}). Untracked components pay nothing.
     *
     * @return true to record change ticks; false unless chosen.
     */
    boolean tracked() default false;
}
