package io.sluice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Turns a running count (orders answered so far, say) into a rate per interval, for the report's "throughput
 * over time" chart ({@link BenchResult#putSeries}). Reads the count on a thread of its own once per interval,
 * so the measured threads only keep their counter; the counter must be safe to read from another thread (an
 * opaque or volatile read). Only whole intervals are kept.
 */
public final class ThroughputSampler implements AutoCloseable {
    private final LongSupplier count;
    private final long intervalNanos;
    private final List<Double> rates = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private ThroughputSampler(final LongSupplier count, final long intervalNanos) {
        this.count = count;
        this.intervalNanos = intervalNanos;
        thread = new Thread(this::sample, "throughput-sampler");
        thread.setDaemon(true);
    }

    /** @return a sampler reading {@code count} every {@code intervalSeconds}, already started */
    public static ThroughputSampler start(final LongSupplier count, final double intervalSeconds) {
        final ThroughputSampler sampler = new ThroughputSampler(count, (long) (intervalSeconds * 1e9));
        sampler.thread.start();
        return sampler;
    }

    public double intervalSeconds() {
        return intervalNanos / 1e9;
    }

    /** Stops sampling. @return the rate per second of every whole interval so far, oldest first */
    public double[] stop() throws InterruptedException {
        running = false;
        LockSupport.unpark(thread);
        thread.join(TimeUnit.SECONDS.toMillis(10));
        synchronized (rates) {
            return rates.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void sample() {
        long last = count.getAsLong();
        long next = System.nanoTime() + intervalNanos;
        while (running) {
            final long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            final long now = count.getAsLong();
            synchronized (rates) {
                rates.add((now - last) * 1e9 / intervalNanos);
            }
            last = now;
            next += intervalNanos;
        }
    }
}
