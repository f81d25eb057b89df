package dev.cairn.bench.cairn;

import dev.cairn.View;

/**
 * Entities with a position; Cairn generates {@code DriftersView}.
 */
@View(with = Position.class)
public interface Drifters
{
}
