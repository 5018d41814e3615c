package io.sluice.engine.risk;

import io.sluice.contracts.Side;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Firms keep their own slots up to capacity, and a firm's exposure follows its orders as they are taken, fill and close. */
class FirmRiskTest {
    @Test
    void eachFirmKeepsItsSlotUpToCapacity() {
        final int maxFirms = 37;
        final FirmLimitsConfig listed = new FirmLimitsConfig().firm(1_000_003L);
        final FirmRisk risk = new FirmRisk(new RiskConfig().maxFirms(maxFirms).addFirm(listed), 2);
        for (long firm = 1; firm < maxFirms; firm++) { // keys close together: neighbours in the lookup table
            assertEquals((int) firm, risk.exposureOf(firm * 64).slot());
        }
        assertNull(risk.exposureOf(99_999L), "every slot taken");
        assertEquals(0, risk.find(1_000_003L).slot());
        for (long firm = 1; firm < maxFirms; firm++) {
            assertSame(risk.inSlot((int) firm), risk.find(firm * 64));
            assertEquals(firm * 64, risk.find(firm * 64).firm());
        }
        assertNull(risk.find(65L));
        assertEquals(maxFirms, risk.firms());
    }

    @Test
    void anOrderCountsOnceWhenItHasMatchedAndItsLastFillClosesIt() {
        final FirmRisk risk = new FirmRisk(new RiskConfig(), 2);
        final FirmExposure firm = risk.exposureOf(7L);
        risk.onNewOrder(firm, 1, Side.SELL, 5, 0, 30, 4); // 5 at 30 filled at once: done
        assertEquals(0, firm.openOrders());
        assertEquals(0, firm.openNotional(Side.SELL));
        assertEquals(-5, firm.position(1));
        risk.onNewOrder(firm, 1, Side.BUY, 2, 3, 30, 4); // 5 at 30, 2 filled at once, 3 rest
        assertEquals(1, firm.openOrders());
        assertEquals(90, firm.openNotional(Side.BUY));
        assertEquals(-3, firm.position(1));
        assertEquals(2, firm.ordersInSecond());
        risk.onFill(firm.slot(), 1, Side.BUY, 1, 30, false);
        assertEquals(1, firm.openOrders());
        assertEquals(60, firm.openNotional(Side.BUY));
        risk.onFill(firm.slot(), 1, Side.BUY, 2, 30, true);
        assertEquals(0, firm.openOrders());
        assertEquals(0, firm.openNotional(Side.BUY));
        assertEquals(0, firm.position(1));
        assertEquals(0, firm.position(0));
    }
}
