package dev.cairn.bench.demo;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;

/**
 * Tag on some particles. Stored {@link DeletionPolicy#SWAP_ONLY}: a despawned particle's entry is released behind
 * the boundary and brought back when its index is reused.
 */
@Component(policy = DeletionPolicy.SWAP_ONLY)
public record Glowing()
{
}
