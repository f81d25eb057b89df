package dev.cairn.bench.cairn;

import dev.cairn.Observer;

/**
 * Entities whose position was added or updated while they have a velocity; Cairn generates
 * {@code ArrivalsObserver}.
 */
@Observer(added = Position.class, updated = Position.class, with = Velocity.class)
public interface Arrivals
{
}
