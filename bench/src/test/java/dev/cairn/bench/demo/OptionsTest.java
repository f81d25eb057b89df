package dev.cairn.bench.demo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionsTest
{
    @Test
    void defaultsWithoutArguments()
    {
        assertEquals(new Options(Options.DEFAULT_ENTITIES, Options.DEFAULT_TICKS, false), Options.parse());
    }

    @Test
    void readsBothOptionsInEitherForm()
    {
        assertEquals(new Options(200_000, 30, false), Options.parse("--entities", "200000", "--ticks", "30"));
        assertEquals(new Options(5_000, 7, false), Options.parse("--ticks=7", "--entities=5_000"));
    }

    @Test
    void helpWins()
    {
        assertTrue(Options.parse("--entities", "5", "--help").help());
        assertTrue(Options.parse("-h").help());
    }

    @Test
    void rejectsBadOptionsNamingTheValue()
    {
        assertMessage("unknown option '--speed'", "--speed", "3");
        assertMessage("--ticks needs a value", "--ticks");
        assertMessage("--entities needs a whole number from 1 to 100000000, not 'many'", "--entities", "many");
        assertMessage("--entities must be from 1 to 100000000, not 0", "--entities", "0");
        assertMessage("--ticks must be from 1 to 1000000, not 99999999999", "--ticks=99999999999");
        assertMessage("unknown option 'extra'", "extra");
    }

    private static void assertMessage(final String expected, final String... args)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Options.parse(args));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }
}
