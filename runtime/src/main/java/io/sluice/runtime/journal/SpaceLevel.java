package io.sluice.runtime.journal;

/**
 * How much disk space a journal's writer has reserved ahead of it ({@link JournalSpace#level()}), and so what it
 * may still write. The gateway takes new orders at {@link #AMPLE} (and {@link #PENDING}, for the moment the keeper
 * needs to catch up with a new cycle file), serves cancels until {@link #EXHAUSTED} and stops there; the engine
 * processes at {@link #AMPLE} and {@link #LOW}, waits at {@link #PENDING} and stops
 * cleanly at {@link #EXHAUSTED}, before writing.
 */
public enum SpaceLevel {
    /** At least half the configured reserve lies ahead of the writer. */
    AMPLE,
    /** Less than half, more than an eighth: the disk is full and the reserve is being used up. */
    LOW,
    /** The reservation is not known for the writer's current cycle file yet (the keeper has not caught up). */
    PENDING,
    /** Less than an eighth of the reserve is left and no more can be had: stop writing. */
    EXHAUSTED
}
