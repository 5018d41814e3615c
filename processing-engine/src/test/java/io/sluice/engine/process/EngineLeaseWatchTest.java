package io.sluice.engine.process;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineContext;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.runtime.counters.PrimaryLeaseGauges;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sluice.engine.process.EngineServiceTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's lease watch decides a lapse whatever its background disk thread does: with that thread held inside a
 * step (here the trading scheduler's clock read, as a reservation or page fault on a busy disk would hold it), the
 * lease still lapses when the test clock passes it, and the lapse is in the admin journal before that step ends.
 */
final class EngineLeaseWatchTest {
    private static final long LEASE_MILLIS = 1500;
    private static final long START = TimeUnit.SECONDS.toNanos(100);

    @TempDir
    Path root;

    private final CachedNanoClock nanos = new CachedNanoClock();
    private final StallingClock wallClock = new StallingClock(Instant.parse("2026-11-26T12:00:00Z").toEpochMilli());

    @Test
    void theLeaseLapsesWhileTheBackgroundDiskThreadIsHeldInAStep() throws Exception {
        nanos.update(START);
        final EngineConfig config = TwoInstrumentMarket.config(root)
                .tradingSchedule(new TradingScheduleConfig().timeZone("Europe/London").hours("08:00", "16:30"));
        try (CountersFile shipper = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS)) {
            shipper.gauge(PrimaryLeaseGauges.LEASE_MILLIS).set(LEASE_MILLIS);
            shipper.gauge(PrimaryLeaseGauges.ACKNOWLEDGED_SENT).set(START); // acknowledged now: the lease is held
            runWithTheBackgroundThreadHeld(config);
        }
        assertEquals(List.of("OPEN_TRADING", "LEASE_LAPSED"), adminJournal());
    }

    private void runWithTheBackgroundThreadHeld(final EngineConfig config) throws InterruptedException {
        try (EngineService ignored = EngineService.launch(new EngineContext().config(config).epochClock(wallClock)
                .nanoClock(nanos))) {
            awaitTrue(() -> adminJournal().equals(List.of("OPEN_TRADING")), "the schedule's state of now at start");

            wallClock.stallNextRead();
            assertTrue(wallClock.stalled.await(30, TimeUnit.SECONDS), "the background thread to enter its step");
            try {
                nanos.update(START + TimeUnit.MILLISECONDS.toNanos(LEASE_MILLIS));
                awaitTrue(() -> adminJournal().contains("LEASE_LAPSED"),
                        "the lapse while the background thread is held; the admin journal holds " + adminJournal());
                assertEquals(1, wallClock.released.getCount(), "the background step is still held");
            } finally {
                wallClock.released.countDown();
            }
        }
    }

    /** @return the action of every command of the admin journal */
    private List<String> adminJournal() {
        final List<String> actions = new ArrayList<>();
        if (!Files.exists(Journals.adminJournal(root).resolve("metadata.cq4t"))) {
            return actions;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) c -> actions.add(
                    c.action().name()));
            while (reader.readOne()) {
                // collecting
            }
        }
        return actions;
    }

    /** A wall clock that holds the next thread to read it, once told to, until released: a stalled background step. */
    private static final class StallingClock implements EpochClock {
        private final long millis;
        private final CountDownLatch stalled = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean stallNext;

        StallingClock(final long millis) {
            this.millis = millis;
        }

        void stallNextRead() {
            stallNext = true;
        }

        @Override
        public long time() {
            if (stallNext) {
                stallNext = false;
                stalled.countDown();
                try {
                    released.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return millis;
        }
    }
}
