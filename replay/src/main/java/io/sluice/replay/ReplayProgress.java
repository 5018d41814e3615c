package io.sluice.replay;

/** Told how far a replay has got, every few thousand inputs; a progress bar on a terminal, or nothing. */
public interface ReplayProgress {
    /** Reports nothing. */
    ReplayProgress NONE = new ReplayProgress() {
        @Override
        public void start(final long expectedInputs) {
        }

        @Override
        public void update(final long inputs) {
        }

        @Override
        public void finish(final long inputs) {
        }
    };

    /** @param expectedInputs an upper bound on the inputs to replay (the recorded engine journal's excerpts) */
    void start(long expectedInputs);

    void update(long inputs);

    void finish(long inputs);
}
