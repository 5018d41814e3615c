package io.sluice.testkit.fix;

import io.sluice.gateway.codec.FixBytes;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a script's I line puts on the wire: BodyLength, CheckSum and times filled in, or left as the line gives them. */
class FixScriptTest {
    private static final long NOW = Instant.parse("2026-11-25T10:00:00Z").toEpochMilli();

    private static FixError framing(final String pipeDelimited) {
        final UnsafeBuffer buffer = FixBytes.buffer(pipeDelimited);
        final FixFramer framer = new FixFramer(4096);
        assertEquals(buffer.capacity(), framer.scan(buffer, 0, buffer.capacity()), pipeDelimited);
        return framer.error();
    }

    @Test
    void bodyLengthCheckSumAndTimesAreFilledIn() {
        final String sent = FixScript.frame("8=FIX.4.4|35=1|34=2|49=C|56=S|52=<NOW>|122=<NOW-5>|112=T|", NOW);
        assertEquals(FixError.NONE, framing(sent), sent);
        assertTrue(sent.contains("|52=20261125-10:00:00.000|122=20261125-09:59:55.000|"), sent);
        assertEquals(FixBytes.frame("35=1|34=2|49=C|56=S|52=20261125-10:00:00.000|122=20261125-09:59:55.000|112=T|"),
                sent);
    }

    @Test
    void aCheckSumOrBodyLengthTheLineGivesIsSentAsItIs() {
        assertEquals(FixError.BAD_CHECKSUM, framing(FixScript.frame("8=FIX.4.4|35=0|34=2|10=000|", NOW)));
        final String reordered = FixScript.frame("8=FIX.4.4|9=<LEN>|34=2|35=0|", NOW);
        assertEquals(FixError.NONE, framing(reordered));
        assertTrue(reordered.startsWith("8=FIX.4.4|9=10|34=2|35=0|10="), reordered);
    }
}
