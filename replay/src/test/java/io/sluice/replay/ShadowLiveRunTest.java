package io.sluice.replay;

import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice replay --follow} as an operator runs it, a process of its own, started on an empty root before the
 * run it follows: real gateway and engine processes and FIX clients ({@link RecordedSession#record}) write the
 * journals while the shadow follows them live. It prints its running count and how long after the primary it
 * compared each last report, and on SIGTERM its summary.
 */
final class ShadowLiveRunTest {
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aShadowStartedBeforeALiveRunFollowsItToTheEndIdentically() throws Exception {
        final long startNanos = System.nanoTime();
        final Path root = Files.createDirectories(dir.resolve("live"));
        final Path config = Files.writeString(dir.resolve("shadow-engine.yaml"), RecordedSession.configYaml(root, 1000));
        try (JavaProcess shadow = JavaProcess.start("shadow", dir.resolve("shadow.log"), List.of("-Xmx256m"), ReplayMain.class,
                "--follow", root.toString(), "--config", config.toString(), "--out", dir.resolve("shadow").toString())) {
            RecordedSession.record(root);
            final List<RecordedReports> recorded = RecordedReports.read(root);
            final long inputs = recorded.stream().mapToLong(RecordedReports::excerptIndex).distinct().count();

            awaitLog(shadow, String.format(Locale.ROOT, "shadow: %,d inputs followed, %,d reports compared, identical so far;"
                    + " 0 inputs behind the engine journal; waiting for the engine journal to grow", inputs, recorded.size()));
            assertEquals(0, shadow.stop(30), shadow.logText()); // SIGTERM, every report identical
            final String log = shadow.logText();
            assertTrue(log.contains("identical, " + recorded.size() + " reports\nshadow: " + inputs + " inputs followed in "), log);
            assertTrue(log.contains("shadow: stopped"), log);
            // How long after the primary engine wrote a report the shadow compared it: read from the recorded
            // reportWriting, so it lies between 0 (both processes' clocks agree well within 1 ms) and this test's age.
            final double testMillis = (System.nanoTime() - startNanos) / 1e6;
            final Matcher lag = Pattern.compile("compared (-?[0-9.]+) ms after the primary").matcher(log);
            int lags = 0;
            while (lag.find()) {
                final double millis = Double.parseDouble(lag.group(1));
                assertTrue(millis >= -1 && millis <= testMillis, lag.group() + " in a test of " + testMillis + " ms");
                lags++;
            }
            assertTrue(lags > 0, log);
        }
    }

    private static void awaitLog(final JavaProcess process, final String line) {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!process.logText().contains(line)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the shadow did not print\n" + line + "\nit printed:\n" + process.logText());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // between reads of its log
        }
    }
}
