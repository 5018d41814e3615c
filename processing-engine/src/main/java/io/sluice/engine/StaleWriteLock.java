package io.sluice.engine;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.TableStoreWriteLock;
import net.openhft.chronicle.threads.Pauser;

/**
 * An engine (or snapshotter) killed while writing an excerpt leaves its journal's write lock held by a process that no
 * longer exists. Chronicle breaks such a lock only after its write timeout (seconds); the engine is the
 * only writer of its journal, so on start it breaks a lock whose holder is dead at once, as Chronicle's
 * own {@code UnlockMain} would. A lock held by a live process is left alone: then another engine is
 * running on this journal, and appending would fail loudly after the timeout, as it should.
 * <p>
 * It works on the journal as opened ({@link io.sluice.contracts.journal.Journals#open}), through the queue's
 * own table store, never by opening {@code metadata.cq4t} by itself: gateways starting at the same moment may
 * be creating that file, and a table store opened apart would initialise it without the queue's metadata,
 * leaving a journal no one can open.
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
