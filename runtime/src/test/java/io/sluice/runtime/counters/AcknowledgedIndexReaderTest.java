package io.sluice.runtime.counters;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gateway's view of the shipper's acknowledged indexes, through the shipper's real memory-mapped counters file
 * ({@code <root>/counters/shipper.counters}): nothing before a shipper exists or has a counter for the journal, the
 * journal's own gauge after (not another journal's, not another metric's), and the right counter again after a shipper
 * restarted (here in the same process, so with the same pid) and laid its counters out in another order.
 */
final class AcknowledgedIndexReaderTest {
    @TempDir
    Path root;

    @Test
    void readsNothingUntilTheShipperHasTheJournalsGaugeThenThatGauge() {
        try (AcknowledgedIndexReader engine = new AcknowledgedIndexReader(root, "engine", SystemNanoClock.INSTANCE)) {
            assertEquals(AcknowledgedIndexReader.NOTHING_ACKNOWLEDGED, engine.acknowledgedIndex(), "no file yet");
            try (CountersFile file = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS)) {
                file.counter(CounterLabel.of("sluice_replication_shipped_total", "journal", "engine")).set(99);
                final AtomicCounter gateway = file.gauge(AcknowledgedIndexReader.label("gateway-1"));
                gateway.set(7);
                awaitValue(engine::acknowledgedIndex, AcknowledgedIndexReader.NOTHING_ACKNOWLEDGED); // no gauge yet
                final AtomicCounter engineGauge = file.gauge(AcknowledgedIndexReader.label("engine"));
                engineGauge.set(40);
                awaitValue(engine::acknowledgedIndex, 40);
                engineGauge.setRelease(41);
                assertEquals(41, engine.acknowledgedIndex(), "a counter read directly once found");
                gateway.setRelease(8);
                assertEquals(41, engine.acknowledgedIndex());
            }
        }
    }

    @Test
    void findsItsCounterAgainAfterAShipperRestarted() {
        try (AcknowledgedIndexReader engine = new AcknowledgedIndexReader(root, "engine", SystemNanoClock.INSTANCE)) {
            try (CountersFile file = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS)) {
                file.gauge(AcknowledgedIndexReader.label("engine")).set(10);
                awaitValue(engine::acknowledgedIndex, 10);
            }
            try (CountersFile restarted = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS)) {
                restarted.gauge(AcknowledgedIndexReader.label("gateway-2")).set(3);
                assertEquals(AcknowledgedIndexReader.NOTHING_ACKNOWLEDGED, engine.acknowledgedIndex(),
                        "rewritten: the old counter id now holds another journal's gauge, which must not be read");
                restarted.gauge(AcknowledgedIndexReader.label("engine")).set(12);
                awaitValue(engine::acknowledgedIndex, 12);
            }
        }
    }

    /** Polls {@code value} until it gives {@code expected} (the reader looks again at most every 100 ms). */
    private static void awaitValue(final LongSupplier value, final long expected) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long last;
        while ((last = value.getAsLong()) != expected && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        assertEquals(expected, last);
    }
}
