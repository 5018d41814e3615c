package io.sluice.tools.tail;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./sluice tail --root DIR} as a real child process, for benchmarks that measure what a live tail does to the
 * writers it follows. It runs with the JVM flags the launcher gives a live tail: started, waited for until it prints
 * its first interval (so it follows the journals), asked for its CPU time, and stopped with SIGTERM, after which its
 * summary says how much it read.
 */
public final class LiveTailProcess implements AutoCloseable {
    private static final Pattern SUMMARY = Pattern.compile("read (\\d+) commands, (\\d+) reports, (\\d+) deliveries");
    private static final long START_SECONDS = 60;
    private static final long STOP_SECONDS = 20;
    /** Linux accounts process CPU time in clock ticks of 1/100 s (USER_HZ). */
    private static final double SECONDS_PER_CLOCK_TICK = 0.01;
    /** Fields of /proc/PID/stat, numbered from 1 as in proc(5); the array read starts at field 3. */
    private static final int UTIME_FIELD = 14;
    private static final int STIME_FIELD = 15;
    private static final int FIRST_FIELD_READ = 3;

    private final JavaProcess process;
    private long commandsRead = -1;
    private long reportsRead = -1;

    private LiveTailProcess(final JavaProcess process) {
        this.process = process;
    }

    /** Starts a live tail of the journals under {@code root} (which must already hold them), logging to {@code log}. */
    public static LiveTailProcess start(final Path root, final Path log) throws IOException {
        return start(root, log, List.of());
    }

    /**
     * As {@link #start(Path, Path)}, with more JVM flags for the tail's process ({@code extraJvm}) after the ones
     * {@code ./sluice tail} adds to a live tail ({@value TailMain#LIVE_JVM_OPTIONS}).
     */
    public static LiveTailProcess start(final Path root, final Path log, final List<String> extraJvm) throws IOException {
        final List<String> jvm = new ArrayList<>();
        jvm.add("@" + JavaProcess.jvmOptionsFile().resolveSibling(TailMain.LIVE_JVM_OPTIONS));
        jvm.addAll(extraJvm);
        final LiveTailProcess tail = new LiveTailProcess(JavaProcess.start("tail", log, jvm, TailMain.class,
                "--root", root.toString(), "--interval", "1s"));
        // The first interval ends a second after the tail opened the journals: it prints "no messages" then.
        PollUntil.await(() -> {
            if (!tail.process.isAlive()) {
                throw new IllegalStateException("the tail stopped before it followed " + root + "; log: "
                        + tail.process.logText());
            }
            return tail.process.logText().contains("no messages");
        }, Duration.ofSeconds(START_SECONDS), () -> "the tail to start following " + root + "; log: "
                + tail.process.logText());
        return tail;
    }

    /** @return the CPU time, user and system, the tail process has used so far, in seconds. */
    public double cpuSeconds() {
        try {
            final String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // The fields after the command name (field 2), which is in parentheses and may hold spaces.
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[UTIME_FIELD - FIRST_FIELD_READ]) + Long.parseLong(fields[STIME_FIELD - FIRST_FIELD_READ]))
                    * SECONDS_PER_CLOCK_TICK;
        } catch (final IOException | RuntimeException e) {
            return Double.NaN; // not Linux: the figure is left out
        }
    }

    /** Stops the tail (SIGTERM: it prints its summary) and reads from the summary how much it read. */
    public void stop() throws InterruptedException {
        process.stop(STOP_SECONDS);
        final Matcher summary = SUMMARY.matcher(process.logText());
        if (summary.find()) {
            commandsRead = Long.parseLong(summary.group(1));
            reportsRead = Long.parseLong(summary.group(2));
        }
    }

    /** @return the commands the tail's summary says it read; -1 before {@link #stop()} or without a summary. */
    public long commandsRead() {
        return commandsRead;
    }

    /** @return the reports the tail's summary says it read; -1 before {@link #stop()} or without a summary. */
    public long reportsRead() {
        return reportsRead;
    }

    public Path log() {
        return process.log();
    }

    /** @return the tail process's id */
    public long pid() {
        return process.pid();
    }

    /** @return what the tail has printed so far */
    public String logText() {
        return process.logText();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
