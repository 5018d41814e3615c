package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Side;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A snapshot writer caught in the middle of a write, as a child process to be killed with {@code kill -9}. {@code
 * TornSnapshotMain <root>} appends a snapshot's begin excerpt to {@code <root>/snapshots}, opens the next excerpt and
 * writes orders into it, prints {@value #HOLDING} and waits, holding the excerpt open (its header not yet complete, the
 * journal's write lock held) until it is killed.
 */
public final class TornSnapshotMain {
    /** Printed once the excerpt is open and half written. */
    static final String HOLDING = "torn snapshot writer: holding an excerpt open";

    private TornSnapshotMain() {
    }

    public static void main(final String[] args) {
        final Path root = Path.of(args[0]);
        try (ChronicleQueue snapshots = Journals.open(Journals.snapshotJournal(root))) {
            final ExcerptAppender appender = snapshots.createAppender();
            final EngineSnapshots records = Journals.methodWriter(appender, EngineSnapshots.class);
            records.snapshotBegin(new SnapshotBegin().position(Long.MAX_VALUE >>> 8, 0, 1, 1, 1).state(0, 0, 10, 0, 0, 0));
            final DocumentContext excerpt = appender.writingDocument();
            final SnapshotOrder order = new SnapshotOrder();
            for (int i = 1; i <= 10; i++) {
                records.snapshotOrder(order.resting(true).owner(i, 1, 1, 0)
                        .terms(i, 1, 1, Side.BUY, OrdType.LIMIT, TimeInForce.DAY, 10, 100)
                        .state(OrdStatus.NEW, 0, 0));
            }
            System.out.println(HOLDING);
            System.out.flush();
            while (excerpt.isOpen()) {
                LockSupport.park(); // until killed: the excerpt must stay open
            }
        }
    }
}
