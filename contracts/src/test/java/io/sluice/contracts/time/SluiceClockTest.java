package io.sluice.contracts.time;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The MetaData clock: 0.1 µs ticks, wall-aligned, monotonic per thread, the same across processes. */
final class SluiceClockTest {
    /** Instant.now() on Linux resolves to the microsecond or better: the most one wall reading is off. */
    private static final long WALL_RESOLUTION_NANOS = 1_000;

    @Test
    void ticksNeverDecreaseWithinAThread() {
        long previous = SluiceClock.nowTicks();
        for (int i = 0; i < 2_000_000; i++) {
            final long now = SluiceClock.nowTicks();
            assertTrue(now >= previous, () -> "went backwards: " + previous + " -> " + now);
        }
    }

    @Test
    void ticksAreTenthsOfAMicrosecondSinceTheEpoch() {
        final long before = Instant.now().toEpochMilli();
        final long ticks = SluiceClock.nowTicks();
        final long after = Instant.now().toEpochMilli();
        final long tickMillis = ticks / 10_000;
        // Bounded by the two wall readings, widened by the calibration error and wall resolution.
        final long slackMillis = 1 + (SluiceClock.calibrationErrorNanos() + WALL_RESOLUTION_NANOS) / 1_000_000;
        assertTrue(tickMillis >= before - slackMillis && tickMillis <= after + slackMillis,
                () -> before + " <= " + tickMillis + " <= " + after);
    }

    /**
     * Both processes read the same monotonic counter, so their clocks differ exactly by the difference of
     * their offsets, which is bounded by the sum of their calibration errors plus the wall clock's resolution.
     */
    @Test
    void twoProcessesAgreeWithinTheirCalibrationErrors(@TempDir final Path dir) throws Exception {
        final Path log = dir.resolve("clock.log");
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SluiceClock.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child clock did not finish in 60 s");
        assertEquals(0, child.exitValue(), () -> "child exited with " + child.exitValue());
        final List<String> lines = Files.readAllLines(log).stream().filter(l -> l.matches("-?\\d+")).toList();
        assertEquals(2, lines.size(), () -> "child printed: " + lines);
        final long childOffset = Long.parseLong(lines.get(0));
        final long childError = Long.parseLong(lines.get(1));
        final long bound = SluiceClock.calibrationErrorNanos() + childError + 2 * WALL_RESOLUTION_NANOS;
        final long difference = Math.abs(SluiceClock.offsetNanos() - childOffset);
        assertTrue(difference <= bound, () -> "clocks differ by " + difference + " ns, bound " + bound + " ns");
    }
}
