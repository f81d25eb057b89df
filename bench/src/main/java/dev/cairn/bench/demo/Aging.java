package dev.cairn.bench.demo;

import dev.cairn.View;

/**
 * Particles with a lifetime; Cairn generates {@code AgingView}.
 */
@View(with = Lifetime.class)
public interface Aging
{
}
