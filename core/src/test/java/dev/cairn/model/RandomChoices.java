package dev.cairn.model;

import java.util.SplittableRandom;

/**
 * {@link Choices} from a seeded pseudo-random generator: the same seed gives the same operations.
 */
public final class RandomChoices implements Choices
{
    private final SplittableRandom random;

    /**
     * Creates the source.
     *
     * @param seed the seed.
     */
    public RandomChoices(final long seed)
    {
        this.random = new SplittableRandom(seed);
    }

    @Override
    public int pick(final int bound)
    {
        return random.nextInt(bound);
    }

    @Override
    public long anyLong()
    {
        return random.nextLong();
    }

    @Override
    public boolean hasMore()
    {
        return true;
    }
}
