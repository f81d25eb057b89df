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
 * A snapshot being read: a buffer, read section by section. Every read is checked against the end of its section,
 * so a truncated or forged snapshot is a {@link SnapshotFormatException} that says where, never a read past what was
 * given. A section's CRC32C is computed as its bytes are read, a block ahead of the reads so that a bulk copy finds
 * them in cache, and compared when the section ends; a loader that fails inside a section asks
 * {@link #corruption()} whether the section was corrupted, so that a changed byte is reported as such rather than as
 * whatever it broke.
 */
final class SnapshotInput
{
    /** How far ahead of the reads the checksum runs: small reads do not each pay a call, copies find it cached. */
    private static final int CHECKED_AHEAD = 64 * 1024;

    private final ByteBuffer buffer;
    private final ByteBuffer checkedBytes;
    private final int start;
    private final CRC32C crc = new CRC32C();
    private String section = "header";
    private int sectionEnd;
    private int bodyStart;
    private int storedCrc;
    /** The section's bytes before this position are in {@link #crc}; {@code Integer.MAX_VALUE} outside a section. */
    private int checkedTo = Integer.MAX_VALUE;

    SnapshotInput(final ByteBuffer buffer)
    {
        this.buffer = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.checkedBytes = buffer.duplicate();
        this.start = buffer.position();
        this.sectionEnd = buffer.limit();
    }

    /** An input over the body of the section {@code from} has just begun, which it reads and checks on its own. */
    private SnapshotInput(final SnapshotInput from)
    {
        this.buffer = from.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.checkedBytes = from.checkedBytes.duplicate();
        this.start = from.start;
        this.section = from.section;
        this.sectionEnd = from.sectionEnd;
        this.bodyStart = from.bodyStart;
        this.storedCrc = from.storedCrc;
        this.checkedTo = from.bodyStart;
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
        checkTo(buffer.position() + 1);
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
        checkTo(buffer.position() + 2);
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
        checkTo(buffer.position() + 4);
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
        checkTo(buffer.position() + 8);
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
        checkTo(buffer.position() + length);
        final ByteBuffer bytes = buffer.slice().limit(length);
        buffer.position(buffer.position() + length);
        final String name;
        try
        {
            name = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw error("a name is not valid UTF-8");
        }
        for (int i = 0; i < name.length(); i++)
        {
            if (Character.isISOControl(name.charAt(i)))
            {
                // Names are Java identifiers; a control character would also end up raw in the messages that name it.
                throw error(String.format("a name holds the control character U+%04X at position %d; names are Java " +
                    "identifiers", (int)name.charAt(i), i));
            }
        }
        return name;
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
        // A block at a time: the checksum reads it from memory, the copy then finds it in cache.
        for (int done = 0; done < bytes; )
        {
            final int block = (int)Math.min(bytes - done, CHECKED_AHEAD);
            checkTo(position + done + block);
            if (buffer.isDirect())
            {
                UnsafeApi.copyMemory(BufferUtil.address(buffer) + position + done, address + done, block);
            }
            else
            {
                UnsafeApi.copyMemory(BufferUtil.array(buffer),
                    BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(buffer) + position + done, null,
                    address + done, block);
            }
            done += block;
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
        checkTo(buffer.position() + (int)bytes);
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
     * Starts the next section: reads its kind and length, bounds every read to the body, and starts the body's
     * CRC32C, which {@link #endSection()} compares with the one stored after it.
     *
     * @param name what messages call the section.
     * @return its kind.
     */
    int beginSection(final String name)
    {
        section = name;
        sectionEnd = buffer.limit();
        checkedTo = Integer.MAX_VALUE;
        final int kind = getInt();
        final long length = getLong();
        if (length < 0 || length > remaining() - 4L)
        {
            final String component = kind == Snapshot.STORAGE_SECTION ? peekName() : null;
            if (component != null)
            {
                section = name + " (" + component + ", as far as it can be read)";
            }
            throw error("the section declares " + length + " bytes but the snapshot has " +
                Math.max(0, remaining() - 4) + " left for it; the snapshot is truncated or forged");
        }
        bodyStart = buffer.position();
        sectionEnd = bodyStart + (int)length;
        storedCrc = buffer.getInt(sectionEnd);
        crc.reset();
        checkedTo = bodyStart;
        return kind;
    }

    /**
     * The name a storage section's body starts with, read without moving or checking anything, for the message about a
     * section that cannot be read whole; null unless the bytes there look like a Java class name.
     */
    private String peekName()
    {
        final int at = buffer.position();
        if (buffer.limit() - at < Short.BYTES)
        {
            return null;
        }
        final int length = buffer.getShort(at) & 0xFFFF;
        if (length == 0 || length > 255 || length > buffer.limit() - at - Short.BYTES)
        {
            return null;
        }
        final StringBuilder name = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            final char c = (char)(buffer.get(at + Short.BYTES + i) & 0xFF);
            if (!Character.isJavaIdentifierPart(c) && c != '.' || Character.isISOControl(c) || c > 0x7E)
            {
                return null;
            }
            name.append(c);
        }
        return name.toString();
    }

    /** Extends the section's checksum over its bytes before {@code end}, and a block beyond. */
    private void checkTo(final int end)
    {
        if (end > checkedTo)
        {
            final int to = Math.min(sectionEnd, Math.max(end, checkedTo + CHECKED_AHEAD));
            checkedBytes.limit(to).position(checkedTo);
            crc.update(checkedBytes);
            checkedTo = to;
        }
    }

    /**
     * Whether the section being read was changed: its CRC32C, completed over the rest of its body, against the one
     * stored. For a loader that failed inside the section, so that it reports a changed byte as such.
     *
     * @return the exception that says so, or null if the section is intact or none is being read (its checksum
     * already failed, or it ended).
     */
    SnapshotFormatException corruption()
    {
        if (checkedTo == Integer.MAX_VALUE)
        {
            return null;
        }
        checkTo(sectionEnd);
        checkedTo = Integer.MAX_VALUE;
        if ((int)crc.getValue() == storedCrc)
        {
            return null;
        }
        return new SnapshotFormatException(section, bodyStart - start, "its CRC32C is " +
            Integer.toHexString((int)crc.getValue()) + " where the snapshot says " + Integer.toHexString(storedCrc) +
            ": the bytes were changed or cut");
    }

    /**
     * Hands the section just begun to an input of its own and moves past it: that input reads the body, checks its
     * CRC32C and ends it, on any thread, while this one goes on to the next section. Offsets stay counted from the
     * start of the snapshot.
     *
     * @return the section's own input, at the start of its body.
     */
    SnapshotInput splitSection()
    {
        if (buffer.position() != bodyStart || checkedTo != bodyStart)
        {
            throw new IllegalStateException("a section is split off right after it begins");
        }
        final SnapshotInput body = new SnapshotInput(this);
        buffer.position(sectionEnd + 4);
        sectionEnd = buffer.limit();
        checkedTo = Integer.MAX_VALUE;
        section = "after the last section";
        return body;
    }

    /**
     * Leaves this section's checksum to another input: the one returned, whose {@link #corruption()} computes it over
     * the whole body, on any thread, while this one reads the body without it. Called before the body is read.
     *
     * @return an input that checksums the section.
     */
    SnapshotInput checksumApart()
    {
        if (buffer.position() != bodyStart || checkedTo != bodyStart)
        {
            throw new IllegalStateException("a section's checksum is set apart before its body is read");
        }
        final SnapshotInput checksum = new SnapshotInput(this);
        checkedTo = Integer.MAX_VALUE;
        return checksum;
    }

    /** The length of the section's body, for a loader that orders the work of several. */
    int sectionLength()
    {
        return sectionEnd - bodyStart;
    }

    /** Names the section being read more precisely, once its first bytes told what it holds. */
    void nameSection(final String name)
    {
        section = name;
    }

    /** Ends the section: its checksum must match, and the whole body must have been read. */
    void endSection()
    {
        final SnapshotFormatException corrupted = corruption();
        if (corrupted != null)
        {
            throw corrupted;
        }
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
