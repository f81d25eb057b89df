package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.Component;

/**
 * Ashley's velocity component: a mutable {@link Component} with a no-argument constructor, so a
 * {@link com.badlogic.ashley.core.PooledEngine} can pool it.
 */
public final class Velocity implements Component
{
    /** First coordinate. */
    public float dx;
    /** Second coordinate. */
    public float dy;
}
