package io.sluice.gateway.session;

import org.agrona.collections.Hashing;

/**
 * Failed logons counted per key, a (CompID, source address) pair, in a fixed table, with the time until which the
 * key is blocked: after {@code failuresAllowed} failures in a row, each further failure blocks it for twice as long
 * as the one before, from {@code backoffMillis} up to {@code maxBackoffMillis}. A key that has not failed for
 * {@code maxBackoffMillis} starts again from nothing. Both halves of a key are kept whole, so two keys never share an
 * entry by a collision. The table never grows: a key lives in one of {@link #WINDOW} slots from its hash, and when
 * all are taken the entry that failed longest ago gives way. Nothing is allocated.
 */
final class BackoffTable {
    static final int WINDOW = 8;
    private static final int MAX_DOUBLINGS = 30;

    private final long[] compIds;
    private final long[] addresses;
    private final int[] failures;
    private final long[] lastFailureMillis;
    private final long[] blockedUntilMillis;
    private final int mask;
    private final int failuresAllowed;
    private final long backoffMillis;
    private final long maxBackoffMillis;

    /** @param slots table size, rounded up to a power of two of at least {@link #WINDOW} */
    BackoffTable(final int slots, final int failuresAllowed, final long backoffMillis, final long maxBackoffMillis) {
        final int size = Math.max(WINDOW, Integer.highestOneBit(Math.max(1, slots - 1)) << 1);
        compIds = new long[size];
        addresses = new long[size];
        failures = new int[size];
        lastFailureMillis = new long[size];
        blockedUntilMillis = new long[size];
        mask = size - 1;
        this.failuresAllowed = failuresAllowed;
        this.backoffMillis = backoffMillis;
        this.maxBackoffMillis = maxBackoffMillis;
    }

    /** @return true if logons for {@code compId} from {@code address} are refused at {@code nowMillis}. */
    boolean isBlocked(final long compId, final long address, final long nowMillis) {
        final int slot = find(compId, address);
        return slot >= 0 && nowMillis < blockedUntilMillis[slot];
    }

    /** Counts a failed logon for the key and blocks it once it has failed too often. */
    void failed(final long compId, final long address, final long nowMillis) {
        int slot = find(compId, address);
        if (slot < 0) {
            slot = evictable(compId, address);
            compIds[slot] = compId;
            addresses[slot] = address;
            failures[slot] = 0;
            blockedUntilMillis[slot] = 0;
        } else if (nowMillis - lastFailureMillis[slot] > maxBackoffMillis) {
            failures[slot] = 0;
        }
        final int count = ++failures[slot];
        lastFailureMillis[slot] = nowMillis;
        if (count >= failuresAllowed) {
            final int doublings = Math.min(MAX_DOUBLINGS, count - failuresAllowed);
            blockedUntilMillis[slot] = nowMillis + Math.min(maxBackoffMillis, backoffMillis << doublings);
        }
    }

    /** Forgets the key's failures: it logged on. */
    void succeeded(final long compId, final long address) {
        final int slot = find(compId, address);
        if (slot >= 0) {
            failures[slot] = 0;
            blockedUntilMillis[slot] = 0;
        }
    }

    /** @return the failures counted for the key (0 if none). */
    int failures(final long compId, final long address) {
        final int slot = find(compId, address);
        return slot < 0 ? 0 : failures[slot];
    }

    private int find(final long compId, final long address) {
        final int start = start(compId, address);
        for (int i = 0; i < WINDOW; i++) {
            final int slot = (start + i) & mask;
            if (failures[slot] > 0 && compIds[slot] == compId && addresses[slot] == address) {
                return slot;
            }
        }
        return -1;
    }

    /** @return a free slot in the key's window, or the one whose last failure is oldest. */
    private int evictable(final long compId, final long address) {
        final int start = start(compId, address);
        int oldest = start;
        for (int i = 0; i < WINDOW; i++) {
            final int slot = (start + i) & mask;
            if (failures[slot] == 0) {
                return slot;
            }
            if (lastFailureMillis[slot] < lastFailureMillis[oldest]) {
                oldest = slot;
            }
        }
        return oldest;
    }

    private int start(final long compId, final long address) {
        return Hashing.hash(compId * 31 + address, mask);
    }
}
