package io.sluice.bench.runtime;

import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * One warm-up run from a cold start: launches the engine, gateway and {@link ColdClient} JVMs together (the client's
 * first fill, from launch, is the start a user sees), waits for the path to be up,
 * sends one order and waits for its fill (time to first order from launch), then offers a constant, paced
 * load of buys (latency from each order's intended send time, so a stall shows instead of being skipped)
 * for {@code duration}, recording the round trips completed in every second since launch. (The load's length,
 * not the run's, is fixed: on a busy machine the path alone can take half a minute to come up.)
 * Finally stops the processes (giving them {@code stopGrace} to exit on their own, which a JVM writing an
 * AOT cache needs) and keeps their logs.
 */
final class WarmUpRun {
    private static final long SECOND = 1_000_000_000L;
    private static final Duration DRAIN = Duration.ofSeconds(60);

    /**
     * What a run produced: its curve, the time from launch to the {@link ColdClient}'s first fill (NaN if it had
     * none), and what the engine and gateway printed.
     */
    record Outcome(WarmUpCurve curve, double coldClientFirstFillMs, String engineLog, String gatewayLog,
                   String failure) {
    }

    private WarmUpRun() {
    }

    /**
     * @param rate   orders offered per second
     * @param window most orders outstanding at once
     */
    static Outcome run(final Path root, final SluiceDeployment.ProcessSettings settings, final long rate,
                       final int window, final Duration duration, final Duration stopGrace)
            throws IOException, InterruptedException {
        final Instant launchedAt = Instant.now();
        final long launch = System.nanoTime();
        try (FixPath path = FixPath.start(root, settings, true)) {
            final long up = System.nanoTime() - launch;
            final Recorder recorder = OrderLoad.newRecorder();
            final OrderLoad orders = new OrderLoad(path.load(), StandardOrders.BUY, window, 1, recorder).pace(rate);
            final String[] failure = {null};
            final long firstFill;
            try (Watchdog watchdog = Watchdog.closeAfter(duration.plus(DRAIN), path.load())) {
                if (!orders.run(1, System.nanoTime() + DRAIN.toNanos())) {
                    throw new IOException("the first order got no fill" + (watchdog.fired() ? " in time" : "") + "\n"
                            + path.logs(2_000));
                }
                firstFill = System.nanoTime() - launch;
                final Histogram firstOrder = recorder.getIntervalHistogram();
                final long end = launch + firstFill + duration.toNanos();
                final Thread loader = Thread.ofPlatform().name("warm-up-load").start(() -> {
                    try {
                        if (!orders.run(Long.MAX_VALUE, end)) {
                            failure[0] = (orders.sent() - orders.completed()) + " orders got no fill";
                        }
                    } catch (final IOException e) {
                        failure[0] = e.getMessage();
                    }
                });
                final List<Histogram> seconds = sample(recorder, launch, end, loader, firstFill, firstOrder);
                if (orders.rejected() > 0 && failure[0] == null) {
                    failure[0] = orders.rejected() + " orders rejected, first: " + orders.firstRejectText();
                }
                path.coldClient().waitFor(stopGrace.toSeconds());
                final long coldFill = ColdClient.firstFillMicros(path.coldClient().logText());
                if (coldFill < 0 && failure[0] == null) {
                    failure[0] = "the cold client had no fill: " + path.coldClient().logText().strip();
                }
                path.stop(stopGrace);
                return new Outcome(new WarmUpCurve(up, firstFill, seconds), coldFill < 0 ? Double.NaN
                        : (coldFill - (launchedAt.getEpochSecond() * 1_000_000 + launchedAt.getNano() / 1_000)) / 1e3,
                        path.deployment().engine().logText(), path.deployment().gateway(1).logText(), failure[0]);
            }
        }
    }

    /**
     * Takes the recorder's interval histogram at every whole second after launch: the seconds before the first
     * fill are empty, the first order counts in the second it was filled, the drain in the last second.
     */
    private static List<Histogram> sample(final Recorder recorder, final long launch, final long end,
                                          final Thread loader, final long firstFill, final Histogram firstOrder)
            throws InterruptedException {
        final List<Histogram> seconds = new ArrayList<>();
        final long count = (end - launch + SECOND - 1) / SECOND;
        final long firstFillSecond = firstFill / SECOND;
        for (long second = 1; second <= count; second++) {
            if (second <= firstFillSecond) {
                seconds.add(new Histogram(3));
                continue;
            }
            final long tick = launch + second * SECOND;
            long now;
            while ((now = System.nanoTime()) - tick < 0) {
                LockSupport.parkNanos(tick - now);
            }
            final Histogram interval = recorder.getIntervalHistogram();
            if (second == firstFillSecond + 1) {
                interval.add(firstOrder);
            }
            seconds.add(interval);
        }
        loader.join();
        if (!seconds.isEmpty()) {
            seconds.getLast().add(recorder.getIntervalHistogram());
        }
        return seconds;
    }
}
