package dev.cairn.bench.cairn;

import dev.cairn.Component;

/**
 * {@link Position} with change ticks: every write is stamped with the world's tick.
 *
 * @param x horizontal coordinate.
 * @param y vertical coordinate.
 */
@Component(tracked = true)
public record TrackedPosition(float x, float y)
{
}
