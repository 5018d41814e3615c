package io.sluice.gateway.session;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fixed table behind the logon throttle: blocking, doubling, forgetting, and giving way when full. */
class BackoffTableTest {
    private final BackoffTable table = new BackoffTable(BackoffTable.WINDOW, 2, 100, 1_000);

    @Test
    void aKeyIsBlockedFromItsAllowedFailureOnAndEachFurtherFailureDoublesTheBlock() {
        table.failed(1, 0);
        assertFalse(table.isBlocked(1, 0), "one failure of two allowed");
        table.failed(1, 10);
        assertTrue(table.isBlocked(1, 109));
        assertFalse(table.isBlocked(1, 110));
        table.failed(1, 110);
        assertTrue(table.isBlocked(1, 309));
        assertFalse(table.isBlocked(1, 310));
        assertFalse(table.isBlocked(2, 110), "other keys are not affected");
    }

    @Test
    void theBlockNeverExceedsTheMaximum() {
        for (int i = 0; i < 40; i++) {
            table.failed(1, 0);
        }
        assertTrue(table.isBlocked(1, 999));
        assertFalse(table.isBlocked(1, 1_000));
    }

    @Test
    void aKeyQuietForLongerThanTheMaximumStartsAgainFromNothing() {
        table.failed(1, 0);
        table.failed(1, 1);
        table.failed(1, 2_000);
        assertEquals(1, table.failures(1));
        assertFalse(table.isBlocked(1, 2_000));
    }

    @Test
    void successForgetsTheFailures() {
        table.failed(1, 0);
        table.failed(1, 0);
        table.succeeded(1);
        assertFalse(table.isBlocked(1, 0));
        assertEquals(0, table.failures(1));
    }

    @Test
    void whenEverySlotIsTakenTheKeyThatFailedLongestAgoGivesWay() {
        for (int key = 1; key <= BackoffTable.WINDOW; key++) {
            table.failed(key, key);
        }
        table.failed(100, 100);
        assertEquals(0, table.failures(1), "the oldest entry gave way");
        for (int key = 2; key <= BackoffTable.WINDOW; key++) {
            assertEquals(1, table.failures(key));
        }
        assertEquals(1, table.failures(100));
    }
}
