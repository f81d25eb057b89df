package dev.cairn.bench.artemis;

import com.artemis.Component;

/**
 * Artemis-odb's position component: a mutable {@link Component} with a public no-argument constructor,
 * which Artemis instantiates and recycles itself.
 */
public final class Position extends Component
{
    /** First coordinate. */
    public float x;
    /** Second coordinate. */
    public float y;
}
