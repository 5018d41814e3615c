package io.sluice.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A lock a replication process holds on its root while it runs, an OS file lock under {@code <root>/replication/} (so
 * a process killed with {@code kill -9} leaves none behind; the file says the holder and its pid):
 * <ul>
 *   <li>{@link Kind#RECEIVER}: a receiver writing its replica root; a second receiver on the same root, and
 *   {@code ./sluice promote} while a receiver still writes, are refused;</li>
 *   <li>{@link Kind#SHIPPER}: a shipper shipping its primary root; a second shipper on the same root is refused at start
 *   (two would fence each other's Kafka transactions, one shipper per deployment).</li>
 * </ul>
 */
final class RootLock implements AutoCloseable {
    /** Which lock, each its own file. */
    enum Kind {
        /** {@code replication/receiver.lock}: a receiver writes the replica root. */
        RECEIVER("replication/receiver.lock", "a receiver is writing the replica root", "Stop it first (SIGTERM)."),
        /** {@code replication/shipper.lock}: a shipper ships the root. */
        SHIPPER("replication/shipper.lock", "a shipper is already shipping the root",
                "Run one shipper per deployment: stop that one first (SIGTERM).");

        /** The file, relative to the root. */
        final String relativePath;
        private final String held;
        private final String advice;

        Kind(final String relativePath, final String held, final String advice) {
            this.relativePath = relativePath;
            this.held = held;
            this.advice = advice;
        }
    }

    private final FileChannel channel;
    private final FileLock lock;

    private RootLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @param holder who takes it ({@code receiver}, {@code promote}, {@code shipper}), written into the file with this
     *               process's pid
     * @throws ReplicationRefusedException if another process holds it, naming the root and the holder's pid
     */
    static RootLock take(final Path root, final Kind kind, final String holder) {
        final Path file = root.resolve(kind.relativePath);
        try {
            Files.createDirectories(file.getParent());
            final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            final FileLock lock = channel.tryLock();
            if (lock == null) {
                final String other = Files.readString(file, StandardCharsets.UTF_8).strip();
                channel.close();
                throw new ReplicationRefusedException(holder + ": refused: " + kind.held + " " + root.toAbsolutePath()
                        + " (" + file.toAbsolutePath() + " is locked by " + other + "). " + kind.advice);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((holder + " pid " + ProcessHandle.current().pid() + "\n")
                    .getBytes(StandardCharsets.UTF_8)), 0);
            return new RootLock(channel, lock);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot lock " + file.toAbsolutePath(), e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (final IOException ignored) {
            // The OS releases it with the process anyway.
        }
    }
}
