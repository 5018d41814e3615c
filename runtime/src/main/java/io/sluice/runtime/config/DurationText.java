package io.sluice.runtime.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration as people write it in a config file or on a command line. {@code 500ms}, {@code 2s}, {@code 1m}, or
 * a number of seconds alone ({@code 3}); a fraction is allowed ({@code 1.5s}, precise to the nanosecond), and the unit
 * in any case. Spaces around the value are ignored, a space inside it ({@code 2 s}) is refused. The one
 * reader of durations for every Sluice setting and option, so that all of them accept the same text; each caller
 * checks its own range and names its setting in front of the message.
 */
public final class DurationText {
    /** The forms the messages suggest. */
    public static final String EXAMPLES = "500ms, 2s or 1m";
    private static final Pattern FORM = Pattern.compile("([+-]?[0-9]+(?:\\.[0-9]+)?)(ms|s|m)?");
    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
    private static final BigDecimal NANOS_PER_MILLI = BigDecimal.valueOf(1_000_000L);
    private static final BigDecimal NANOS_PER_MINUTE = BigDecimal.valueOf(60_000_000_000L);

    private DurationText() {
    }

    /**
     * @param text the duration as written, e.g. {@code 500ms}
     * @return the duration it names
     * @throws IllegalArgumentException naming the value and the form expected
     */
    public static Duration parse(final String text) {
        final String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        final Matcher matcher = FORM.matcher(value);
        if (!matcher.matches()) {
            if (value.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("'" + text + "' has a space inside: write a duration such as "
                        + EXAMPLES + " without one");
            }
            throw new IllegalArgumentException("'" + text + "' is not a duration such as " + EXAMPLES);
        }
        final String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        final BigDecimal nanos = new BigDecimal(matcher.group(1)).multiply(switch (unit) {
            case "ms" -> NANOS_PER_MILLI;
            case "m" -> NANOS_PER_MINUTE;
            default -> NANOS_PER_SECOND;
        }).setScale(0, RoundingMode.HALF_UP);
        try {
            return Duration.ofNanos(nanos.longValueExact());
        } catch (final ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration: at most about 292 years");
        }
    }
}
