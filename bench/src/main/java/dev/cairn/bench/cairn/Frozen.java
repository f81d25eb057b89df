package dev.cairn.bench.cairn;

import dev.cairn.Component;

/**
 * Tag for entities the exclusion view skips; Cairn generates {@code FrozenStorage}, a sparse set without columns.
 */
@Component
public record Frozen()
{
}
