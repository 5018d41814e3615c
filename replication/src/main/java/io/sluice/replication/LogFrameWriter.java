package io.sluice.replication;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.util.Arrays;

/**
 * Builds one {@link LogFrame} at a time in a buffer it reuses: {@link #start} a kind, append entries, take the record's
 * value with {@link #toValue} (the one copy Kafka's producer needs).
 */
final class LogFrameWriter {
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64 * 1024);
    private int length;
    private int entries;

    void start(final LogFrame.Kind kind) {
        buffer.putByte(LogFrame.FORMAT_OFFSET, (byte) LogFrame.FORMAT);
        buffer.putByte(LogFrame.KIND_OFFSET, (byte) kind.code);
        length = LogFrame.HEADER_LENGTH;
        entries = 0;
    }

    /** Appends an excerpt of the journal named {@code name} (ASCII bytes): {@code excerptLength} bytes of {@code excerpt}. */
    void excerpt(final byte[] name, final long index, final long readTicks, final DirectBuffer excerpt,
                 final int excerptLength) {
        int at = name(name);
        buffer.putLong(at, index, LogFrame.ORDER);
        buffer.putLong(at + Long.BYTES, readTicks, LogFrame.ORDER);
        buffer.putInt(at + 2 * Long.BYTES, excerptLength, LogFrame.ORDER);
        at += 2 * Long.BYTES + Integer.BYTES;
        buffer.putBytes(at, excerpt, 0, excerptLength);
        length = at + excerptLength;
        entries++;
    }

    /** Appends the position of the journal named {@code name}: its last excerpt in the log, and that excerpt's CRC-32C. */
    void position(final byte[] name, final long lastIndex, final int checksum) {
        final int at = name(name);
        buffer.putLong(at, lastIndex, LogFrame.ORDER);
        buffer.putInt(at + Long.BYTES, checksum, LogFrame.ORDER);
        length = at + Long.BYTES + Integer.BYTES;
        entries++;
    }

    private int name(final byte[] name) {
        buffer.putByte(length, (byte) name.length);
        buffer.putBytes(length + 1, name);
        return length + 1 + name.length;
    }

    /** @return the frame's length so far, bytes */
    int length() {
        return length;
    }

    /** @return the entries appended since {@link #start} */
    int entries() {
        return entries;
    }

    /** @return a copy of the frame: a record's value */
    byte[] toValue() {
        return Arrays.copyOf(buffer.byteArray(), length);
    }
}
