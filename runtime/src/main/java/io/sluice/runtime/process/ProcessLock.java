package io.sluice.runtime.process;

import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An exclusive OS lock on a file, held by one process while it does one job, such as writing a journal.
 * <p>
 * No second process can do that job at the same time, and the kernel releases the lock when the process ends,
 * {@code kill -9} included, so nothing stale is left. The holder writes its name and pid into the file once it holds
 * it; a refused process reads them for its message
 * ({@link LockHeldException}). Every journal has one, {@value #JOURNAL_WRITER_FILE} in its directory
 * ({@link #journalWriter}): whoever appends to the journal holds it, a gateway, engine, snapshotter or receiver for
 * its whole run, an admin command for its one append.
 * <p>
 * The kernel's locks belong to a process, not to a file descriptor, and closing any descriptor of the file releases
 * them all; so this JVM's own locks are kept in a table, and a second take of a file this JVM holds is refused from
 * the table without opening the file again.
 */
public final class ProcessLock implements AutoCloseable {
    /** The lock file in every journal's directory, held by whoever appends to the journal. */
    public static final String JOURNAL_WRITER_FILE = "writer.lock";
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int MAX_HOLDER_BYTES = 256;
    /** The holder text of each lock this JVM holds, by absolute file; guarded by itself. */
    private static final Map<Path, String> HELD_HERE = new HashMap<>();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private ProcessLock(final Path file, final FileChannel channel, final FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the writer lock of the journal in {@code journalDir} (creating the directory if there is none).
     *
     * @param holder who appends ({@code gateway 1}, {@code engine}, {@code snapshot}, {@code receiver}), written into
     *               the file with this process's pid
     * @throws LockHeldException if another process appends to it, naming the journal and the holder with its pid
     */
    public static ProcessLock journalWriter(final Path journalDir, final String holder) {
        final Path file = journalDir.resolve(JOURNAL_WRITER_FILE);
        try {
            return take(file, holder);
        } catch (final LockHeldException e) {
            throw new LockHeldException("journal " + journalDir.toAbsolutePath() + " is written by " + e.holder()
                    + " (it holds " + e.file() + "): one process writes a journal; stop that one first", e.file(), e.holder());
        }
    }

    /**
     * Takes the lock on {@code file} (creating it and its directories if there are none), without waiting.
     *
     * @param holder who takes it, written into the file with this process's pid
     * @throws LockHeldException if another process (or this one) holds it, naming the file and the holder
     */
    public static ProcessLock take(final Path file, final String holder) {
        final Path absolute = file.toAbsolutePath().normalize();
        synchronized (HELD_HERE) {
            final String here = HELD_HERE.get(absolute);
            if (here != null) {
                throw new LockHeldException(absolute + " is locked by " + here, absolute, here);
            }
            final String holderText = holder + " pid " + ProcessHandle.current().pid();
            final ProcessLock lock = lock(absolute, holderText);
            HELD_HERE.put(absolute, holderText);
            return lock;
        }
    }

    /**
     * Takes the lock on {@code file} as {@link #take} does, waiting up to {@code timeoutNanos} for a holder to release
     * it: for jobs that take moments, such as one append, done by several processes in turn.
     *
     * @param clock times the wait
     * @throws LockHeldException if it is still held after the wait
     */
    public static ProcessLock takeWithin(final Path file, final String holder, final long timeoutNanos,
                                         final NanoClock clock) {
        final long deadline = clock.nanoTime() + timeoutNanos;
        while (true) {
            try {
                return take(file, holder);
            } catch (final LockHeldException e) {
                if (clock.nanoTime() - deadline >= 0) {
                    throw e;
                }
                LockSupport.parkNanos(RETRY_NANOS);
            }
        }
    }

    private static ProcessLock lock(final Path file, final String holderText) {
        try {
            Files.createDirectories(file.getParent());
            final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            final FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (final IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            if (lock == null) {
                final String other = holderOf(channel);
                channel.close();
                throw new LockHeldException(file + " is locked by " + other, file, other);
            }
            writeHolder(channel, holderText);
            return new ProcessLock(file, channel, lock);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot lock " + file, e);
        }
    }

    /** @return what the holder wrote into the file, read through {@code channel} (no other descriptor of it). */
    private static String holderOf(final FileChannel channel) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocate(MAX_HOLDER_BYTES);
        channel.read(bytes, 0);
        final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "another process (its pid not written yet)" : text;
    }

    /**
     * Writes who holds the lock. Best effort: on a disk too full for these few bytes the lock is held all the same,
     * and a refused process says it cannot tell who holds it.
     */
    private static void writeHolder(final FileChannel channel, final String holderText) {
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((holderText + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        } catch (final IOException diskFull) {
            // the lock, not the text, keeps the second process out
        }
    }

    /** Releases the lock (the kernel does too when the process ends). */
    @Override
    public void close() {
        synchronized (HELD_HERE) {
            if (HELD_HERE.remove(file) == null) {
                return;
            }
            try {
                lock.release();
                channel.close();
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot release " + file, e);
            }
        }
    }
}
