package dev.cairn.set;

import dev.cairn.DeletionPolicy;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.RawSet;

/** The raw state of a set that snapshot code reads and writes (see {@link RawSet}). */
final class SetRawState implements RawSet
{
    private final SparseSet set;

    SetRawState(final SparseSet set)
    {
        this.set = set;
    }

    @Override
    public String name()
    {
        return set.name;
    }

    @Override
    public DeletionPolicy policy()
    {
        return set.policy;
    }

    @Override
    public EntityPool pool()
    {
        return set.pool;
    }

    @Override
    public int size()
    {
        return set.size;
    }

    @Override
    public int extent()
    {
        return set.extent;
    }

    @Override
    public int freeHead()
    {
        return set.freeHead;
    }

    @Override
    public int memberCount()
    {
        return set.memberCount;
    }

    @Override
    public long packedAddress()
    {
        return set.packedAddress;
    }

    @Override
    public long columnAddress(final int column)
    {
        return set.dense.address(column + 1);
    }

    @Override
    public void requireEmptyForLoad()
    {
        set.ensureChangeable("load a snapshot into");
        if (set.size != 0)
        {
            throw new IllegalStateException("a snapshot loads into an empty " + set.name + "; this one has " +
                set.size + " indices in use");
        }
    }

    @Override
    public void ensureLoadCapacity(final int size)
    {
        if (size > set.dense.capacity())
        {
            set.resizeDense(size);
        }
    }

    @Override
    public long sparseEntry(final int entityIndex)
    {
        final long address = set.sparseAddressOf(entityIndex);
        return address != 0 ? address : SetMemory.allocatePage(set, entityIndex >>> SparseSet.PAGE_SHIFT) +
            ((long)(entityIndex & SparseSet.PAGE_MASK) << 2);
    }

    @Override
    public long sparseEntryIfAny(final int entityIndex)
    {
        return set.sparseAddressOf(entityIndex);
    }

    @Override
    public void loaded(final int size, final int extent, final int freeHead, final int memberCount)
    {
        set.size = size;
        set.extent = extent;
        set.freeHead = freeHead;
        set.memberCount = memberCount;
        set.layoutVersion++;
    }

    @Override
    public void clearSilently()
    {
        set.clearSilently();
    }

    @Override
    public void shrinkToFit()
    {
        set.shrinkToFit();
    }

    @Override
    public void freeMemory()
    {
        set.freeMemory();
    }
}
