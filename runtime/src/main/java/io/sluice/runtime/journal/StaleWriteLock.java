package io.sluice.runtime.journal;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.TableStoreWriteLock;
import net.openhft.chronicle.threads.Pauser;

/**
 * Frees a journal's Chronicle write lock left by a writer that died mid-append.
 * <p>
 * A writer killed while appending leaves the lock held by a process that no longer exists, and Chronicle breaks such
 * a lock only after its write timeout (seconds). A process that holds the journal's {@code ProcessLock} is its only
 * writer, so on start it breaks a lock whose holder is dead at once, as Chronicle's own {@code UnlockMain} would; a
 * lock held by a live process is left alone.
 * <p>
 * It works on the journal as opened ({@code Journals.open}), through the queue's own table store, never by opening
 * {@code metadata.cq4t} by itself: gateways starting at the same moment may be creating that file, and a table store
 * opened apart would initialise it without the queue's metadata, leaving a journal no one can open.
 */
public final class StaleWriteLock {
    private StaleWriteLock() {
    }

    /** @return true if the write lock of {@code journal} was held by a dead process and is now free */
    public static boolean breakIfHolderDead(final ChronicleQueue journal) {
        final TableStoreWriteLock lock = new TableStoreWriteLock(((SingleChronicleQueue) journal).metaStore(), Pauser::balanced, 0L);
        try {
            return lock.locked() && lock.forceUnlockIfProcessIsDead();
        } finally {
            lock.close();
        }
    }
}
