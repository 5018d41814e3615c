package io.sluice.gateway.session;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixed table behind the logon throttle, keyed by (CompID, address): blocking, doubling, forgetting, and giving
 * way when full.
 */
class BackoffTableTest {
    private static final long ADDRESS = 7;
    private final BackoffTable table = new BackoffTable(BackoffTable.WINDOW, 2, 100, 1_000);

    @Test
    void aKeyIsBlockedFromItsAllowedFailureOnAndEachFurtherFailureDoublesTheBlock() {
        table.failed(1, ADDRESS, 0);
        assertFalse(table.isBlocked(1, ADDRESS, 0), "one failure of two allowed");
        table.failed(1, ADDRESS, 10);
        assertTrue(table.isBlocked(1, ADDRESS, 109));
        assertFalse(table.isBlocked(1, ADDRESS, 110));
        table.failed(1, ADDRESS, 110);
        assertTrue(table.isBlocked(1, ADDRESS, 309));
        assertFalse(table.isBlocked(1, ADDRESS, 310));
        assertFalse(table.isBlocked(2, ADDRESS, 110), "other CompIDs are not affected");
        assertFalse(table.isBlocked(1, ADDRESS + 1, 110), "nor the same CompID from another address");
    }

    @Test
    void theBlockNeverExceedsTheMaximum() {
        for (int i = 0; i < 40; i++) {
            table.failed(1, ADDRESS, 0);
        }
        assertTrue(table.isBlocked(1, ADDRESS, 999));
        assertFalse(table.isBlocked(1, ADDRESS, 1_000));
    }

    @Test
    void aKeyQuietForLongerThanTheMaximumStartsAgainFromNothing() {
        table.failed(1, ADDRESS, 0);
        table.failed(1, ADDRESS, 1);
        table.failed(1, ADDRESS, 2_000);
        assertEquals(1, table.failures(1, ADDRESS));
        assertFalse(table.isBlocked(1, ADDRESS, 2_000));
    }

    @Test
    void successForgetsTheFailures() {
        table.failed(1, ADDRESS, 0);
        table.failed(1, ADDRESS, 0);
        table.succeeded(1, ADDRESS);
        assertFalse(table.isBlocked(1, ADDRESS, 0));
        assertEquals(0, table.failures(1, ADDRESS));
    }

    @Test
    void keysThatAWeakerHashWouldConfuseStayApart() {
        table.failed(1, 31, 0);
        table.failed(1, 31, 0);
        assertTrue(table.isBlocked(1, 31, 1));
        assertFalse(table.isBlocked(2, 0, 1), "2 * 31 + 0 == 1 * 31 + 31, and still another key");
        assertEquals(0, table.failures(2, 0));
    }

    @Test
    void whenEverySlotIsTakenTheKeyThatFailedLongestAgoGivesWay() {
        for (int key = 1; key <= BackoffTable.WINDOW; key++) {
            table.failed(key, ADDRESS, key);
        }
        table.failed(100, ADDRESS, 100);
        assertEquals(0, table.failures(1, ADDRESS), "the oldest entry gave way");
        for (int key = 2; key <= BackoffTable.WINDOW; key++) {
            assertEquals(1, table.failures(key, ADDRESS));
        }
        assertEquals(1, table.failures(100, ADDRESS));
    }
}
