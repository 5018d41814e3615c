package io.sluice.marketdata.feed;

import java.nio.ByteOrder;

/**
 * What every part of the binary feed shares: its byte order, how a message sits in a packet, and the largest packet.
 * Each message's own layout lives in its flyweight ({@link AddOrder}, {@link Trade}, ...), the packet header's in
 * {@link PacketHeader}; encoders and decoders use those and nothing else.
 */
public final class FeedLayout {
    /** Every integer of the feed, in packets, in the market-data journal and on the retransmission socket. */
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** A message block in a packet: an unsigned 16-bit length, then the message (MoldUDP64's message block). */
    public static final int BLOCK_LENGTH_PREFIX = Short.BYTES;
    /** The largest packet: what fits one 1500-byte Ethernet frame after the IPv4 and UDP headers. */
    public static final int MAX_PACKET = 1472;

    private FeedLayout() {
    }
}
