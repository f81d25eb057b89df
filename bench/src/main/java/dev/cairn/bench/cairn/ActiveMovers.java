package dev.cairn.bench.cairn;

import dev.cairn.View;

/**
 * Entities with a position and a velocity that are not {@link Frozen}; Cairn generates {@code ActiveMoversView}.
 */
@View(with = {Position.class, Velocity.class}, without = Frozen.class)
public interface ActiveMovers
{
}
