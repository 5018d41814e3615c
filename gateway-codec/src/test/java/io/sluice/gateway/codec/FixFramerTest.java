package io.sluice.gateway.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.sluice.gateway.codec.FixBytes.buffer;
import static io.sluice.gateway.codec.FixBytes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Framing: BeginString first, BodyLength ends where CheckSum begins, CheckSum matches. */
class FixFramerTest {
    private final FixFramer framer = new FixFramer(4096);

    @Test
    void aCompleteFrameIsDelimitedByBodyLengthAndCheckSum() {
        final String message = frame("35=0|49=A|56=B|34=1|52=20260101-00:00:00.000|");
        final UnsafeBuffer buffer = buffer(message + "8=FIX.4.4|9=");
        assertEquals(message.length(), framer.scan(buffer, 0, buffer.capacity()));
        assertEquals(FixError.NONE, framer.error());
        assertEquals("35=0|", FixBytes.text(buffer, framer.bodyStart(), 5));
        assertEquals("10=", FixBytes.text(buffer, framer.bodyEnd(), 3));
    }

    @Test
    void everyPrefixOfAFrameAsksForMoreBytes() {
        final String message = frame("35=0|49=A|56=B|34=1|52=20260101-00:00:00.000|");
        final UnsafeBuffer buffer = buffer(message);
        for (int length = 0; length < message.length(); length++) {
            assertEquals(0, framer.scan(buffer, 0, length), "prefix of " + length);
        }
    }

    @Test
    void aWrongBeginStringIsAFramingError() {
        final UnsafeBuffer buffer = buffer("8=FIX.4.2|9=5|35=0|10=000|");
        assertEquals(-1, framer.scan(buffer, 0, buffer.capacity()));
        assertEquals(FixError.BAD_BEGIN_STRING, framer.error());
        assertEquals(-1, framer.scan(buffer("GET / HTTP/1.1"), 0, 3), "rejected as soon as a byte differs");
    }

    @Test
    void aBodyLengthThatDoesNotReachTheCheckSumIsAFramingError() {
        final String good = frame("35=0|49=A|");
        final UnsafeBuffer buffer = buffer(good.replace("9=10|", "9=9|"));
        assertEquals(-1, framer.scan(buffer, 0, buffer.capacity()));
        assertEquals(FixError.BAD_BODY_LENGTH, framer.error());
        final UnsafeBuffer letters = buffer("8=FIX.4.4|9=1x|35=0|");
        assertEquals(-1, framer.scan(letters, 0, letters.capacity()));
        assertEquals(FixError.BAD_BODY_LENGTH, framer.error());
    }

    @Test
    void aBodyLongerThanTheLimitIsAFramingError() {
        final UnsafeBuffer buffer = buffer("8=FIX.4.4|9=4097|");
        assertEquals(-1, framer.scan(buffer, 0, buffer.capacity()));
        assertEquals(FixError.BODY_TOO_LONG, framer.error());
    }

    @Test
    void aWrongCheckSumStillDelimitsTheFrameSoItCanBeSkipped() {
        final String good = frame("35=0|49=A|");
        final String bad = good.substring(0, good.length() - 4) + (good.endsWith("000|") ? "001|" : "000|");
        final UnsafeBuffer buffer = buffer(bad);
        assertEquals(bad.length(), framer.scan(buffer, 0, buffer.capacity()));
        assertEquals(FixError.BAD_CHECKSUM, framer.error());
    }
}
