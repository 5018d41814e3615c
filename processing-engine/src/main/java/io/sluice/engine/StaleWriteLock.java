package io.sluice.engine;

import net.openhft.chronicle.queue.impl.TableStore;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.impl.single.TableStoreWriteLock;
import net.openhft.chronicle.queue.impl.table.Metadata;
import net.openhft.chronicle.queue.impl.table.SingleTableBuilder;
import net.openhft.chronicle.threads.Pauser;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An engine killed while writing an excerpt leaves its journal's write lock held by a process that no
 * longer exists. Chronicle breaks such a lock only after its write timeout (seconds); the engine is the
 * only writer of its journal, so on start it breaks a lock whose holder is dead at once, as Chronicle's
 * own {@code UnlockMain} would. A lock held by a live process is left alone: then another engine is
 * running on this journal, and appending would fail loudly after the timeout, as it should.
 */
final class StaleWriteLock {
    private StaleWriteLock() {
    }

    /** @return true if the lock of the journal in {@code dir} was held by a dead process and is now free */
    static boolean breakIfHolderDead(final Path dir) {
        final Path metadata = dir.resolve("metadata.cq4t");
        if (!Files.exists(metadata)) {
            return false;
        }
        SingleChronicleQueueBuilder.addAliases(); // so the table store's metadata type reads
        final TableStore<Metadata.NoMeta> store =
                SingleTableBuilder.binary(metadata, Metadata.NoMeta.INSTANCE).readOnly(false).build();
        try {
            final TableStoreWriteLock lock = new TableStoreWriteLock(store, Pauser::balanced, 0L);
            try {
                return lock.locked() && lock.forceUnlockIfProcessIsDead();
            } finally {
                lock.close();
            }
        } finally {
            store.close();
        }
    }
}
