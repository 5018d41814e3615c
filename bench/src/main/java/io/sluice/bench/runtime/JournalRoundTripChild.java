package io.sluice.bench.runtime;

import io.sluice.bench.engine.JournalRoundTripBench;
import io.sluice.runtime.process.JavaProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code journal-round-trip} ({@link JournalRoundTripBench}: two gateway threads, the engine, journals on
 * disk) in a child JVM started with a configuration's flags, and reads its figures back from the JSON it
 * writes into a directory of its own.
 */
final class JournalRoundTripChild {
    private static final long TIMEOUT_SECONDS = 900;

    private JournalRoundTripChild() {
    }

    /** What one child run measured, and what it printed (for the pinning outcome). */
    record Outcome(RoundTripFigures figures, String log) {
    }

    static Outcome run(final Path dir, final RuntimeConfig config, final long ordersPerGateway)
            throws IOException, InterruptedException {
        final Path results = dir.resolve("results");
        final List<String> jvm = new ArrayList<>(config.jvm());
        jvm.add("-Dsluice.results=" + results.toAbsolutePath());
        try (JavaProcess child = JavaProcess.start("journal-round-trip", dir.resolve("journal-round-trip.log"), jvm,
                JournalRoundTripBench.class, "--orders", Long.toString(ordersPerGateway),
                "--engine-cpu", Integer.toString(config.engineCpu()), "--dir", dir.resolve("journals").toString())) {
            final int exit = child.waitFor(TIMEOUT_SECONDS);
            final Path json = results.resolve("journal-round-trip-latest.json");
            if (exit != 0 || !Files.isRegularFile(json)) {
                throw new IOException("journal-round-trip under " + config.name() + " exited with " + exit
                        + "; it printed:\n" + child.logText());
            }
            final String text = Files.readString(json);
            return new Outcome(new RoundTripFigures(ResultFields.number(text, "roundTripsPerSecond"),
                    ResultFields.number(text, "roundTrip", "p50Us"), ResultFields.number(text, "roundTrip", "p99Us"),
                    ResultFields.number(text, "roundTrip", "p99_9Us")), child.logText());
        }
    }
}
