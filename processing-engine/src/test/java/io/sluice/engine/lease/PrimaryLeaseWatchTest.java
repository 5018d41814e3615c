package io.sluice.engine.lease;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.runtime.counters.PrimaryLeaseGauges;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The lease watch reads the lease a shipper publishes in its real counters file (written here in the shipper's place)
 * and appends LEASE_LAPSED / LEASE_REGAINED to a real admin journal as a test clock passes the lease: nothing on a root
 * no shipper published a lease on, a lapse once no acknowledged write was sent within the lease (a shipper gone or cut
 * off alike), a regain only for a write sent after the lapse (also a restarted shipper's), nothing after a FENCED.
 */
final class PrimaryLeaseWatchTest {
    private static final long LEASE_MILLIS = 1000;
    private static final long START = TimeUnit.SECONDS.toNanos(100);

    @TempDir
    Path root;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (final AutoCloseable closeable : open.reversed()) {
            closeable.close();
        }
    }

    private PrimaryLeaseWatch watch() {
        final PrimaryLeaseWatch watch = new PrimaryLeaseWatch(root, clock);
        open.add(watch::onClose);
        return watch;
    }

    /** A shipper's counters file with its lease: @return the gauge of its newest acknowledged write's send time */
    private AtomicCounter shipper() {
        final CountersFile file = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS);
        open.add(file);
        file.gauge(PrimaryLeaseGauges.LEASE_MILLIS).set(LEASE_MILLIS);
        return file.gauge(PrimaryLeaseGauges.ACKNOWLEDGED_SENT);
    }

    /** Sets the clock to {@code millis} after the start and gives the watch one turn: @return the commands it appended */
    private List<String> turnAt(final PrimaryLeaseWatch watch, final long millis) {
        final int before = adminJournal().size();
        clock.update(START + TimeUnit.MILLISECONDS.toNanos(millis));
        watch.doWork();
        final List<String> all = adminJournal();
        return all.subList(before, all.size());
    }

    private static long at(final long millis) {
        return START + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** @return every command of the admin journal as "action user" */
    private List<String> adminJournal() {
        final List<String> commands = new ArrayList<>();
        if (!Files.exists(Journals.adminJournal(root))) {
            return commands;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) c -> commands.add(
                    c.action() + " " + ShortTextLongConverter.INSTANCE.asString(c.user())));
            while (reader.readOne()) {
                // collecting
            }
        }
        return commands;
    }

    @Test
    void aRootNoShipperPublishedALeaseOnIsNeverHalted() {
        final PrimaryLeaseWatch watch = watch();
        assertEquals(List.of(), turnAt(watch, 0));
        assertEquals(List.of(), turnAt(watch, 60_000), "no counters file");
        shipper();
        assertEquals(List.of(), turnAt(watch, 120_000), "a shipper Kafka acknowledged nothing of yet holds no lease");
    }

    /**
     * Chronicle compiles a reader whose class is not on the class path with javac, in the calling thread: seconds of a
     * 1.5 s lease on a loaded host, which once let a cut-off primary take orders 3-7 s after its last acknowledgement.
     */
    @Test
    void itsJournalReaderIsBuiltAtStartFromAClassTheBuildGeneratedSoALapseCompilesNothing() {
        final PrimaryLeaseWatch watch = watch();
        final String name = watch.readerClass().getName();
        assertNotNull(PrimaryLeaseWatch.class.getClassLoader().getResource(name.replace('.', '/') + ".class"),
                name + " is not on the class path: EngineCodegen must build the watch so the build generates it");
    }

    @Test
    void theLeaseLapsesOnceNoWriteSentWithinItWasAcknowledgedAndIsRegainedByAWriteSentAfter() {
        final PrimaryLeaseWatch watch = watch();
        final AtomicCounter sent = shipper();
        sent.set(at(0));
        assertEquals(List.of(), turnAt(watch, 999));
        sent.set(at(500));
        assertEquals(List.of(), turnAt(watch, 1499), "renewed from when the acknowledged write was sent");
        assertEquals(List.of("LEASE_LAPSED lease"), turnAt(watch, 1500));
        assertEquals(List.of(), turnAt(watch, 5000), "told once");
        sent.set(at(1400));
        assertEquals(List.of(), turnAt(watch, 5001), "a write sent before the lapse regains nothing");
        sent.set(at(5002));
        assertEquals(List.of("LEASE_REGAINED lease"), turnAt(watch, 5100));
        assertEquals(List.of(), turnAt(watch, 6001));
        assertEquals(List.of("LEASE_LAPSED lease"), turnAt(watch, 6002));
    }

    @Test
    void aShipperKilledAndStartedAgainHoldsTheLeaseOnlyFromItsOwnFirstAcknowledgement() {
        final PrimaryLeaseWatch watch = watch();
        final AtomicCounter killed = shipper();
        killed.set(at(0));
        assertEquals(List.of(), turnAt(watch, 500));
        // kill -9: its file stays, with its last values
        assertEquals(List.of("LEASE_LAPSED lease"), turnAt(watch, 1000));
        final AtomicCounter again = shipper(); // rewrites the file: no write acknowledged yet
        assertEquals(List.of(), turnAt(watch, 3000), "no acknowledgement of the new shipper yet");
        again.set(at(3100));
        assertEquals(List.of("LEASE_REGAINED lease"), turnAt(watch, 3200));
    }

    @Test
    void anEngineStartedOnALapsedLeaseWaitsForAWriteSentAfterItsStartAndAFencedOneForNothing() {
        final AtomicCounter sent = shipper();
        try (AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            admin.append(new AdminCommand().action(AdminAction.LEASE_LAPSED));
        }
        sent.set(at(0));
        final PrimaryLeaseWatch watch = watch();
        assertEquals(List.of(), turnAt(watch, 200), "the engine holds LAPSED already");
        sent.set(at(100));
        assertEquals(List.of(), turnAt(watch, 300), "sent before the watch learnt of the lapse");
        sent.set(at(250));
        assertEquals(List.of("LEASE_REGAINED lease"), turnAt(watch, 400));
        try (AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            admin.append(new AdminCommand().action(AdminAction.FENCED));
        }
        assertEquals(List.of(), turnAt(watch, 60_000), "FENCED is final: no lapse told after it");
        sent.set(at(60_000));
        assertEquals(List.of(), turnAt(watch, 60_001));
    }

    @Test
    void anAcknowledgementFromBeforeTheHostBootedLapsesAtOnce() {
        final AtomicCounter sent = shipper();
        sent.set(at(3_600_000)); // the monotonic clock of an earlier boot, ahead of this one's
        assertEquals(List.of("LEASE_LAPSED lease"), turnAt(watch(), 0));
    }
}
