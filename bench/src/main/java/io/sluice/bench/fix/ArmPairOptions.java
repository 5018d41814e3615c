package io.sluice.bench.fix;

import io.sluice.tools.fix.SluiceIdle;
import picocli.CommandLine.Option;

import java.time.Duration;

/**
 * The options every A/B benchmark of two {@link ArmPair} deployments shares, as a picocli mixin: how their threads
 * idle, an A/A control run, and how long one slice may take.
 */
final class ArmPairOptions {
    @Option(names = "--idle", description = "what the engine and gateway threads do when idle: yield, backoff,"
            + " busy-spin or engine-spin (default ${DEFAULT-VALUE}, as in ./sluice demo)")
    private String idle = SluiceIdle.YIELD.label();

    @Option(names = "--control", description = "an A/A run: the two arms alike (the description above says how), to"
            + " show how far two identical arms differ by themselves (written as the scenario's name with -control)")
    private boolean control;

    @Option(names = "--run-timeout", description = "seconds one slice of orders may take (default ${DEFAULT-VALUE})")
    private long runTimeoutSeconds = 600;

    /** @return the idle strategy as written, for the report */
    String idleLabel() {
        return idle;
    }

    SluiceIdle idle() {
        return SluiceIdle.parse(idle);
    }

    boolean control() {
        return control;
    }

    /** @return {@code scenario}, or {@code scenario-control} in an A/A run */
    String scenario(final String scenario) {
        return control ? scenario + "-control" : scenario;
    }

    Duration runTimeout() {
        return Duration.ofSeconds(runTimeoutSeconds);
    }
}
