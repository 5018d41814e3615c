package io.sluice.replay;

/** How fast a replay feeds the recorded inputs to the fresh engine. */
public enum Pace {
    /** As fast as the engine takes them: for regression checks and throughput. */
    FLAT,
    /**
     * At the recorded inter-arrival times: each input no earlier than its {@code commandWriting} after the
     * first one's, to reproduce a session's load over time.
     */
    RECORDED
}
