package dev.cairn.codegen;

import dev.cairn.Entity;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One operation of a model-based storage test. Operations name entities, not packed indices, so that any sub-sequence
 * of a failing sequence is still a valid sequence: that is what lets a failure be shrunk.
 *
 * @param kind   what to do.
 * @param entity the entity it applies to.
 * @param second the other entity of a swap.
 * @param row    the value written, for operations that write.
 * @param mask   which columns a write touches (bit k for column k; never 0); for other kinds a small random number.
 * @param column the sort key, for {@link Kind#SORT}.
 */
record Op(Op.Kind kind, long entity, long second, Row row, int mask, Row.Column column)
{
    /** Entity indices the operations use: few, so that handles collide, are reused and come back stale. */
    static final int INDICES = 48;

    /** Versions the operations use, mostly 0. */
    static final int VERSIONS = 3;

    /** What an operation does, with its weight in a random sequence (a clear is rare: it resets everything). */
    enum Kind
    {
        EMPLACE(140, false),
        ADD(80, false),
        PATCH(50, true),
        PATCH_RECORD(30, false),
        WRITE(50, true),
        WRITE_AT(50, true),
        WRITE_REF(50, true),
        ERASE(100, false),
        REMOVE(80, false),
        SWAP(60, false),
        COMPACT(20, false),
        SORT(20, true),
        SORT_AS(30, false),
        OTHER_INSERT(80, false),
        OTHER_REMOVE(40, false),
        CLEAR(1, false),
        RESERVE(10, false),
        SHRINK(20, false);

        private final int weight;
        private final boolean needsColumns;

        Kind(final int weight, final boolean needsColumns)
        {
            this.weight = weight;
            this.needsColumns = needsColumns;
        }
    }

    /**
     * A random sequence, the same for the same seed.
     *
     * @param seed       the seed.
     * @param length     how many operations.
     * @param hasColumns false for tags: no column writes or sorts by column.
     * @return the operations.
     */
    static List<Op> generate(final long seed, final int length, final boolean hasColumns)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Kind> kinds = new ArrayList<>();
        for (final Kind kind : Kind.values())
        {
            if (hasColumns || !kind.needsColumns)
            {
                for (int w = 0; w < kind.weight; w++)
                {
                    kinds.add(kind);
                }
            }
        }
        final List<Op> ops = new ArrayList<>(length);
        for (int i = 0; i < length; i++)
        {
            final Kind kind = kinds.get(random.nextInt(kinds.size()));
            ops.add(new Op(kind, entity(random), entity(random), Row.random(random),
                1 + random.nextInt((1 << Row.COLUMNS) - 1), Row.Column.ALL[random.nextInt(Row.COLUMNS)]));
        }
        return ops;
    }

    private static long entity(final SplittableRandom random)
    {
        final int roll = random.nextInt(100);
        final int version = roll < 80 ? 0 : roll < 95 ? 1 : 2;
        return Entity.of(random.nextInt(INDICES), version);
    }

    @Override
    public String toString()
    {
        final String e = Entity.toString(entity);
        switch (kind)
        {
            case EMPLACE:
            case ADD:
            case PATCH:
            case PATCH_RECORD:
                return kind.name().toLowerCase() + "(" + e + ", " + row + ")";
            case WRITE:
            case WRITE_AT:
            case WRITE_REF:
                return kind.name().toLowerCase() + "(" + e + ", columns 0b" + Integer.toBinaryString(mask) + " of " +
                    row + ")";
            case SWAP:
                return "swapElements(" + e + ", " + Entity.toString(second) + ")";
            case SORT:
                return "sort(comparing " + column + ")";
            case SORT_AS:
                return "sortAs(other)";
            case OTHER_INSERT:
            case OTHER_REMOVE:
            case ERASE:
            case REMOVE:
                return kind.name().toLowerCase() + "(" + e + ")";
            default:
                return kind.name().toLowerCase() + "()";
        }
    }
}
