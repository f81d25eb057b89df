package dev.cairn.model;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

/**
 * {@link Choices} taken from Jazzer's input, so the fuzzer steers which operations run and with which handles.
 */
public final class FuzzChoices implements Choices
{
    private final FuzzedDataProvider data;

    /**
     * Wraps a fuzzer input.
     *
     * @param data the input.
     */
    public FuzzChoices(final FuzzedDataProvider data)
    {
        this.data = data;
    }

    @Override
    public int pick(final int bound)
    {
        return bound == 1 ? 0 : data.consumeInt(0, bound - 1);
    }

    @Override
    public long anyLong()
    {
        return data.consumeLong();
    }

    @Override
    public boolean hasMore()
    {
        return data.remainingBytes() > 0;
    }
}
