package io.sluice.tools.demo;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A duration option reads as every Sluice duration does, and a bad one is refused naming the option and value. */
class DurationConverterTest {
    @Command
    static final class Options {
        @Option(names = "--duration", converter = DurationConverter.class)
        Duration duration;
    }

    @Test
    void readsTheDurationWithSpacesAround() {
        final Options options = new Options();
        new CommandLine(options).parseArgs("--duration", " 500ms ");
        assertEquals(Duration.ofMillis(500), options.duration);
    }

    @Test
    void aBadDurationNamesTheOptionAndTheValue() {
        final CommandLine.ParameterException error = assertThrows(CommandLine.ParameterException.class,
                () -> new CommandLine(new Options()).parseArgs("--duration", "2 s"));
        assertEquals("Invalid value for option '--duration': '2 s' has a space inside: write a duration such as"
                + " 500ms, 2s or 1m without one", error.getMessage());
    }
}
