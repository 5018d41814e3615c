package io.sluice.gateway;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.contracts.EventFixtures.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A delivery is journaled once the socket write that took its message's last byte has returned, stamped then;
 * never before, and untimed (fixSent 0) when that write will never come. Written to a real gateway journal and
 * read back as the tail would.
 */
class QueuedDeliveriesTest {
    private static final int GATEWAY = 1;

    @TempDir
    Path root;

    @Test
    void aDeliveryIsJournaledWhenTheWriteThatTookItsLastByteReturned() {
        final Connection one = new Connection();
        final Connection two = new Connection();
        try (JournalSessionStore store = store()) {
            final QueuedDeliveries queued = new QueuedDeliveries(4);
            queued.hold(delivery(1), one, 100, store);
            queued.hold(delivery(2), one, 250, store);
            queued.hold(delivery(3), two, 80, store);

            final long before = SluiceClock.nowTicks();
            queued.onWritten(one, 180, store); // a partial write: message 1 complete, message 2 not
            assertEquals(List.of(1L), execIds(), "only the message whose last byte the socket took");
            assertTrue(deliveries().get(0).metaData().fixSent() >= before, "stamped after the write returned");

            queued.onWritten(two, 80, store);
            queued.onWritten(one, 250, store);
            assertEquals(List.of(1L, 3L, 2L), execIds(), "each as its own connection's write completes it");
            assertEquals(0, queued.size());
        }
    }

    @Test
    void theDeliveriesOneWriteCompletesShareOneExcerpt() {
        final Connection one = new Connection();
        try (JournalSessionStore store = store()) {
            final QueuedDeliveries queued = new QueuedDeliveries(4);
            queued.hold(delivery(1), one, 100, store);
            queued.hold(delivery(2), one, 200, store);
            queued.hold(delivery(3), one, 300, store);
            queued.onWritten(one, 200, store);
            assertEquals(List.of(1L, 2L), execIds());
            assertEquals(1, excerpts(), "an ack and its fill, written by one write, cost one excerpt");
            queued.onWritten(one, 300, store);
            assertEquals(2, excerpts());
        }
    }

    @Test
    void deliveriesThatWillNeverBeWrittenAreJournaledUntimed() {
        final Connection lost = new Connection();
        final Connection closing = new Connection();
        final Connection other = new Connection();
        try (JournalSessionStore store = store()) {
            final QueuedDeliveries queued = new QueuedDeliveries(2);
            queued.hold(delivery(1), lost, 100, store);
            queued.onClosed(lost, store);
            queued.hold(delivery(2), closing, 100, store);
            closing.closed = true;
            queued.hold(delivery(3), other, 50, store);
            queued.onWritten(other, 50, store);
            queued.hold(delivery(4), other, 90, store);
            queued.hold(delivery(5), other, 120, store);
            queued.hold(delivery(6), other, 150, store); // the table holds 2: the oldest goes out untimed

            assertEquals(List.of(1L, 2L, 3L, 4L), execIds());
            final List<Delivery> journaled = deliveries();
            assertEquals(0, journaled.get(0).metaData().fixSent(), "its connection was lost");
            assertEquals(0, journaled.get(1).metaData().fixSent(), "its connection closed before writing it");
            assertTrue(journaled.get(2).metaData().fixSent() > 0);
            assertEquals(0, journaled.get(3).metaData().fixSent(), "pushed out of a full table");
            assertEquals(2, queued.size());
        }
    }

    private JournalSessionStore store() {
        return new JournalSessionStore(Journals.open(Journals.gatewayDeliveries(root, GATEWAY)), 1024);
    }

    private static Delivery delivery(final long execId) {
        final Delivery delivery = new Delivery().session(id("CLIENT1")).execId(execId);
        delivery.metaData().sourceId(GATEWAY).eventId(execId).gatewayRead(1).fixSent(0);
        return delivery;
    }

    private List<Delivery> deliveries() {
        return JournalProbe.deliveries(root, GATEWAY);
    }

    private long excerpts() {
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.gatewayDeliveries(root, GATEWAY));
             ExcerptTailer tailer = queue.createTailer()) {
            long count = 0;
            while (true) {
                try (DocumentContext excerpt = tailer.readingDocument()) {
                    if (!excerpt.isPresent()) {
                        return count;
                    }
                    count++;
                }
            }
        }
    }

    private List<Long> execIds() {
        return deliveries().stream().map(Delivery::execId).toList();
    }

    /** Only a connection's identity and whether it is closed matter here. */
    private static final class Connection implements FixConnection {
        boolean closed;

        @Override
        public boolean send(final DirectBuffer buffer, final int offset, final int length) {
            return false;
        }

        @Override
        public long queuedBytes() {
            return 0;
        }

        @Override
        public int writableBytes() {
            return 0;
        }

        @Override
        public void sendAndClose(final DirectBuffer buffer, final int offset, final int length) {
            closed = true;
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public FixSession session() {
            return null;
        }

        @Override
        public void session(final FixSession session) {
            // not bound to sessions here
        }

        @Override
        public SocketAddress remoteAddress() {
            return null;
        }

        @Override
        public long remoteAddressKey() {
            return 0;
        }
    }
}
