package dev.cairn.bench.artemis;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.systems.IteratingSystem;
import dev.cairn.bench.Workload;

/**
 * The Artemis-odb systems the iteration benchmarks run: {@link IteratingSystem}s with injected
 * {@link ComponentMapper}s, the pattern Artemis-odb's documentation recommends (the system walks its subscription's
 * {@code IntBag} of entity ids and calls {@code process(int)} for each).
 */
public final class Systems
{
    private Systems()
    {
    }

    /** Position += (1, 1). */
    public static final class MoveOne extends IteratingSystem
    {
        ComponentMapper<Position> mPosition;

        /** Subscribes to entities with a position. */
        public MoveOne()
        {
            super(Aspect.all(Position.class));
        }

        @Override
        protected void process(final int entityId)
        {
            final Position p = mPosition.get(entityId);
            p.x += Workload.STEP;
            p.y += Workload.STEP;
        }
    }

    /** Position += velocity. */
    public static final class MoveTwo extends IteratingSystem
    {
        ComponentMapper<Position> mPosition;
        ComponentMapper<Velocity> mVelocity;

        /** Subscribes to entities with a position and a velocity. */
        public MoveTwo()
        {
            super(Aspect.all(Position.class, Velocity.class));
        }

        @Override
        protected void process(final int entityId)
        {
            final Position p = mPosition.get(entityId);
            final Velocity v = mVelocity.get(entityId);
            p.x += v.dx;
            p.y += v.dy;
        }
    }

    /** Position += velocity, velocity += acceleration. */
    public static final class MoveThree extends IteratingSystem
    {
        ComponentMapper<Position> mPosition;
        ComponentMapper<Velocity> mVelocity;
        ComponentMapper<Acceleration> mAcceleration;

        /** Subscribes to entities with a position, a velocity and an acceleration. */
        public MoveThree()
        {
            super(Aspect.all(Position.class, Velocity.class, Acceleration.class));
        }

        @Override
        protected void process(final int entityId)
        {
            final Position p = mPosition.get(entityId);
            final Velocity v = mVelocity.get(entityId);
            final Acceleration a = mAcceleration.get(entityId);
            p.x += v.dx;
            p.y += v.dy;
            v.dx += a.ax;
            v.dy += a.ay;
        }
    }

    /** Position += velocity for entities that are not Frozen. */
    public static final class MoveUnfrozen extends IteratingSystem
    {
        ComponentMapper<Position> mPosition;
        ComponentMapper<Velocity> mVelocity;

        /** Subscribes to entities with a position and a velocity but no Frozen tag. */
        public MoveUnfrozen()
        {
            super(Aspect.all(Position.class, Velocity.class).exclude(Frozen.class));
        }

        @Override
        protected void process(final int entityId)
        {
            final Position p = mPosition.get(entityId);
            final Velocity v = mVelocity.get(entityId);
            p.x += v.dx;
            p.y += v.dy;
        }
    }
}
