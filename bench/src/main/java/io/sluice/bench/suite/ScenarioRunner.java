package io.sluice.bench.suite;

import io.sluice.runtime.process.JavaProcess;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one scenario once in a fresh child JVM, so no run inherits another's JIT state, heap or threads. The child is a
 * {@link JavaProcess}: the same java, class path and jvm.options. Echoes the child's output as it comes, stops the
 * child (kill -9) if it outlives the timeout, and notes the result files that appeared meanwhile.
 */
public final class ScenarioRunner {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Path resultsDir;
    private final Path logDir;
    private final Duration timeout;
    private final PrintStream out;

    /**
     * @param resultsDir where the child writes its JSON ({@code -Dsluice.results})
     * @param logDir     where each run's output is kept
     * @param timeout    how long one run may take before it is killed
     * @param out        where the child's output is echoed
     */
    public ScenarioRunner(final Path resultsDir, final Path logDir, final Duration timeout, final PrintStream out) {
        this.resultsDir = resultsDir.toAbsolutePath();
        this.logDir = logDir.toAbsolutePath();
        this.timeout = timeout;
        this.out = out;
    }

    /** Runs {@code scenario} with {@code args}; {@code repeat} only names the run. */
    public RunRecord run(final BenchScenario scenario, final List<String> args, final int repeat)
            throws IOException, InterruptedException {
        final Set<String> before = new HashSet<>(ResultFiles.stamped(resultsDir));
        final Path log = logDir.resolve(scenario.name() + "-run" + repeat + "-" + System.currentTimeMillis() + ".log");
        final List<String> command = new ArrayList<>();
        command.add(scenario.name());
        command.addAll(args);
        final long start = System.nanoTime();
        final long deadline = start + timeout.toNanos();
        boolean timedOut = false;
        int exitCode;
        try (JavaProcess child = JavaProcess.start(scenario.name(), log, List.of("-Dsluice.results=" + resultsDir),
                ScenarioMain.class, command.toArray(String[]::new))) {
            long echoed = 0;
            while (child.isAlive()) {
                if (System.nanoTime() - deadline > 0) {
                    child.kill9();
                    timedOut = true;
                    break;
                }
                LockSupport.parkNanos(POLL_NANOS);
                echoed = echo(log, echoed);
            }
            exitCode = child.waitFor(30);
            echo(log, echoed);
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        final List<String> results = ResultFiles.stamped(resultsDir).stream().filter(name -> !before.contains(name)).toList();
        return new RunRecord(scenario.name(), repeat, args, exitCode, timedOut, seconds, results,
                resultsDir.relativize(log).toString());
    }

    /** Copies what the log gained since {@code from} to the output; @return the new end. */
    private long echo(final Path log, final long from) throws IOException {
        if (!Files.exists(log)) {
            return from;
        }
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            final long length = file.length();
            if (length <= from) {
                return from;
            }
            final byte[] bytes = new byte[(int) Math.min(length - from, 1 << 20)];
            file.seek(from);
            file.readFully(bytes);
            out.write(bytes);
            out.flush();
            return from + bytes.length;
        }
    }
}
