package io.sluice.bench.hop;

import org.HdrHistogram.Histogram;

/**
 * What one pass of the hop measured, over its measured orders only (settling orders excluded).
 *
 * @param variant        contract or raw
 * @param ratePerSecond  the intended send rate, 0 for flat out
 * @param latencyNanos   intended send time to read, per order
 * @param messages       orders measured
 * @param outOfSequence  orders that arrived out of sequence (must be 0)
 * @param elapsedNanos   first measured order's intended send time to the last order's read
 * @param writerBytes    bytes the writer thread allocated while sending the measured orders
 * @param readerBytes    bytes the reader thread allocated while reading the measured orders
 * @param writerCpuShare the writer thread's CPU time over wall time while sending (1 = never descheduled)
 * @param readerCpuShare the reader thread's CPU time over wall time while reading
 * @param excerptBytes   length of one excerpt in the journal
 * @param writerImplementation the class that wrote (a generated method writer for the contract)
 * @param readerImplementation the class that read (a generated method reader for the contract)
 */
record PassResult(HopVariant variant, long ratePerSecond, Histogram latencyNanos, long messages,
                  long outOfSequence, long elapsedNanos, long writerBytes, long readerBytes,
                  double writerCpuShare, double readerCpuShare, long excerptBytes,
                  String writerImplementation, String readerImplementation) {
    /** Below this CPU share a spinning thread was descheduled long enough to dominate the tail. */
    static final double BUSY_MACHINE_CPU_SHARE = 0.9;

    /** @return measured orders per second, end to end. */
    double throughputPerSecond() {
        return messages * 1e9 / Math.max(1, elapsedNanos);
    }

    /** @return true if the writer or the reader spent a noticeable part of the pass off the CPU. */
    boolean starved() {
        return writerCpuShare < BUSY_MACHINE_CPU_SHARE || readerCpuShare < BUSY_MACHINE_CPU_SHARE;
    }
}
