package io.sluice.runtime.config;

import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A config file names its type by a short tag; the Java class name is still read, with a warning naming the tag;
 * every refusal names the file.
 */
final class ConfigFileTest {
    /** A config type of one field, as every role's config is a marshallable of fields. */
    static final class SampleConfig extends SelfDescribingMarshallable {
        int size = 1;

        void validate() {
            if (size <= 0) {
                throw new IllegalArgumentException("size must be positive, got " + size);
            }
        }
    }

    @Test
    void theShortTagIsReadWithoutAWarning() {
        final String[] warnings = new String[1];
        final SampleConfig config = captureErr(warnings,
                () -> ConfigFile.parse("!SampleConfig { size: 7 }", "sample.yaml", SampleConfig.class, "sample config",
                        SampleConfig::validate));
        assertEquals(7, config.size);
        assertEquals("", warnings[0]);
    }

    @Test
    void theClassNameTagIsStillReadAndDrawsAWarningNamingTheShortTag() {
        final String[] warnings = new String[1];
        final SampleConfig config = captureErr(warnings,
                () -> ConfigFile.parse("!" + SampleConfig.class.getName() + " { size: 3 }",
                        "old.yaml", SampleConfig.class, "sample config", SampleConfig::validate));
        assertEquals(3, config.size);
        assertTrue(warnings[0].contains("warning: sample config old.yaml tags a type by its Java class name")
                && warnings[0].contains("write !SampleConfig"), warnings[0]);
    }

    @Test
    void anEmptyFileAndAnInvalidValueAreRefusedNamingTheFile() {
        final IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> ConfigFile.parse("", "empty.yaml", SampleConfig.class, "sample config", SampleConfig::validate));
        assertEquals("sample config empty.yaml is empty", empty.getMessage());
        final IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class,
                () -> ConfigFile.parse("!SampleConfig { size: -1 }", "bad.yaml", SampleConfig.class, "sample config",
                        SampleConfig::validate));
        assertEquals("sample config bad.yaml: size must be positive, got -1", invalid.getMessage());
    }

    private static <T> T captureErr(final String[] printed, final Supplier<T> action) {
        final PrintStream err = System.err;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            return action.get();
        } finally {
            System.setErr(err);
            printed[0] = bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
