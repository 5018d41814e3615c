package io.sluice.runtime.process;

import io.sluice.contracts.RecordChecksum;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a Sluice role (engine, gateway, load client ...) as a real child JVM with the same {@code java}, class path
 * and JVM flags. The flags are the one list from {@code jvm.options} (its path comes from the {@code
 * sluice.jvm.options} system property that the launcher and the test runner set); a JVM measuring what journal
 * checksums cost ({@link RecordChecksum#SWITCH_PROPERTY}) passes that switch on too. Output goes to a
 * log file so a failing test can show what the child said. Used by the demo and by end-to-end tests.
 */
public final class JavaProcess implements AutoCloseable {
    /** System property naming the jvm.options argfile. */
    public static final String JVM_OPTIONS_PROPERTY = "sluice.jvm.options";

    private final String name;
    private final Process process;
    private final Path log;

    private JavaProcess(final String name, final Process process, final Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code mainClass} with {@code args} in a child JVM.
     *
     * @param name      a short name for messages, e.g. "engine"
     * @param log       file that receives the child's stdout and stderr
     * @param extraJvm  JVM flags for this child only (heap size, GC), may be empty
     */
    public static JavaProcess start(final String name, final Path log, final List<String> extraJvm,
                                    final Class<?> mainClass, final String... args) throws IOException {
        return start(name, log, System.getProperty("java.class.path"), extraJvm, mainClass, args);
    }

    /**
     * As {@link #start(String, Path, List, Class, String...)}, on another class path: e.g. the same classes
     * packed as jars, which the JDK's AOT cache needs (it archives no classes from directories).
     *
     * @param classPath the child's class path
     */
    public static JavaProcess start(final String name, final Path log, final String classPath,
                                    final List<String> extraJvm, final Class<?> mainClass, final String... args)
            throws IOException {
        return start(name, log, classPath, extraJvm, mainClass.getName(), args);
    }

    /**
     * As {@link #start(String, Path, String, List, Class, String...)}, for a main class this JVM cannot load: a role
     * of another module, run on that module's class path.
     *
     * @param mainClassName the fully qualified name of the child's main class
     */
    public static JavaProcess start(final String name, final Path log, final String classPath,
                                    final List<String> extraJvm, final String mainClassName, final String... args)
            throws IOException {
        return start(name, log, List.of(), classPath, extraJvm, mainClassName, args);
    }

    /**
     * As {@link #start(String, Path, String, List, String, String...)}, the JVM run by another command that execs it
     * in place (so that the process stopped and killed is the JVM itself): e.g. {@code ip netns exec NAME}, which
     * starts it in a network namespace, as the multi-host replication scenario runs its two hosts.
     *
     * @param launcher the command and its arguments before {@code java}; empty: none
     */
    public static JavaProcess start(final String name, final Path log, final List<String> launcher,
                                    final String classPath, final List<String> extraJvm, final String mainClassName,
                                    final String... args) throws IOException {
        final List<String> command = new ArrayList<>(launcher);
        command.addAll(command(classPath, extraJvm, mainClassName, args));
        Files.createDirectories(log.toAbsolutePath().getParent());
        final Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new JavaProcess(name, process, log);
    }

    /**
     * @return the command line that starts {@code mainClassName} in a child JVM as {@link #start} does: for a process
     * that another process starts (a standby starting an engine after its takeover)
     */
    public static List<String> command(final String classPath, final List<String> extraJvm, final String mainClassName,
                                       final String... args) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("@" + jvmOptionsFile());
        command.add("-D" + JVM_OPTIONS_PROPERTY + "=" + jvmOptionsFile());
        if (!RecordChecksum.ENABLED) { // a measurement of checksums' cost: the whole deployment runs without them
            command.add("-D" + RecordChecksum.SWITCH_PROPERTY + "=off");
        }
        command.addAll(extraJvm);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClassName);
        command.addAll(List.of(args));
        return command;
    }

    /** @return the absolute path of jvm.options, from the {@value #JVM_OPTIONS_PROPERTY} property. */
    public static Path jvmOptionsFile() {
        final String path = System.getProperty(JVM_OPTIONS_PROPERTY);
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("System property " + JVM_OPTIONS_PROPERTY
                    + " must name the jvm.options file (the launcher and the Maven build set it); got " + path);
        }
        return Path.of(path).toAbsolutePath();
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /**
     * @throws IllegalStateException if the process has exited, naming it, its log file and what it printed: for a
     *                               child that should be running, as after its start
     */
    public void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited at start; its log (" + log + "):\n" + logText());
        }
    }

    /** Sends SIGKILL (kill -9) and waits for the process to be gone. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Sends SIGTERM, the graceful stop, and waits up to {@code timeoutSeconds}; then SIGKILL. */
    public int stop(final long timeoutSeconds) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return process.waitFor();
    }

    /** Waits up to {@code timeoutSeconds} for the process to exit by itself. */
    public int waitFor(final long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + pid() + ") did not exit within "
                    + timeoutSeconds + " s; log: " + logText());
        }
        return process.exitValue();
    }

    /** @return what the child has printed so far, for assertion messages. */
    public String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (final IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop(10);
        }
    }
}
