package io.sluice.tools.demo;

import picocli.CommandLine.ITypeConverter;

import java.time.Duration;

/** Reads a duration as people write it on a command line: {@code 30s}, {@code 2m}, {@code 500ms}, or seconds. */
public final class DurationText implements ITypeConverter<Duration> {
    @Override
    public Duration convert(final String text) {
        final String value = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (value.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            }
            if (value.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
            }
            if (value.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(value));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write e.g. 30s, 2m or 500ms");
        }
    }
}
