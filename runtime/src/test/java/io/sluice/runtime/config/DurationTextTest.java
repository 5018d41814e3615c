package io.sluice.runtime.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DurationTextTest {
    @Test
    void readsEveryUnitAndPlainSeconds() {
        assertEquals(Duration.ofMillis(500), DurationText.parse("500ms"));
        assertEquals(Duration.ofSeconds(2), DurationText.parse("2s"));
        assertEquals(Duration.ofMinutes(1), DurationText.parse("1m"));
        assertEquals(Duration.ofSeconds(3), DurationText.parse("3"));
        assertEquals(Duration.ZERO, DurationText.parse("0s"));
    }

    @Test
    void readsUnitsInAnyCaseAndFractions() {
        assertEquals(Duration.ofMillis(500), DurationText.parse("500MS"));
        assertEquals(Duration.ofMillis(1_500), DurationText.parse("1.5s"));
        assertEquals(Duration.ofNanos(2_500_000), DurationText.parse("2.5ms"));
        assertEquals(Duration.ofSeconds(90), DurationText.parse("1.5M"));
        assertEquals(Duration.ofNanos(1), DurationText.parse("0.0000000005s"), "rounded to the nanosecond");
    }

    @Test
    void ignoresSpacesAroundTheValue() {
        assertEquals(Duration.ofSeconds(2), DurationText.parse("  2s\t"));
    }

    @Test
    void keepsTheSignForTheCallerToRefuse() {
        assertEquals(Duration.ofSeconds(-1), DurationText.parse("-1s"));
    }

    @Test
    void refusesASpaceInsideNamingTheValue() {
        assertEquals("'2 s' has a space inside: write a duration such as 500ms, 2s or 1m without one",
                assertThrows(IllegalArgumentException.class, () -> DurationText.parse("2 s")).getMessage());
    }

    @Test
    void refusesWhatIsNoDurationNamingTheValue() {
        for (final String text : new String[] {"soon", "2h", "", "s", "1.s", ".5s", "1e3ms", "1,5s"}) {
            assertEquals("'" + text + "' is not a duration such as 500ms, 2s or 1m",
                    assertThrows(IllegalArgumentException.class, () -> DurationText.parse(text)).getMessage(), text);
        }
        assertEquals("'null' is not a duration such as 500ms, 2s or 1m",
                assertThrows(IllegalArgumentException.class, () -> DurationText.parse(null)).getMessage());
    }

    @Test
    void refusesWhatNoDurationHolds() {
        assertEquals("'999999999999m' is too long a duration: at most about 292 years",
                assertThrows(IllegalArgumentException.class, () -> DurationText.parse("999999999999m")).getMessage());
    }
}
