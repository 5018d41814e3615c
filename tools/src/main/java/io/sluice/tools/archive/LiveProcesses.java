package io.sluice.tools.archive;

import io.sluice.runtime.counters.CountersDirectory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The processes that have a deployment's journals open, which {@code ./sluice archive} must not move files under:
 * Chronicle caches a journal's cycle files per process, and a tailer or appender that finds its next file gone fails
 * (or, in a read-only process, cannot even learn that it went: Chronicle-Queue issues 534, 948, 1480). Found two ways:
 * the counters file of every Sluice process under the root whose process still runs (engine, gateways), and, on
 * Linux, every process that has a journal file under the root mapped ({@code /proc/PID/maps}: tails, snapshotters,
 * replays, shippers, anything using Chronicle on them). Processes of other users cannot be seen through {@code /proc}
 * unless this one runs as root.
 */
final class LiveProcesses {
    private LiveProcesses() {
    }

    /** @return one line per process with the deployment's journals open, none if there is none */
    static List<String> under(final Path root) {
        final List<String> found = new ArrayList<>();
        final long self = ProcessHandle.current().pid();
        for (final CountersDirectory.ProcessCounters process : new CountersDirectory(root).read()) {
            // This process's own pid: a component it ran and closed (tests run the engine in-process), not another one.
            if (process.liveness() != CountersDirectory.Liveness.STOPPED && process.pid() != self) {
                found.add(process.process() + " (pid " + process.pid() + ", " + process.liveness().name().toLowerCase()
                        + ", from its counters file)");
            }
        }
        final Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc)) {
            return found;
        }
        final String prefix;
        try {
            prefix = root.toRealPath() + "/";
        } catch (final IOException e) {
            return found;
        }
        try (Stream<Path> pids = Files.list(proc)) {
            for (final Path dir : pids.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                final long pid = Long.parseLong(dir.getFileName().toString());
                if (pid == self) {
                    continue;
                }
                final String mapped = mappedJournalFile(dir.resolve("maps"), prefix);
                if (mapped != null && found.stream().noneMatch(line -> line.contains("(pid " + pid + ","))) {
                    found.add("pid " + pid + " (" + commandLine(dir) + ") has " + mapped + " mapped");
                }
            }
        } catch (final IOException e) {
            found.add("cannot list /proc to look for processes using the journals: " + e.getMessage());
        }
        return found;
    }

    private static String mappedJournalFile(final Path maps, final String prefix) {
        try (Stream<String> lines = Files.lines(maps, StandardCharsets.ISO_8859_1)) {
            return lines.map(line -> {
                final int at = line.indexOf(prefix);
                return at < 0 ? null : line.substring(at);
            }).filter(path -> path != null && (path.endsWith(".cq4") || path.endsWith(".cq4t"))).findFirst().orElse(null);
        } catch (final IOException | RuntimeException gone) {
            return null; // the process ended, or is not ours to read
        }
    }

    private static String commandLine(final Path dir) {
        try {
            final String line = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ').strip();
            return line.length() > 120 ? line.substring(0, 120) + "..." : line;
        } catch (final IOException e) {
            return "command line unknown";
        }
    }
}
