package io.sluice.bench.hop;

/** The reading end of one hop: dispatches at most one excerpt to the receiver. Used by one thread only. */
interface HopReader {
    /** @return true if an excerpt was read, false if none was there yet. */
    boolean readOne();

    /** @return the class that does the reading, to show a generated method reader is in use. */
    String implementation();
}
