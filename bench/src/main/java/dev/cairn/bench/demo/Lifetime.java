package dev.cairn.bench.demo;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;

/**
 * Ticks a particle has left. Stored {@link DeletionPolicy#IN_PLACE}: a despawned particle leaves a tombstone that the
 * next spawn reuses, so surviving particles never move in this storage.
 *
 * @param ticks ticks left before the particle despawns.
 */
@Component(policy = DeletionPolicy.IN_PLACE)
public record Lifetime(int ticks)
{
}
