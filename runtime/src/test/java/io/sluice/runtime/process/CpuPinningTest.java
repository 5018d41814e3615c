package io.sluice.runtime.process;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pinning is optional: not configured pins nothing, and a CPU Affinity cannot give is reported, not assumed. */
final class CpuPinningTest {
    @Test
    void noCpuConfiguredPinsNothing() {
        try (CpuPinning pinning = CpuPinning.pinCurrentThread(CpuPinning.NONE, "test thread")) {
            assertFalse(pinning.pinned());
            assertTrue(pinning.outcome().contains("not pinned"), pinning.outcome());
        }
    }

    @Test
    void aCpuThatDoesNotExistIsReportedAsNotPinned() {
        try (CpuPinning pinning = CpuPinning.pinCurrentThread(100_000, "test thread")) {
            assertFalse(pinning.pinned());
            assertTrue(pinning.outcome().contains("NOT pinned") && pinning.outcome().contains("100000"),
                    pinning.outcome());
        }
    }
}
