package dev.cairn.bench.cairn;

import dev.cairn.View;

/**
 * Entities whose tracked position changed since a tick, with a velocity; Cairn generates {@code MovedMoversView}.
 */
@View(with = {TrackedPosition.class, Velocity.class}, changed = TrackedPosition.class)
public interface MovedMovers
{
}
