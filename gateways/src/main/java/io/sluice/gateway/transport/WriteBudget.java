package io.sluice.gateway.transport;

/**
 * Paces one kind of socket write to a rate, so that kind costs the machine a bounded number of system calls a second.
 * <p>
 * A write may go when its slot has come; slots are {@code 1 s / writesPerSecond} apart, and after a quiet spell at
 * most {@code burst} of them are owed, so a round that comes late writes a few at once and no more. The caller passes
 * the time: nothing here reads a clock.
 */
final class WriteBudget {
    private final long spacingNanos;
    private final long owedNanos;
    private long nextSlotNanos;

    /**
     * @param writesPerSecond how many writes a second at most; 0 for no limit
     * @param burst           how many writes a late round may make at once, at least 1
     */
    WriteBudget(final long writesPerSecond, final int burst) {
        if (writesPerSecond < 0 || burst < 1) {
            throw new IllegalArgumentException("writesPerSecond " + writesPerSecond + " and burst " + burst);
        }
        this.spacingNanos = writesPerSecond == 0 ? 0 : Math.max(1, 1_000_000_000L / writesPerSecond);
        this.owedNanos = (burst - 1) * spacingNanos;
    }

    /** @return true, counting the write, if one may go at {@code nowNanos}; false if it must wait for its slot */
    boolean tryWrite(final long nowNanos) {
        if (spacingNanos == 0) {
            return true;
        }
        if (nowNanos - nextSlotNanos > owedNanos) {
            nextSlotNanos = nowNanos - owedNanos;
        }
        if (nowNanos - nextSlotNanos < 0) {
            return false;
        }
        nextSlotNanos += spacingNanos;
        return true;
    }
}
