package io.sluice.contracts;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ids are a keyed permutation of their counters: unique, reproducible, telling nothing of the count. */
class PublicIdsTest {
    private final PublicIds ids = PublicIds.of("the deployment's secret");

    @Test
    void idsAreUniqueAndInRange() {
        final Set<Long> seen = new HashSet<>();
        for (long count = 1; count <= 200_000; count++) {
            final long id = ids.orderId(count);
            assertTrue(id > 0 && id < PublicIds.LIMIT, () -> "id " + id);
            assertTrue(seen.add(id), () -> "id " + id + " given twice");
        }
    }

    @Test
    void theSameKeyGivesTheSameIds() {
        final PublicIds again = PublicIds.of("the deployment's secret");
        for (long count = 1; count <= 1000; count++) {
            assertEquals(ids.orderId(count), again.orderId(count));
            assertEquals(ids.execId(count), again.execId(count));
            assertEquals(ids.gatewayExecId(count), again.gatewayExecId(count));
        }
        assertEquals(ids.keyCheck(), again.keyCheck());
    }

    @Test
    void consecutiveCountsGiveUnrelatedIds() {
        // the first ids a new venue gives are not small numbers, and neighbours are far apart
        assertTrue(ids.orderId(1) > 1L << 40, () -> "OrderID of the first order: " + ids.orderId(1));
        assertTrue(Math.abs(ids.orderId(2) - ids.orderId(1)) > 1L << 40);
        assertNotEquals(ids.orderId(1), ids.execId(1), "OrderIDs and ExecIDs are permuted with keys of their own");
        assertNotEquals(ids.execId(1), ids.gatewayExecId(1));
    }

    @Test
    void anotherKeyGivesOtherIds() {
        final PublicIds other = PublicIds.of("another deployment");
        assertNotEquals(ids.orderId(1), other.orderId(1));
        assertNotEquals(ids.keyCheck(), other.keyCheck());
        assertNotEquals(ids.orderId(1), PublicIds.of("").orderId(1), "the built-in key is another key");
        assertEquals(PublicIds.of(null).orderId(7), PublicIds.of("").orderId(7));
    }

    @Test
    void thePermutationIsUndone() {
        final long[] keys = PublicIds.roundKeys("k", "OrderID");
        for (final long value : new long[]{0, 1, 2, 12_345, PublicIds.LIMIT - 1}) {
            assertEquals(value, PublicIds.unpermute(keys, PublicIds.permute(keys, value)));
        }
    }

    @Test
    void countersMeansNoPermutation() {
        final PublicIds counters = PublicIds.of(PublicIds.COUNTERS);
        assertFalse(counters.permutes());
        assertEquals(42, counters.orderId(42));
        assertEquals(43, counters.execId(43));
        assertEquals(0, counters.keyCheck());
        assertTrue(ids.permutes());
    }
}
