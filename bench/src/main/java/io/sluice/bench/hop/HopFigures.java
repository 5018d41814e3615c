package io.sluice.bench.hop;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** All passes of one variant at one rate, merged: one row of the hop benchmark's table. */
final class HopFigures {
    private final HopVariant variant;
    private final long ratePerSecond;
    private final Histogram latencyNanos = new Histogram(HopReceiver.MAX_LATENCY_NANOS, 3);
    private final List<PassResult> passes = new ArrayList<>();

    HopFigures(final HopVariant variant, final long ratePerSecond) {
        this.variant = variant;
        this.ratePerSecond = ratePerSecond;
    }

    void add(final PassResult pass) {
        if (pass.variant() != variant || pass.ratePerSecond() != ratePerSecond) {
            throw new IllegalArgumentException("a " + pass.variant() + " pass at " + pass.ratePerSecond()
                    + "/s does not belong to " + variant + " at " + ratePerSecond + "/s");
        }
        passes.add(pass);
        latencyNanos.add(pass.latencyNanos());
    }

    HopVariant variant() {
        return variant;
    }

    long ratePerSecond() {
        return ratePerSecond;
    }

    List<PassResult> passes() {
        return passes;
    }

    Histogram latencyNanos() {
        return latencyNanos;
    }

    long messages() {
        return passes.stream().mapToLong(PassResult::messages).sum();
    }

    long outOfSequence() {
        return passes.stream().mapToLong(PassResult::outOfSequence).sum();
    }

    /** @return measured orders per second over all passes. */
    double throughputPerSecond() {
        return messages() * 1e9 / Math.max(1, passes.stream().mapToLong(PassResult::elapsedNanos).sum());
    }

    double writerBytesPerMessage() {
        return passes.stream().mapToLong(PassResult::writerBytes).sum() / (double) Math.max(1, messages());
    }

    double readerBytesPerMessage() {
        return passes.stream().mapToLong(PassResult::readerBytes).sum() / (double) Math.max(1, messages());
    }

    /** @return the writer thread's mean CPU share over the passes, 0 to 1. */
    double writerCpuShare() {
        return passes.stream().mapToDouble(PassResult::writerCpuShare).average().orElse(0);
    }

    /** @return the reader thread's mean CPU share over the passes, 0 to 1. */
    double readerCpuShare() {
        return passes.stream().mapToDouble(PassResult::readerCpuShare).average().orElse(0);
    }

    long excerptBytes() {
        return passes.isEmpty() ? 0 : passes.getFirst().excerptBytes();
    }

    /** @return e.g. "100,000/s" or "flat out". */
    static String rateLabel(final long ratePerSecond) {
        return ratePerSecond == 0 ? "flat out" : String.format(Locale.ROOT, "%,d/s", ratePerSecond);
    }
}
