package io.sluice.engine.process;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Waiting for what an engine (or snapshotter) child process does, for the tests that start them. */
public final class EngineProcesses {
    /** A cold JVM on a busy 2-core host takes a while to start. */
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private EngineProcesses() {
    }

    /** Waits until {@code condition} holds; fails with the process's log if it takes too long or the process ends first. */
    public static void await(final BooleanSupplier condition, final JavaProcess process, final String what) {
        PollUntil.await(() -> {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (!process.isAlive() && !condition.getAsBoolean()) {
                fail(process.name() + " ended before " + what + ":\n" + process.logText());
            }
            return false;
        }, TIMEOUT, () -> what + ":\n" + process.logText());
    }

    /** Waits until {@code process} has either ended or printed {@code line}: for a start that should be refused. */
    public static void awaitEndOr(final JavaProcess process, final String line) {
        PollUntil.await(() -> !process.isAlive() || process.logText().contains(line), TIMEOUT,
                () -> process.name() + " to end or print " + line + ":\n" + process.logText());
    }
}
