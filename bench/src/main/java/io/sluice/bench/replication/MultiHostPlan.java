package io.sluice.bench.replication;

/** What one run of the multi-host scenario is asked to do: the offered rate and each phase's length and impairment. */
record MultiHostPlan(long rate, long baseline, long delay, long loss, long narrow, long partition, long after,
                     String delaySpec, String lossSpec, String narrowSpec) {
}
