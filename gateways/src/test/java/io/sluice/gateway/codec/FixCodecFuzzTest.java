package io.sluice.gateway.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing of everything that reads untrusted bytes. In the normal test run Jazzer replays the seeds under
 * {@code src/test/resources/.../FixCodecFuzzTestInputs} (regression mode); with {@code JAZZER_FUZZ=1} it
 * fuzzes for the given duration. Jazzer 0.24.0 cannot instrument Java 25 class files (major version 69),
 * so on this JDK it fuzzes without coverage feedback; the FIX-shaped generator makes that still reach
 * the parser's and groups' error paths. Properties: no exception of any kind escapes;
 * a frame that parses re-encodes to a frame that parses to the same fields; an identifier accepted by
 * {@link ShortText} is accepted by Chronicle's converter with the same value and text.
 */
class FixCodecFuzzTest {
    private final FixFramer framer = new FixFramer(4096);
    private final FixMessage message = new FixMessage(128);
    private final FixMessage reparsed = new FixMessage(128);
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(new byte[16_384]));

    @FuzzTest(maxDuration = "60s")
    void framesParseOrFailWithACode(final byte[] input) {
        checkFrames(input);
    }

    /** The same properties on FIX-shaped input, which reaches deeper without coverage feedback. */
    @FuzzTest(maxDuration = "60s")
    void fixShapedMessagesParseOrFailWithACode(final FuzzedDataProvider data) {
        final int messages = data.consumeInt(1, 4);
        final ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int i = 0; i < messages; i++) {
            stream.writeBytes(FuzzedMessages.frame(data, FuzzedMessages.body(data, "CLIENT1", i + 1,
                    "20261122-10:00:00.000")));
        }
        checkFrames(stream.toByteArray());
    }

    private void checkFrames(final byte[] input) {
        final UnsafeBuffer buffer = new UnsafeBuffer(input);
        int offset = 0;
        while (offset < input.length) {
            final int length = framer.scan(buffer, offset, input.length - offset);
            if (length <= 0) {
                assertTrue(length == 0 || framer.error().isFraming());
                return;
            }
            if (framer.error() == FixError.NONE
                    && message.parse(buffer, framer.bodyStart(), framer.bodyEnd()) == FixError.NONE) {
                reencodeAndCompare();
            } else {
                message.unsignedValue(FixTags.MSG_SEQ_NUM);
            }
            offset += length;
        }
        final int count = Math.min(input.length, 64);
        FixDecimal.parsePrice(buffer, 0, count);
        FixDecimal.parseQuantity(buffer, 0, count);
        UtcTimestamp.parse(buffer, 0, count);
        final long id = ShortText.parse(buffer, 0, count);
        if (id != ShortText.INVALID) {
            final String text = buffer.getStringWithoutLengthAscii(0, count);
            assertEquals(ShortTextLongConverter.INSTANCE.parse(text), id);
            assertEquals(text, ShortText.toString(id));
        }
    }

    private void reencodeAndCompare() {
        encoder.start(message.msgType());
        for (int i = 1; i < message.fieldCount(); i++) {
            encoder.field(message.tag(i), message.buffer(), message.valueOffset(i), message.valueLength(i));
        }
        encoder.finish();
        final int length = framer.scan(encoder.buffer(), encoder.messageOffset(), encoder.messageLength());
        assertEquals(encoder.messageLength(), length);
        assertEquals(FixError.NONE, framer.error());
        assertEquals(FixError.NONE, reparsed.parse(encoder.buffer(), framer.bodyStart(), framer.bodyEnd()));
        assertEquals(message.fieldCount(), reparsed.fieldCount());
        assertEquals(message.msgType(), reparsed.msgType());
        for (int i = 0; i < message.fieldCount(); i++) {
            assertEquals(message.tag(i), reparsed.tag(i));
            assertEquals(message.groupDepth(i), reparsed.groupDepth(i));
        }
    }
}
