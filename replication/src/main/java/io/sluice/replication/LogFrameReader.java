package io.sluice.replication;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Reads one {@link LogFrame}, entry by entry, in place: {@link #wrap} a record's value, then {@link #next} until it
 * returns false, asking each entry's fields. Reused; allocates nothing but {@link #name()}.
 */
final class LogFrameReader {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    private byte[] bytes;
    private LogFrame.Kind kind;
    private int next;
    private int nameOffset;
    private int nameLength;
    private int fields;
    private int excerptLength;

    /**
     * @return the frame's kind, having positioned before its first entry
     * @throws IllegalArgumentException saying why if {@code value} is not a frame of this format
     */
    LogFrame.Kind wrap(final byte[] value) {
        if (value == null || value.length < LogFrame.HEADER_LENGTH) {
            throw new IllegalArgumentException("a record of " + (value == null ? 0 : value.length)
                    + " bytes is no log frame");
        }
        if (value[LogFrame.FORMAT_OFFSET] != LogFrame.FORMAT) {
            throw new IllegalArgumentException("a record of topic format " + value[LogFrame.FORMAT_OFFSET]
                    + "; this version reads topic format " + LogFrame.FORMAT);
        }
        kind = LogFrame.Kind.of(value[LogFrame.KIND_OFFSET]);
        if (kind == null) {
            throw new IllegalArgumentException("a record of unknown kind " + value[LogFrame.KIND_OFFSET]);
        }
        bytes = value;
        buffer.wrap(value);
        next = LogFrame.HEADER_LENGTH;
        return kind;
    }

    /**
     * @return true if positioned on the next entry, false at the frame's end
     * @throws IllegalArgumentException if the frame is cut short
     */
    boolean next() {
        if (next == bytes.length) {
            return false;
        }
        nameLength = bytes[next] & 0xFF;
        nameOffset = next + 1;
        fields = nameOffset + nameLength;
        final int end;
        if (kind == LogFrame.Kind.EXCERPTS) {
            require(fields + 2 * Long.BYTES + Integer.BYTES);
            excerptLength = buffer.getInt(fields + 2 * Long.BYTES, LogFrame.ORDER);
            end = fields + 2 * Long.BYTES + Integer.BYTES + excerptLength;
        } else {
            end = fields + Long.BYTES + Integer.BYTES;
        }
        require(end);
        next = end;
        return true;
    }

    private void require(final int end) {
        if (end > bytes.length || end < 0) {
            throw new IllegalArgumentException("a log frame cut short: an entry ends at byte " + end + " of "
                    + bytes.length);
        }
    }

    /** @return true if the entry's journal is the one named {@code name} (ASCII bytes) */
    boolean nameEquals(final byte[] name) {
        if (name.length != nameLength) {
            return false;
        }
        for (int i = 0; i < nameLength; i++) {
            if (bytes[nameOffset + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    /** @return the entry's journal name (allocates) */
    String name() {
        return new String(bytes, nameOffset, nameLength, StandardCharsets.US_ASCII);
    }

    /** @return an excerpts entry's index, or a positions entry's last index */
    long index() {
        return buffer.getLong(fields, LogFrame.ORDER);
    }

    /** @return when the shipper read the excerpt, SluiceClock ticks */
    long readTicks() {
        return buffer.getLong(fields + Long.BYTES, LogFrame.ORDER);
    }

    /** @return a positions entry's CRC-32C of its journal's last excerpt */
    int checksum() {
        return buffer.getInt(fields + Long.BYTES, LogFrame.ORDER);
    }

    /** @return where the excerpt's bytes start in the value */
    int excerptOffset() {
        return fields + 2 * Long.BYTES + Integer.BYTES;
    }

    int excerptLength() {
        return excerptLength;
    }

    /** @return the value wrapped */
    byte[] value() {
        return bytes;
    }
}
