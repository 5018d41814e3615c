package io.sluice.contracts;

import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.contracts.EventFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A method reader built on a subclass of a no-op reader dispatches the records it overrides to it and reads past
 * every other record, none refused as unknown (a {@link JournalReader} would throw).
 */
final class NoOpReadersTest {
    @TempDir
    Path root;

    @Test
    void aGatewayJournalReaderSeesOnlyWhatItOverrides() {
        final List<Event> read = new ArrayList<>();
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, 1))) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(newOrder());
            writer.cancelOrder(cancelOrder());
            writer.replaceOrder(replaceOrder());
            writer.massCancel(massCancel());
            assertEquals(4, readAll(queue, new NoOpGatewayToEngine() {
                @Override
                public void cancelOrder(final CancelOrder cancel) {
                    read.add(cancel.deepCopy());
                }
            }));
            assertEquals(4, readAll(queue, new NoOpGatewayToEngine()), "used as is, it reads past everything");
        }
        assertEquals(List.of(cancelOrder()), read);
    }

    @Test
    void anEngineJournalReaderSeesOnlyWhatItOverrides() {
        final List<Event> read = new ArrayList<>();
        try (ChronicleQueue queue = Journals.open(Journals.engineJournal(root))) {
            final EngineToGateway writer = queue.methodWriter(EngineToGateway.class);
            writer.executionReport(executionReport());
            writer.cancelReject(cancelReject());
            writer.massCancelReport(massCancelReport());
            writer.adminOutcome(adminOutcome());
            assertEquals(4, readAll(queue, new NoOpEngineToGateway() {
                @Override
                public void adminOutcome(final AdminOutcome outcome) {
                    read.add(outcome.deepCopy());
                }
            }));
            assertEquals(4, readAll(queue, new NoOpEngineToGateway()), "used as is, it reads past everything");
        }
        assertEquals(List.of(adminOutcome()), read);
    }

    @Test
    void aGatewayRecordsReaderSeesOnlyWhatItOverrides() {
        final List<Event> read = new ArrayList<>();
        try (ChronicleQueue queue = Journals.open(Journals.gatewayDeliveries(root, 1))) {
            final GatewayRecords writer = queue.methodWriter(GatewayRecords.class);
            writer.sent(new SentMessage(64).set(id("CLIENT1"), 7, '8', 1_764_000_000_000L, 0,
                    new UnsafeBuffer(new byte[] {1, 2, 3}), 0, 3));
            writer.received(new SessionProgress());
            writer.reset(new SessionProgress());
            writer.checkpoint(new SessionCheckpoint());
            writer.adminAnswered(adminOutcome());
            writer.delivered(new Delivery());
            assertEquals(6, readAll(queue, new NoOpGatewayRecords() {
                @Override
                public void adminAnswered(final AdminOutcome outcome) {
                    read.add(outcome.deepCopy());
                }
            }));
            assertEquals(6, readAll(queue, new NoOpGatewayRecords()), "used as is, it reads past everything");
        }
        assertEquals(List.of(adminOutcome()), read);
    }

    private static int readAll(final ChronicleQueue queue, final Object handler) {
        int excerpts = 0;
        try (ExcerptTailer tailer = queue.createTailer(); JournalReader reader = new JournalReader(queue, tailer, handler)) {
            while (reader.readOne()) {
                excerpts++;
            }
        }
        return excerpts;
    }
}
