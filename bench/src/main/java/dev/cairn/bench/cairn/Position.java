package dev.cairn.bench.cairn;

import dev.cairn.Component;

/**
 * Where an entity is; Cairn generates {@code PositionStorage} with one off-heap float column per field.
 *
 * @param x horizontal coordinate.
 * @param y vertical coordinate.
 */
@Component
public record Position(float x, float y)
{
}
