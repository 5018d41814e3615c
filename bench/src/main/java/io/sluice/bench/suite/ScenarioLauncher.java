package io.sluice.bench.suite;

/**
 * How a scenario runs: its own entry point, given the arguments that follow its name on the command line.
 */
@FunctionalInterface
public interface ScenarioLauncher {
    /** Runs the scenario in this JVM with {@code args}. */
    void run(String[] args) throws Exception;
}
