package io.sluice.replay;

/**
 * What a replay found: how much it replayed, how long it took, and the first divergence, if any.
 *
 * @param inputs       the recorded inputs fed to the fresh engine
 * @param reports      the reports compared and found identical
 * @param elapsedNanos wall time of the replay loop
 * @param divergence   the first divergent report, or null if every report was identical
 */
public record ReplayResult(long inputs, long reports, long elapsedNanos, Divergence divergence) {
    /** @return true if the fresh engine wrote every recorded report, identically. */
    public boolean identical() {
        return divergence == null;
    }

    /** @return inputs replayed per second. */
    public double inputsPerSecond() {
        return elapsedNanos == 0 ? 0 : inputs * 1e9 / elapsedNanos;
    }

    /** @return "identical, N reports" or the divergence. */
    public String summary() {
        return identical() ? "identical, " + reports + " reports" : divergence.describe();
    }
}
