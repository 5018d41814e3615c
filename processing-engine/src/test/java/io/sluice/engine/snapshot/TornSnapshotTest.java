package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.journal.StaleWriteLock;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A snapshot writer killed with {@code kill -9} in the middle of an excerpt ({@link TornSnapshotMain}): its snapshot
 * is listed as torn, and a writer after it (breaking the dead writer's lock) appends snapshots that are found.
 */
final class TornSnapshotTest {
    @TempDir
    Path dir;

    @Test
    void aSnapshotCutByKillNineIsTornAndTheNextWriterGoesOnAfterIt() throws Exception {
        final Path root = dir.resolve("journals");
        try (JavaProcess torn = JavaProcess.start("torn", dir.resolve("torn.log"), List.of("-Xmx128m"),
                TornSnapshotMain.class, root.toString())) {
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (!torn.logText().contains(TornSnapshotMain.HOLDING)) {
                if (!torn.isAlive() || System.nanoTime() > deadline) {
                    fail("the torn writer did not get to hold an excerpt: " + torn.logText());
                }
                LockSupport.parkNanos(2_000_000);
            }
            torn.kill9();
        }
        try (ChronicleQueue snapshots = Journals.open(Journals.snapshotJournal(root))) {
            final List<SnapshotCatalog.Entry> before = SnapshotCatalog.read(snapshots);
            System.out.println("after the kill: " + describe(before));
            assertEquals(1, before.size());
            assertNull(before.get(0).end, "torn: no end");
            StaleWriteLock.breakIfHolderDead(snapshots); // Chronicle may have done it already, on opening
            final long start = System.nanoTime();
            new WholeSnapshot(snapshots).writeWhole();
            System.out.println("second writer appended in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            final List<SnapshotCatalog.Entry> after = SnapshotCatalog.read(snapshots);
            System.out.println("after a second writer: " + describe(after));
            assertEquals(2, after.size());
            assertNotNull(after.get(1).end);
        }
    }

    private static String describe(final List<SnapshotCatalog.Entry> entries) {
        final StringBuilder text = new StringBuilder();
        for (final SnapshotCatalog.Entry e : entries) {
            text.append(String.format("[begin 0x%x end %s] ", e.beginIndex, e.end == null ? "none" : Long.toHexString(e.endIndex)));
        }
        return text.toString();
    }

    /** A whole snapshot's begin and end, with no orders. */
    private record WholeSnapshot(ChronicleQueue snapshots) {
        void writeWhole() {
            final var appender = snapshots.createAppender();
            final var records = Journals.methodWriter(appender, EngineSnapshots.class);
            records.snapshotBegin(new SnapshotBegin().position(1, 0, 1, 1, 1));
            final long begin = appender.lastIndexAppended();
            records.snapshotEnd(new SnapshotEnd().set(1, begin, 1, 0));
        }
    }
}
