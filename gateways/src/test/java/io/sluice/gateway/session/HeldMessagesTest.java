package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixBytes;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeldMessagesTest {
    private final FixMessage message = new FixMessage(64);

    private FixMessage parsed(final long seq, final String text) {
        final UnsafeBuffer buffer = FixBytes.buffer(FixBytes.frame("35=B|49=C|56=S|34=" + seq + "|58=" + text + "|"));
        final FixFramer framer = new FixFramer(1024);
        framer.scan(buffer, 0, buffer.capacity());
        message.parse(buffer, framer.bodyStart(), framer.bodyEnd());
        return message;
    }

    @Test
    void handsMessagesBackInTheOrderTheyWereHeldWithTheirReceiveTimes() {
        final HeldMessages held = new HeldMessages(1024);
        assertTrue(held.hold(5, parsed(5, "five"), 50, false));
        assertTrue(held.hold(6, parsed(6, "six"), 60, true));
        assertEquals(5, held.firstSeq());
        assertEquals(50, held.firstReceivedTicks());
        assertFalse(held.firstAnswered());
        assertEquals("five", text(held.release()));
        assertEquals(6, held.firstSeq());
        assertTrue(held.firstAnswered());
        held.drop();
        assertTrue(held.isEmpty());
    }

    @Test
    void refusesWhatDoesNotFitAndHasRoomAgainOnceEmptied() {
        final HeldMessages held = new HeldMessages(128);
        assertTrue(held.hold(5, parsed(5, "five"), 0, false));
        assertFalse(held.hold(6, parsed(6, "a-text-long-enough-to-overflow-the-buffer-of-128-bytes-" + "x".repeat(40)),
                0, false));
        held.drop();
        assertTrue(held.isEmpty());
        assertTrue(held.hold(7, parsed(7, "seven"), 0, false));
        assertEquals(7, held.firstSeq());
    }

    private static String text(final FixMessage released) {
        final int index = released.indexOf(FixTags.TEXT);
        return FixBytes.text(released.buffer(), released.valueOffset(index), released.valueLength(index));
    }
}
