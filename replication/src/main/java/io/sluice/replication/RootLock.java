package io.sluice.replication;

import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;

import java.nio.file.Path;

/**
 * A lock a replication process holds on its root while it runs, a {@link ProcessLock} under {@code <root>/replication/}
 * (so a process killed with {@code kill -9} leaves none behind; the file says the holder and its pid):
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

    private final ProcessLock lock;

    private RootLock(final ProcessLock lock) {
        this.lock = lock;
    }

    /**
     * @param holder who takes it ({@code receiver}, {@code promote}, {@code shipper}), written into the file with this
     *               process's pid
     * @throws ReplicationRefusedException if another process holds it, naming the root and the holder's pid
     */
    static RootLock take(final Path root, final Kind kind, final String holder) {
        try {
            return new RootLock(ProcessLock.take(root.resolve(kind.relativePath), holder));
        } catch (final LockHeldException e) {
            throw new ReplicationRefusedException(holder + ": refused: " + kind.held + " " + root.toAbsolutePath()
                    + " (" + e.file() + " is locked by " + e.holder() + "). " + kind.advice);
        }
    }

    @Override
    public void close() {
        lock.close();
    }
}
