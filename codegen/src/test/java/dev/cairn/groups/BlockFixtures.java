package dev.cairn.groups;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.EntityRef;
import dev.cairn.Group;

/**
 * Components with a column of every type, and the owning groups whose block walks the block tests use.
 */
public final class BlockFixtures
{
    private BlockFixtures()
    {
    }

    /** An enum column. */
    public enum Mood
    {
        /** Calm. */
        CALM,
        /** Angry. */
        ANGRY,
        /** Asleep. */
        ASLEEP
    }

    /** A nested record, flattened into columns. */
    public record Pair(double a, long b)
    {
    }

    /**
     * Tracked, swap-and-pop: a float, an enum, a boolean, a nested record and an entity reference.
     *
     * @param x      a float.
     * @param mood   an enum.
     * @param awake  a boolean.
     * @param pair   a nested record.
     * @param target an entity.
     */
    @Component(tracked = true)
    public record Body(float x, Mood mood, boolean awake, Pair pair, @EntityRef long target)
    {
    }

    /**
     * Swap-only: the other primitive types.
     *
     * @param b a byte.
     * @param s a short.
     * @param c a char.
     * @param i an int.
     */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Tint(byte b, short s, char c, int i)
    {
    }

    /** An owned tag. */
    @Component
    public record Live()
    {
    }

    /** A tag that keeps entities out. */
    @Component
    public record Parked()
    {
    }

    /** Full-owning, with an owned tag and an exclusion. */
    @Group(owns = {Body.class, Tint.class, Live.class}, without = Parked.class)
    public interface Bodies
    {
    }
}
