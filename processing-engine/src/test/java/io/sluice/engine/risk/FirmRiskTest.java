package io.sluice.engine.risk;

import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Every firm, listed or met, is found in its own slot until the table is full; an unknown firm is not found. */
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
}
