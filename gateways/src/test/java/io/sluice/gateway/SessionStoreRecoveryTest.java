package io.sluice.gateway;

import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway's session-store state read ahead from its journal read-only (a standby's gateway before the promotion) and
 * read on once the journal grew is the state a start reading the whole journal recovers: nothing read twice.
 */
class SessionStoreRecoveryTest {
    private static final long SESSION = 7;
    private static final int REPORT = '8';
    private static final int MAX_BODY = 1024;

    @TempDir
    Path dir;

    @Test
    void stateReadAheadAndReadOnAfterTheJournalGrewIsTheStateOfAWholeRead() {
        final Path journal = Journals.gatewayDeliveries(dir, 1);
        // Reports 1 to 3, the last two of one engine excerpt: one input's reports.
        append(journal, 1, 100);
        append(journal, 2, 200);
        append(journal, 3, 200);
        final SessionStoreRecovery readAhead;
        try (ChronicleQueue replica = Journals.openReadOnly(journal)) {
            readAhead = SessionStoreRecovery.read(replica);
        }
        assertEquals(4, readAhead.nextSenderSeq(SESSION), "read ahead: reports 1 to 3");
        // What the receiver appends before the promotion: another report of excerpt 200, and one of excerpt 300.
        append(journal, 4, 200);
        append(journal, 5, 300);

        try (ChronicleQueue promoted = Journals.open(journal);
             JournalSessionStore store = new JournalSessionStore(promoted, MAX_BODY, readAhead)) {
            assertEquals(6, store.nextSenderSeq(SESSION), "the sequence numbers go on after what came since");
            assertEquals(300, store.deliveredEngineIndex());
            assertEquals(1, store.reportsDeliveredFromExcerpt(), "report 3, read last ahead, is not counted twice");
            final SessionStoreRecovery whole = SessionStoreRecovery.read(promoted);
            assertEquals(whole.nextSenderSeq(SESSION), store.nextSenderSeq(SESSION));
            assertEquals(whole.deliveredEngineIndex(), store.deliveredEngineIndex());
            assertEquals(whole.lastIndex(), store.lastSentIndex(), "the store stands at the journal's last record");
        }
    }

    @Test
    void stateReadAheadFromAnotherJournalIsRefusedNamingTheExcerptNoLongerThere() {
        final Path journal = Journals.gatewayDeliveries(dir.resolve("a"), 1);
        append(journal, 1, 100);
        append(journal, 2, 100);
        final SessionStoreRecovery readAhead;
        try (ChronicleQueue replica = Journals.openReadOnly(journal)) {
            readAhead = SessionStoreRecovery.read(replica);
        }
        final Path other = Journals.gatewayDeliveries(dir.resolve("b"), 1);
        append(other, 1, 100);
        try (ChronicleQueue promoted = Journals.open(other)) {
            final CorruptJournalException refused = assertThrows(CorruptJournalException.class,
                    () -> readAhead.readOn(promoted));
            assertTrue(refused.getMessage().contains("the excerpt read last is no longer there"), refused.getMessage());
        }
    }

    /** Appends the {@code sent} record of report {@code seqNum}, of the engine excerpt {@code engineIndex}. */
    private static void append(final Path journal, final long seqNum, final long engineIndex) {
        try (ChronicleQueue queue = Journals.open(journal)) {
            final GatewayRecords records = Journals.methodWriter(queue.createAppender(), GatewayRecords.class);
            records.sent(new SentMessage(MAX_BODY).set(SESSION, seqNum, REPORT, 0, engineIndex,
                    new UnsafeBuffer(new byte[] {'x'}), 0, 1));
        }
    }
}
