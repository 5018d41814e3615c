package io.sluice.runtime.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gateway's view of the shipper's acknowledged indexes, through the real memory-mapped counters file: nothing before a
 * shipper exists or has published, each journal's own counter after, and the right counter again after a shipper
 * restarted and laid its counters out in another order.
 */
final class AcknowledgedIndexReaderTest {
    @TempDir
    Path root;

    @Test
    void readsNothingUntilAShipperPublishesThenItsJournalsCounter() {
        try (AcknowledgedIndexReader engine = new AcknowledgedIndexReader(root, "engine")) {
            assertEquals(AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED, engine.acknowledgedIndex(), "no file yet");
            try (AcknowledgedIndexFile file = AcknowledgedIndexFile.createForShipper(root)) {
                final int gateway = file.addJournal("gateway-1", 7);
                final int engineCounter = file.addJournal("engine", 40);
                awaitValue(engine::acknowledgedIndex, AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED); // not published yet
                file.publish(1);
                awaitValue(engine::acknowledgedIndex, 40);
                file.acknowledged(engineCounter, 41);
                assertEquals(41, engine.acknowledgedIndex(), "a counter read directly once found");
                file.acknowledged(gateway, 8);
                assertEquals(41, engine.acknowledgedIndex());
            }
        }
    }

    @Test
    void findsItsCounterAgainAfterAShipperRestarted() {
        try (AcknowledgedIndexReader engine = new AcknowledgedIndexReader(root, "engine")) {
            try (AcknowledgedIndexFile file = AcknowledgedIndexFile.createForShipper(root)) {
                file.addJournal("engine", 10);
                file.publish(1);
                awaitValue(engine::acknowledgedIndex, 10);
            }
            try (AcknowledgedIndexFile restarted = AcknowledgedIndexFile.createForShipper(root)) {
                assertEquals(AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED, engine.acknowledgedIndex(), "being rewritten");
                restarted.addJournal("gateway-2", 3);
                restarted.addJournal("engine", 12);
                restarted.publish(2);
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
