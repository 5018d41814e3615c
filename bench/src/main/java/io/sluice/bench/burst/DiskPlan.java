package io.sluice.bench.burst;

/**
 * How many messages a burst can write to a disk: the usable space minus a reserve that stays free for
 * everything else on the machine, divided by the bytes a message costs plus headroom for what the estimate
 * leaves out (index, the sparse end of each file).
 *
 * @param usableBytes     free space usable by this process where the journals go
 * @param reserveBytes    space to leave free
 * @param bytesPerMessage journal bytes per message, measured
 */
record DiskPlan(long usableBytes, long reserveBytes, double bytesPerMessage) {
    /** Headroom on the measured bytes per message. */
    static final double HEADROOM = 1.10;

    /** @return the most messages that fit, a multiple of {@code multipleOf} (0 if none). */
    long messagesThatFit(final int multipleOf) {
        final long room = Math.max(0, usableBytes - reserveBytes);
        final long fit = (long) (room / (bytesPerMessage * HEADROOM));
        return fit - fit % multipleOf;
    }

    /** @return the journal bytes {@code messages} will take, by the estimate with headroom. */
    double bytesFor(final long messages) {
        return messages * bytesPerMessage * HEADROOM;
    }
}
