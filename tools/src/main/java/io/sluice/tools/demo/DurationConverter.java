package io.sluice.tools.demo;

import io.sluice.runtime.config.DurationText;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/**
 * A duration option ({@code --duration 30s}, {@code --timeout 500ms}) read as every Sluice setting reads one
 * ({@link DurationText}); picocli names the option in front of the message.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(final String text) {
        try {
            return DurationText.parse(text);
        } catch (final IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
