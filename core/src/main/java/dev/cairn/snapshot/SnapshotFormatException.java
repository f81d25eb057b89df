package dev.cairn.snapshot;

/**
 * A snapshot that cannot be loaded: truncated, corrupted, forged, from another format version, or holding a component
 * whose saved fields cannot be mapped to the current record. The message says what is wrong and where; the world it
 * was loaded into is as it was before.
 */
public final class SnapshotFormatException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** The section being read when the problem was found. */
    private final String section;
    /** The byte offset in the snapshot where the problem was found. */
    private final long offset;

    /**
     * Creates an exception.
     *
     * @param section the section being read, for example {@code "section 2 (com.example.Position)"}.
     * @param offset  the byte offset in the snapshot where the problem was found.
     * @param message what is wrong.
     */
    public SnapshotFormatException(final String section, final long offset, final String message)
    {
        super("snapshot " + section + " at byte " + offset + ": " + message);
        this.section = section;
        this.offset = offset;
    }

    /**
     * The section being read when the problem was found.
     *
     * @return its description.
     */
    public String section()
    {
        return section;
    }

    /**
     * The byte offset in the snapshot where the problem was found.
     *
     * @return the offset from the snapshot's first byte.
     */
    public long offset()
    {
        return offset;
    }
}
