package io.sluice.runtime.process;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM's CPU time is read in all and for its JIT compiler threads, which a benchmark subtracts once warm. */
class ProcessCpuTimeTest {
    @Test
    void aRunningJvmsCompilersHaveUsedSomeButNotAllOfItsCpuTime() {
        final long pid = ProcessHandle.current().pid();
        final long compiling = ProcessCpuTime.compilerNanos(pid);
        final long total = ProcessCpuTime.nanos(pid);
        assertTrue(compiling > 0, "a JVM that loaded JUnit has compiled methods: " + compiling + " ns");
        assertTrue(compiling < total, compiling + " ns compiling of " + total + " ns in all");
    }

    @Test
    void aProcessThatIsGoneHasNoCompilerTime() {
        assertEquals(0, ProcessCpuTime.compilerNanos(Long.MAX_VALUE));
    }
}
