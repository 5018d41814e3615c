package io.sluice.bench.fix;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * Measures one target the way every FIX benchmark here does: log a fresh session on, send {@code warmup}
 * orders whose round trips are thrown away (JIT and caches), then {@code orders} measured ones, at most
 * {@code window} outstanding, and log out. The same code measures Sluice and the QuickFIX/J baseline.
 */
public final class FixMeasurement {
    private static final Duration LOGON_TIMEOUT = Duration.ofSeconds(30);
    private static final int BOOTSTRAP_RESAMPLES = 1_000;

    private final OrderTerms buy;
    private final Duration runTimeout;
    private final PrintStream progress;

    /**
     * @param buy        the order every NewOrderSingle carries
     * @param runTimeout the longest a warm-up or measured run may take before the benchmark gives up
     */
    public FixMeasurement(final OrderTerms buy, final Duration runTimeout, final PrintStream progress) {
        this.buy = buy;
        this.runTimeout = runTimeout;
        this.progress = progress;
    }

    public MeasuredRun measure(final FixTarget target, final int window, final long warmup, final long orders)
            throws IOException {
        final Recorder recorder = OrderLoad.newRecorder();
        final LatencySamples samples = new LatencySamples((int) orders);
        try (FixClientSession session = new FixClientSession(target.endpoint(), target.identity())) {
            session.logon(LOGON_TIMEOUT);
            final OrderLoad load = new OrderLoad(session, buy, window, 1, recorder);
            progress.printf("%s: %,d warm-up orders (window %d) ...%n", target.label(), warmup, window);
            run(load, session, warmup, target);
            recorder.reset();
            load.samples(samples);
            final long filledBefore = load.filled();
            final long rejectedBefore = load.rejected();
            progress.printf("%s: %,d measured orders ...%n", target.label(), orders);
            final long start = System.nanoTime();
            run(load, session, orders, target);
            final long elapsed = System.nanoTime() - start;
            session.logout();
            final Histogram histogram = recorder.getIntervalHistogram();
            final double[] interval = samples.bootstrapMeanInterval(0.95, BOOTSTRAP_RESAMPLES, 42);
            return new MeasuredRun(target, window, histogram, samples.mean(), interval[0], interval[1], orders,
                    load.filled() - filledBefore, load.rejected() - rejectedBefore, elapsed);
        }
    }

    private void run(final OrderLoad load, final FixClientSession session, final long orders,
                     final FixTarget target) throws IOException {
        final long completedBefore = load.completed();
        final boolean finished;
        try (Watchdog ignored = Watchdog.closeAfter(runTimeout.plusSeconds(10), session)) {
            finished = load.run(orders, System.nanoTime() + runTimeout.toNanos());
        }
        if (!finished || load.completed() - completedBefore != orders) {
            throw new IOException(target.label() + ": only " + (load.completed() - completedBefore) + " of "
                    + orders + " orders finished within " + runTimeout.toSeconds() + " s"
                    + (load.firstRejectText() != null ? "; first reject: " + load.firstRejectText() : ""));
        }
        if (load.rejected() > 0) {
            throw new IOException(target.label() + ": " + load.rejected() + " orders rejected, first: "
                    + load.firstRejectText());
        }
    }
}
