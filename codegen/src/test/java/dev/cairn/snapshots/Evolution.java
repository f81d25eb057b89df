package dev.cairn.snapshots;

import java.nio.charset.StandardCharsets;

/** Makes a snapshot saved with one version of a component read as if another version had saved it. */
final class Evolution
{
    private Evolution()
    {
    }

    /**
     * Renames a component in a snapshot, as if the record had been renamed between saving and loading (a component's
     * versions here are separate records with names of the same length), and recomputes the checksums.
     */
    static byte[] rename(final byte[] snapshot, final String from, final String to)
    {
        final byte[] old = ("SnapshotFixtures$" + from).getBytes(StandardCharsets.UTF_8);
        final byte[] replacement = ("SnapshotFixtures$" + to).getBytes(StandardCharsets.UTF_8);
        if (old.length != replacement.length)
        {
            throw new IllegalArgumentException("names of different lengths: " + from + ", " + to);
        }
        final byte[] renamed = snapshot.clone();
        int found = 0;
        for (int at = 0; at + old.length <= renamed.length; at++)
        {
            if (java.util.Arrays.equals(renamed, at, at + old.length, old, 0, old.length))
            {
                System.arraycopy(replacement, 0, renamed, at, replacement.length);
                found++;
            }
        }
        if (found != 1)
        {
            throw new IllegalArgumentException(from + " appears " + found + " times");
        }
        return Worlds.reseal(renamed);
    }
}
