package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.Component;

/**
 * Ashley's position component: a mutable {@link Component} with a no-argument constructor, so a
 * {@link com.badlogic.ashley.core.PooledEngine} can pool it.
 */
public final class Position implements Component
{
    /** First coordinate. */
    public float x;
    /** Second coordinate. */
    public float y;
}
