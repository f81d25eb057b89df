package dev.cairn.bench.dominion;

/**
 * Dominion's tag: a component without data; one shared instance serves every entity.
 */
public final class Frozen
{
    /** The shared instance. */
    public static final Frozen INSTANCE = new Frozen();

    private Frozen()
    {
    }
}
