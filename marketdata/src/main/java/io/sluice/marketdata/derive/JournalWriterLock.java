package io.sluice.marketdata.derive;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.TableStoreWriteLock;
import net.openhft.chronicle.threads.Pauser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one writer of the market-data journal, enforced by the OS: an exclusive lock on {@code writer.lock} in the
 * journal's directory, released by the kernel when the process dies however it dies. Holding it, any Chronicle write
 * lock still held on the journal was left by a dead writer (a {@code kill -9} mid-append), and is broken at once.
 * (The simplest lock that works until every journal writer takes the deployment's common one.)
 */
public final class JournalWriterLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private JournalWriterLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @return the lock on the journal in {@code dir}, whose Chronicle write lock is then free
     * @throws IllegalStateException if another live process holds it
     */
    public static JournalWriterLock take(final Path dir, final ChronicleQueue journal) {
        final Path file = dir.resolve("writer.lock");
        try {
            final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            final FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("another process writes the market-data journal " + dir.toAbsolutePath()
                        + " (it holds " + file + "): one marketdata process per journal root");
            }
            final TableStoreWriteLock chronicle = new TableStoreWriteLock(((SingleChronicleQueue) journal).metaStore(),
                    Pauser::balanced, 0L);
            try {
                if (chronicle.locked()) {
                    chronicle.forceUnlockIfProcessIsDead();
                }
            } finally {
                chronicle.close();
            }
            return new JournalWriterLock(channel, lock);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot lock " + file.toAbsolutePath(), e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
