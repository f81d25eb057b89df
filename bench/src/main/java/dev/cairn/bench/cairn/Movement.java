package dev.cairn.bench.cairn;

import dev.cairn.Group;

/**
 * A full-owning group of position and velocity; Cairn generates {@code MovementGroup}.
 */
@Group(owns = {Position.class, Velocity.class})
public interface Movement
{
}
