package dev.cairn.bench.demo;

import dev.cairn.View;

/**
 * Glowing particles that move; Cairn generates {@code GlowersView}. The tag filters but is not passed to actions.
 */
@View(with = {Position.class, Glowing.class})
public interface Glowers
{
}
