package io.sluice.gateway.codec;

import io.sluice.contracts.Price;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The encoder produces frames the framer and parser accept, with BodyLength and CheckSum right. */
class FixEncoderTest {
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(new byte[1024]));

    @Test
    void aMessageGetsBeginStringBodyLengthAndCheckSum() {
        encoder.start(MsgTypes.HEARTBEAT).header("SLUICE".getBytes(), "CLIENT1".getBytes(), 7,
                Instant.parse("2026-11-22T10:00:00.5Z").toEpochMilli()).finish();
        final String text = FixBytes.text(encoder.buffer(), encoder.messageOffset(), encoder.messageLength());
        assertEquals(FixBytes.frame("35=0|49=SLUICE|56=CLIENT1|34=7|52=20261122-10:00:00.500|"), text);
    }

    @Test
    void typedFieldsRoundTripThroughTheParser() {
        final long clOrdId = ShortText.parse("ORD-000001");
        encoder.start(MsgTypes.NEW_ORDER_SINGLE).header("C".getBytes(), "S".getBytes(), 123_456, 0)
                .shortTextField(FixTags.CL_ORD_ID, clOrdId)
                .priceField(FixTags.PRICE, Price.of(101) + Price.SCALE / 4)
                .priceField(FixTags.LAST_PX, -5)
                .longField(FixTags.ORDER_QTY, 1_000_000)
                .charField(FixTags.SIDE, '2')
                .textField(FixTags.TEXT, "Unknown symbol \u00e9")
                .finish();
        final FixFramer framer = new FixFramer(4096);
        assertEquals(encoder.messageLength(),
                framer.scan(encoder.buffer(), encoder.messageOffset(), encoder.messageLength()));
        assertEquals(FixError.NONE, framer.error());
        final FixMessage message = new FixMessage(32);
        assertEquals(FixError.NONE, message.parse(encoder.buffer(), framer.bodyStart(), framer.bodyEnd()));
        final int clOrdIdIndex = message.indexOf(FixTags.CL_ORD_ID);
        assertEquals(clOrdId, ShortText.parse(message.buffer(), message.valueOffset(clOrdIdIndex),
                message.valueLength(clOrdIdIndex)));
        final int price = message.indexOf(FixTags.PRICE);
        assertEquals("101.25", FixBytes.text(message.buffer(), message.valueOffset(price), message.valueLength(price)));
        final int lastPx = message.indexOf(FixTags.LAST_PX);
        assertEquals("-0.00000005", FixBytes.text(message.buffer(), message.valueOffset(lastPx), message.valueLength(lastPx)));
        assertEquals(1_000_000, message.unsignedValue(FixTags.ORDER_QTY));
        final int text = message.indexOf(FixTags.TEXT);
        assertEquals("Unknown symbol ?", FixBytes.text(message.buffer(), message.valueOffset(text), message.valueLength(text)));
        assertEquals(0, message.timestampValue(FixTags.SENDING_TIME));
    }

    @Test
    void pastedFieldsGiveTheSameBytesAsFieldsWrittenInPlace() {
        final EncodedFields shared = new EncodedFields(256);
        shared.start().longField(FixTags.RPT_SEQ, 42).priceField(FixTags.MD_ENTRY_PX, Price.of(99))
                .longField(FixTags.MD_ENTRY_SIZE, 300);
        shared.end();
        encoder.start(MsgTypes.MARKET_DATA_INCREMENTAL_REFRESH).header("SLUICE".getBytes(), "SUB1".getBytes(), 9, 0)
                .field(FixTags.MD_REQ_ID, "R1".getBytes()).encodedFields(shared).charField(FixTags.TEXT, 'x').finish();
        final String pasted = FixBytes.text(encoder.buffer(), encoder.messageOffset(), encoder.messageLength());
        encoder.start(MsgTypes.MARKET_DATA_INCREMENTAL_REFRESH).header("SLUICE".getBytes(), "SUB1".getBytes(), 9, 0)
                .field(FixTags.MD_REQ_ID, "R1".getBytes()).longField(FixTags.RPT_SEQ, 42)
                .priceField(FixTags.MD_ENTRY_PX, Price.of(99)).longField(FixTags.MD_ENTRY_SIZE, 300)
                .charField(FixTags.TEXT, 'x').finish();
        assertEquals(FixBytes.text(encoder.buffer(), encoder.messageOffset(), encoder.messageLength()), pasted);
        assertEquals(FixBytes.frame("35=X|49=SLUICE|56=SUB1|34=9|52=19700101-00:00:00.000|262=R1|83=42|270=99|271=300|"
                + "58=x|"), pasted);
    }
}
