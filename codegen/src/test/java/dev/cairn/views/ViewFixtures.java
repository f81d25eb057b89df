package dev.cairn.views;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.View;

/**
 * Components of every deletion policy (with and without columns) and views of 1 to 4 included and 0 to 2 excluded
 * components over them, for the view tests.
 */
public final class ViewFixtures
{
    private ViewFixtures()
    {
    }

    /** Two floats; swap-and-pop. */
    @Component
    public record Pos(float x, float y)
    {
    }

    /** Two doubles; in-place deletion leaves tombstones. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Vel(double dx, double dy)
    {
    }

    /** An int and a boolean; swap-only keeps released entries behind the free list. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Hp(int value, boolean alive)
    {
    }

    /** An enum stored as an ordinal. */
    public enum Color
    {
        RED, GREEN, BLUE
    }

    /** A nested record, flattened into the columns of {@link Kind}. */
    public record Vec(short a, char b)
    {
    }

    /** Mixed column widths, an enum and a nested record; swap-and-pop. */
    @Component
    public record Kind(byte code, long id, Color color, Vec vec)
    {
    }

    /** A tag; swap-and-pop. */
    @Component
    public record Frozen()
    {
    }

    /** A tag; in-place. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Marked()
    {
    }

    /** A tag; swap-only. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Sleeping()
    {
    }

    /** One component, no exclusion: a straight walk. */
    @View(with = Pos.class)
    public interface OnePos
    {
    }

    /** One in-place component, one excluded tag. */
    @View(with = Vel.class, without = Frozen.class)
    public interface VelNotFrozen
    {
    }

    /** Only a tag: the action receives just the entity. */
    @View(with = Marked.class)
    public interface OnlyMarked
    {
    }

    /** The classic pair. */
    @View(with = {Pos.class, Vel.class})
    public interface PosVel
    {
    }

    /** A swap-only component and an in-place tag, two excluded tags. */
    @View(with = {Hp.class, Marked.class}, without = {Frozen.class, Sleeping.class})
    public interface HpMarked
    {
    }

    /** Three components of three policies, one excluded tag. */
    @View(with = {Pos.class, Vel.class, Hp.class}, without = Marked.class)
    public interface PosVelHp
    {
    }

    /** Four components, two excluded tags. */
    @View(with = {Pos.class, Vel.class, Hp.class, Kind.class}, without = {Frozen.class, Sleeping.class})
    public interface AllFour
    {
    }

    /** Three tags and a component. */
    @View(with = {Frozen.class, Marked.class, Sleeping.class, Pos.class})
    public interface TagsAndPos
    {
    }

    /** A component and a swap-only tag, excluding two components with columns. */
    @View(with = {Kind.class, Sleeping.class}, without = {Vel.class, Hp.class})
    public interface KindSleepingNoVelHp
    {
    }
}
