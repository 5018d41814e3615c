package io.sluice.bench.hop;

import net.openhft.chronicle.threads.Pauser;

/**
 * What the reader thread does when no excerpt is there yet. {@link #BUSY} is right for a hop benchmark,
 * even on 2 cores with the writer spinning too: any back-off adds its wake-up time to every latency.
 */
enum ReaderIdle {
    BUSY,
    YIELD,
    BALANCED;

    Pauser newPauser() {
        return switch (this) {
            case BUSY -> Pauser.busy();
            case YIELD -> Pauser.yielding();
            case BALANCED -> Pauser.balanced();
        };
    }
}
