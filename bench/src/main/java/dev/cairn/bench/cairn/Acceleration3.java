package dev.cairn.bench.cairn;

import dev.cairn.Group;

/**
 * A full-owning group of position, velocity and acceleration; Cairn generates {@code Acceleration3Group}.
 */
@Group(owns = {Position.class, Velocity.class, Acceleration.class})
public interface Acceleration3
{
}
