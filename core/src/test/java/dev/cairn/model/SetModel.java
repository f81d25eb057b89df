package dev.cairn.model;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Reference model of a {@link dev.cairn.set.SparseSet} built from plain collections: the packed layout slot by slot,
 * as each deletion policy defines it, plus the stamp of each member's payload.
 * <ul>
 *     <li>{@link DeletionPolicy#SWAP_AND_POP}: erase moves the last element into the hole and shrinks by one.</li>
 *     <li>{@link DeletionPolicy#IN_PLACE}: erase leaves a tombstone ({@link #TOMBSTONE} here) and pushes its slot on
 *     a LIFO stack that the next insert pops.</li>
 *     <li>{@link DeletionPolicy#SWAP_ONLY}: erase bumps the version and swaps the entry to just behind the
 *     {@code freeList} boundary; inserting any handle with that index brings it back in front.</li>
 * </ul>
 * Operations whose result layout the API leaves open (sorting with ties after an in-place compaction, the order of
 * the non-shared members after {@code sortAs}, where {@code compact()} puts members) are checked for what is
 * specified and then the model {@link #adopt adopts} the real layout.
 */
public final class SetModel
{
    /** What the model stores in an {@link DeletionPolicy#IN_PLACE} hole; also what {@code entityAt} returns there. */
    public static final long TOMBSTONE = Entity.NULL;

    private final DeletionPolicy policy;
    private final ArrayList<Long> packed = new ArrayList<>();
    private final HashMap<Integer, Integer> slotOfIndex = new HashMap<>();
    private final ArrayDeque<Integer> holes = new ArrayDeque<>();
    private final HashMap<Long, Long> stamps = new HashMap<>();
    private int boundary;
    private int members;

    /**
     * Creates an empty model.
     *
     * @param policy the policy modelled.
     */
    public SetModel(final DeletionPolicy policy)
    {
        this.policy = policy;
    }

    /**
     * The modelled policy.
     *
     * @return the policy.
     */
    public DeletionPolicy policy()
    {
        return policy;
    }

    /**
     * Packed slots in use, including tombstones and released entries.
     *
     * @return the expected {@code size()}.
     */
    public int size()
    {
        return packed.size();
    }

    /**
     * The expected {@code freeList()}: the swap_only boundary, otherwise the size.
     *
     * @return the end of the iteration region.
     */
    public int freeList()
    {
        return policy == DeletionPolicy.SWAP_ONLY ? boundary : packed.size();
    }

    /**
     * Members now.
     *
     * @return the expected {@code memberCount()}.
     */
    public int memberCount()
    {
        return members;
    }

    /**
     * What slot {@code index} holds: a member, a released handle (swap_only, at or past the boundary) or
     * {@link #TOMBSTONE}.
     *
     * @param index a slot from 0 to {@link #size()} - 1.
     * @return the expected {@code entityAt(index)}.
     */
    public long slot(final int index)
    {
        return packed.get(index);
    }

    /**
     * Whether the handle is a member.
     *
     * @param entity any value.
     * @return the expected {@code contains(entity)}.
     */
    public boolean contains(final long entity)
    {
        final int slot = indexOf(entity);
        return slot >= 0 && slot < freeList();
    }

    /**
     * The slot holding exactly this handle, member or released.
     *
     * @param entity any value.
     * @return the expected {@code indexOf(entity)}.
     */
    public int indexOf(final long entity)
    {
        if (!Entity.isWellFormed(entity))
        {
            return -1;
        }
        final Integer slot = slotOfIndex.get(Entity.index(entity));
        return slot != null && packed.get(slot) == entity ? slot : -1;
    }

    /**
     * The slot of any entry (member or released) carrying this handle's index, whatever its version.
     *
     * @param entity a well-formed handle.
     * @return the slot, or -1.
     */
    public int slotOfIndex(final long entity)
    {
        final Integer slot = slotOfIndex.get(Entity.index(entity));
        return slot == null ? -1 : slot;
    }

    /**
     * The stamp of a member's payload.
     *
     * @param entity a member.
     * @return its stamp.
     */
    public long stamp(final long entity)
    {
        return stamps.get(entity);
    }

    /**
     * Why inserting {@code entity} must fail, or null if it must succeed.
     *
     * @param entity any value.
     * @return the reason, for assertion messages.
     */
    public String insertRejection(final long entity)
    {
        if (!Entity.isWellFormed(entity))
        {
            return "it is NULL or malformed";
        }
        final int slot = slotOfIndex(entity);
        if (slot >= 0 && slot < freeList())
        {
            return packed.get(slot) == entity ? "it is already a member" :
                "its index is held by member " + Entity.toString(packed.get(slot));
        }
        return null;
    }

    /**
     * Inserts a handle that {@link #insertRejection} accepts.
     *
     * @param entity the handle.
     * @param stamp  its payload stamp.
     * @return the slot the real set must return.
     */
    public int insert(final long entity, final long stamp)
    {
        final int index = Entity.index(entity);
        final int slot;
        final int released = slotOfIndex(entity);
        if (policy == DeletionPolicy.SWAP_ONLY && released >= 0)
        {
            packed.set(released, entity);
            swap(released, boundary);
            slot = boundary++;
        }
        else if (policy == DeletionPolicy.IN_PLACE && !holes.isEmpty())
        {
            slot = holes.pop();
            packed.set(slot, entity);
            slotOfIndex.put(index, slot);
        }
        else
        {
            final int end = packed.size();
            packed.add(entity);
            slotOfIndex.put(index, end);
            if (policy == DeletionPolicy.SWAP_ONLY)
            {
                swap(end, boundary);
                slot = boundary++;
            }
            else
            {
                slot = end;
            }
        }
        stamps.put(entity, stamp);
        members++;
        return slot;
    }

    /**
     * Erases a member as the policy says.
     *
     * @param entity a member.
     */
    public void erase(final long entity)
    {
        final int slot = indexOf(entity);
        final int index = Entity.index(entity);
        switch (policy)
        {
            case SWAP_AND_POP:
            {
                final int last = packed.size() - 1;
                if (slot != last)
                {
                    final long moved = packed.get(last);
                    packed.set(slot, moved);
                    slotOfIndex.put(Entity.index(moved), slot);
                }
                packed.remove(last);
                slotOfIndex.remove(index);
                break;
            }
            case IN_PLACE:
                packed.set(slot, TOMBSTONE);
                holes.push(slot);
                slotOfIndex.remove(index);
                break;
            default:
                packed.set(slot, Entity.next(entity));
                swap(slot, --boundary);
                break;
        }
        stamps.remove(entity);
        members--;
    }

    /**
     * The slot the next insert of a new index reuses under {@link DeletionPolicy#IN_PLACE}: the most recently
     * freed one.
     *
     * @return the slot, or -1 if there is no hole.
     */
    public int mostRecentHole()
    {
        return holes.isEmpty() ? -1 : holes.peek();
    }

    /**
     * Exchanges two slots, as {@code swapElements} does for members.
     *
     * @param first  a slot.
     * @param second a slot.
     */
    public void swap(final int first, final int second)
    {
        if (first == second)
        {
            return;
        }
        final long a = packed.get(first);
        final long b = packed.get(second);
        packed.set(first, b);
        packed.set(second, a);
        if (b != TOMBSTONE)
        {
            slotOfIndex.put(Entity.index(b), first);
        }
        if (a != TOMBSTONE)
        {
            slotOfIndex.put(Entity.index(a), second);
        }
    }

    /**
     * Removes everything.
     */
    public void clear()
    {
        packed.clear();
        slotOfIndex.clear();
        holes.clear();
        stamps.clear();
        boundary = 0;
        members = 0;
    }

    /**
     * Fills the in-place tombstones as EnTT's {@code compact} does: the most recently freed hole first, each with the
     * last member behind it; then drops the tombstones left at the end.
     *
     * @return the layout expected after {@code compact()}.
     */
    public List<Long> compactInPlace()
    {
        int from = packed.size();
        while (from > 0 && packed.get(from - 1) == TOMBSTONE)
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
                packed.set(from, TOMBSTONE);
                slotOfIndex.put(Entity.index(moved), to);
                while (from > 0 && packed.get(from - 1) == TOMBSTONE)
                {
                    from--;
                }
            }
        }
        while (packed.size() > from)
        {
            packed.remove(packed.size() - 1);
        }
        holes.clear();
        return new ArrayList<>(packed);
    }

    /**
     * Drops the swap_only released region, as {@code compact()} does.
     */
    public void dropReleased()
    {
        if (policy == DeletionPolicy.SWAP_ONLY)
        {
            while (packed.size() > boundary)
            {
                slotOfIndex.remove(Entity.index(packed.remove(packed.size() - 1)));
            }
        }
    }

    /**
     * Whether the packed array has an in-place tombstone.
     *
     * @return true if some slot is a hole.
     */
    public boolean hasTombstones()
    {
        return !holes.isEmpty();
    }

    /**
     * The members in the order {@code forEach} must visit them: from slot 0 up to {@code freeList() - 1}.
     *
     * @return the members, front to back.
     */
    public List<Long> iteration()
    {
        final ArrayList<Long> order = new ArrayList<>(members);
        for (int i = 0; i < freeList(); i++)
        {
            final long entity = packed.get(i);
            if (entity != TOMBSTONE)
            {
                order.add(entity);
            }
        }
        return order;
    }

    /**
     * The released entries (swap_only): slots from {@code freeList()} to the end.
     *
     * @return their handles in slot order.
     */
    public List<Long> released()
    {
        return new ArrayList<>(packed.subList(freeList(), packed.size()));
    }

    /**
     * Replaces the layout with the real set's after an operation whose layout is not fully specified, once the test
     * has checked what is. Members and their stamps stay; there are no tombstones afterwards unless
     * {@code layout} has them (then they are taken as freed most recently in slot order, which no operation that
     * calls this produces).
     *
     * @param layout   {@code entityAt(i)} for every slot.
     * @param freeList the real {@code freeList()}.
     */
    public void adopt(final List<Long> layout, final int freeList)
    {
        packed.clear();
        slotOfIndex.clear();
        holes.clear();
        for (int i = 0; i < layout.size(); i++)
        {
            final long entity = layout.get(i);
            packed.add(entity);
            if (entity == TOMBSTONE)
            {
                holes.push(i);
            }
            else
            {
                slotOfIndex.put(Entity.index(entity), i);
            }
        }
        boundary = policy == DeletionPolicy.SWAP_ONLY ? freeList : 0;
    }
}
