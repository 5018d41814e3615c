package io.sluice.marketdata.feed;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The header of every feed packet, MoldUDP64's. The feed session (10 ASCII bytes, space padded), the sequence number of
 * the packet's first message, and how many messages follow (0: a heartbeat, saying which sequence comes next).
 * A retransmission request is this header alone: the first sequence wanted and how many.
 * <pre>
 *   0 session (10 bytes) | 10 sequence (8) | 18 count (2, unsigned): 20 bytes, then the message blocks
 * </pre>
 */
public final class PacketHeader {
    public static final int SESSION = 0;
    public static final int SESSION_LENGTH = 10;
    public static final int SEQUENCE = SESSION + SESSION_LENGTH;
    public static final int COUNT = SEQUENCE + Long.BYTES;
    public static final int LENGTH = COUNT + Short.BYTES;

    private PacketHeader() {
    }

    /** Writes a header at {@code offset}; the session is {@link #sessionBytes} of the feed's name. */
    public static void encode(final MutableDirectBuffer buffer, final int offset, final byte[] session,
                              final long sequence, final int count) {
        buffer.putBytes(offset + SESSION, session, 0, SESSION_LENGTH);
        buffer.putLong(offset + SEQUENCE, sequence, FeedLayout.ORDER);
        buffer.putShort(offset + COUNT, (short) count, FeedLayout.ORDER);
    }

    public static long sequence(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + SEQUENCE, FeedLayout.ORDER);
    }

    public static int count(final DirectBuffer buffer, final int offset) {
        return buffer.getShort(offset + COUNT, FeedLayout.ORDER) & 0xFFFF;
    }

    /** @return true if the header at {@code offset} names {@code session} */
    public static boolean isSession(final DirectBuffer buffer, final int offset, final byte[] session) {
        for (int i = 0; i < SESSION_LENGTH; i++) {
            if (buffer.getByte(offset + SESSION + i) != session[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the 10 session bytes of a feed named {@code name}: its ASCII characters, space padded
     * @throws IllegalArgumentException if the name is empty, longer than 10 characters, or not printable ASCII
     */
    public static byte[] sessionBytes(final String name) {
        if (name == null || name.isEmpty() || name.length() > SESSION_LENGTH || !name.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException("a feed session is 1 to 10 printable ASCII characters, got '" + name + "'");
        }
        final byte[] bytes = new byte[SESSION_LENGTH];
        for (int i = 0; i < SESSION_LENGTH; i++) {
            bytes[i] = (byte) (i < name.length() ? name.charAt(i) : ' ');
        }
        return bytes;
    }
}
