package dev.cairn.groups;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.Group;

/**
 * Components of every policy and the groups over them that the group tests use: a full-owning group with a nested,
 * more restrictive one, a partial-owning group, and a non-owning group.
 */
public final class GroupFixtures
{
    private GroupFixtures()
    {
    }

    /** Swap-and-pop. */
    @Component
    public record Pos(float x, float y)
    {
    }

    /** Swap-only: an owned storage may be. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Vel(float dx, float dy)
    {
    }

    /** Swap-and-pop. */
    @Component
    public record Acc(float ax, float ay)
    {
    }

    /** In-place: never owned, only required. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Hp(int value)
    {
    }

    /** A tag. */
    @Component
    public record Frozen()
    {
    }

    /** An in-place tag. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Marked()
    {
    }

    /** Swap-and-pop, for the partial-owning group. */
    @Component
    public record Mass(double kg)
    {
    }

    /** Full-owning: Pos and Vel. */
    @Group(owns = {Pos.class, Vel.class})
    public interface Movement
    {
    }

    /** Nested in Movement: owns Acc too and excludes frozen entities. */
    @Group(owns = {Pos.class, Vel.class, Acc.class}, without = Frozen.class)
    public interface Accelerated
    {
    }

    /** Partial-owning: owns Mass, requires Hp (in-place) and the Marked tag. */
    @Group(owns = Mass.class, with = {Hp.class, Marked.class})
    public interface Heavy
    {
    }

    /** Non-owning. */
    @Group(with = {Hp.class, Pos.class}, without = Frozen.class)
    public interface Wounded
    {
    }
}
