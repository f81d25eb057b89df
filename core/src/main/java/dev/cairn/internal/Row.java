package dev.cairn.internal;

import org.agrona.UnsafeApi;

/**
 * A component's fields as a row of bytes, written while a change is recorded for later: generated
 * {@code emplace(commands, ...)} and {@code patch(commands, ...)} write one into a command buffer, and a change made
 * while the world's structure holds still is recorded into one; reused by its recorder. A field goes at its row offset
 * (see {@code RawStorage.rowOffset(int)}), in the column's representation: a boolean as a byte 0 or 1, an
 * enum as its ordinal. Write every field (a byte not written holds whatever an earlier command left there); a
 * write outside the row throws {@link IndexOutOfBoundsException}, and a boolean other than 0 or 1 or an ordinal
 * past the enum's constants makes that command's playback throw {@link IllegalArgumentException}.
 */
public final class Row
{
    // 128 bytes the JVM lays out before the fields below (longs go first), so that the fields a thread writes
    // with every command share no cache line with another thread's row or lane: two lanes placed side by side
    // slowed each other's recording down.
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    private byte[] bytes;
    /** Where the row starts in {@code bytes}. */
    private int offset;
    private int length;

    /**
     * Positions this row on {@code length} bytes of {@code bytes} from {@code offset}.
     *
     * @param bytes  the array holding the row.
     * @param offset where the row starts.
     * @param length the row's length.
     * @return this row.
     */
    public Row wrap(final byte[] bytes, final int offset, final int length)
    {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /**
     * The array the row was last positioned in.
     *
     * @return the array.
     */
    public byte[] bytes()
    {
        return bytes;
    }

    /**
     * Where the row starts in {@link #bytes()}.
     *
     * @return the offset.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * Moves the row to another array, keeping its offset and length: for a recorder whose array grew. Kept apart from
     * {@link #offset(int)} because storing a reference costs a write barrier that every recorded command would pay.
     *
     * @param bytes the array.
     */
    public void bytes(final byte[] bytes)
    {
        this.bytes = bytes;
    }

    /**
     * Moves the row within its array.
     *
     * @param offset where the row starts now.
     */
    public void offset(final int offset)
    {
        this.offset = offset;
    }

    /**
     * Sets the row's length.
     *
     * @param length the length.
     */
    public void length(final int length)
    {
        this.length = length;
    }

    /**
     * Writes a byte (or a boolean, or an enum ordinal of up to 256 constants).
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putByte(final int field, final byte value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putByte(bytes, at(bytes, field, Byte.BYTES), value);
    }

    /**
     * Writes a short (or an enum ordinal of more than 256 constants).
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putShort(final int field, final short value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putShortUnaligned(bytes, at(bytes, field, Short.BYTES), value);
    }

    /**
     * Writes a char.
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putChar(final int field, final char value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putCharUnaligned(bytes, at(bytes, field, Character.BYTES), value);
    }

    /**
     * Writes an int.
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putInt(final int field, final int value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putIntUnaligned(bytes, at(bytes, field, Integer.BYTES), value);
    }

    /**
     * Writes a float.
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putFloat(final int field, final float value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putIntUnaligned(bytes, at(bytes, field, Float.BYTES), Float.floatToRawIntBits(value));
    }

    /**
     * Writes a long (or an entity handle, or a placeholder of this buffer).
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putLong(final int field, final long value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putLongUnaligned(bytes, at(bytes, field, Long.BYTES), value);
    }

    /**
     * Writes a double.
     *
     * @param field the field's row offset ({@code RawStorage.rowOffset(int)}).
     * @param value the value.
     */
    public void putDouble(final int field, final double value)
    {
        final byte[] bytes = this.bytes;
        UnsafeApi.putLongUnaligned(bytes, at(bytes, field, Double.BYTES), Double.doubleToRawLongBits(value));
    }

    /**
     * Where a field goes in {@code bytes}, checked against that very array: the fields are read once, so a row
     * misused from another thread while its lane grows throws or writes a stale row, never outside the array.
     */
    private long at(final byte[] bytes, final int field, final int width)
    {
        final int offset = this.offset;
        final int length = this.length;
        if (field < 0 || field > length - width || offset < 0 || offset > bytes.length - length)
        {
            throw new IndexOutOfBoundsException("a field of " + width + " bytes at " + field + " does not fit in " +
                "a row of " + length + " bytes");
        }
        return ArrayBases.BYTE + offset + field;
    }
}

