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

/**
 * The FIX round trip under one runtime configuration: the engine and gateway launched with its flags
 * ({@link FixPath}), then ping-pong from this JVM (one NewOrderSingle, wait for the fill, the next): warm-up
 * orders, then the measured ones, as {@code fix-round-trip} does.
 */
final class FixPingPong {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration GIVE_UP = Duration.ofMinutes(10);

    private FixPingPong() {
    }

    /** What one run measured, and what the engine printed (for the pinning outcome). */
    record Outcome(RoundTripFigures figures, String engineLog) {
    }

    static Outcome run(final Path root, final String classPath, final RuntimeConfig config, final long warmUp,
                       final long measured) throws IOException, InterruptedException {
        try (FixPath path = FixPath.start(root, new SluiceDeployment.ProcessSettings(classPath, config.jvm(),
                config.jvm(), config.engineCpu()))) {
            final Recorder recorder = OrderLoad.newRecorder();
            final OrderLoad orders = new OrderLoad(path.load(), StandardOrders.BUY, 1, 1, recorder);
            final long start;
            final Histogram roundTrips;
            try (Watchdog watchdog = Watchdog.closeAfter(GIVE_UP, path.load())) {
                require(orders.run(warmUp, Long.MAX_VALUE), orders, watchdog, path);
                recorder.reset();
                start = System.nanoTime();
                require(orders.run(measured, Long.MAX_VALUE), orders, watchdog, path);
                roundTrips = recorder.getIntervalHistogram();
            }
            final long nanos = System.nanoTime() - start;
            if (orders.rejected() > 0) {
                throw new IOException(orders.rejected() + " orders rejected, first: " + orders.firstRejectText());
            }
            final String engineLog = path.deployment().engine().logText();
            path.stop(STOP_GRACE);
            return new Outcome(RoundTripFigures.of(roundTrips, nanos), engineLog);
        }
    }

    private static void require(final boolean finished, final OrderLoad orders, final Watchdog watchdog,
                                final FixPath path) throws IOException {
        if (!finished) {
            throw new IOException((orders.sent() - orders.completed()) + " orders got no fill"
                    + (watchdog.fired() ? " within " + GIVE_UP.toMinutes() + " min" : "") + "\n" + path.logs(2_000));
        }
    }
}
