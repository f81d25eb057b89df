package dev.cairn.bench.artemis;

import com.artemis.Component;

/**
 * Artemis-odb's velocity component: a mutable {@link Component} with a public no-argument constructor,
 * which Artemis instantiates and recycles itself.
 */
public final class Velocity extends Component
{
    /** First coordinate. */
    public float dx;
    /** Second coordinate. */
    public float dy;
}
