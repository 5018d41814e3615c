package io.sluice.bench.hop;

import io.sluice.contracts.NewOrder;

/** The writing end of one hop: appends one excerpt holding {@code order}. Used by one thread only. */
interface HopWriter {
    void write(NewOrder order);

    /** @return the class that does the writing, to show a generated method writer is in use. */
    String implementation();
}
