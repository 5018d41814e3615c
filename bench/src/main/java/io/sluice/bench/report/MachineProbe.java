package io.sluice.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads what a benchmark report says about the machine and the checkout. CPU model, memory and load average from {@code
 * /proc} (Linux; "unknown" elsewhere), the flags in jvm.options, and the git commit.
 */
public final class MachineProbe {
    private static final String UNKNOWN = RunEnvironment.UNKNOWN;

    private MachineProbe() {
    }

    /** @return the CPU model named in {@code /proc/cpuinfo} */
    public static String cpuModel() {
        for (final String line : lines(Path.of("/proc/cpuinfo"))) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return UNKNOWN;
    }

    /** @return total memory from {@code /proc/meminfo}, in MiB, or 0 when unknown */
    public static long memoryMegabytes() {
        for (final String line : lines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return 0;
    }

    /** @return the one-minute load average from {@code /proc/loadavg}, or NaN when unknown */
    public static double loadAverage() {
        final List<String> lines = lines(Path.of("/proc/loadavg"));
        return lines.isEmpty() ? Double.NaN : Double.parseDouble(lines.getFirst().split(" ")[0]);
    }

    /**
     * @return the whole line of {@code /proc/loadavg} (the 1, 5 and 15 minute load averages, runnable/all threads, the
     * last pid), or "unknown"
     */
    public static String loadAverageLine() {
        final List<String> lines = lines(Path.of("/proc/loadavg"));
        return lines.isEmpty() ? UNKNOWN : lines.getFirst().trim();
    }

    /** @return the flags in a java @argfile, comments and blank lines left out */
    public static List<String> jvmOptions(final Path argFile) {
        return lines(argFile).stream().map(String::trim).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    }

    /** @return {@code git describe}-like text for the checkout around {@code dir}: short commit, "+dirty" if changed */
    public static String gitCommit(final Path dir) {
        final String commit = git(dir, "rev-parse", "--short=12", "HEAD");
        if (commit.isEmpty()) {
            return UNKNOWN;
        }
        return git(dir, "status", "--porcelain", "--untracked-files=no").isEmpty() ? commit : commit + "+dirty";
    }

    private static String git(final Path dir, final String... args) {
        final List<String> command = new ArrayList<>(List.of("git", "-C", dir.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : "";
        } catch (final IOException e) {
            return "";
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static List<String> lines(final Path file) {
        try {
            return Files.isReadable(file) ? Files.readAllLines(file) : List.of();
        } catch (final IOException e) {
            return List.of();
        }
    }
}
