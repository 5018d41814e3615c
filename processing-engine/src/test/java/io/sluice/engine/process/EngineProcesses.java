package io.sluice.engine.process;

import io.sluice.runtime.process.JavaProcess;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Waiting for what an engine (or snapshotter) child process does, for the tests that start them. */
public final class EngineProcesses {
    /** A cold JVM on a busy 2-core host takes a while to start. */
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final long POLL_NANOS = 10_000_000;

    private EngineProcesses() {
    }

    /** Waits until {@code condition} holds; fails with the process's log if it takes too long or the process ends first. */
    public static void await(final BooleanSupplier condition, final JavaProcess process, final String what) {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (!process.isAlive() && !condition.getAsBoolean()) {
                fail(process.name() + " ended before " + what + ":\n" + process.logText());
            }
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + what + ":\n" + process.logText());
            }
            LockSupport.parkNanos(POLL_NANOS); // the interval between polls of a condition
        }
    }

    /** Waits until {@code process} has either ended or printed {@code line}: for a start that should be refused. */
    public static void awaitEndOr(final JavaProcess process, final String line) {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (process.isAlive() && !process.logText().contains(line)) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + process.name() + " to end or print " + line + ":\n" + process.logText());
            }
            LockSupport.parkNanos(POLL_NANOS); // the interval between polls of a condition
        }
    }
}
