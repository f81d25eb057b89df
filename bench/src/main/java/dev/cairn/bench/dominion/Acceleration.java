package dev.cairn.bench.dominion;

/**
 * Dominion's acceleration component: a plain mutable object, as Dominion's documentation uses.
 */
public final class Acceleration
{
    /** First coordinate. */
    public float ax;
    /** Second coordinate. */
    public float ay;

    /**
     * Creates the component.
     *
     * @param ax first coordinate.
     * @param ay second coordinate.
     */
    public Acceleration(final float ax, final float ay)
    {
        this.ax = ax;
        this.ay = ay;
    }
}
