package dev.cairn.bench.demo;

/**
 * The demo's command line: {@code --entities N} and {@code --ticks N} (or {@code --entities=N}), and {@code --help}.
 *
 * @param entities particles alive at every moment.
 * @param ticks    ticks to simulate.
 * @param help     whether help was asked for (the other values are then the defaults).
 */
public record Options(int entities, int ticks, boolean help)
{
    /** Particles unless {@code --entities} says otherwise. */
    public static final int DEFAULT_ENTITIES = 1_000_000;

    /** Ticks unless {@code --ticks} says otherwise. */
    public static final int DEFAULT_TICKS = 300;

    /** The most particles the demo accepts; that many run in a 256 MiB heap (their data is off-heap). */
    public static final int MAX_ENTITIES = 100_000_000;

    /** The most ticks the demo accepts. */
    public static final int MAX_TICKS = 1_000_000;

    /** What {@code --help} prints. */
    public static final String USAGE = String.join(System.lineSeparator(),
        "usage: java -jar bench/target/cairn-demo.jar [--entities N] [--ticks N]",
        "",
        "Simulates N particles with Cairn: each tick moves them through a generated view, ages them, despawns the",
        "expired ones and spawns as many replacements, then prints ticks per second, ns per entity per tick (mean",
        "and median tick, after warm-up ticks that are not measured), off-heap bytes per entity, heap used and the",
        "GC count during the run. 100,000,000 entities run in a 256 MiB heap: java -Xmx256m -jar ...",
        "",
        "Figures of different runs are not alike: particles live 20 to 200 ticks, so a short run replaces few",
        "or none, and as replacements accumulate the storages' orders drift apart, so the view finds fewer",
        "components at the index it walks and looks more up: later ticks cost more per entity than early ones.",
        "",
        "  --entities N   particles alive at every moment, 1.." + MAX_ENTITIES + " (default " + DEFAULT_ENTITIES + ")",
        "  --ticks N      ticks to simulate, 1.." + MAX_TICKS + " (default " + DEFAULT_TICKS + ")",
        "  --help, -h     print this help and exit");

    /**
     * Parses the command line.
     *
     * @param args the arguments.
     * @return the options.
     * @throws IllegalArgumentException naming the offending argument and what is allowed.
     */
    public static Options parse(final String... args)
    {
        int entities = DEFAULT_ENTITIES;
        int ticks = DEFAULT_TICKS;
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if ("--help".equals(arg) || "-h".equals(arg))
            {
                return new Options(DEFAULT_ENTITIES, DEFAULT_TICKS, true);
            }
            final String name;
            final String value;
            final int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0)
            {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            }
            else
            {
                name = arg;
                if (!"--entities".equals(name) && !"--ticks".equals(name))
                {
                    throw new IllegalArgumentException(
                        "unknown option '" + arg + "': the options are --entities N, --ticks N and --help");
                }
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(name + " needs a value, for example " + name + " 1000");
                }
                value = args[++i];
            }
            switch (name)
            {
                case "--entities":
                    entities = number(name, value, MAX_ENTITIES);
                    break;
                case "--ticks":
                    ticks = number(name, value, MAX_TICKS);
                    break;
                default:
                    throw new IllegalArgumentException(
                        "unknown option '" + arg + "': the options are --entities N, --ticks N and --help");
            }
        }
        return new Options(entities, ticks, false);
    }

    private static int number(final String name, final String value, final int max)
    {
        final long parsed;
        try
        {
            parsed = Long.parseLong(value.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(
                name + " needs a whole number from 1 to " + max + ", not '" + value + "'", ex);
        }
        if (parsed < 1 || parsed > max)
        {
            throw new IllegalArgumentException(name + " must be from 1 to " + max + ", not " + value);
        }
        return (int)parsed;
    }
}
