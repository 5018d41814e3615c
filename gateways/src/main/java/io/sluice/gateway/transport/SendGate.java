package io.sluice.gateway.transport;

/**
 * What lets queued bytes reach a socket, when something must happen first. In a gateway with {@code replication:
 * acknowledged}, that is Kafka having acknowledged the journal record of every message sent (its {@code gateway-N-out}
 * excerpt) up to the message. Each message queued on a connection is stamped with
 * {@link #stamp()} (a position in the gateway's journal, non-decreasing); its bytes may be written once
 * {@link #released()} has reached that stamp. Both are called on the I/O thread for every message and every flush:
 * they must be cheap and allocate nothing.
 */
public interface SendGate {
    /** The stamp meaning "nothing was journaled yet": released as soon as anything is. */
    long NOTHING = -1;

    /** @return the stamp of a message queued now: the journal position its record (written before) is at, or below */
    long stamp();

    /** @return the highest stamp whose messages may go out now ({@link #NOTHING} - 1 or less: none) */
    long released();
}
