package io.sluice.runtime.counters;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Sluice process's live counters in shared memory, as Aeron keeps them in its CnC file: an Agrona counters file at
 * {@code <root>/counters/<process>.counters} (e.g. {@code engine.counters}, {@code gateway-1.counters}) that the
 * process's threads update with ordered writes ({@link AtomicCounter}: no allocation, no lock, no system call) and that
 * {@code ./sluice stat} and {@code ./sluice metrics} read from outside ({@link CountersDirectory}).
 * <p>
 * The one statement of the file's layout: a header page ({@link #PID_OFFSET the process id} and
 * {@link #START_MILLIS_OFFSET its start time}, written last, so a reader knows the process and can tell a stale file
 * of a dead process, or of a pid reused since; {@link #CAPACITY_OFFSET how many counters the file holds}), then the
 * counters' metadata, then their values. A process sizes its file at start ({@link #DEFAULT_COUNTERS} unless it asks
 * for more, as the engine does for its firms); a reader learns the size from the header ({@link #layoutOf}). A restarted process
 * rewrites its file in place. Each counter's label is a {@link CounterLabel}; its type id says whether it only grows
 * ({@link #COUNTER_TYPE_ID}) or goes up and down ({@link #GAUGE_TYPE_ID}).
 * <p>
 * Counters are allocated at start only ({@link #counter}, {@link #gauge}: they allocate a label); the hot threads
 * then only write through the {@link AtomicCounter}s.
 */
public final class CountersFile implements AutoCloseable {
    /** The directory under a deployment's journal root that holds every process's counters file. */
    public static final String DIRECTORY = "counters";
    /** The file name suffix of a counters file. */
    public static final String SUFFIX = ".counters";
    /** Type id of a counter that only grows (a Prometheus counter). */
    public static final int COUNTER_TYPE_ID = 1801;
    /** Type id of a counter that goes up and down (a Prometheus gauge). */
    public static final int GAUGE_TYPE_ID = 1802;
    /** The counters a process's file holds unless the process asks for more. */
    public static final int DEFAULT_COUNTERS = 4096;
    /** The most counters a process may ask for: 262,144, a file of 168 MB, zeroed at start. */
    public static final int MOST_COUNTERS = 1 << 18;
    /** Offset of the writing process's id (a long) in the header page; 0 while the file is being (re)written. */
    public static final int PID_OFFSET = 0;
    /** Offset of the writing process's start time, epoch milliseconds (a long), in the header page. */
    public static final int START_MILLIS_OFFSET = 8;
    /**
     * Offset of a number (a long) that differs at each {@link #create} of the file, written before the process id: a
     * reader that caches a counter's id tells by it that the file was rewritten, even by a process that got the same
     * pid (pid 1 in a container) in the same millisecond.
     */
    public static final int INSTANCE_OFFSET = 16;
    /** Offset of how many counters the file holds (a long) in the header page, written before the process id. */
    public static final int CAPACITY_OFFSET = 24;

    private static final AtomicLong INSTANCES = new AtomicLong();

    private final MappedByteBuffer mapped;
    private final CountersManager counters;

    private CountersFile(final MappedByteBuffer mapped, final CountersLayout layout) {
        this.mapped = mapped;
        counters = layout.manager(mapped);
    }

    /** @return where the counters file of {@code processName} lives under {@code root} */
    public static Path path(final Path root, final String processName) {
        return root.resolve(DIRECTORY).resolve(processName + SUFFIX);
    }

    /**
     * Creates the counters file of this process, {@code processName}, under {@code root}, or rewrites an existing one
     * (of an earlier run) in place, with no counters and this process's id and start time.
     */
    public static CountersFile create(final Path root, final String processName) {
        return create(root, processName, DEFAULT_COUNTERS);
    }

    /**
     * As {@link #create(Path, String)}, with room for {@code capacity} counters.
     *
     * @throws IllegalArgumentException if {@code capacity} is not between 1 and {@link #MOST_COUNTERS}
     */
    public static CountersFile create(final Path root, final String processName, final int capacity) {
        if (capacity < 1 || capacity > MOST_COUNTERS) {
            throw new IllegalArgumentException("a counters file holds 1 to " + MOST_COUNTERS + " counters, not "
                    + capacity);
        }
        final Path file = path(root, processName);
        final CountersLayout layout = new CountersLayout(capacity);
        try {
            final MappedByteBuffer mapped = layout.mapFresh(file);
            final UnsafeBuffer header = layout.header(mapped);
            header.putLong(CAPACITY_OFFSET, capacity);
            final ProcessHandle self = ProcessHandle.current();
            final long startMillis = self.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
            header.putLong(START_MILLIS_OFFSET, startMillis);
            header.putLong(INSTANCE_OFFSET, nextInstance(startMillis, self.pid()));
            header.putLongVolatile(PID_OFFSET, self.pid());
            return new CountersFile(mapped, layout);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create the counters file " + file.toAbsolutePath(), e);
        }
    }

    /**
     * @return the layout of {@code file} as its header states it, or null if the file is not there, not readable, or
     * being (re)written (no capacity yet, or not the length it states)
     */
    public static CountersLayout layoutOf(final Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            final ByteBuffer capacity = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
            if (channel.read(capacity, CAPACITY_OFFSET) != Long.BYTES) {
                return null;
            }
            final long counters = capacity.getLong(0);
            if (counters < 1 || counters > MOST_COUNTERS) {
                return null;
            }
            final CountersLayout layout = new CountersLayout((int) counters);
            return channel.size() < layout.fileLength() ? null : layout;
        } catch (final IOException e) {
            return null;
        }
    }

    /**
     * @return a nonzero number unlike any other this JVM gave (a count in the high bits) and, from the process's start
     * time and pid, unlike any an earlier run gave
     */
    private static long nextInstance(final long startMillis, final long pid) {
        final long instance = (startMillis * 31 + pid) ^ (INSTANCES.incrementAndGet() << 48);
        return instance == 0 ? 1 : instance;
    }

    /** @return a new counter that only grows, labelled {@code label}; at start only (it allocates) */
    public AtomicCounter counter(final CounterLabel label) {
        return counters.newCounter(label.text(), COUNTER_TYPE_ID);
    }

    /** @return a new counter that goes up and down, labelled {@code label}; at start only (it allocates) */
    public AtomicCounter gauge(final CounterLabel label) {
        return counters.newCounter(label.text(), GAUGE_TYPE_ID);
    }

    /** Unmaps the file and leaves it: a reader sees the last values, and that the process is gone. */
    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
