package io.sluice.marketdata.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every feed message and the packet header, byte for byte: each flyweight writes exactly the layout its Javadoc (and
 * docs/market-data.md) gives, built here field by field with a plain little-endian {@link ByteBuffer}, and reads back
 * what it wrote. A field that moves or changes size fails here.
 */
final class FeedLayoutTest {
    private static final long SYMBOL = 0x0102030405060708L;
    private static final long TIME = 0x1112131415161718L;

    @Test
    void addOrder() {
        final AddOrder m = new AddOrder();
        final UnsafeBuffer buffer = buffer();
        m.wrapForEncode(buffer, 3);
        assertEquals(42, m.encode(FeedMessage.SELL, SYMBOL, TIME, 77, 10_050_000_000L, 300));
        assertBytes(expected(42).put((byte) 'A').put((byte) 'S').putLong(SYMBOL).putLong(TIME).putLong(77)
                .putLong(10_050_000_000L).putLong(300), buffer);
        m.wrapForDecode(buffer, 3);
        assertEquals(77, m.orderId());
        assertEquals(10_050_000_000L, m.price());
        assertEquals(300, m.quantity());
        assertEquals(FeedMessage.SELL, m.flag());
    }

    @Test
    void modifyOrder() {
        final ModifyOrder m = new ModifyOrder();
        final UnsafeBuffer buffer = buffer();
        m.wrapForEncode(buffer, 3);
        assertEquals(34, m.encode(FeedMessage.BUY, SYMBOL, TIME, 78, 250));
        assertBytes(expected(34).put((byte) 'U').put((byte) 'B').putLong(SYMBOL).putLong(TIME).putLong(78).putLong(250),
                buffer);
    }

    @Test
    void deleteOrder() {
        final DeleteOrder m = new DeleteOrder();
        final UnsafeBuffer buffer = buffer();
        m.wrapForEncode(buffer, 3);
        assertEquals(26, m.encode(FeedMessage.BUY, SYMBOL, TIME, 79));
        assertBytes(expected(26).put((byte) 'D').put((byte) 'B').putLong(SYMBOL).putLong(TIME).putLong(79), buffer);
    }

    @Test
    void trade() {
        final Trade m = new Trade();
        final UnsafeBuffer buffer = buffer();
        m.wrapForEncode(buffer, 3);
        assertEquals(58, m.encode(FeedMessage.BUY, SYMBOL, TIME, 80, 81, 82, 83, 84));
        assertBytes(expected(58).put((byte) 'T').put((byte) 'B').putLong(SYMBOL).putLong(TIME).putLong(80).putLong(81)
                .putLong(82).putLong(83).putLong(84), buffer);
        m.wrapForDecode(buffer, 3);
        assertEquals(84, m.restingQuantity());
    }

    @Test
    void tradingStatus() {
        final TradingStatus m = new TradingStatus();
        final UnsafeBuffer buffer = buffer();
        m.wrapForEncode(buffer, 3);
        assertEquals(19, m.encode(TradingStatus.CLOSED, SYMBOL, TIME, true));
        assertBytes(expected(19).put((byte) 'S').put((byte) 'C').putLong(SYMBOL).putLong(TIME).put((byte) 1), buffer);
    }

    @Test
    void bookChecksumEndOfSnapshotAndRefusal() {
        final UnsafeBuffer buffer = buffer();
        final BookChecksum checksum = new BookChecksum();
        checksum.wrapForEncode(buffer, 3);
        assertEquals(26, checksum.encode(SYMBOL, TIME, -2));
        assertBytes(expected(26).put((byte) 'C').put((byte) 0).putLong(SYMBOL).putLong(TIME).putLong(-2), buffer);
        final UnsafeBuffer end = buffer();
        final EndOfSnapshot snapshotEnd = new EndOfSnapshot();
        snapshotEnd.wrapForEncode(end, 3);
        assertEquals(26, snapshotEnd.encode(TIME, 99));
        assertBytes(expected(26).put((byte) 'E').put((byte) 0).putLong(0).putLong(TIME).putLong(99), end);
        final UnsafeBuffer refused = buffer();
        final RetransmitRefusal refusal = new RetransmitRefusal();
        refusal.wrapForEncode(refused, 3);
        assertEquals(42, refusal.encode(RefusalReason.ARCHIVED, TIME, 5, 6, 7));
        assertBytes(expected(42).put((byte) 'R').put((byte) 'A').putLong(0).putLong(TIME).putLong(5).putLong(6)
                .putLong(7), refused);
    }

    @Test
    void packetHeaderIsMoldUdp64s() {
        final UnsafeBuffer buffer = buffer();
        PacketHeader.encode(buffer, 3, PacketHeader.sessionBytes("SLUICE"), 0x0A0B0C0D0E0F1011L, 0xFFFE);
        assertBytes(expected(20).put("SLUICE    ".getBytes()).putLong(0x0A0B0C0D0E0F1011L).putShort((short) 0xFFFE),
                buffer);
        assertEquals(0xFFFE, PacketHeader.count(buffer, 3));
        assertEquals(0x0A0B0C0D0E0F1011L, PacketHeader.sequence(buffer, 3));
    }

    private static UnsafeBuffer buffer() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        buffer.setMemory(0, 128, (byte) 0x5A);
        return buffer;
    }

    private static ByteBuffer expected(final int length) {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The bytes at 3 are exactly {@code expected}'s, and the bytes around them untouched. */
    private static void assertBytes(final ByteBuffer expected, final UnsafeBuffer actual) {
        assertEquals(0, expected.remaining(), "the expected layout has the message's length");
        final byte[] bytes = Arrays.copyOfRange(actual.byteArray(), 3, 3 + expected.capacity());
        assertEquals(HexFormat.of().formatHex(expected.array()), HexFormat.of().formatHex(bytes));
        assertEquals(0x5A, actual.getByte(2));
        assertEquals(0x5A, actual.getByte(3 + expected.capacity()));
    }
}
