package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.Component;

/**
 * Ashley's acceleration component: a mutable {@link Component} with a no-argument constructor, so a
 * {@link com.badlogic.ashley.core.PooledEngine} can pool it.
 */
public final class Acceleration implements Component
{
    /** First coordinate. */
    public float ax;
    /** Second coordinate. */
    public float ay;
}
