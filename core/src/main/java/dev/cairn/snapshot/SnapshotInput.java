package dev.cairn.snapshot;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * A snapshot being read: a buffer, read section by section. A section's CRC32C is checked before any of its bytes is
 * handed out, and every read is checked against the end of the section, so a truncated, corrupted or forged snapshot
 * is a {@link SnapshotFormatException} that says where, never a read past what was given. Only {@link Snapshot} and
 * {@link ContinuousLoader} make one; the engine's structures read their state through it.
 */
public final class SnapshotInput
{
    /** An empty input, handed to the engine's unload methods by the loaders when no snapshot is being read. */
    static final SnapshotInput NONE = new SnapshotInput(ByteBuffer.allocate(0));

    private final ByteBuffer buffer;
    private final int start;
    private String section = "header";
    private int sectionEnd;

    SnapshotInput(final ByteBuffer buffer)
    {
        this.buffer = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.start = buffer.position();
        this.sectionEnd = buffer.limit();
    }

    /**
     * Reads a byte.
     *
     * @return the value, 0 to 255.
     * @throws SnapshotFormatException if the section ends first.
     */
    public int getUnsignedByte()
    {
        require(1, "a byte");
        return buffer.get() & 0xFF;
    }

    /**
     * Reads an unsigned short.
     *
     * @return the value, 0 to 65,535.
     * @throws SnapshotFormatException if the section ends first.
     */
    public int getUnsignedShort()
    {
        require(2, "a short");
        return buffer.getShort() & 0xFFFF;
    }

    /**
     * Reads an int.
     *
     * @return the value.
     * @throws SnapshotFormatException if the section ends first.
     */
    public int getInt()
    {
        require(4, "an int");
        return buffer.getInt();
    }

    /**
     * Reads a long.
     *
     * @return the value.
     * @throws SnapshotFormatException if the section ends first.
     */
    public long getLong()
    {
        require(8, "a long");
        return buffer.getLong();
    }

    /**
     * Reads a string written by {@link SnapshotOutput#putString(String)}.
     *
     * @return the string.
     * @throws SnapshotFormatException if the section ends first, or the bytes are not UTF-8.
     */
    public String getString()
    {
        final int length = getUnsignedShort();
        require(length, "a name of " + length + " bytes");
        final ByteBuffer bytes = buffer.slice().limit(length);
        buffer.position(buffer.position() + length);
        try
        {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw error("a name is not valid UTF-8");
        }
    }

    /**
     * Copies bytes of the snapshot into off-heap memory.
     *
     * @param address where they go; the caller has made room for {@code bytes}.
     * @param bytes   how many.
     * @throws SnapshotFormatException if the section ends first; nothing is copied then.
     */
    public void getMemory(final long address, final long bytes)
    {
        require(bytes, bytes + " bytes of data");
        final int position = buffer.position();
        if (buffer.isDirect())
        {
            UnsafeApi.copyMemory(BufferUtil.address(buffer) + position, address, bytes);
        }
        else
        {
            UnsafeApi.copyMemory(BufferUtil.array(buffer),
                BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(buffer) + position, null, address, bytes);
        }
        buffer.position(position + (int)bytes);
    }

    /**
     * Skips bytes of the section.
     *
     * @param bytes how many.
     * @throws SnapshotFormatException if the section ends first.
     */
    public void skip(final long bytes)
    {
        require(bytes, bytes + " bytes to skip");
        buffer.position(buffer.position() + (int)bytes);
    }

    /**
     * Checks that the rest of the section holds at least {@code bytes}, before anything is sized by a count the
     * snapshot declares.
     *
     * @param bytes what a declared count needs, computed without overflow by the caller (use
     *              {@link Math#multiplyExact}).
     * @param what  what needs it, for the message: {@code "1000000 packed handles"}.
     * @throws SnapshotFormatException if the section is shorter.
     */
    public void require(final long bytes, final String what)
    {
        if (bytes < 0 || bytes > sectionEnd - buffer.position())
        {
            throw error("the section needs " + (bytes < 0 ? "more than 2^63" : String.valueOf(bytes)) + " bytes for " +
                what + " but has " + (sectionEnd - buffer.position()) + " left; the snapshot is truncated or forged");
        }
    }

    /**
     * An exception about the section being read, at the current position.
     *
     * @param message what is wrong.
     * @return the exception, to throw.
     */
    public SnapshotFormatException error(final String message)
    {
        return new SnapshotFormatException(section, offset(), message);
    }

    /**
     * The offset of the next byte from the start of the snapshot.
     *
     * @return the offset.
     */
    public long offset()
    {
        return buffer.position() - start;
    }

    /** Bytes left in the whole input, past the current section too. */
    int remaining()
    {
        return buffer.limit() - buffer.position();
    }

    /**
     * Starts the next section: reads its kind and length, checks its CRC32C over the whole body, and bounds every read
     * to the body.
     *
     * @param name what messages call the section.
     * @return its kind.
     */
    int beginSection(final String name)
    {
        section = name;
        sectionEnd = buffer.limit();
        final int kind = getInt();
        final long length = getLong();
        if (length < 0 || length > remaining() - 4L)
        {
            throw error("the section declares " + length + " bytes but the snapshot has " +
                Math.max(0, remaining() - 4) + " left for it; the snapshot is truncated or forged");
        }
        final int bodyStart = buffer.position();
        final ByteBuffer body = buffer.duplicate();
        body.limit(bodyStart + (int)length);
        final CRC32C crc = new CRC32C();
        crc.update(body);
        final int stored = buffer.getInt(bodyStart + (int)length);
        if ((int)crc.getValue() != stored)
        {
            throw error("its CRC32C is " + Integer.toHexString((int)crc.getValue()) + " where the snapshot says " +
                Integer.toHexString(stored) + ": the bytes were changed or cut");
        }
        sectionEnd = bodyStart + (int)length;
        return kind;
    }

    /** Names the section being read more precisely, once its first bytes told what it holds. */
    void nameSection(final String name)
    {
        section = name;
    }

    /** Ends the section: the whole body must have been read. */
    void endSection()
    {
        if (buffer.position() != sectionEnd)
        {
            throw error((sectionEnd - buffer.position()) + " bytes are left unread at the end of the section; it " +
                "holds more than its own counts say");
        }
        buffer.position(sectionEnd + 4);
        sectionEnd = buffer.limit();
        section = "after the last section";
    }

    /**
     * The byte at an absolute position, for the header, without moving.
     *
     * @param position an offset into the buffer.
     * @return the byte.
     */
    ByteBuffer raw()
    {
        return buffer;
    }
}
