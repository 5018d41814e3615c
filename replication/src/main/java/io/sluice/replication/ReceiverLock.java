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
 * The lock a receiver holds on its replica root while it writes there, {@code <root>/replication/receiver.lock} (an OS
 * file lock, so a receiver killed with {@code kill -9} leaves none behind; the file says the holder's pid): a second
 * receiver on the same root, and {@code ./sluice promote} while a receiver still writes, are refused.
 */
final class ReceiverLock implements AutoCloseable {
    /** The file, relative to the root. */
    static final String RELATIVE_PATH = "replication/receiver.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private ReceiverLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @param holder who takes it ({@code receiver}, {@code promote}), written into the file with this process's pid
     * @throws ReplicationRefusedException if another process holds it, naming its pid
     */
    static ReceiverLock take(final Path root, final String holder) {
        final Path file = root.resolve(RELATIVE_PATH);
        try {
            Files.createDirectories(file.getParent());
            final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            final FileLock lock = channel.tryLock();
            if (lock == null) {
                final String other = Files.readString(file, StandardCharsets.UTF_8).strip();
                channel.close();
                throw new ReplicationRefusedException(holder + ": refused: a receiver is writing the replica root "
                        + root.toAbsolutePath() + " (" + file.toAbsolutePath() + " is locked by " + other
                        + "). Stop it first (SIGTERM).");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((holder + " pid " + ProcessHandle.current().pid() + "\n")
                    .getBytes(StandardCharsets.UTF_8)), 0);
            return new ReceiverLock(channel, lock);
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
