package io.sluice.bench.burst;

import io.sluice.bench.engine.JournalRoundTripBench;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One burst through the journal round trip of {@link JournalRoundTripBench}: an engine thread and its two
 * gateway threads (each keeping {@code window} commands unanswered) on journals under a fresh root, watched
 * from the calling thread, which every interval takes the round-trip latencies answered in it, the journals'
 * size and the free disk, and prints a row. Stops the burst with an exception if the disk runs low, since a
 * full disk under a memory-mapped journal crashes the JVM.
 */
final class Burst {
    private static final long MAX_NANOS = Duration.ofHours(1).toNanos();

    /**
     * How to run a burst.
     *
     * @param window          most unanswered commands per gateway
     * @param engineIdle      the engine's idle strategy
     * @param interval        how often to take and print a row
     * @param ramBytes        the machine's memory
     * @param minimumFreeDisk stop if less than this stays free on the journals' disk
     */
    record Settings(int window, IdleConfig engineIdle, Duration interval, long ramBytes, long minimumFreeDisk) {
    }

    /** What a burst did: every interval and the totals. */
    record Figures(long messages, double seconds, List<BurstInterval> intervals) {
        double rate() {
            return messages / seconds;
        }

        /** @return the latencies of the intervals {@code beyondRam} or not (all messages when {@code null}). */
        Histogram latency(final Boolean beyondRam) {
            final Histogram all = new Histogram(MAX_NANOS, 3);
            for (final BurstInterval interval : intervals) {
                if (beyondRam == null || interval.beyondRam() == beyondRam) {
                    all.add(interval.latency());
                }
            }
            return all;
        }

        /** @return the seconds spent in the intervals {@code beyondRam} or not. */
        double seconds(final boolean beyondRam) {
            return intervals.stream().filter(i -> i.beyondRam() == beyondRam).mapToDouble(BurstInterval::seconds).sum();
        }
    }

    private Burst() {
    }

    /**
     * Runs {@code messages} round trips (half per gateway) on journals under {@code root}, printing a row per
     * interval to {@code out} (null: silent).
     */
    static Figures run(final Path root, final long messages, final Settings settings, final PrintStream out)
            throws InterruptedException {
        final int[] ids = PreWrittenJournals.GATEWAYS;
        final EngineConfig config = PreWrittenJournals.config(root, settings.engineIdle());
        final EngineService service = EngineService.launch(config);
        final SingleWriterRecorder[] recorders = new SingleWriterRecorder[ids.length];
        final Thread[] gateways = new Thread[ids.length];
        for (int i = 0; i < ids.length; i++) {
            recorders[i] = new SingleWriterRecorder(1, MAX_NANOS, 3);
            gateways[i] = Thread.ofPlatform().daemon().name("gateway-" + ids[i]).unstarted(
                    new JournalRoundTripBench.Gateway(root, ids[i], config, messages / ids.length, settings.window(), 0, IdleConfig.of("backoff"))
                            .intervals(recorders[i]));
        }
        if (out != null) {
            BurstInterval.header(out);
        }
        final List<BurstInterval> intervals = new ArrayList<>();
        final long start = System.nanoTime();
        final AgentThread engine = AgentThread.start(service, config.idle().newStrategy(), config.pinCpu(),
                AgentThread.Priority.NORMAL);
        for (final Thread gateway : gateways) {
            gateway.start();
        }
        long last = start;
        long answered = 0;
        boolean done = false;
        while (!done) {
            done = joinUntil(gateways, last + settings.interval().toNanos());
            final long now = System.nanoTime();
            final Histogram latency = recorders[0].getIntervalHistogram();
            for (int i = 1; i < recorders.length; i++) {
                latency.add(recorders[i].getIntervalHistogram());
            }
            answered += latency.getTotalCount();
            final long free = usableSpace(root);
            final BurstInterval interval = new BurstInterval((now - start) / 1e9, (now - last) / 1e9, answered, latency,
                    JournalFootprint.fileBytes(root), settings.ramBytes(), free);
            intervals.add(interval);
            if (out != null) {
                interval.print(out);
            }
            if (free < settings.minimumFreeDisk()) {
                throw new IllegalStateException(String.format(Locale.ROOT, "stopped the burst after %,d"
                        + " messages: only %.1f GB left free on the journals' disk", answered, free / 1e9));
            }
            if (!done && engine.awaitClosed(0, TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("the engine thread ended after " + answered + " messages");
            }
            last = now;
        }
        engine.close();
        if (answered != messages) {
            throw new IllegalStateException("the gateway threads ended after " + answered + " of " + messages
                    + " messages (their stack traces are above)");
        }
        return new Figures(answered, (last - start) / 1e9, intervals);
    }

    /** Waits until every thread has ended or {@code deadline} passes; @return true if every thread has ended. */
    private static boolean joinUntil(final Thread[] threads, final long deadline) throws InterruptedException {
        for (final Thread thread : threads) {
            final long wait = deadline - System.nanoTime();
            if (wait <= 0 || !thread.join(Duration.ofNanos(wait))) {
                return false;
            }
        }
        return true;
    }

    static long usableSpace(final Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read the free space of " + dir, e);
        }
    }
}
