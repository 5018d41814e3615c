package io.sluice.tools.tail;

import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * An HdrHistogram interval log ({@code .hlog}) of the tail's intervals: one histogram per hop and interval,
 * tagged with {@link Hop#tag()}, values in nanoseconds (the max column in µs). HdrHistogram's
 * {@code HistogramLogReader}, its log processor and the usual plotters read it. Created on the first
 * interval, whose start becomes the log's start and base time.
 */
final class IntervalLog implements AutoCloseable {
    private static final long TICKS_PER_MILLI = 1_000 * SluiceClock.TICKS_PER_MICRO;
    private static final double NANOS_PER_MICRO = 1_000.0;

    private final Path file;
    private HistogramLogWriter writer;
    private long baseMillis;

    IntervalLog(final Path file) {
        this.file = file;
    }

    void write(final long startTicks, final long endTicks, final HopStatistics[] hops) {
        if (writer == null) {
            open(startTicks / TICKS_PER_MILLI);
        }
        final double startSeconds = (startTicks / TICKS_PER_MILLI - baseMillis) / 1_000.0;
        final double endSeconds = (endTicks / TICKS_PER_MILLI - baseMillis) / 1_000.0;
        for (final HopStatistics hop : hops) {
            final Histogram interval = hop.interval();
            writer.outputIntervalHistogram(startSeconds, endSeconds, interval, NANOS_PER_MICRO);
        }
    }

    private void open(final long startMillis) {
        try {
            writer = new HistogramLogWriter(file.toFile());
        } catch (final FileNotFoundException e) {
            throw new UncheckedIOException("cannot write the interval log " + file.toAbsolutePath(), e);
        }
        baseMillis = startMillis;
        writer.outputComment("Sluice tail: per-hop latency in nanoseconds, one tag per hop");
        writer.outputLogFormatVersion();
        writer.outputStartTime(startMillis);
        writer.setBaseTime(startMillis);
        writer.outputBaseTime(startMillis);
        writer.outputLegend();
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.close();
        }
    }
}
