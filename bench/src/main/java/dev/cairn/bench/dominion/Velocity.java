package dev.cairn.bench.dominion;

/**
 * Dominion's velocity component: a plain mutable object, as Dominion's documentation uses.
 */
public final class Velocity
{
    /** First coordinate. */
    public float dx;
    /** Second coordinate. */
    public float dy;

    /**
     * Creates the component.
     *
     * @param dx first coordinate.
     * @param dy second coordinate.
     */
    public Velocity(final float dx, final float dy)
    {
        this.dx = dx;
        this.dy = dy;
    }
}
