package dev.cairn.bench.artemis;

import com.artemis.Component;

/**
 * Artemis-odb's acceleration component: a mutable {@link Component} with a public no-argument constructor,
 * which Artemis instantiates and recycles itself.
 */
public final class Acceleration extends Component
{
    /** First coordinate. */
    public float ax;
    /** Second coordinate. */
    public float ay;
}
