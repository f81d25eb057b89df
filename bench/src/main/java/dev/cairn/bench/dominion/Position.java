package dev.cairn.bench.dominion;

/**
 * Dominion's position component: a plain mutable object, as Dominion's documentation uses.
 */
public final class Position
{
    /** First coordinate. */
    public float x;
    /** Second coordinate. */
    public float y;

    /**
     * Creates the component.
     *
     * @param x first coordinate.
     * @param y second coordinate.
     */
    public Position(final float x, final float y)
    {
        this.x = x;
        this.y = y;
    }
}
