package dev.cairn.deferral;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.deferral.DeferralFixtures.Hp;
import dev.cairn.deferral.DeferralFixtures.Mark;
import dev.cairn.deferral.DeferralFixtures.Pos;
import dev.cairn.deferral.DeferralFixtures.Tag;
import dev.cairn.deferral.DeferralFixtures.Vel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A brute-force model of a world of {@link DeferralFixtures} under the rule of change (docs/views.md, "Changes during
 * walks and listeners"), in plain Java collections: the entity pool, each storage's packed array under its deletion
 * policy, the full-owning group {@code Movement} and {@code Racing} nested in it, the non-owning group {@code Living},
 * the observer {@code Healed}, the listeners connected, and the changes recorded while the structure holds still.
 * <p>
 * <b>Immediate and recorded.</b> While a walk's action or a listener runs ({@link #depth} above 0), or a cursor's walk
 * is left open, a change is recorded ({@link #record}); otherwise it is made at once ({@link #direct}). Creating an
 * entity and writing fields are always made at once. The harness records what the contract says is checked at the
 * call and recorded: a destroy of an alive entity, an add of a component the entity lacks now, a remove (even of a
 * component it lacks now: it undoes an add recorded before it), the announcement of a patch someone listens to, a
 * clear, the announcement of a creation someone listens to.
 * <p>
 * <b>Applying.</b> A change is applied as a list of {@link Step}s, each a state change or an event the engine must
 * send to a listener. Listeners are called by the engine while it applies changes, and the harness's listener code
 * needs the model exactly as the engine is at that moment, so the model applies its steps in lockstep: each event the
 * engine sends ({@link #event}) applies the model's steps up to the next expected event and compares the two; what
 * the listener records goes into the next round. When the engine call returns, {@link #settle} applies what is left,
 * and any event still expected is one the engine failed to send. Rounds follow the contract: the changes recorded
 * during a walk (round 1) are applied in the order made once the outermost walk or listener returns; the changes the
 * listeners record meanwhile form the next round, and so on until nothing is left.
 * <p>
 * <b>Applying one change</b> does what the direct call does, in the engine's documented order, with the three rules
 * for a change applied late: a change to an entity no longer alive is dropped; an add of a component the entity has by
 * then overwrites it (a whole-component write, so the update listeners and the observer's update trigger hear of it,
 * as for a patch); a remove of a component it no longer has does nothing.
 * <ul>
 *     <li>add: the storage takes the entity (where its policy puts it), the hooks (groups, observer) follow, then each
 *     added listener is told, with the component's packed index once the hooks have moved it;</li>
 *     <li>remove: each removing listener is told first (with the index before the hooks), then the hooks follow,
 *     then the storage erases it;</li>
 *     <li>update (a patch, or its announcement recorded in a walk): the observer's update trigger, then each update
 *     listener, if the entity still has the component;</li>
 *     <li>destroy: the destroying listeners with the entity whole, then a remove from each storage in the order the
 *     storages were created, then the handle is released;</li>
 *     <li>clear of a storage: a remove of each member from the back of the packed array to the front;</li>
 *     <li>clear of the world: a destroy of every entity alive at the call, highest index first; made at once, or
 *     applied when every entity alive was alive at the call, it also empties the storages (of tombstones and released
 *     entries); entities created meanwhile stay;</li>
 *     <li>the created listeners of an entity created during a walk: told when the change is applied, if still
 *     alive.</li>
 * </ul>
 */
final class DeferralModel
{
    /** The components, in the order the harness creates their storages (the order a destroy removes them in). */
    enum Comp
    {
        POS(DeletionPolicy.SWAP_AND_POP), VEL(DeletionPolicy.SWAP_ONLY), HP(DeletionPolicy.SWAP_AND_POP),
        MARK(DeletionPolicy.IN_PLACE), TAG(DeletionPolicy.SWAP_AND_POP);

        final DeletionPolicy policy;

        Comp(final DeletionPolicy policy)
        {
            this.policy = policy;
        }

        String title()
        {
            return name().charAt(0) + name().substring(1).toLowerCase();
        }
    }

    /** What a listener listens to. */
    enum Signal
    {
        CREATED, DESTROYING, ADDED, UPDATED, REMOVING
    }

    /** One of the harness's listeners: its number, its signal and, for a storage's signal, the component. */
    record Listener(int id, Signal signal, Comp comp)
    {
        @Override
        public String toString()
        {
            return "listener " + id + " (" + (comp == null ? "World" : comp.title()) + " " +
                signal.name().toLowerCase() + ")";
        }
    }

    /** The listeners the harness may connect; two on one signal check that each is told, in connection order. */
    static final List<Listener> LISTENERS = List.of(
        new Listener(0, Signal.CREATED, null),
        new Listener(1, Signal.DESTROYING, null),
        new Listener(2, Signal.DESTROYING, null),
        new Listener(3, Signal.ADDED, Comp.POS),
        new Listener(4, Signal.REMOVING, Comp.POS),
        new Listener(5, Signal.REMOVING, Comp.VEL),
        new Listener(6, Signal.ADDED, Comp.HP),
        new Listener(7, Signal.UPDATED, Comp.HP),
        new Listener(8, Signal.REMOVING, Comp.HP),
        new Listener(9, Signal.REMOVING, Comp.MARK),
        new Listener(10, Signal.ADDED, Comp.TAG),
        new Listener(11, Signal.ADDED, Comp.HP));

    /** A call of a listener: which listener, for which entity, with which packed index (-1 for the World's). */
    record Event(int listener, long entity, int index)
    {
        @Override
        public String toString()
        {
            return LISTENERS.get(listener) + " of " + Entity.toString(entity) + (index < 0 ? "" : " at " + index);
        }
    }

    /** What a recorded change does. */
    enum Kind
    {
        ADD, REMOVE, UPDATED, DESTROY, CLEAR_STORAGE, CLEAR_OBSERVER, CREATED, CLEAR_WORLD
    }

    /**
     * A structural change: recorded during walks and listeners, or made at once. {@code value} is the component of an
     * add; {@code comp} the storage of an add, remove, update or storage clear.
     */
    record Change(Kind kind, Comp comp, long entity, Record value, List<Long> aliveAtCall)
    {
        Change(final Kind kind, final Comp comp, final long entity, final Record value)
        {
            this(kind, comp, entity, value, null);
        }

        static Change add(final Comp comp, final long entity, final Record value)
        {
            return new Change(Kind.ADD, comp, entity, value);
        }

        static Change remove(final Comp comp, final long entity)
        {
            return new Change(Kind.REMOVE, comp, entity, null);
        }

        static Change updated(final Comp comp, final long entity)
        {
            return new Change(Kind.UPDATED, comp, entity, null);
        }

        static Change destroy(final long entity)
        {
            return new Change(Kind.DESTROY, null, entity, null);
        }

        static Change clear(final Comp comp)
        {
            return new Change(Kind.CLEAR_STORAGE, comp, Entity.NULL, null);
        }

        @Override
        public String toString()
        {
            final String who = Entity.toString(entity);
            return switch (kind)
            {
                case ADD -> "add " + value + " to " + who;
                case REMOVE -> "remove " + comp.title() + " from " + who;
                case UPDATED -> "announce the update of " + who + "'s " + comp.title();
                case DESTROY -> "destroy " + who;
                case CLEAR_STORAGE -> "clear " + comp.title();
                case CLEAR_OBSERVER -> "clear the observer";
                case CREATED -> "announce the creation of " + who;
                case CLEAR_WORLD -> aliveAtCall == null ? "clear the world" :
                    "clear the world of the " + aliveAtCall.size() + " entities alive at the call";
            };
        }
    }

    /** A step of applying a change: a state change, an event expected, or more steps worked out when reached. */
    private sealed interface Step permits Mutate, Expect, Expand
    {
    }

    private record Mutate(Runnable action) implements Step
    {
    }

    private record Expect(Event event) implements Step
    {
    }

    private record Expand(Supplier<List<Step>> steps) implements Step
    {
    }

    /** The model's world disagrees with the engine's (or the engine broke a rule the model checks itself). */
    static final class Disagreement extends AssertionError
    {
        Disagreement(final String message)
        {
            super(message);
        }
    }

    /** A sparse set's packed array under a deletion policy, as EnTT keeps it: the order walks go in. */
    static final class Packed
    {
        /** What an {@link DeletionPolicy#IN_PLACE} hole holds in the model (the engine's entityAt reads NULL). */
        static final long HOLE = Long.MIN_VALUE;

        final DeletionPolicy policy;
        final ArrayList<Long> packed = new ArrayList<>();
        /** Members (and holes) live in [0, extent); SWAP_ONLY keeps released entries behind it. */
        int extent;
        /** IN_PLACE: the holes, the most recently made first. */
        final ArrayDeque<Integer> holes = new ArrayDeque<>();
        /** Entity index to packed position, for members and SWAP_ONLY's released entries. */
        final HashMap<Integer, Integer> slots = new HashMap<>();

        Packed(final DeletionPolicy policy)
        {
            this.policy = policy;
        }

        int size()
        {
            return packed.size();
        }

        int indexOf(final long entity)
        {
            final Integer at = slots.get(Entity.index(entity));
            return at != null && at < extent && packed.get(at) == entity ? at : -1;
        }

        boolean contains(final long entity)
        {
            return indexOf(entity) >= 0;
        }

        /** The entity at a packed index as {@code entityAt} answers: NULL for a hole. */
        long entityAt(final int index)
        {
            final long entity = packed.get(index);
            return entity == HOLE ? Entity.NULL : entity;
        }

        /** The members from the front to the back. */
        List<Long> members()
        {
            final List<Long> members = new ArrayList<>();
            for (int i = 0; i < extent; i++)
            {
                if (packed.get(i) != HOLE)
                {
                    members.add(packed.get(i));
                }
            }
            return members;
        }

        /** Inserts an entity that is not a member; returns where the policy put it. */
        int insert(final long entity)
        {
            final int entityIndex = Entity.index(entity);
            switch (policy)
            {
                case IN_PLACE:
                {
                    final int at;
                    if (holes.isEmpty())
                    {
                        at = packed.size();
                        packed.add(entity);
                    }
                    else
                    {
                        at = holes.pop();
                        packed.set(at, entity);
                    }
                    slots.put(entityIndex, at);
                    extent = packed.size();
                    return at;
                }
                case SWAP_ONLY:
                {
                    final Integer released = slots.get(entityIndex);
                    final int at;
                    if (released != null)
                    {
                        at = released;
                        packed.set(at, entity);
                    }
                    else
                    {
                        at = packed.size();
                        packed.add(entity);
                        slots.put(entityIndex, at);
                    }
                    swap(at, extent);
                    return extent++;
                }
                default:
                {
                    final int at = packed.size();
                    packed.add(entity);
                    slots.put(entityIndex, at);
                    extent = packed.size();
                    return at;
                }
            }
        }

        /** Erases a member as its policy says. */
        void erase(final long entity)
        {
            final int at = indexOf(entity);
            final int entityIndex = Entity.index(entity);
            switch (policy)
            {
                case IN_PLACE:
                    packed.set(at, HOLE);
                    holes.push(at);
                    slots.remove(entityIndex);
                    break;
                case SWAP_ONLY:
                    packed.set(at, Entity.next(entity));
                    swap(at, --extent);
                    break;
                default:
                {
                    final int last = packed.size() - 1;
                    if (at != last)
                    {
                        final long moved = packed.get(last);
                        packed.set(at, moved);
                        slots.put(Entity.index(moved), at);
                    }
                    packed.remove(last);
                    slots.remove(entityIndex);
                    extent = packed.size();
                    break;
                }
            }
        }

        /** Exchanges two packed positions (neither a hole). */
        void swap(final int a, final int b)
        {
            if (a == b)
            {
                return;
            }
            final long first = packed.get(a);
            final long second = packed.get(b);
            packed.set(a, second);
            packed.set(b, first);
            slots.put(Entity.index(second), a);
            slots.put(Entity.index(first), b);
        }

        void clear()
        {
            packed.clear();
            holes.clear();
            slots.clear();
            extent = 0;
        }

        /** IN_PLACE's compact, as EnTT's: the members at the back fill the holes, the most recently made first. */
        void compact()
        {
            if (policy != DeletionPolicy.IN_PLACE)
            {
                return;
            }
            int from = packed.size();
            while (from > 0 && packed.get(from - 1) == HOLE)
            {
                from--;
            }
            for (final int to : holes)
            {
                if (to < from)
                {
                    from--;
                    final long moved = packed.get(from);
                    packed.set(to, moved);
                    packed.set(from, HOLE);
                    slots.put(Entity.index(moved), to);
                    while (from > 0 && packed.get(from - 1) == HOLE)
                    {
                        from--;
                    }
                }
            }
            holes.clear();
            while (packed.size() > from)
            {
                packed.remove(packed.size() - 1);
            }
            extent = from;
        }

        /** Puts the members in the order given, the first at index 0 (a sort of a set without holes). */
        void reorder(final List<Long> order)
        {
            for (int i = 0; i < order.size(); i++)
            {
                packed.set(i, order.get(i));
                slots.put(Entity.index(order.get(i)), i);
            }
        }
    }

    /** The entity pool: a version per index, released indices on a stack (the most recently released reused first). */
    static final class Pool
    {
        final ArrayList<Integer> versions = new ArrayList<>();
        final ArrayList<Boolean> alive = new ArrayList<>();
        final ArrayDeque<Integer> free = new ArrayDeque<>();
        /** The alive handles, for random picks: a list with each handle's position. */
        final ArrayList<Long> aliveList = new ArrayList<>();
        final HashMap<Long, Integer> alivePositions = new HashMap<>();
        /** The handles released last, for calls that must refuse a dead one. */
        final ArrayDeque<Long> recentlyDead = new ArrayDeque<>();

        long create()
        {
            final int index;
            if (free.isEmpty())
            {
                index = versions.size();
                versions.add(0);
                alive.add(true);
            }
            else
            {
                index = free.pop();
                alive.set(index, true);
            }
            final long entity = Entity.combine(index, versions.get(index));
            alivePositions.put(entity, aliveList.size());
            aliveList.add(entity);
            return entity;
        }

        boolean isAlive(final long entity)
        {
            if (entity < 0 || !Entity.isWellFormed(entity))
            {
                return false;
            }
            final int index = Entity.index(entity);
            return index < versions.size() && alive.get(index) && versions.get(index) == Entity.version(entity);
        }

        void release(final long entity)
        {
            final int index = Entity.index(entity);
            versions.set(index, Entity.nextVersion(versions.get(index)));
            alive.set(index, false);
            free.push(index);
            recentlyDead.addFirst(entity);
            if (recentlyDead.size() > 16)
            {
                recentlyDead.removeLast();
            }
            final int at = alivePositions.remove(entity);
            final long last = aliveList.remove(aliveList.size() - 1);
            if (last != entity)
            {
                aliveList.set(at, last);
                alivePositions.put(last, at);
            }
        }

        /** Every alive entity by ascending index: the order forEachEntity visits them in. */
        List<Long> byIndex()
        {
            final List<Long> all = new ArrayList<>(aliveList);
            all.sort(Comparator.comparingInt(Entity::index));
            return all;
        }
    }

    /** An owning group: its entities sit at [0, length) of every storage it owns, in the same order. */
    static final class Owning
    {
        final String name;
        final List<Comp> owns;
        int length;

        Owning(final String name, final List<Comp> owns)
        {
            this.name = name;
            this.owns = owns;
        }
    }

    final boolean groups;
    final boolean nested;
    final boolean observer;
    final Pool pool = new Pool();
    private final Packed[] storages = new Packed[Comp.values().length];
    private final List<Map<Long, Record>> values = new ArrayList<>();
    /**
     * The owning groups, outermost first: Movement (Pos, Vel), and Racing (Pos, Vel, Hp) nested in it when built. Each
     * keeps its entities at the front of its owned storages, an inner group's at the front of the outer's range.
     */
    final List<Owning> family = new ArrayList<>();
    /** Living's own set (swap-and-pop). */
    final Packed living = new Packed(DeletionPolicy.SWAP_AND_POP);
    /** Healed's own set (swap-and-pop). */
    final Packed healed = new Packed(DeletionPolicy.SWAP_AND_POP);
    /** The listeners connected, in the order connected. */
    final List<Listener> connected = new ArrayList<>();

    /** Action frames of the harness on the stack: walk actions and listener calls. Above 0, changes are recorded. */
    int depth;
    /** Whether a clear of the world is being applied (its destroys announced). */
    boolean clearingWorld;
    /** Whether a cursor's walk is left open at the top level: changes are recorded then too. */
    boolean cursorOpen;
    /** The changes recorded for the next round. */
    private ArrayDeque<Change> recording = new ArrayDeque<>();
    /** What is left of the round being applied. */
    private ArrayDeque<Change> round = new ArrayDeque<>();
    /** The steps left of the change being applied. */
    private final ArrayDeque<Step> steps = new ArrayDeque<>();
    /** What the chunks of a parallel walk recorded, by the position of their entity in the walk, not yet joined. */
    private List<List<Change>> parallelChanges;
    private List<List<Runnable>> parallelWrites;
    /** How many changes of each kind were recorded, and how many settlements took how many rounds (7: or more). */
    final long[] recordedKinds = new long[Kind.values().length];
    final long[] roundsPerSettlement = new long[8];
    private int rounds;
    /** Where the model says what it did, for the trace. */
    private final java.util.function.Consumer<String> log;

    DeferralModel(
        final boolean groups, final boolean nested, final boolean observer,
        final java.util.function.Consumer<String> log)
    {
        this.groups = groups;
        this.nested = groups && nested;
        this.observer = observer;
        this.log = log;
        if (groups)
        {
            family.add(new Owning("Movement", List.of(Comp.POS, Comp.VEL)));
        }
        if (this.nested)
        {
            family.add(new Owning("Racing", List.of(Comp.POS, Comp.VEL, Comp.HP)));
        }
        for (final Comp comp : Comp.values())
        {
            storages[comp.ordinal()] = new Packed(comp.policy);
            values.add(new HashMap<>());
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // What the world answers.
    // ---------------------------------------------------------------------------------------------------------------

    Packed storage(final Comp comp)
    {
        return storages[comp.ordinal()];
    }

    boolean alive(final long entity)
    {
        return pool.isAlive(entity);
    }

    boolean has(final Comp comp, final long entity)
    {
        return storage(comp).contains(entity);
    }

    Record value(final Comp comp, final long entity)
    {
        return values.get(comp.ordinal()).get(entity);
    }

    /** A field write: made at once, during walks too. */
    void write(final Comp comp, final long entity, final Record value)
    {
        if (!has(comp, entity))
        {
            throw new IllegalStateException("the model writes " + value + " to " + Entity.toString(entity) +
                ", which has no " + comp.title());
        }
        values.get(comp.ordinal()).put(entity, value);
    }

    boolean deferring()
    {
        return depth > 0 || cursorOpen;
    }

    boolean listening(final Signal signal, final Comp comp)
    {
        for (final Listener listener : connected)
        {
            if (listener.signal == signal && listener.comp == comp)
            {
                return true;
            }
        }
        return false;
    }

    /** Whether a patch of the component is announced: an update listener, or the observer's update trigger. */
    boolean updateSignalled(final Comp comp)
    {
        return listening(Signal.UPDATED, comp) || comp == Comp.HP && observer;
    }

    Owning owning(final String name)
    {
        for (final Owning group : family)
        {
            if (group.name.equals(name))
            {
                return group;
            }
        }
        return null;
    }

    boolean inGroup(final Owning group, final long entity)
    {
        final int at = storage(group.owns.get(0)).indexOf(entity);
        return at >= 0 && at < group.length;
    }

    boolean inLiving(final long entity)
    {
        return groups && living.contains(entity);
    }

    boolean inHealed(final long entity)
    {
        return observer && healed.contains(entity);
    }

    /** The entities a view's walk visits, in order: its lead is the included storage of least extent. */
    List<Long> viewOrder(final List<Comp> with, final List<Comp> without)
    {
        Comp lead = with.get(0);
        for (final Comp comp : with)
        {
            if (storage(comp).extent < storage(lead).extent)
            {
                lead = comp;
            }
        }
        final List<Long> order = new ArrayList<>();
        for (final long entity : storage(lead).members())
        {
            if (matches(entity, with, without))
            {
                order.add(entity);
            }
        }
        return order;
    }

    boolean matches(final long entity, final List<Comp> with, final List<Comp> without)
    {
        for (final Comp comp : with)
        {
            if (!has(comp, entity))
            {
                return false;
            }
        }
        for (final Comp comp : without)
        {
            if (has(comp, entity))
            {
                return false;
            }
        }
        return true;
    }

    /** An owning group's entities, front to back: the order its walks go in. */
    List<Long> groupOrder(final Owning group)
    {
        return new ArrayList<>(storage(Comp.POS).packed.subList(0, group.length));
    }

    List<Long> livingOrder()
    {
        return living.members();
    }

    List<Long> healedOrder()
    {
        return healed.members();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Changes: made at once, or recorded.
    // ---------------------------------------------------------------------------------------------------------------

    /** Creates an entity at once (also during walks): the handle the engine must hand out. */
    long create()
    {
        return pool.create();
    }

    /** Records a change made during a walk or listener, for the end of the outermost one. */
    void record(final Change change)
    {
        if (!deferring())
        {
            throw new IllegalStateException("the harness recorded " + change + " where changes are made at once");
        }
        recording.add(change);
        recordedKinds[change.kind.ordinal()]++;
        log.accept("  recorded: " + change);
    }

    /**
     * Begins a change made at once: its steps run as the engine makes it (the events it sends advance them) and
     * {@link #settle} finishes them once the engine call returns.
     */
    void direct(final Change... changes)
    {
        if (deferring() || !steps.isEmpty() || !round.isEmpty() || !recording.isEmpty())
        {
            throw new IllegalStateException("the harness made " + List.of(changes) + " at once where changes are " +
                "recorded, or before the previous change was settled");
        }
        for (final Change change : changes)
        {
            steps.add(new Expand(() -> expand(change)));
        }
    }

    /** A clear of the world during a walk or listener: recorded with the entities alive now, as one change. */
    void recordWorldClear()
    {
        record(new Change(Kind.CLEAR_WORLD, null, Entity.NULL, null, pool.byIndex()));
    }

    /**
     * A parallel walk begins: the visit at position {@code p} of the walk's order records into {@code lanes.get(p)}
     * and leaves its field writes in {@code writes.get(p)} (each list filled by the thread of that visit). They join
     * the model in the walk's order when the walk ends, as the engine joins its chunks' queues in chunk order.
     */
    void beginParallel(final List<List<Change>> lanes, final List<List<Runnable>> writes)
    {
        parallelChanges = lanes;
        parallelWrites = writes;
    }

    /** Joins what a parallel walk's visits recorded and wrote, in the walk's order, as the engine does at its end. */
    void joinParallel()
    {
        if (parallelChanges == null)
        {
            return;
        }
        for (final List<Runnable> visit : parallelWrites)
        {
            for (final Runnable write : visit)
            {
                write.run();
            }
        }
        for (final List<Change> lane : parallelChanges)
        {
            for (final Change change : lane)
            {
                recording.add(change);
                log.accept("  recorded by a chunk: " + change);
            }
        }
        parallelChanges = null;
        parallelWrites = null;
    }

    /**
     * The engine sent {@code actual} to a listener: applies the model's steps up to the next expected event, which
     * must be the same.
     */
    void event(final Event actual)
    {
        final Expect expected = nextExpected();
        if (expected == null)
        {
            throw new Disagreement("the engine called " + actual + ", which the model does not expect" +
                (deferring() ? " (the structure holds still: no listener runs during a walk or listener)" : ""));
        }
        if (!expected.event.equals(actual))
        {
            throw new Disagreement("the engine called " + actual + " where the model expects " + expected.event);
        }
        log.accept("event: " + actual);
    }

    /**
     * The engine call returned: applies the steps left; an event still expected is one the engine did not send. Where
     * changes are recorded (inside a walk), there is nothing to settle: the outermost walk's end will.
     */
    void settle()
    {
        if (deferring())
        {
            return;
        }
        final Expect missed = nextExpected();
        if (missed != null)
        {
            throw new Disagreement("the engine did not call " + missed.event + " (it returned before)");
        }
        roundsPerSettlement[Math.min(rounds, 7)]++;
        rounds = 0;
    }

    /** Whether nothing waits to be applied. */
    boolean settled()
    {
        return steps.isEmpty() && round.isEmpty() && recording.isEmpty() && parallelChanges == null;
    }

    private Expect nextExpected()
    {
        while (true)
        {
            if (!steps.isEmpty())
            {
                final Step step = steps.pollFirst();
                if (step instanceof Expand expand)
                {
                    final List<Step> more = expand.steps.get();
                    for (int k = more.size() - 1; k >= 0; k--)
                    {
                        steps.addFirst(more.get(k));
                    }
                }
                else if (step instanceof Mutate mutate)
                {
                    mutate.action.run();
                }
                else
                {
                    return (Expect)step;
                }
                continue;
            }
            if (!round.isEmpty())
            {
                steps.addAll(expand(round.pollFirst()));
                continue;
            }
            if (deferring())
            {
                return null;
            }
            joinParallel();
            if (recording.isEmpty())
            {
                return null;
            }
            final ArrayDeque<Change> next = recording;
            recording = round;
            round = next;
            rounds++;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // How each change is applied.
    // ---------------------------------------------------------------------------------------------------------------

    private List<Step> expand(final Change change)
    {
        final long entity = change.entity;
        final Comp comp = change.comp;
        switch (change.kind)
        {
            case ADD:
                if (!alive(entity))
                {
                    return dropped(change);
                }
                if (has(comp, entity))
                {
                    return List.of(new Mutate(() ->
                    {
                        log.accept("apply: " + change + ", which it has by now: overwritten");
                        write(comp, entity, change.value);
                    }), new Expand(() -> updateSteps(comp, entity)));
                }
                return addSteps(change);
            case REMOVE:
                if (!alive(entity))
                {
                    return dropped(change);
                }
                if (!has(comp, entity))
                {
                    return List.of(new Mutate(() ->
                        log.accept("apply: " + change + ", which it lacks by now: nothing")));
                }
                return removeSteps(comp, entity);
            case UPDATED:
                if (!alive(entity) || !has(comp, entity))
                {
                    return dropped(change);
                }
                return updateSteps(comp, entity);
            case DESTROY:
                if (!alive(entity))
                {
                    return dropped(change);
                }
                return destroySteps(entity);
            case CLEAR_STORAGE:
                return List.of(new Mutate(() -> log.accept("apply: " + change)),
                    new Expand(() -> clearFrom(comp, storage(comp).extent - 1)));
            case CLEAR_OBSERVER:
                return List.of(new Mutate(() ->
                {
                    log.accept("apply: " + change);
                    healed.clear();
                }));
            case CREATED:
                if (!alive(entity))
                {
                    return dropped(change);
                }
                return listenerSteps(Signal.CREATED, null, entity, -1);
            case CLEAR_WORLD:
                return clearWorldSteps(change);
            default:
                throw new IllegalStateException(change.toString());
        }
    }

    /**
     * A clear of the world destroys the entities alive at the call, highest index first (those created since, by
     * listeners of the clear or later in the walk that recorded it, stay), then empties the storages of the
     * tombstones and released entries the destroys left: none of them holds a member then.
     */
    private List<Step> clearWorldSteps(final Change change)
    {
        final List<Long> aliveNow = pool.byIndex();
        final List<Long> targets = new ArrayList<>();
        if (change.aliveAtCall == null)
        {
            targets.addAll(aliveNow);
        }
        else
        {
            for (final long entity : change.aliveAtCall)
            {
                if (alive(entity))
                {
                    targets.add(entity);
                }
            }
            targets.sort(Comparator.comparingInt(Entity::index));
        }
        Collections.reverse(targets);
        final List<Step> all = new ArrayList<>();
        all.add(new Mutate(() ->
        {
            log.accept("apply: " + change + ": destroy " + targets.size() + " entities, highest index first, and " +
                "empty the storages");
            clearingWorld = true;
        }));
        for (final long each : targets)
        {
            all.add(new Expand(() -> alive(each) ? destroySteps(each) : List.of()));
        }
        all.add(new Mutate(() ->
        {
            clearingWorld = false;
            // "Empties every storage": the tombstones and released entries the destroys left go too.
            for (final Packed packed : storages)
            {
                packed.clear();
            }
        }));
        return all;
    }

    private List<Step> dropped(final Change change)
    {
        return List.of(new Mutate(() -> log.accept("apply: " + change + ": dropped, the entity is not alive or " +
            "lacks the component by now")));
    }

    private List<Step> addSteps(final Change change)
    {
        final Comp comp = change.comp;
        final long entity = change.entity;
        return List.of(new Mutate(() ->
        {
            log.accept("apply: " + change);
            storage(comp).insert(entity);
            values.get(comp.ordinal()).put(entity, change.value);
            followAdded(comp, entity);
        }), new Expand(() -> listenerSteps(Signal.ADDED, comp, entity, storage(comp).indexOf(entity))));
    }

    private List<Step> removeSteps(final Comp comp, final long entity)
    {
        final List<Step> all = new ArrayList<>(
            listenerSteps(Signal.REMOVING, comp, entity, storage(comp).indexOf(entity)));
        all.add(new Mutate(() ->
        {
            log.accept("apply: remove " + comp.title() + " from " + Entity.toString(entity));
            followRemoving(comp, entity);
            storage(comp).erase(entity);
            values.get(comp.ordinal()).remove(entity);
        }));
        return all;
    }

    private List<Step> updateSteps(final Comp comp, final long entity)
    {
        if (!updateSignalled(comp))
        {
            return List.of();
        }
        final List<Step> all = new ArrayList<>();
        all.add(new Mutate(() ->
        {
            if (comp == Comp.HP && observer)
            {
                enterHealed(entity);
            }
        }));
        all.add(new Expand(() -> listenerSteps(Signal.UPDATED, comp, entity, storage(comp).indexOf(entity))));
        return all;
    }

    private List<Step> destroySteps(final long entity)
    {
        final List<Step> all = new ArrayList<>();
        all.add(new Mutate(() -> log.accept("apply: destroy " + Entity.toString(entity))));
        all.addAll(listenerSteps(Signal.DESTROYING, null, entity, -1));
        for (final Comp comp : Comp.values())
        {
            all.add(new Expand(() -> has(comp, entity) ? removeSteps(comp, entity) : List.of()));
        }
        all.add(new Mutate(() -> pool.release(entity)));
        return all;
    }

    /** A storage's clear: a remove of each member from the back, then the set is emptied (tombstones and all). */
    private List<Step> clearFrom(final Comp comp, final int index)
    {
        final Packed packed = storage(comp);
        if (index < 0)
        {
            return List.of(new Mutate(packed::clear));
        }
        final long entity = packed.packed.get(index);
        final List<Step> all = new ArrayList<>();
        if (entity != Packed.HOLE)
        {
            all.addAll(removeSteps(comp, entity));
        }
        all.add(new Expand(() -> clearFrom(comp, Math.min(index - 1, packed.extent - 1))));
        return all;
    }

    private List<Step> listenerSteps(final Signal signal, final Comp comp, final long entity, final int index)
    {
        final List<Step> all = new ArrayList<>();
        for (final Listener listener : connected)
        {
            if (listener.signal == signal && listener.comp == comp)
            {
                all.add(new Expect(new Event(listener.id, entity, index)));
            }
        }
        return all;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The groups and the observer follow adds and removals (before the added listeners, after the removing ones).
    // ---------------------------------------------------------------------------------------------------------------

    private void followAdded(final Comp comp, final long entity)
    {
        // The owning groups' hooks run outermost first (they are ordered by how many components their rules name).
        for (final Owning group : family)
        {
            if (group.owns.contains(comp) && !inGroup(group, entity) && ownsAll(group, entity))
            {
                // The group and every group it nests in take the entity, outermost first.
                for (final Owning each : family)
                {
                    if (!inGroup(each, entity))
                    {
                        moveIn(each, entity);
                    }
                    if (each == group)
                    {
                        break;
                    }
                }
            }
        }
        if (groups)
        {
            if ((comp == Comp.HP || comp == Comp.MARK) && !living.contains(entity) && livingMatches(entity, false))
            {
                living.insert(entity);
            }
            if (comp == Comp.TAG && living.contains(entity))
            {
                living.erase(entity);
            }
        }
        if (observer)
        {
            if (comp == Comp.HP)
            {
                enterHealed(entity);
            }
            if (comp == Comp.TAG && healed.contains(entity))
            {
                healed.erase(entity);
            }
        }
    }

    private void followRemoving(final Comp comp, final long entity)
    {
        // Removing hooks run in the reverse order: innermost group first.
        for (int g = family.size() - 1; g >= 0; g--)
        {
            final Owning group = family.get(g);
            if (group.owns.contains(comp) && inGroup(group, entity))
            {
                // The group and every group nested in it let the entity go, innermost first.
                for (int k = family.size() - 1; k >= 0; k--)
                {
                    final Owning each = family.get(k);
                    if (inGroup(each, entity))
                    {
                        moveOut(each, storage(each.owns.get(0)).indexOf(entity));
                    }
                    if (each == group)
                    {
                        break;
                    }
                }
            }
        }
        if (groups)
        {
            if ((comp == Comp.HP || comp == Comp.MARK) && living.contains(entity))
            {
                living.erase(entity);
            }
            if (comp == Comp.TAG && !living.contains(entity) && livingMatches(entity, true))
            {
                living.insert(entity);
            }
        }
        if (observer && (comp == Comp.HP || comp == Comp.POS) && healed.contains(entity))
        {
            healed.erase(entity);
        }
    }

    private boolean ownsAll(final Owning group, final long entity)
    {
        for (final Comp comp : group.owns)
        {
            if (!has(comp, entity))
            {
                return false;
            }
        }
        return true;
    }

    /** Swaps an entity into a group's range, at its end, in every storage the group owns. */
    private void moveIn(final Owning group, final long entity)
    {
        final int at = group.length++;
        for (final Comp comp : group.owns)
        {
            storage(comp).swap(storage(comp).indexOf(entity), at);
        }
    }

    /** Swaps the entity at {@code from} of a group's range out of it, with the range's last. */
    private void moveOut(final Owning group, final int from)
    {
        final int at = --group.length;
        for (final Comp comp : group.owns)
        {
            storage(comp).swap(from, at);
        }
    }

    private boolean livingMatches(final long entity, final boolean ignoringTag)
    {
        return has(Comp.HP, entity) && has(Comp.MARK, entity) && (ignoringTag || !has(Comp.TAG, entity));
    }

    private void enterHealed(final long entity)
    {
        if (!healed.contains(entity) && has(Comp.HP, entity) && has(Comp.POS, entity) && !has(Comp.TAG, entity))
        {
            healed.insert(entity);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Changes outside walks that have no deferred form.
    // ---------------------------------------------------------------------------------------------------------------

    /** Mark's compact(), made at once outside walks. */
    void compactMark()
    {
        storage(Comp.MARK).compact();
    }

    /** Hp's sort by value, then by handle: the first at packed index 0. */
    void sortHp()
    {
        final List<Long> order = storage(Comp.HP).members();
        order.sort(Comparator.comparingInt((Long entity) -> ((Hp)value(Comp.HP, entity)).value())
            .thenComparingLong(entity -> entity));
        storage(Comp.HP).reorder(order);
    }

    /**
     * Hp's sortAs(Mark), as EnTT's sort_as: each member of Mark, front to back, that Hp holds is swapped to Hp's next
     * place from the front, until one place is left.
     */
    void sortHpAsMark()
    {
        final Packed hp = storage(Comp.HP);
        final Packed mark = storage(Comp.MARK);
        int target = 0;
        for (int i = 0; i < mark.extent && target < hp.extent - 1; i++)
        {
            final long entity = mark.packed.get(i);
            final int at = entity == Packed.HOLE ? -1 : hp.indexOf(entity);
            if (at >= 0)
            {
                hp.swap(at, target++);
            }
        }
    }

    /** An owning group's sort by x, then by handle: the fronts of its owned storages permuted together. */
    void sortGroup(final Owning group)
    {
        final List<Long> order = groupOrder(group);
        order.sort(Comparator.comparingDouble((Long entity) -> ((Pos)value(Comp.POS, entity)).x())
            .thenComparingLong(entity -> entity));
        for (int i = 0; i < order.size(); i++)
        {
            final long entity = order.get(i);
            for (final Comp comp : group.owns)
            {
                storage(comp).swap(storage(comp).indexOf(entity), i);
            }
        }
    }

    /** A component record of a kind, from a few numbers. */
    static Record component(final Comp comp, final int seed)
    {
        return switch (comp)
        {
            case POS -> new Pos(seed % 1000 / 4f, -seed % 77);
            case VEL -> new Vel(seed % 97 / 2f, seed % 13);
            case HP -> new Hp(seed % 1000);
            case MARK -> new Mark(seed);
            case TAG -> new Tag();
        };
    }
}
