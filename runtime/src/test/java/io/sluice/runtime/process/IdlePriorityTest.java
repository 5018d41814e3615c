package io.sluice.runtime.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A process that asks for idle priority gets it on every one of its threads, the JVM's own and those it
 * starts afterwards, as the kernel reports them in /proc; other processes keep theirs.
 */
final class IdlePriorityTest {
    private static final String READY = "child ready";

    @TempDir
    Path dir;

    @Test
    void everyThreadOfTheProcessRunsAtIdlePriorityAndThreadsStartedLaterToo() throws Exception {
        try (JavaProcess child = JavaProcess.start("idle-priority-child", dir.resolve("child.log"), List.of(), Child.class)) {
            awaitLog(child, READY);
            assertTrue(child.logText().contains("SCHED_IDLE"), child.logText());
            final List<Long> threads = IdlePriority.threadsOf(child.pid());
            assertTrue(threads.size() > 5, "a JVM has compiler, GC and other threads: " + threads.size());
            for (final long tid : threads) {
                assertEquals(IdlePriority.SCHED_IDLE, IdlePriority.policyOf(child.pid(), tid),
                        "thread " + tid + " of the child; log: " + child.logText());
            }
        }
        final long self = ProcessHandle.current().pid();
        assertEquals(0, IdlePriority.policyOf(self, self), "this test's JVM keeps the normal policy (SCHED_OTHER)");
    }

    private static void awaitLog(final JavaProcess child, final String line) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!child.logText().contains(line)) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                fail("the child did not print '" + line + "'; log: " + child.logText());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** Applies idle priority, starts one more thread, says so, and waits to be killed. */
    public static final class Child {
        public static void main(final String[] args) throws InterruptedException {
            System.out.println(IdlePriority.applyToThisProcess());
            final CountDownLatch never = new CountDownLatch(1);
            final Thread later = new Thread(() -> {
                try {
                    never.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "started-after");
            later.setDaemon(true);
            later.start();
            System.out.println(READY);
            System.out.flush();
            never.await();
        }
    }
}
