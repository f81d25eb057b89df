package dev.cairn.bench.cairn;

import dev.cairn.Group;

/**
 * A group owning position and velocity that excludes {@link Frozen}; Cairn generates {@code ActiveMovementGroup}.
 */
@Group(owns = {Position.class, Velocity.class}, without = Frozen.class)
public interface ActiveMovement
{
}
