package dev.cairn.bench.demo;

import dev.cairn.Component;

/**
 * How far a particle moves per tick.
 *
 * @param dx change of x per tick.
 * @param dy change of y per tick.
 */
@Component
public record Velocity(float dx, float dy)
{
}
