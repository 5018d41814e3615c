package io.sluice.gateway;

import io.sluice.gateway.transport.SendGate;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.AcknowledgementWaiters;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@link SendGate} of a gateway in {@code replication: acknowledged}: a message's stamp is the index of its
 * {@code sent} record in the gateway's {@code gateway-N-out} journal (written before the message is queued,
 * {@link JournalSessionStore#lastSentIndex()}), and the gate releases what Kafka has acknowledged of that journal, read
 * from the shipper's counters file ({@link AcknowledgedIndexReader}, two memory reads). Because the shipper publishes a
 * report's {@code sent} record only after Kafka acknowledged the engine excerpt holding the report, and that one only
 * after the command that caused it, a message a client has seen is, with its sequence number, on every replica that
 * has caught up with Kafka.
 * <p>
 * Its {@link State} is checked by the gateway's housekeeping (not per message) and logged once per change: no shipper
 * (no counters file, or no counter for this journal), held (messages waiting for Kafka for a second or more), or
 * following.
 */
final class AcknowledgedSends implements SendGate, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
    private static final long HELD_WARNING_NANOS = 1_000_000_000L;

    /** What the gate is doing, as the log says it. */
    enum State {
        /** Kafka acknowledges this journal's records as they are written. */
        FOLLOWING,
        /** Records written more than a second ago are not acknowledged yet (Kafka unreachable, a slow shipper). */
        HELD,
        /** No shipper publishes acknowledgements for this journal: nothing is sent. */
        NO_SHIPPER
    }

    private final int gatewayId;
    private final Path root;
    private final String journalName;
    private final JournalSessionStore store;
    private final AcknowledgedIndexReader reader;
    private State state = State.FOLLOWING;
    private long unacknowledgedSinceNanos;
    private long unacknowledgedStamp = NOTHING;

    AcknowledgedSends(final int gatewayId, final Path root, final String journalName, final JournalSessionStore store,
                      final NanoClock clock) {
        this.gatewayId = gatewayId;
        this.root = root;
        this.journalName = journalName;
        this.store = store;
        this.reader = new AcknowledgedIndexReader(root, journalName, clock);
        AcknowledgementWaiters.declare(root, journalName);
    }

    @Override
    public long stamp() {
        return store.lastSentIndex();
    }

    @Override
    public long released() {
        return reader.acknowledgedIndex();
    }

    /** @return the gate's state now; logs a change of it. Called by the gateway's housekeeping, not per message. */
    State check(final long nowNanos) {
        final long acknowledged = released();
        final long written = store.lastSentIndex();
        final State next;
        if (acknowledged == AcknowledgedIndexReader.NOTHING_ACKNOWLEDGED && written != NOTHING) {
            next = State.NO_SHIPPER;
        } else if (acknowledged < written) {
            if (unacknowledgedStamp == NOTHING || acknowledged >= unacknowledgedStamp) {
                unacknowledgedStamp = written;
                unacknowledgedSinceNanos = nowNanos;
            }
            next = nowNanos - unacknowledgedSinceNanos >= HELD_WARNING_NANOS ? State.HELD : State.FOLLOWING;
        } else {
            unacknowledgedStamp = NOTHING;
            next = State.FOLLOWING;
        }
        if (next != state) {
            log(next, acknowledged, written);
            state = next;
        }
        return state;
    }

    private void log(final State next, final long acknowledged, final long written) {
        final Path file = AcknowledgedIndexReader.path(root).toAbsolutePath();
        switch (next) {
            case NO_SHIPPER -> LOG.warn("gateway {}: replication acknowledged: holding every outgoing message, none is "
                    + "sent: {} (journal {}, last record 0x{}). Start the shipper (./sluice replicate, mode: ship) on "
                    + "this root.", gatewayId, Files.exists(file) ? "the shipper's counters file " + file
                    + " has no acknowledged index for " + journalName + " yet" : "no shipper counters file " + file,
                    journalName, Long.toHexString(written));
            case HELD -> LOG.warn("gateway {}: replication acknowledged: outgoing messages held for over a second: "
                    + "Kafka has acknowledged {} up to 0x{}, its records go up to 0x{} (is Kafka reachable? see the "
                    + "shipper's log)", gatewayId, journalName, Long.toHexString(acknowledged), Long.toHexString(written));
            case FOLLOWING -> LOG.info("gateway {}: replication acknowledged: Kafka acknowledges {} again (up to 0x{}); "
                    + "held messages are sent", gatewayId, journalName, Long.toHexString(acknowledged));
        }
    }

    @Override
    public void close() {
        AcknowledgementWaiters.withdraw(root, journalName);
        reader.close();
    }
}
