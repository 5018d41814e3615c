package io.sluice.gateway.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a gate's release lets out of a connection's queued messages: never a byte of a message it has not released. */
class SendMarksTest {
    @Test
    void releasesUpToTheEndOfTheLastMessageWhoseStampIsReleased() {
        final SendMarks marks = new SendMarks();
        marks.mark(100, 7);
        marks.mark(250, 9);
        marks.mark(300, 12);
        assertEquals(0, marks.releasedEnd(6));
        assertEquals(100, marks.releasedEnd(8));
        assertEquals(250, marks.releasedEnd(11));
        assertTrue(marks.holding());
        assertEquals(300, marks.releasedEnd(12));
        assertFalse(marks.holding());
        assertEquals(300, marks.releasedEnd(Long.MAX_VALUE));
    }

    @Test
    void messagesStampedAlikeShareAMark() {
        final SendMarks marks = new SendMarks();
        marks.mark(100, 7);
        marks.mark(180, 7); // e.g. a gap fill queued after a journaled message: nothing newer journaled
        assertEquals(180, marks.releasedEnd(7));
    }

    @Test
    void aFullRingMergesIntoItsNewestMarkSoBytesWaitLongerNeverLess() {
        final SendMarks marks = new SendMarks();
        for (int i = 1; i <= 1000; i++) {
            marks.mark(10L * i, i);
        }
        assertEquals(2550, marks.releasedEnd(255)); // the first 255 marks are kept as they were
        assertEquals(2550, marks.releasedEnd(999)); // the rest were merged into one that waits for stamp 1000
        assertTrue(marks.holding());
        assertEquals(10_000, marks.releasedEnd(1000));
        assertFalse(marks.holding());
    }

    @Test
    void droppedBytesLeaveNoMarks() {
        final SendMarks marks = new SendMarks();
        marks.mark(100, 7);
        marks.clear(100);
        assertFalse(marks.holding());
        assertEquals(100, marks.releasedEnd(-1));
    }
}
