package io.sluice.replication;

import net.openhft.chronicle.queue.RollCycles;

/** How replication's messages write a Chronicle index of a Sluice journal (daily cycles): hex, then cycle and sequence. */
final class IndexText {
    private IndexText() {
    }

    static String of(final long index) {
        if (index < 0) {
            return "none";
        }
        return "0x" + Long.toHexString(index) + " (sequence " + RollCycles.FAST_DAILY.toSequenceNumber(index)
                + " of cycle " + RollCycles.FAST_DAILY.toCycle(index) + ")";
    }
}
