package dev.cairn.storage;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Looking up a record's component type, which a snapshot's names also reach. */
final class ComponentTypeTest
{
    /** A record that is no component, beside a class named like its storage. */
    public record Decoy(int value)
    {
    }

    @Test
    void aClassNamedLikeARecordsStorageThatIsNoStorageIsRefusedWithoutBeingInitialised()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ComponentType.of(Decoy.class));

        assertEquals("dev.cairn.storage.ComponentTypeTest$Decoy is not a component: " +
            "dev.cairn.storage.ComponentTypeTest_DecoyStorage is not a storage (it does not extend " +
            "dev.cairn.storage.ComponentStorage); annotate the record with @dev.cairn.Component, or rename the class",
            refused.getMessage());
        assertFalse(ComponentTypeTest_DecoyStorage.Marker.ran, "its initialiser did not run");
    }
}
