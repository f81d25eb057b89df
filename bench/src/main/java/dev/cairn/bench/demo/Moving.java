package dev.cairn.bench.demo;

import dev.cairn.View;

/**
 * Particles with a position and a velocity; Cairn generates {@code MovingView}.
 */
@View(with = {Position.class, Velocity.class})
public interface Moving
{
}
