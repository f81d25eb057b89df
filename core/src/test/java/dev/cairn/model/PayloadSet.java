package dev.cairn.model;

import dev.cairn.internal.Walks;
import dev.cairn.DeletionPolicy;
import dev.cairn.internal.EntityPool;
import dev.cairn.internal.OffHeap;
import dev.cairn.set.SparseSet;
import org.agrona.UnsafeApi;

/**
 * A sparse set with one payload column of every width (8, 4, 2 and 1 bytes), the shape of a component storage. Each
 * insertion is given a <em>stamp</em> (a counter the test keeps), and every column holds a different value derived
 * from it, so a test can tell after any operation whether each member's payload still sits at the member's slot.
 */
public final class PayloadSet extends SparseSet
{
    /** Byte width of each column, in column order. */
    private static final int[] WIDTHS = {8, 4, 2, 1};

    private static final long MULTIPLIER = 0x9E37_79B9_7F4A_7C15L;
    private static final long INVERSE = inverse(MULTIPLIER);

    /** Bytes one packed slot costs: the handle plus every column. */
    public static final int SLOT_BYTES = Long.BYTES + 8 + 4 + 2 + 1;

    /**
     * Creates an empty set.
     *
     * @param policy  what erase does.
     * @param offHeap the owner of the set's memory (the test reads its byte count).
     * @param pool    the pool members must be alive in, or null to accept any well-formed handle.
     * @param name    what exception messages call the set.
     */
    public PayloadSet(final DeletionPolicy policy, final OffHeap offHeap, final EntityPool pool, final String name)
    {
        super(policy, offHeap, offHeap == null ? null : new Walks(name, false), pool, name, WIDTHS.clone());
    }

    /**
     * Inserts {@code entity} and writes the payload derived from {@code stamp} at its slot, as a storage's
     * {@code emplace} does.
     *
     * @param entity the handle.
     * @param stamp  the value every column is derived from.
     * @return the packed index.
     */
    public int emplace(final long entity, final long stamp)
    {
        final int index = insert(entity);
        write(index, stamp);
        return index;
    }

    /**
     * Writes the payload of {@code stamp} at a packed index through the checked payload addresses storages use.
     *
     * @param index a packed index.
     * @param stamp the value every column is derived from.
     */
    public void write(final int index, final long stamp)
    {
        UnsafeApi.putLong(payloadAddress(0, index, 3), longOf(stamp));
        UnsafeApi.putInt(payloadAddress(1, index, 2), intOf(stamp));
        UnsafeApi.putShort(payloadAddress(2, index, 1), shortOf(stamp));
        UnsafeApi.putByte(payloadAddress(3, index, 0), byteOf(stamp));
    }

    /**
     * Describes how the payload at {@code index} differs from the one {@code stamp} wrote, or returns null.
     *
     * @param index a packed index.
     * @param stamp the stamp expected there.
     * @return null if all four columns hold {@code stamp}'s values, else which columns differ.
     */
    public String payloadMismatch(final int index, final long stamp)
    {
        if (longAt(index) == longOf(stamp) && intAt(index) == intOf(stamp) && shortAt(index) == shortOf(stamp) &&
            byteAt(index) == byteOf(stamp))
        {
            return null;
        }
        final StringBuilder out = new StringBuilder();
        if (longAt(index) != longOf(stamp))
        {
            out.append(" long column holds ").append(longAt(index)).append(" not ").append(longOf(stamp));
        }
        if (intAt(index) != intOf(stamp))
        {
            out.append(" int column holds ").append(intAt(index)).append(" not ").append(intOf(stamp));
        }
        if (shortAt(index) != shortOf(stamp))
        {
            out.append(" short column holds ").append(shortAt(index)).append(" not ").append(shortOf(stamp));
        }
        if (byteAt(index) != byteOf(stamp))
        {
            out.append(" byte column holds ").append(byteAt(index)).append(" not ").append(byteOf(stamp));
        }
        return out.length() == 0 ? null : out.toString().trim();
    }

    /**
     * The 8-byte column at a packed index.
     *
     * @param index a packed index.
     * @return the value.
     */
    public long longAt(final int index)
    {
        return UnsafeApi.getLong(payloadAddress(0, index, 3));
    }

    /**
     * The 4-byte column at a packed index.
     *
     * @param index a packed index.
     * @return the value.
     */
    public int intAt(final int index)
    {
        return UnsafeApi.getInt(payloadAddress(1, index, 2));
    }

    /**
     * The 2-byte column at a packed index.
     *
     * @param index a packed index.
     * @return the value.
     */
    public short shortAt(final int index)
    {
        return UnsafeApi.getShort(payloadAddress(2, index, 1));
    }

    /**
     * The 1-byte column at a packed index.
     *
     * @param index a packed index.
     * @return the value.
     */
    public byte byteAt(final int index)
    {
        return UnsafeApi.getByte(payloadAddress(3, index, 0));
    }

    /**
     * The long column's value for a stamp: a bijection, so distinct stamps give distinct values in scrambled order.
     *
     * @param stamp a stamp.
     * @return the value.
     */
    public static long longOf(final long stamp)
    {
        return stamp * MULTIPLIER;
    }

    /**
     * The stamp whose payload is at a packed index, read back from the long column.
     *
     * @param index a packed index.
     * @return the stamp written there.
     */
    public long stampAt(final int index)
    {
        return longAt(index) * INVERSE;
    }

    private static long inverse(final long odd)
    {
        long x = odd;
        for (int i = 0; i < 5; i++)
        {
            x *= 2 - odd * x;
        }
        return x;
    }

    /**
     * The int column's value for a stamp: a bijection on the low 32 bits.
     *
     * @param stamp a stamp.
     * @return the value.
     */
    public static int intOf(final long stamp)
    {
        return (int)stamp * 0x2545_F491;
    }

    /**
     * The short column's value for a stamp: one of 1000 values, so sorts by it see ties.
     *
     * @param stamp a stamp.
     * @return the value.
     */
    public static short shortOf(final long stamp)
    {
        return (short)((stamp * 31) % 1000 - 500);
    }

    /**
     * The byte column's value for a stamp: negative and positive values, many ties.
     *
     * @param stamp a stamp.
     * @return the value.
     */
    public static byte byteOf(final long stamp)
    {
        return (byte)(stamp * 7 + 3);
    }

    /**
     * The protected layout version, for the model's check that an unchanged version means nothing moved.
     *
     * @return {@link #layoutVersion()}.
     */
    public long layout()
    {
        return layoutVersion();
    }

    /**
     * The member at an index, as a Ref sees it.
     *
     * @param index any value.
     * @return {@link #memberAt(int)}.
     */
    public long memberAtIndex(final int index)
    {
        return memberAt(index);
    }

    /**
     * The check a Ref positioned on {@code entity} at {@code index} makes once the layout changed.
     *
     * @param index  the index.
     * @param entity the entity.
     */
    public void checkRef(final int index, final long entity)
    {
        refIndex(index, entity, -1);
    }

    /**
     * The storages' by-entity lookup.
     *
     * @param entity any value.
     * @return {@link #requireIndex(long)}.
     */
    public int requireIndexOf(final long entity)
    {
        return requireIndex(entity);
    }

    /**
     * The storages' index check.
     *
     * @param index any value.
     */
    public void checkIndexOf(final int index)
    {
        checkIndex(index);
    }
}
