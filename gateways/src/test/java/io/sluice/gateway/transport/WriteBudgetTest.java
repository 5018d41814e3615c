package io.sluice.gateway.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How many writes a budget lets go: its rate, sustained, and no more than its burst after a quiet spell. */
class WriteBudgetTest {
    private static final long MS = 1_000_000L;

    @Test
    void aSustainedCallerGetsTheRateAndNoMore() {
        final WriteBudget budget = new WriteBudget(1_000, 8);
        int written = 0;
        for (long now = 10 * MS; now < 10 * MS + 1_000 * MS; now += 10_000) {
            if (budget.tryWrite(now)) {
                written++;
            }
        }
        assertEquals(1_000 + 7, written, "one a millisecond over a second, after the burst owed at the start");
    }

    @Test
    void aLateRoundWritesItsBurstThenWaitsForTheNextSlot() {
        final WriteBudget budget = new WriteBudget(1_000, 3);
        final long late = 500 * MS;
        assertTrue(budget.tryWrite(late));
        assertTrue(budget.tryWrite(late));
        assertTrue(budget.tryWrite(late));
        assertFalse(budget.tryWrite(late), "three owed after a quiet spell, however long");
        assertFalse(budget.tryWrite(late + MS / 2));
        assertTrue(budget.tryWrite(late + MS));
        assertFalse(budget.tryWrite(late + MS));
    }

    @Test
    void noLimitLetsEveryWriteGo() {
        final WriteBudget budget = new WriteBudget(0, 1);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(budget.tryWrite(0));
        }
    }

    @Test
    void aNegativeRateOrAnEmptyBurstIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WriteBudget(-1, 8));
        assertThrows(IllegalArgumentException.class, () -> new WriteBudget(1_000, 0));
    }
}
