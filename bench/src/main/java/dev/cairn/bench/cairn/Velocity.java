package dev.cairn.bench.cairn;

import dev.cairn.Component;

/**
 * How fast an entity moves; Cairn generates {@code VelocityStorage}.
 *
 * @param dx change of x per step.
 * @param dy change of y per step.
 */
@Component
public record Velocity(float dx, float dy)
{
}
