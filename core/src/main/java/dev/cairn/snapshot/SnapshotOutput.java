package dev.cairn.snapshot;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Where a snapshot is written: a buffer, flushed to a channel when it fills if there is one. Keeps the CRC32C of the
 * section being written. Only {@link Snapshot} makes one.
 */
final class SnapshotOutput
{
    /** Bytes a bulk copy writes before it adds them to the checksum. */
    private static final int CHECKSUM_BLOCK = 64 * 1024;

    private final ByteBuffer buffer;
    private final WritableByteChannel channel;
    private final CRC32C crc = new CRC32C();
    /** Where in the buffer the bytes not yet added to the CRC start; -1 outside a section. */
    private int crcFrom = -1;
    private long flushed;

    SnapshotOutput(final ByteBuffer buffer, final WritableByteChannel channel)
    {
        this.buffer = buffer.order(ByteOrder.LITTLE_ENDIAN);
        this.channel = channel;
    }

    /**
     * Writes a byte.
     *
     * @param value the value.
     */
    public void putByte(final int value)
    {
        room(1);
        buffer.put((byte)value);
    }

    /**
     * Writes a short.
     *
     * @param value the value.
     */
    public void putShort(final int value)
    {
        room(2);
        buffer.putShort((short)value);
    }

    /**
     * Writes an int.
     *
     * @param value the value.
     */
    public void putInt(final int value)
    {
        room(4);
        buffer.putInt(value);
    }

    /**
     * Writes a long.
     *
     * @param value the value.
     */
    public void putLong(final long value)
    {
        room(8);
        buffer.putLong(value);
    }

    /**
     * Writes a string as a short length and its UTF-8 bytes.
     *
     * @param value the string, of at most 65,535 UTF-8 bytes.
     */
    public void putString(final String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF)
        {
            throw new IllegalArgumentException("a name of " + bytes.length + " bytes is longer than a snapshot keeps");
        }
        putShort(bytes.length);
        room(bytes.length);
        buffer.put(bytes);
    }

    /**
     * Copies off-heap memory into the snapshot, as it is (little-endian on every platform Cairn runs on).
     *
     * @param address where the bytes are.
     * @param bytes   how many.
     */
    public void putMemory(final long address, final long bytes)
    {
        long done = 0;
        while (done < bytes)
        {
            if (!buffer.hasRemaining())
            {
                flush();
            }
            // A block at a time, each added to the checksum while it is still in cache.
            final int chunk = (int)Math.min(Math.min(bytes - done, buffer.remaining()), CHECKSUM_BLOCK);
            final int position = buffer.position();
            if (buffer.isDirect())
            {
                UnsafeApi.copyMemory(address + done, BufferUtil.address(buffer) + position, chunk);
            }
            else
            {
                UnsafeApi.copyMemory(null, address + done, BufferUtil.array(buffer),
                    BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(buffer) + position, chunk);
            }
            buffer.position(position + chunk);
            done += chunk;
            updateCrc();
        }
    }

    void beginSection(final int kind, final long bodyLength)
    {
        putInt(kind);
        putLong(bodyLength);
        crc.reset();
        crcFrom = buffer.position();
    }

    void endSection()
    {
        updateCrc();
        crcFrom = -1;
        putInt((int)crc.getValue());
    }

    /** Writes what the buffer holds to the channel, if there is one. */
    void flush()
    {
        if (channel == null)
        {
            throw new IllegalStateException("the snapshot does not fit the buffer: it needs more bytes than remain");
        }
        updateCrc();
        buffer.flip();
        try
        {
            while (buffer.hasRemaining())
            {
                final int written = channel.write(buffer);
                if (written == 0)
                {
                    throw new IllegalArgumentException("the channel took no byte of the snapshot: it is " +
                        "non-blocking (or full), and a save writes to a channel until the snapshot is out; pass a " +
                        "blocking channel, or save into a ByteBuffer and write that as the channel allows");
                }
                flushed += written;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the snapshot: " + ex.getMessage(), ex);
        }
        buffer.clear();
        if (crcFrom >= 0)
        {
            crcFrom = 0;
        }
    }

    private void updateCrc()
    {
        if (crcFrom >= 0 && crcFrom < buffer.position())
        {
            final ByteBuffer range = buffer.duplicate();
            range.limit(buffer.position()).position(crcFrom);
            crc.update(range);
            crcFrom = buffer.position();
        }
    }

    private void room(final int bytes)
    {
        if (buffer.remaining() < bytes)
        {
            flush();
        }
    }
}
