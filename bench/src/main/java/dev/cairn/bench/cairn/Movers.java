package dev.cairn.bench.cairn;

import dev.cairn.View;

/**
 * Entities with a position and a velocity; Cairn generates {@code MoversView}.
 */
@View(with = {Position.class, Velocity.class})
public interface Movers
{
}
