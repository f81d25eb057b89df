package dev.cairn.parallel;

import dev.cairn.Component;
import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.EntityRef;
import dev.cairn.Group;
import dev.cairn.View;
import dev.cairn.group.RuntimeGroup;
import dev.cairn.world.World;
import dev.cairn.storage.ComponentStorage;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Components of every deletion policy, views, groups, and a world digest for the parallel iteration and command
 * buffer tests.
 */
public final class ParallelFixtures
{
    private ParallelFixtures()
    {
    }

    /** Swap-and-pop. */
    @Component
    public record Position(float x, float y)
    {
    }

    /** In-place: tombstones in the lead. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Velocity(double dx, double dy)
    {
    }

    /** Swap-only: released entries behind the boundary. */
    @Component(policy = DeletionPolicy.SWAP_ONLY)
    public record Health(int hp, boolean alive)
    {
    }

    /** An in-place tag. */
    @Component(policy = DeletionPolicy.IN_PLACE)
    public record Frozen()
    {
    }

    /** A mood, stored as an ordinal. */
    public enum Mood
    {
        CALM, ANGRY
    }

    /** An entity reference and an enum. */
    @Component
    public record Follow(@EntityRef long target, Mood mood, short steps)
    {
    }

    /** Tracked, swap-and-pop, owned by {@link Hot} with {@link Position}. */
    @Component(tracked = true)
    public record Heat(float t)
    {
    }

    /** A component no fixture world asks for up front: its storage is made the first time it is asked for. */
    @Component
    public record Unasked(int n)
    {
    }

    /** Leads with Position or Velocity, excludes a tag. */
    @View(with = {Position.class, Velocity.class}, without = Frozen.class)
    public interface Movers
    {
    }

    /** A swap-only lead. */
    @View(with = Health.class)
    public interface Living
    {
    }

    /** A tag lead: no Ref at all. */
    @View(with = Frozen.class)
    public interface Frozens
    {
    }

    /** A full-owning group. */
    @Group(owns = {Position.class, Heat.class})
    public interface Hot
    {
    }

    /** A non-owning group. */
    @Group(with = {Health.class, Velocity.class})
    public interface Tough
    {
    }

    /** Every storage of these fixtures in one world. */
    public static List<ComponentStorage<?>> storages(final World world)
    {
        final List<ComponentStorage<?>> storages = new ArrayList<>();
        storages.add(world.storage(ParallelFixtures_PositionStorage.TYPE));
        storages.add(world.storage(ParallelFixtures_VelocityStorage.TYPE));
        storages.add(world.storage(ParallelFixtures_HealthStorage.TYPE));
        storages.add(world.storage(ParallelFixtures_FrozenStorage.TYPE));
        storages.add(world.storage(ParallelFixtures_FollowStorage.TYPE));
        storages.add(world.storage(ParallelFixtures_HeatStorage.TYPE));
        return storages;
    }

    /**
     * Every alive entity with its components' values, by entity index: equal digests mean equal worlds, whatever the
     * storages' packed order.
     */
    public static String digest(final World world)
    {
        final TreeMap<Integer, String> entities = new TreeMap<>();
        final List<ComponentStorage<?>> storages = storages(world);
        world.forEachEntity(entity ->
        {
            final StringBuilder text = new StringBuilder(Entity.toString(entity));
            for (final ComponentStorage<?> storage : storages)
            {
                if (storage.contains(entity))
                {
                    text.append(' ').append(storage.get(entity));
                }
            }
            entities.put(Entity.index(entity), text.toString());
        });
        return entities.values().toString();
    }

    /**
     * Every storage's packed array (members with their values, tombstones, released entries) and every group's order,
     * then the {@link #digest}: equal layouts mean that the same changes were made in the same order, not only that
     * the same entities hold the same values.
     */
    public static String layout(final World world)
    {
        final StringBuilder text = new StringBuilder();
        for (final ComponentStorage<?> storage : storages(world))
        {
            text.append(storage.name()).append(" (").append(storage.extent()).append(" of ").append(storage.size())
                .append("):");
            for (int i = 0; i < storage.size(); i++)
            {
                final long entity = storage.entityAt(i);
                text.append(' ');
                if (entity == Entity.NULL)
                {
                    text.append("hole");
                }
                else if (storage.indexOf(entity) != i)
                {
                    text.append("released ").append(Entity.toString(entity));
                }
                else
                {
                    text.append(Entity.toString(entity)).append('=').append(storage.get(entity));
                }
            }
            text.append('\n');
        }
        for (final RuntimeGroup group : world.groups())
        {
            text.append(group).append(':');
            for (int i = 0; i < group.extent(); i++)
            {
                text.append(' ').append(Entity.toString(group.entityAt(i)));
            }
            text.append('\n');
        }
        return text.append(digest(world)).toString();
    }
}
