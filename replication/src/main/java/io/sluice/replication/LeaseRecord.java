package io.sluice.replication;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One record of a deployment's lease topic ({@link LeaseTopic}): a shipper's heartbeat, or a standby's claim of the
 * deployment. The one source of truth for its layout: format byte, kind byte, the writer's wall-clock millis when it
 * wrote the record (for messages only: liveness is judged by when a record arrives, never by this stamp), and the
 * writer's name in US-ASCII (e.g. {@code shipper pid 4242 on host-a}, {@code standby b}).
 */
public record LeaseRecord(Kind kind, long writtenMillis, String holder) {
    /** The layout's version: the first byte of every record. */
    static final byte FORMAT = 1;
    private static final int HEADER = 2 + Long.BYTES;

    /** What a lease record says. */
    public enum Kind {
        /** The primary's shipper is alive and holds the deployment's transactional.id. */
        HEARTBEAT,
        /** A standby fenced the deployment's shipper and takes the deployment over. */
        CLAIM
    }

    /** @return the record's bytes */
    byte[] toValue() {
        final byte[] name = holder.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(HEADER + name.length).put(FORMAT).put((byte) kind.ordinal()).putLong(writtenMillis)
                .put(name).array();
    }

    /** @throws IllegalArgumentException if {@code value} is no lease record of this format */
    static LeaseRecord of(final byte[] value) {
        if (value == null || value.length < HEADER || value[0] != FORMAT || value[1] < 0
                || value[1] >= Kind.values().length) {
            throw new IllegalArgumentException("no lease record of format " + FORMAT);
        }
        final ByteBuffer buffer = ByteBuffer.wrap(value);
        final Kind kind = Kind.values()[buffer.get(1)];
        final long written = buffer.getLong(2);
        return new LeaseRecord(kind, written, new String(value, HEADER, value.length - HEADER, StandardCharsets.US_ASCII));
    }
}
