package io.sluice.runtime.counters;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the counters of every Sluice process of a deployment from outside, knowing only its journal root. Each {@link
 * CountersFile} under {@code <root>/counters/} is mapped read-only for the moment of one {@link #read}. Used by
 * {@code ./sluice stat} and {@code ./sluice metrics}; it never writes, so it never disturbs the processes.
 */
public final class CountersDirectory {
    private final Path directory;

    /** @param root the deployment's journal root */
    public CountersDirectory(final Path root) {
        directory = root.resolve(CountersFile.DIRECTORY);
    }

    /** Whether the process that wrote a counters file still runs. */
    public enum Liveness {
        /** Its process runs (same pid, same start time). */
        RUNNING,
        /** Its process is gone (or the pid now belongs to another process): the values are the last it wrote. */
        STOPPED,
        /** Its process is (re)writing the file. */
        STARTING
    }

    /** One counter's value at the moment of reading. */
    public record Counter(CounterLabel label, boolean gauge, long value) {
    }

    /** One process's counters, as read. */
    public record ProcessCounters(String process, long pid, Liveness liveness, List<Counter> counters) {
    }

    /** @return every process's counters under the root, by process name; none if there is no counters directory */
    public List<ProcessCounters> read() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        final List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.filter(f -> f.getFileName().toString().endsWith(CountersFile.SUFFIX)).sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + directory.toAbsolutePath(), e);
        }
        final List<ProcessCounters> all = new ArrayList<>();
        for (final Path file : files) {
            read(file).ifPresent(all::add);
        }
        return all;
    }

    private static Optional<ProcessCounters> read(final Path file) {
        final String name = file.getFileName().toString();
        final String process = name.substring(0, name.length() - CountersFile.SUFFIX.length());
        final CountersLayout layout = CountersFile.layoutOf(file);
        final MappedByteBuffer mapped = layout == null ? null : layout.mapForReading(file);
        if (mapped == null) {
            return Optional.empty(); // being created, or deleted between listing and opening
        }
        try {
            final UnsafeBuffer header = layout.header(mapped);
            final long pid = header.getLongVolatile(CountersFile.PID_OFFSET);
            final long startMillis = header.getLong(CountersFile.START_MILLIS_OFFSET);
            final List<Counter> counters = new ArrayList<>();
            final CountersReader reader = layout.reader(mapped);
            reader.forEach((id, typeId, key, label) -> {
                if (typeId == CountersFile.COUNTER_TYPE_ID || typeId == CountersFile.GAUGE_TYPE_ID) {
                    counters.add(new Counter(CounterLabel.parse(label), typeId == CountersFile.GAUGE_TYPE_ID,
                            reader.getCounterValue(id)));
                }
            });
            return Optional.of(new ProcessCounters(process, pid, liveness(pid, startMillis), List.copyOf(counters)));
        } finally {
            IoUtil.unmap(mapped);
        }
    }

    private static Liveness liveness(final long pid, final long startMillis) {
        if (pid == 0) {
            return Liveness.STARTING;
        }
        final boolean same = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .map(p -> p.info().startInstant().map(i -> i.toEpochMilli() == startMillis).orElse(true))
                .orElse(false);
        return same ? Liveness.RUNNING : Liveness.STOPPED;
    }
}
