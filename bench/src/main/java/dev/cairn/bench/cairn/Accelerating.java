package dev.cairn.bench.cairn;

import dev.cairn.View;

/**
 * Entities with a position, a velocity and an acceleration; Cairn generates {@code AcceleratingView}.
 */
@View(with = {Position.class, Velocity.class, Acceleration.class})
public interface Accelerating
{
}
