package dev.cairn.views;

import dev.cairn.world.World;
import dev.cairn.storage.ComponentStorage;
import dev.cairn.view.RuntimeView;
import dev.cairn.views.ViewFixtures.Color;
import dev.cairn.views.ViewFixtures.Frozen;
import dev.cairn.views.ViewFixtures.Hp;
import dev.cairn.views.ViewFixtures.Kind;
import dev.cairn.views.ViewFixtures.Marked;
import dev.cairn.views.ViewFixtures.Pos;
import dev.cairn.views.ViewFixtures.Sleeping;
import dev.cairn.views.ViewFixtures.Vec;
import dev.cairn.views.ViewFixtures.Vel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One view under test, generated or runtime, seen through a common interface so that a single model-based test can
 * drive all of them: both iteration forms hand the visitor the entity and an {@link Accessor} per passed component.
 */
abstract class ViewHarness
{
    /** Reads and writes one component of the entity being visited. */
    interface Accessor
    {
        /**
         * The component, read field by field through the view's accessor (and checked against its whole-record read).
         *
         * @return the current value.
         */
        Record get();

        /**
         * Writes every field through the view's accessor.
         *
         * @param value the new value, of the accessor's record class.
         */
        void set(Record value);
    }

    /** Receives each visited entity. */
    interface Visitor
    {
        /**
         * Visits one entity.
         *
         * @param entity    the handle.
         * @param accessors one per passed (non-tag) included component, by record class.
         * @return false to stop a cursor loop early (forEach ignores it).
         */
        boolean visit(long entity, Map<Class<?>, Accessor> accessors);
    }

    final String name;
    final List<Class<? extends Record>> with;
    final List<Class<? extends Record>> without;

    ViewHarness(
        final String name, final List<Class<? extends Record>> with, final List<Class<? extends Record>> without)
    {
        this.name = name;
        this.with = with;
        this.without = without;
    }

    abstract void forEach(Visitor visitor);

    abstract void cursor(Visitor visitor);

    abstract int count();

    abstract boolean contains(long entity);

    boolean isRuntime()
    {
        return false;
    }

    @Override
    public String toString()
    {
        return name;
    }

    /** Whether a record class is a tag (no components). */
    static boolean isTag(final Class<?> recordClass)
    {
        return recordClass.getRecordComponents().length == 0;
    }

    /** Every generated view of the fixtures over {@code world}, and a runtime view equivalent to each. */
    static List<ViewHarness> all(final World world)
    {
        final List<ViewHarness> all = new ArrayList<>();
        all.add(onePos(world));
        all.add(velNotFrozen(world));
        all.add(onlyMarked(world));
        all.add(posVel(world));
        all.add(hpMarked(world));
        all.add(posVelHp(world));
        all.add(allFour(world));
        all.add(tagsAndPos(world));
        all.add(kindSleepingNoVelHp(world));
        final int generated = all.size();
        for (int k = 0; k < generated; k++)
        {
            all.add(runtime(world, all.get(k)));
        }
        return all;
    }

    static Map<Class<?>, Accessor> accessors(final Object... refs)
    {
        final Map<Class<?>, Accessor> map = new LinkedHashMap<>();
        for (final Object ref : refs)
        {
            if (ref instanceof ViewFixtures_PosStorage.Ref)
            {
                map.put(Pos.class, pos((ViewFixtures_PosStorage.Ref)ref));
            }
            else if (ref instanceof ViewFixtures_VelStorage.Ref)
            {
                map.put(Vel.class, vel((ViewFixtures_VelStorage.Ref)ref));
            }
            else if (ref instanceof ViewFixtures_HpStorage.Ref)
            {
                map.put(Hp.class, hp((ViewFixtures_HpStorage.Ref)ref));
            }
            else
            {
                map.put(Kind.class, kind((ViewFixtures_KindStorage.Ref)ref));
            }
        }
        return map;
    }

    static Accessor pos(final ViewFixtures_PosStorage.Ref ref)
    {
        return new Accessor()
        {
            public Record get()
            {
                return checked(new Pos(ref.x(), ref.y()), ref.get());
            }

            public void set(final Record value)
            {
                final Pos pos = (Pos)value;
                ref.x(pos.x());
                ref.y(pos.y());
            }
        };
    }

    static Accessor vel(final ViewFixtures_VelStorage.Ref ref)
    {
        return new Accessor()
        {
            public Record get()
            {
                return checked(new Vel(ref.dx(), ref.dy()), ref.get());
            }

            public void set(final Record value)
            {
                final Vel vel = (Vel)value;
                ref.dx(vel.dx());
                ref.dy(vel.dy());
            }
        };
    }

    static Accessor hp(final ViewFixtures_HpStorage.Ref ref)
    {
        return new Accessor()
        {
            public Record get()
            {
                return checked(new Hp(ref.value(), ref.alive()), ref.get());
            }

            public void set(final Record value)
            {
                final Hp hp = (Hp)value;
                ref.value(hp.value());
                ref.alive(hp.alive());
            }
        };
    }

    static Accessor kind(final ViewFixtures_KindStorage.Ref ref)
    {
        return new Accessor()
        {
            public Record get()
            {
                return checked(
                    new Kind(ref.code(), ref.id(), ref.color(), new Vec(ref.vecA(), ref.vecB())), ref.get());
            }

            public void set(final Record value)
            {
                final Kind kind = (Kind)value;
                ref.code(kind.code());
                ref.id(kind.id());
                ref.color(kind.color());
                ref.vecA(kind.vec().a());
                ref.vecB(kind.vec().b());
            }
        };
    }

    private static Record checked(final Record byField, final Record whole)
    {
        if (!byField.equals(whole))
        {
            throw new AssertionError("Ref field reads " + byField + " disagree with Ref.get() " + whole);
        }
        return byField;
    }

    private static ViewHarness onePos(final World world)
    {
        final ViewFixtures_OnePosView view = new ViewFixtures_OnePosView(world);
        return new ViewHarness("OnePos", List.of(Pos.class), List.of())
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, pos) -> visitor.visit(entity, accessors(pos)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_OnePosView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.pos())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness velNotFrozen(final World world)
    {
        final ViewFixtures_VelNotFrozenView view = new ViewFixtures_VelNotFrozenView(world);
        return new ViewHarness("VelNotFrozen", List.of(Vel.class), List.of(Frozen.class))
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, vel) -> visitor.visit(entity, accessors(vel)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_VelNotFrozenView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.vel())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness onlyMarked(final World world)
    {
        final ViewFixtures_OnlyMarkedView view = new ViewFixtures_OnlyMarkedView(world);
        return new ViewHarness("OnlyMarked", List.of(Marked.class), List.of())
        {
            void forEach(final Visitor visitor)
            {
                view.forEach(entity -> visitor.visit(entity, accessors()));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_OnlyMarkedView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors()))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness posVel(final World world)
    {
        final ViewFixtures_PosVelView view = new ViewFixtures_PosVelView(world);
        return new ViewHarness("PosVel", List.of(Pos.class, Vel.class), List.of())
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, pos, vel) -> visitor.visit(entity, accessors(pos, vel)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_PosVelView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.pos(), c.vel())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness hpMarked(final World world)
    {
        final ViewFixtures_HpMarkedView view = new ViewFixtures_HpMarkedView(world);
        return new ViewHarness("HpMarked", List.of(Hp.class, Marked.class), List.of(Frozen.class, Sleeping.class))
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, hp) -> visitor.visit(entity, accessors(hp)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_HpMarkedView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.hp())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness posVelHp(final World world)
    {
        final ViewFixtures_PosVelHpView view = new ViewFixtures_PosVelHpView(world);
        return new ViewHarness("PosVelHp", List.of(Pos.class, Vel.class, Hp.class), List.of(Marked.class))
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, pos, vel, hp) -> visitor.visit(entity, accessors(pos, vel, hp)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_PosVelHpView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.pos(), c.vel(), c.hp())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness allFour(final World world)
    {
        final ViewFixtures_AllFourView view = new ViewFixtures_AllFourView(world);
        return new ViewHarness(
            "AllFour", List.of(Pos.class, Vel.class, Hp.class, Kind.class), List.of(Frozen.class, Sleeping.class))
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, pos, vel, hp, kind) -> visitor.visit(entity, accessors(pos, vel, hp, kind)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_AllFourView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.pos(), c.vel(), c.hp(), c.kind())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness tagsAndPos(final World world)
    {
        final ViewFixtures_TagsAndPosView view = new ViewFixtures_TagsAndPosView(world);
        return new ViewHarness(
            "TagsAndPos", List.of(Frozen.class, Marked.class, Sleeping.class, Pos.class), List.of())
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, pos) -> visitor.visit(entity, accessors(pos)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_TagsAndPosView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.pos())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    private static ViewHarness kindSleepingNoVelHp(final World world)
    {
        final ViewFixtures_KindSleepingNoVelHpView view = new ViewFixtures_KindSleepingNoVelHpView(world);
        return new ViewHarness(
            "KindSleepingNoVelHp", List.of(Kind.class, Sleeping.class), List.of(Vel.class, Hp.class))
        {
            void forEach(final Visitor visitor)
            {
                view.forEach((entity, kind) -> visitor.visit(entity, accessors(kind)));
            }

            void cursor(final Visitor visitor)
            {
                try (ViewFixtures_KindSleepingNoVelHpView.Cursor c = view.cursor())
                {
                    while (c.next())
                    {
                        if (!visitor.visit(c.entity(), accessors(c.kind())))
                        {
                            break;
                        }
                    }
                }
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }
        };
    }

    /** A runtime view with the same components; its accessors go through the storages by entity. */
    @SuppressWarnings("unchecked")
    private static ViewHarness runtime(final World world, final ViewHarness generated)
    {
        final RuntimeView view = world.view(generated.with.toArray(new Class[0]))
            .without(generated.without.toArray(new Class[0]));
        return new ViewHarness("Runtime" + generated.name, generated.with, generated.without)
        {
            void forEach(final Visitor visitor)
            {
                view.forEach(entity -> visitor.visit(entity, byEntity(entity)));
            }

            void cursor(final Visitor visitor)
            {
                forEach(visitor);
            }

            int count()
            {
                return view.count();
            }

            boolean contains(final long entity)
            {
                return view.contains(entity);
            }

            boolean isRuntime()
            {
                return true;
            }

            private Map<Class<?>, Accessor> byEntity(final long entity)
            {
                final Map<Class<?>, Accessor> map = new LinkedHashMap<>();
                for (final Class<? extends Record> recordClass : with)
                {
                    if (!isTag(recordClass))
                    {
                        final ComponentStorage<Record> storage = view.storage((Class<Record>)recordClass);
                        map.put(recordClass, new Accessor()
                        {
                            public Record get()
                            {
                                return storage.get(entity);
                            }

                            public void set(final Record value)
                            {
                                storage.patch(entity, value);
                            }
                        });
                    }
                }
                return map;
            }
        };
    }

    /** A random value of a component record. */
    static Record randomValue(final Class<?> recordClass, final java.util.Random random)
    {
        if (recordClass == Pos.class)
        {
            return new Pos(random.nextInt(1000) / 4f, random.nextFloat());
        }
        if (recordClass == Vel.class)
        {
            return new Vel(random.nextDouble(), -random.nextInt(100));
        }
        if (recordClass == Hp.class)
        {
            return new Hp(random.nextInt(), random.nextBoolean());
        }
        if (recordClass == Kind.class)
        {
            return new Kind(
                (byte)random.nextInt(), random.nextLong(), Color.values()[random.nextInt(3)],
                new Vec((short)random.nextInt(), (char)random.nextInt(Character.MAX_VALUE + 1)));
        }
        if (recordClass == Frozen.class)
        {
            return new Frozen();
        }
        if (recordClass == Marked.class)
        {
            return new Marked();
        }
        return new Sleeping();
    }
}
