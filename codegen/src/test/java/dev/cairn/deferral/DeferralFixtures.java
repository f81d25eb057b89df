package dev.cairn.deferral;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.Group;
import dev.cairn.Observer;
import dev.cairn.View;

/**
 * The components, views, groups and the observer the deferral model drives: every deletion policy, a tag, a view led
 * by whichever of its storages is smallest, a full-owning group over a swap-and-pop and a swap-only storage, a
 * non-owning group over an in-place storage, and an observer triggered by adds and updates.
 */
public final class DeferralFixtures
{
    private DeferralFixtures()
    {
    }

    /** Two floats; swap-and-pop; owned by {@link Movement}. */
    @Component
    public record Pos(float x, float y)
    {
    }

    /** Two floats; swap-only (released entries behind the extent); owned by {@link Movement}. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Vel(float dx, float dy)
    {
    }

    /** An int; swap-and-pop; the trigger of {@link Healed}. */
    @Component
    public record Hp(int value)
    {
    }

    /** An int; in-place (tombstones that walks skip). */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Mark(int n)
    {
    }

    /** A tag; swap-and-pop. */
    @Component
    public record Tag()
    {
    }

    /** One storage: a straight walk over Pos. */
    @View(with = Pos.class)
    public interface PosOnly
    {
    }

    /** Led by the smaller of Pos and Vel; excludes the tag. */
    @View(with = {Pos.class, Vel.class}, without = Tag.class)
    public interface Movers
    {
    }

    /** May be led by an in-place storage with tombstones; excludes Vel. */
    @View(with = {Mark.class, Hp.class}, without = Vel.class)
    public interface Marked
    {
    }

    /** A tag among the included storages, which may lead. */
    @View(with = {Tag.class, Hp.class})
    public interface Tagged
    {
    }

    /** Full-owning: Pos and Vel keep the group's entities at their front. */
    @Group(owns = {Pos.class, Vel.class})
    public interface Movement
    {
    }

    /** Full-owning, nested in {@link Movement}: its entities are at the front of Movement's range. */
    @Group(owns = {Pos.class, Vel.class, Hp.class})
    public interface Racing
    {
    }

    /** Non-owning: a set of its own. */
    @Group(with = {Hp.class, Mark.class}, without = Tag.class)
    public interface Living
    {
    }

    /** Entities whose Hp was added or updated while they had Pos and no tag. */
    @Observer(added = Hp.class, updated = Hp.class, with = Pos.class, without = Tag.class)
    public interface Healed
    {
    }
}
