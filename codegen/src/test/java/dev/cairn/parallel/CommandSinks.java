package dev.cairn.parallel;

import dev.cairn.Entity;
import dev.cairn.world.World;
import dev.cairn.command.CommandBuffer;
import dev.cairn.parallel.ParallelFixtures.Mood;

import java.util.ArrayList;
import java.util.List;

/**
 * Two ways to make the same structural changes: recorded into a command buffer ({@link Recorded}, from any thread) or
 * collected and then made by direct calls in order ({@link Direct}), with the semantics the command buffer documents.
 * The command buffer tests compare the two.
 */
final class CommandSinks
{
    private CommandSinks()
    {
    }

    /** Where the system's changes go. */
    interface Sink
    {
        long create();

        void destroy(long entity);

        void position(long entity, float x, float y);

        void patchPosition(long entity, float x, float y);

        void velocity(long entity, double dx, double dy);

        void removeVelocity(long entity);

        void health(long entity, int hp);

        void patchHealth(long entity, int hp);

        void frozen(long entity);

        void follow(long entity, long target, short steps);
    }

    /** Records into a command buffer, from any thread. */
    static final class Recorded implements Sink
    {
        private final CommandBuffer commands;
        private final ParallelFixtures_PositionStorage positions;
        private final ParallelFixtures_VelocityStorage velocities;
        private final ParallelFixtures_HealthStorage healths;
        private final ParallelFixtures_FrozenStorage frozen;
        private final ParallelFixtures_FollowStorage follows;

        Recorded(final World world, final CommandBuffer commands)
        {
            this.commands = commands;
            positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
            healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
            frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
            follows = world.storage(ParallelFixtures_FollowStorage.TYPE);
        }

        @Override
        public long create()
        {
            return commands.create();
        }

        @Override
        public void destroy(final long entity)
        {
            commands.destroy(entity);
        }

        @Override
        public void position(final long entity, final float x, final float y)
        {
            positions.emplace(commands, entity, x, y);
        }

        @Override
        public void patchPosition(final long entity, final float x, final float y)
        {
            positions.patch(commands, entity, x, y);
        }

        @Override
        public void velocity(final long entity, final double dx, final double dy)
        {
            velocities.emplace(commands, entity, dx, dy);
        }

        @Override
        public void removeVelocity(final long entity)
        {
            commands.remove(entity, velocities);
        }

        @Override
        public void health(final long entity, final int hp)
        {
            healths.emplace(commands, entity, hp, hp > 10);
        }

        @Override
        public void patchHealth(final long entity, final int hp)
        {
            healths.patch(commands, entity, hp, false);
        }

        @Override
        public void frozen(final long entity)
        {
            frozen.emplace(commands, entity);
        }

        @Override
        public void follow(final long entity, final long target, final short steps)
        {
            follows.emplace(commands, entity, target, steps % 2 == 0 ? Mood.CALM : Mood.ANGRY, steps);
        }
    }

    /**
     * Collects the changes in order, then makes them with direct calls, as the documentation says a command buffer
     * does: a command on an entity no longer alive does nothing, an add replaces, a patch of a missing component does
     * nothing. A created entity is named by a token until made.
     */
    static final class Direct implements Sink
    {
        private final World world;
        private final ParallelFixtures_PositionStorage positions;
        private final ParallelFixtures_VelocityStorage velocities;
        private final ParallelFixtures_HealthStorage healths;
        private final ParallelFixtures_FrozenStorage frozen;
        private final ParallelFixtures_FollowStorage follows;
        private final List<Runnable> changes = new ArrayList<>();
        private final List<Long> created = new ArrayList<>();
        /** Tokens below this one come from an earlier round: unknown now, as an earlier buffer's placeholders are. */
        private int round;

        Direct(final World world)
        {
            this.world = world;
            positions = world.storage(ParallelFixtures_PositionStorage.TYPE);
            velocities = world.storage(ParallelFixtures_VelocityStorage.TYPE);
            healths = world.storage(ParallelFixtures_HealthStorage.TYPE);
            frozen = world.storage(ParallelFixtures_FrozenStorage.TYPE);
            follows = world.storage(ParallelFixtures_FollowStorage.TYPE);
        }

        /** Makes the collected changes in order, and ends the round. */
        void run()
        {
            changes.forEach(Runnable::run);
            forget();
        }

        /** Drops the changes not made yet, as {@link CommandBuffer#clear()} does, and ends the round. */
        void forget()
        {
            changes.clear();
            round = created.size();
        }

        private long resolve(final long entity)
        {
            if (entity >= 0)
            {
                return entity;
            }
            final int number = (int)(-entity - 2);
            return number >= round ? created.get(number) : Entity.NULL;
        }

        private void onAlive(final long token, final java.util.function.LongConsumer change)
        {
            changes.add(() ->
            {
                final long entity = resolve(token);
                if (world.valid(entity))
                {
                    change.accept(entity);
                }
            });
        }

        @Override
        public long create()
        {
            final long token = -(created.size() + 2);
            created.add(Entity.NULL);
            changes.add(() -> created.set((int)(-token - 2), world.create()));
            return token;
        }

        @Override
        public void destroy(final long entity)
        {
            onAlive(entity, world::destroy);
        }

        @Override
        public void position(final long entity, final float x, final float y)
        {
            onAlive(entity, e ->
            {
                if (positions.contains(e))
                {
                    positions.patch(e, x, y);
                }
                else
                {
                    positions.emplace(e, x, y);
                }
            });
        }

        @Override
        public void patchPosition(final long entity, final float x, final float y)
        {
            onAlive(entity, e ->
            {
                if (positions.contains(e))
                {
                    positions.patch(e, x, y);
                }
            });
        }

        @Override
        public void velocity(final long entity, final double dx, final double dy)
        {
            onAlive(entity, e ->
            {
                if (velocities.contains(e))
                {
                    velocities.patch(e, dx, dy);
                }
                else
                {
                    velocities.emplace(e, dx, dy);
                }
            });
        }

        @Override
        public void removeVelocity(final long entity)
        {
            onAlive(entity, velocities::remove);
        }

        @Override
        public void health(final long entity, final int hp)
        {
            onAlive(entity, e ->
            {
                if (healths.contains(e))
                {
                    healths.patch(e, hp, hp > 10);
                }
                else
                {
                    healths.emplace(e, hp, hp > 10);
                }
            });
        }

        @Override
        public void patchHealth(final long entity, final int hp)
        {
            onAlive(entity, e ->
            {
                if (healths.contains(e))
                {
                    healths.patch(e, hp, false);
                }
            });
        }

        @Override
        public void frozen(final long entity)
        {
            onAlive(entity, e ->
            {
                if (!frozen.contains(e))
                {
                    frozen.emplace(e);
                }
            });
        }

        @Override
        public void follow(final long entity, final long target, final short steps)
        {
            onAlive(entity, e ->
            {
                final long resolved = resolve(target);
                final Mood mood = steps % 2 == 0 ? Mood.CALM : Mood.ANGRY;
                if (follows.contains(e))
                {
                    follows.patch(e, resolved, mood, steps);
                }
                else
                {
                    follows.emplace(e, resolved, mood, steps);
                }
            });
        }
    }
}
