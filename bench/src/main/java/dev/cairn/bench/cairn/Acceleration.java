package dev.cairn.bench.cairn;

import dev.cairn.Component;

/**
 * How an entity's velocity changes; Cairn generates {@code AccelerationStorage}.
 *
 * @param ax change of dx per step.
 * @param ay change of dy per step.
 */
@Component
public record Acceleration(float ax, float ay)
{
}
