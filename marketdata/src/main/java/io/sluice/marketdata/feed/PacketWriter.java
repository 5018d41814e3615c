package io.sluice.marketdata.feed;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Builds one feed packet at a time in its own direct buffer: a {@link PacketHeader}, then message blocks copied in
 * while they fit {@link FeedLayout#MAX_PACKET}. The sequence of the packet is that of its first message; messages in
 * a packet are consecutive. Single-threaded, reused for every packet.
 */
public final class PacketWriter {
    private final byte[] session;
    private final ByteBuffer packet = ByteBuffer.allocateDirect(FeedLayout.MAX_PACKET);
    private final UnsafeBuffer buffer = new UnsafeBuffer(packet);
    private long sequence;
    private int count;
    private int length;

    public PacketWriter(final byte[] session) {
        this.session = session.clone();
    }

    /** Starts a packet whose first message will have {@code firstSequence}. */
    public void begin(final long firstSequence) {
        sequence = firstSequence;
        count = 0;
        length = PacketHeader.LENGTH;
    }

    /** @return true if a message of {@code messageLength} bytes still fits */
    public boolean fits(final int messageLength) {
        return length + FeedLayout.BLOCK_LENGTH_PREFIX + messageLength <= FeedLayout.MAX_PACKET;
    }

    /** Appends a message of {@code messageLength} bytes at {@code offset} of {@code source}; check {@link #fits} first. */
    public void append(final DirectBuffer source, final int offset, final int messageLength) {
        buffer.putShort(length, (short) messageLength, FeedLayout.ORDER);
        buffer.putBytes(length + FeedLayout.BLOCK_LENGTH_PREFIX, source, offset, messageLength);
        length += FeedLayout.BLOCK_LENGTH_PREFIX + messageLength;
        count++;
    }

    /** @return the buffer a message may be encoded into in place, at {@link #nextMessageOffset()} (then {@link #commit}) */
    public UnsafeBuffer buffer() {
        return buffer;
    }

    /** @return where the next message's bytes go, after its length prefix */
    public int nextMessageOffset() {
        return length + FeedLayout.BLOCK_LENGTH_PREFIX;
    }

    /** Takes a message of {@code messageLength} bytes encoded in place at {@link #nextMessageOffset()}. */
    public void commit(final int messageLength) {
        buffer.putShort(length, (short) messageLength, FeedLayout.ORDER);
        length += FeedLayout.BLOCK_LENGTH_PREFIX + messageLength;
        count++;
    }

    /** @return how many messages the packet holds */
    public int count() {
        return count;
    }

    /** @return the sequence of the packet's first message */
    public long sequence() {
        return sequence;
    }

    /** Writes the header; @return the whole packet, positioned for a channel write */
    public ByteBuffer finish() {
        PacketHeader.encode(buffer, 0, session, sequence, count);
        packet.limit(length).position(0);
        return packet;
    }
}
