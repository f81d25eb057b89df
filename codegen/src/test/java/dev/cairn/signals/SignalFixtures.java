package dev.cairn.signals;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.Observer;
import dev.cairn.View;

/**
 * Components of every deletion policy, tracked and not, tags among them, and the views and observers over them that
 * the signal, observer and change-tick tests use.
 */
public final class SignalFixtures
{
    private SignalFixtures()
    {
    }

    /** Tracked, swap-and-pop. */
    @Component(tracked = true)
    public record Body(float x, float y)
    {
    }

    /** Tracked, in-place. */
    @Component(policy = DeletionPolicy.IN_PLACE, tracked = true)
    public record Speed(double v)
    {
    }

    /** Untracked, swap-only. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Health(int hp)
    {
    }

    /** A tracked tag, swap-only. */
    @Component(policy = DeletionPolicy.SWAP_ONLY, tracked = true)
    public record Stunned()
    {
    }

    /** A tag, in-place. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Ghost()
    {
    }

    /** Bodies that moved (were written) since a tick, with their speed. */
    @View(with = {Body.class, Speed.class}, changed = Body.class)
    public interface MovedBodies
    {
    }

    /** Bodies added since a tick that are not ghosts. */
    @View(with = Body.class, without = Ghost.class, added = Body.class)
    public interface NewBodies
    {
    }

    /** Stunned entities whose stun was added and whose speed changed since a tick. */
    @View(with = {Speed.class, Stunned.class}, added = Stunned.class, changed = Speed.class)
    public interface FreshStuns
    {
    }

    /** Bodies added or updated while they have a speed and are no ghost. */
    @Observer(added = Body.class, updated = Body.class, with = Speed.class, without = Ghost.class)
    public interface BodyChanges
    {
    }

    /** Health updated while stunned. */
    @Observer(updated = Health.class, with = Stunned.class)
    public interface HurtWhileStunned
    {
    }

    /** Ghost tags added. */
    @Observer(added = Ghost.class)
    public interface NewGhosts
    {
    }
}
