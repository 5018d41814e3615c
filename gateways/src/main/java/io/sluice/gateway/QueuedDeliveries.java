package io.sluice.gateway;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.session.FixConnection;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The deliveries whose FIX message is queued on a connection but not yet taken by its socket: each is held
 * until a write to that connection's socket returns having taken the message's last byte, then journaled with
 * {@code fixSent} read just after that write ({@link #onWritten}). So the tail's gateway-out and end-to-end hops
 * include the journal write of the message, the copy into the send buffer, the wait for the round's flush and
 * the {@code write(2)} that handed it to the kernel. The deliveries one write completes share one excerpt.
 * <p>
 * A delivery that will never be timed so (its connection closed, or it waited behind {@code capacity} others) is
 * journaled with {@code fixSent} 0, "not reached". Memory is fixed: the table is allocated at start. A held
 * delivery is lost if the gateway stops before journaling it, which only the tail notices: a restart learns
 * what was delivered from the messages' own {@code sent} records.
 */
final class QueuedDeliveries {
    private final Delivery[] deliveries;
    private final FixConnection[] connections;
    private final long[] ends;
    private int count;

    QueuedDeliveries(final int capacity) {
        deliveries = new Delivery[capacity];
        for (int i = 0; i < capacity; i++) {
            deliveries[i] = new Delivery();
        }
        connections = new FixConnection[capacity];
        ends = new long[capacity];
    }

    /**
     * Holds a copy of {@code delivery} until {@code connection}'s socket has taken its stream up to {@code end};
     * a full table first journals its oldest delivery untimed.
     */
    void hold(final Delivery delivery, final FixConnection connection, final long end,
              final JournalSessionStore store) {
        if (count == deliveries.length) {
            journal(0, 0, store);
            remove(0);
        }
        final Delivery held = deliveries[count];
        held.metaData().copyFrom(delivery.metaData());
        held.session(delivery.session()).execId(delivery.execId());
        connections[count] = connection;
        ends[count] = end;
        count++;
    }

    /**
     * A write to {@code connection}'s socket just returned with its stream taken up to {@code writtenBytes}:
     * journals the deliveries it completed, stamped now, and, untimed, those of connections that have closed.
     */
    void onWritten(final FixConnection connection, final long writtenBytes, final JournalSessionStore store) {
        if (count == 0) {
            return;
        }
        final long now = SluiceClock.nowTicks();
        int done = 0;
        for (int i = 0; i < count; i++) {
            if (done(i, connection, writtenBytes)) {
                done++;
            }
        }
        if (done == 0) {
            return;
        }
        int kept = 0;
        try (DocumentContext ignored = done > 1 ? store.deliveriesExcerpt() : null) {
            for (int i = 0; i < count; i++) {
                if (!done(i, connection, writtenBytes)) {
                    move(i, kept++);
                } else {
                    journal(i, connections[i] == connection ? now : 0, store);
                }
            }
        }
        clearFrom(kept);
    }

    /** @return whether held delivery {@code i} is to be journaled now: its message written, or never to be. */
    private boolean done(final int i, final FixConnection connection, final long writtenBytes) {
        final FixConnection held = connections[i];
        return held == connection ? ends[i] <= writtenBytes : held.isClosed();
    }

    /** {@code connection} is gone: its held deliveries are journaled untimed. */
    void onClosed(final FixConnection connection, final JournalSessionStore store) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (connections[i] == connection) {
                journal(i, 0, store);
            } else {
                move(i, kept++);
            }
        }
        clearFrom(kept);
    }

    /** @return deliveries held now. */
    int size() {
        return count;
    }

    private void journal(final int i, final long fixSent, final JournalSessionStore store) {
        final Delivery delivery = deliveries[i];
        delivery.metaData().fixSent(fixSent);
        store.delivered(delivery);
    }

    private void remove(final int i) {
        for (int j = i + 1; j < count; j++) {
            move(j, j - 1);
        }
        clearFrom(count - 1);
    }

    /** Moves entry {@code from} to {@code to} (at or before it), keeping the Delivery objects in the table. */
    private void move(final int from, final int to) {
        if (from != to) {
            final Delivery spare = deliveries[to];
            deliveries[to] = deliveries[from];
            deliveries[from] = spare;
            connections[to] = connections[from];
            ends[to] = ends[from];
        }
    }

    private void clearFrom(final int newCount) {
        for (int i = newCount; i < count; i++) {
            connections[i] = null;
        }
        count = newCount;
    }
}
