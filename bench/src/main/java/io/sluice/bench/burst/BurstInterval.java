package io.sluice.bench.burst;

import io.sluice.bench.report.BenchResult;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;

/**
 * One interval of a burst: when it ended, how many messages had been answered by then, the round-trip
 * latencies of the messages answered in it (ns), and how big the journals were against the machine's memory.
 *
 * @param endSeconds   seconds from the burst's start to the end of this interval
 * @param seconds      the interval's length
 * @param messages     messages answered since the burst started
 * @param latency      round trips answered in this interval, ns
 * @param journalBytes size of the journal files at the end of the interval
 * @param ramBytes     the machine's memory (the page cache can hold at most this)
 * @param diskFreeBytes space still usable on the journals' disk
 */
record BurstInterval(double endSeconds, double seconds, long messages, Histogram latency, long journalBytes,
                     long ramBytes, long diskFreeBytes) {
    private static final double GB = 1e9;

    /** @return messages answered per second in this interval. */
    double rate() {
        return latency.getTotalCount() / seconds;
    }

    /** @return true once the journals are bigger than the machine's memory. */
    boolean beyondRam() {
        return journalBytes > ramBytes;
    }

    static void header(final PrintStream out) {
        out.printf(Locale.ROOT, "%8s %13s %9s %9s %9s %9s %10s %12s %7s %13s%n", "time s", "messages", "M msg/s",
                "p50 µs", "p99 µs", "p99.9 µs", "max µs", "journals GB", "of RAM", "disk free GB");
    }

    void print(final PrintStream out) {
        out.printf(Locale.ROOT, "%8.1f %,13d %9.3f %9.2f %9.2f %9.2f %10.1f %12.2f %6.0f%% %13.1f%n", endSeconds, messages,
                rate() / 1e6, micros(50), micros(99), micros(99.9), latency.getMaxValue() / 1e3,
                journalBytes / GB, 100.0 * journalBytes / ramBytes, diskFreeBytes / GB);
    }

    BenchResult toResult() {
        return BenchResult.section().put("endSeconds", endSeconds).put("messages", messages)
                .put("messagesPerSecond", rate()).put("p50Us", micros(50)).put("p99Us", micros(99))
                .put("p99_9Us", micros(99.9)).put("maxUs", latency.getMaxValue() / 1e3)
                .put("journalBytes", journalBytes).put("journalOfRam", (double) journalBytes / ramBytes)
                .put("diskFreeBytes", diskFreeBytes);
    }

    private double micros(final double percentile) {
        return latency.getValueAtPercentile(percentile) / 1e3;
    }
}
