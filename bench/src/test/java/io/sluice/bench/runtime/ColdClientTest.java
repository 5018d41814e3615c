package io.sluice.bench.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The warm-up benchmark reads the cold client's fill time from its output, among the JVM's other lines. */
final class ColdClientTest {
    @Test
    void theFirstFillTimeIsReadFromTheLineTheClientPrints() {
        assertEquals(1_764_086_400_123_456L, ColdClient.firstFillMicros("[0.01s][warning] something\n"
                + ColdClient.FILLED + " 1764086400123456\nmore\n"));
    }

    @Test
    void noSuchLineMeansNoFill() {
        assertEquals(-1, ColdClient.firstFillMicros("Exception in thread \"main\" java.io.IOException: no fill\n"));
    }
}
