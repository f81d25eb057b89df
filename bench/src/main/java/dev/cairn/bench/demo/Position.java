package dev.cairn.bench.demo;

import dev.cairn.Component;

/**
 * Where a particle is.
 *
 * @param x horizontal coordinate, in [0, {@link Simulation#SIZE}).
 * @param y vertical coordinate, in [0, {@link Simulation#SIZE}).
 */
@Component
public record Position(float x, float y)
{
}
