package dev.cairn.bench.cairn;

import dev.cairn.View;

/**
 * Entities with a tracked position and a velocity; Cairn generates {@code TrackedMoversView}.
 */
@View(with = {TrackedPosition.class, Velocity.class})
public interface TrackedMovers
{
}
