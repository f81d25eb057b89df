package dev.cairn.snapshots;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.EntityRef;
import dev.cairn.codegen.fixture.Colour;
import dev.cairn.codegen.fixture.Everything;
import dev.cairn.codegen.fixture.Everything_InPlaceStorage;
import dev.cairn.codegen.fixture.Everything_SwapAndPopStorage;
import dev.cairn.codegen.fixture.Everything_SwapOnlyStorage;
import dev.cairn.codegen.fixture.Transform;
import dev.cairn.codegen.fixture.TransformStorage;
import dev.cairn.storage.ComponentType;

import java.util.List;

/**
 * Components for the snapshot tests: with {@link Everything}'s records (every kind of field under every policy) and
 * {@link Transform} (nested records), entity references, tags of every policy and a tracked component; and versions of
 * one component as a later program might declare it, for schema evolution.
 */
public final class SnapshotFixtures
{
    private SnapshotFixtures()
    {
    }

    /** Two references to other entities and a weight. */
    @Component
    public record Link(@EntityRef long target, @EntityRef long other, int weight)
    {
    }

    /** An entity reference under in-place deletion. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Parent(@EntityRef long parent)
    {
    }

    /** A swap-and-pop tag. */
    @Component
    public record Marked()
    {
    }

    /** An in-place tag. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Sleeping()
    {
    }

    /** A swap-only tag. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Owned()
    {
    }

    /** A boolean column. */
    @Component
    public record Lit(boolean on)
    {
    }

    /** Tracked, in-place. */
    @Component(policy = DeletionPolicy.IN_PLACE, tracked = true)
    public record Heat(float t)
    {
    }

    /** Version 1 of a component, as an older program saved it. */
    @Component
    public record ShipV1(float x, float y, int hp, Colour colour, @EntityRef long dock)
    {
    }

    /** Version 2: x widened to double, hp dropped, fuel added, dock kept. */
    @Component
    public record ShipV2(double x, float y, long fuel, Colour colour, @EntityRef long dock)
    {
    }

    /** Version 3: x narrowed to short, which cannot hold what was saved. */
    @Component
    public record ShipV3(short x, float y)
    {
    }

    /** Version 4: the colour is an enum without GREEN. */
    @Component
    public record ShipV4(float x, Hue colour)
    {
    }

    /** Version 5: hp became an enum. */
    @Component
    public record ShipV5(long dock, Hue hp)
    {
    }

    /** Version 1's fields under in-place deletion, to load as version 1 after a change of policy. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record ShipV6(float x, float y, int hp, Colour colour, @EntityRef long dock)
    {
    }

    /** Version 7: the dock became a plain long. */
    @Component
    public record ShipV7(long dock, int hp)
    {
    }

    /** Version 8: version 1 with an escort (an entity reference) and a crew count added. */
    @Component
    public record ShipV8(float x, float y, int hp, Colour colour, @EntityRef long dock, @EntityRef long escort, int crew)
    {
    }

    /** {@link Colour} without GREEN and with a new constant. */
    public enum Hue
    {
        BLUE, RED, VIOLET
    }

    /** Every component type of the random worlds. */
    public static final List<ComponentType<?, ?>> TYPES = List.of(
        Everything_SwapAndPopStorage.TYPE, Everything_InPlaceStorage.TYPE, Everything_SwapOnlyStorage.TYPE,
        TransformStorage.TYPE, SnapshotFixtures_LinkStorage.TYPE,
        SnapshotFixtures_ParentStorage.TYPE, SnapshotFixtures_MarkedStorage.TYPE,
        SnapshotFixtures_SleepingStorage.TYPE, SnapshotFixtures_OwnedStorage.TYPE, SnapshotFixtures_HeatStorage.TYPE);
}
