package dev.cairn;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of {@link Entity} handles: layout, ranges, version succession and the readable form.
 */
class EntityTest
{
    @Test
    void handleCarriesIndexInLowBitsAndVersionAbove()
    {
        final long entity = Entity.of(42, 3);

        assertEquals(42, Entity.index(entity));
        assertEquals(3, Entity.version(entity));
        assertEquals((3L << 32) | 42, entity);
    }

    @Test
    void extremeIndexAndVersionRoundTrip()
    {
        final long entity = Entity.of(Entity.MAX_INDEX, Entity.MAX_VERSION);

        assertEquals(Entity.MAX_INDEX, Entity.index(entity));
        assertEquals(Entity.MAX_VERSION, Entity.version(entity));
        assertTrue(entity > 0, "bit 63 stays clear for every real handle");
        assertTrue(Entity.isWellFormed(entity));
    }

    @Test
    void ofRejectsIndexOutsideRangeNamingIt()
    {
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> Entity.of(-1, 0));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());

        final IllegalArgumentException tooLarge =
            assertThrows(IllegalArgumentException.class, () -> Entity.of(Entity.MAX_INDEX + 1, 0));
        assertTrue(tooLarge.getMessage().contains(String.valueOf(Entity.MAX_INDEX + 1)), tooLarge.getMessage());
    }

    @Test
    void ofRejectsNegativeAndReservedVersions()
    {
        assertThrows(IllegalArgumentException.class, () -> Entity.of(0, -1));
        final IllegalArgumentException tombstone =
            assertThrows(IllegalArgumentException.class, () -> Entity.of(0, Entity.TOMBSTONE_VERSION));
        assertTrue(tombstone.getMessage().contains(String.valueOf(Entity.TOMBSTONE_VERSION)), tombstone.getMessage());
    }

    @Test
    void nextVersionCountsUpAndWrapsFromMaxVersionToZero()
    {
        assertEquals(1, Entity.nextVersion(0));
        assertEquals(Entity.MAX_VERSION, Entity.nextVersion(Entity.MAX_VERSION - 1));
        assertEquals(0, Entity.nextVersion(Entity.MAX_VERSION));
    }

    @Test
    void versionWrapAroundNeverYieldsTheTombstoneVersion()
    {
        int version = Entity.MAX_VERSION - 1000;
        for (int i = 0; i < 2000; i++)
        {
            version = Entity.nextVersion(version);
            assertNotEquals(Entity.TOMBSTONE_VERSION, version);
            assertTrue(version >= 0 && version <= Entity.MAX_VERSION, "version " + version);
        }
        assertEquals(0, Entity.nextVersion(Entity.TOMBSTONE_VERSION), "even the reserved version is followed by 0");
    }

    @Test
    void nextKeepsTheIndexAndBumpsTheVersion()
    {
        assertEquals(Entity.of(7, 5), Entity.next(Entity.of(7, 4)));
        assertEquals(Entity.of(Entity.MAX_INDEX, 0), Entity.next(Entity.of(Entity.MAX_INDEX, Entity.MAX_VERSION)));
    }

    @Test
    void nullIsNotWellFormedAndDecodesToMinusOne()
    {
        assertEquals(-1, Entity.index(Entity.NULL));
        assertEquals(-1, Entity.version(Entity.NULL));
        assertFalse(Entity.isWellFormed(Entity.NULL));
    }

    @Test
    void wellFormedRequiresIndexAndVersionInRange()
    {
        assertTrue(Entity.isWellFormed(Entity.of(0, 0)));
        assertFalse(Entity.isWellFormed(Entity.combine(3, Entity.TOMBSTONE_VERSION)), "tombstone version");
        assertFalse(Entity.isWellFormed(Entity.combine(Entity.MAX_INDEX + 1, 0)), "index past MAX_INDEX");
        assertFalse(Entity.isWellFormed(Entity.combine(-5, 0)), "negative index");
        assertFalse(Entity.isWellFormed(Entity.of(3, 0) | Long.MIN_VALUE), "bit 63 set");
    }

    @Test
    void readableFormIsIndexVVersion()
    {
        assertEquals("42v3", Entity.toString(Entity.of(42, 3)));
        assertEquals("NULL", Entity.toString(Entity.NULL));
        assertEquals("0x7fffffff00000003 (not a well-formed handle)",
            Entity.toString(Entity.combine(3, Entity.TOMBSTONE_VERSION)));
    }
}
