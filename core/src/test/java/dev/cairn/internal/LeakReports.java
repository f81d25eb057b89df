package dev.cairn.internal;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the leak reports the Cleaner logs through {@code dev.cairn} while a test waits for an owner to be
 * collected, and keeps them off the console meanwhile: a leak made on purpose is not news in the build's output.
 * Close it to stop listening.
 */
public final class LeakReports extends Handler implements AutoCloseable
{
    /** Held strongly: the logging framework keeps loggers weakly, and the GC loop below would drop the handler. */
    private final Logger logger = Logger.getLogger("dev.cairn");
    private final String prefix;
    private final List<String> messages = new ArrayList<>();

    private LeakReports(final String prefix)
    {
        this.prefix = prefix;
        logger.addHandler(this);
        logger.setUseParentHandlers(false);
    }

    /**
     * Starts collecting the reports whose message starts with {@code prefix}.
     *
     * @param prefix what a report of interest starts with, for example the owner's name.
     * @return the collector.
     */
    public static LeakReports startingWith(final String prefix)
    {
        return new LeakReports(prefix);
    }

    /**
     * Runs the garbage collector until {@code leaked} is cleared and a report arrived, for at most about 2 seconds.
     *
     * @param leaked a weak reference to the owner nobody closed.
     * @return the reports collected so far.
     * @throws InterruptedException if interrupted while waiting.
     */
    public List<String> awaitAfterCollecting(final WeakReference<?> leaked) throws InterruptedException
    {
        for (int attempt = 0; attempt < 200 && (leaked.get() != null || messages().isEmpty()); attempt++)
        {
            System.gc();
            Thread.sleep(10);
        }
        return messages();
    }

    @Override
    public synchronized void publish(final LogRecord record)
    {
        if (record.getMessage().startsWith(prefix))
        {
            messages.add(record.getMessage());
        }
    }

    @Override
    public void flush()
    {
    }

    @Override
    public void close()
    {
        logger.setUseParentHandlers(true);
        logger.removeHandler(this);
    }

    /**
     * The reports collected so far.
     *
     * @return a copy.
     */
    public synchronized List<String> messages()
    {
        return new ArrayList<>(messages);
    }
}
