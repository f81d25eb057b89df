package dev.cairn.storage;

/** Named as the storage of {@link ComponentTypeTest.Decoy} would be, but no storage: its initialiser must not run. */
final class ComponentTypeTest_DecoyStorage
{
    static
    {
        Marker.set();
    }

    private ComponentTypeTest_DecoyStorage()
    {
    }

    /** Records that the initialiser ran, in a class of its own so that reading the flag does not run it. */
    static final class Marker
    {
        static boolean ran;

        static void set()
        {
            ran = true;
        }
    }
}
