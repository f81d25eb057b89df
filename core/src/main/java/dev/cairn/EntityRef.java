package dev.cairn;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code long} record component of a {@link Component} as a reference to another entity: its value is an
 * entity handle (or {@link Entity#NULL}). The storage keeps it as a handle like any {@code long}; a snapshot records
 * that it is one, so that a continuous loader maps it to the local entity the handle stands for (a reference to an
 * entity the snapshot does not hold becomes {@link Entity#NULL}). Check a reference before use with
 * {@link dev.cairn.world.World#valid(long)}: a destroyed target leaves it stale.
 * <pre>{@code
 * @Component
 * public record Parent(@EntityRef long parent) {}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.RECORD_COMPONENT)
public @interface EntityRef
{
}
