package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import net.openhft.chronicle.wire.BinaryWireCode;
import org.agrona.DirectBuffer;

/**
 * The first method-writer call of an excerpt, read in place from its bytes: its method id and where its payload
 * starts, so that the fields {@link RecordLayout} places can be taken from it. A call is a field number (the method
 * id, stop-bit encoded), a 32-bit length and the payload. Reused: {@link #read} it, then ask.
 */
final class ExcerptCall {
    private static final int FIELD_NUMBER = BinaryWireCode.FIELD_NUMBER;
    private static final int BYTES_LENGTH32 = BinaryWireCode.BYTES_LENGTH32;

    private DirectBuffer buffer;
    private long methodId;
    private int payload;
    private int size;

    /**
     * Reads the first call of the excerpt in {@code buffer}, {@code length} bytes from 0.
     *
     * @return false if it does not start with a length-prefixed call (then nothing else here is valid)
     */
    boolean read(final DirectBuffer buffer, final int length) {
        this.buffer = buffer;
        if (length < 2 || (buffer.getByte(0) & 0xFF) != FIELD_NUMBER) {
            return false;
        }
        int position = 1;
        long id = 0;
        int shift = 0;
        int octet;
        do {
            if (position >= length || shift > 28) {
                return false;
            }
            octet = buffer.getByte(position++) & 0xFF;
            id |= (long) (octet & 0x7F) << shift;
            shift += 7;
        } while ((octet & 0x80) != 0);
        if (position + 1 + Integer.BYTES > length || (buffer.getByte(position) & 0xFF) != BYTES_LENGTH32) {
            return false;
        }
        size = buffer.getInt(position + 1);
        payload = position + 1 + Integer.BYTES;
        if (size < 0 || size > length - payload) {
            return false;
        }
        methodId = id;
        return true;
    }

    /** @return the excerpt last {@link #read}, whether or not it starts with a call (a market-data batch does not) */
    DirectBuffer excerpt() {
        return buffer;
    }

    long methodId() {
        return methodId;
    }

    /** @return true if the payload holds at least {@code bytes} */
    boolean holds(final int bytes) {
        return size >= bytes;
    }

    int intAt(final int offset) {
        return buffer.getInt(payload + offset);
    }

    long longAt(final int offset) {
        return buffer.getLong(payload + offset);
    }
}
