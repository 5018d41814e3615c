package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Reading a snapshot journal backward ({@link SnapshotCatalog.NewestFirst}, what a restart does) finds the same
 * snapshots as the forward pass over all of it ({@link SnapshotCatalog#read}), newest first, torn ones included,
 * jumping from each end record to its begin over the order excerpts between.
 */
final class SnapshotCatalogTest {
    @TempDir
    Path root;

    @Test
    void newestFirstFindsWhatTheForwardPassFindsInReverseTornOnesIncluded() {
        try (ChronicleQueue snapshots = Journals.open(Journals.snapshotJournal(root))) {
            final ExcerptAppender appender = snapshots.createAppender();
            final EngineSnapshots records = Journals.methodWriter(appender, EngineSnapshots.class);
            begin(records, 100);                // torn: its writer died before any order excerpt
            whole(records, appender, 200, 3);
            begin(records, 300);                // torn: its writer died after some order excerpts
            records.snapshotOrder(new SnapshotOrder());
            whole(records, appender, 400, 0);
            whole(records, appender, 500, 5);
            begin(records, 600);                // torn, and the newest: a writer still at work, or killed

            final List<SnapshotCatalog.Entry> forward = SnapshotCatalog.read(snapshots);
            final List<String> backward = new ArrayList<>();
            try (SnapshotCatalog.NewestFirst catalog = new SnapshotCatalog.NewestFirst(snapshots)) {
                for (SnapshotCatalog.Entry e = catalog.next(); e != null; e = catalog.next()) {
                    backward.add(describe(e));
                }
                assertNull(catalog.next(), "nothing after the oldest");
                assertEquals(6, catalog.found());
            }
            final List<String> expected = new ArrayList<>(forward.stream().map(SnapshotCatalogTest::describe).toList());
            Collections.reverse(expected);
            assertEquals(List.of("engine 600 torn", "engine 500 whole", "engine 400 whole", "engine 300 torn",
                    "engine 200 whole", "engine 100 torn"), backward.stream().map(s -> s.replaceAll(" at .*", ""))
                    .toList());
            assertEquals(expected, backward);
        }
    }

    private static void begin(final EngineSnapshots records, final long engineIndex) {
        records.snapshotBegin(new SnapshotBegin().position(engineIndex, 0, 1, engineIndex, engineIndex));
    }

    /** A snapshot with {@code orderExcerpts} excerpts of orders between its begin and its end. */
    private static void whole(final EngineSnapshots records, final ExcerptAppender appender, final long engineIndex,
                              final int orderExcerpts) {
        begin(records, engineIndex);
        final long begin = appender.lastIndexAppended();
        for (int i = 0; i < orderExcerpts; i++) {
            records.snapshotOrder(new SnapshotOrder());
        }
        records.snapshotEnd(new SnapshotEnd().set(engineIndex, begin, 1 + orderExcerpts, 0));
    }

    /** @return e.g. "engine 200 whole at 0x... to 0x..." */
    private static String describe(final SnapshotCatalog.Entry e) {
        return "engine " + e.begin.engineIndex() + (e.end == null ? " torn" : " whole") + " at 0x"
                + Long.toHexString(e.beginIndex) + " to 0x" + Long.toHexString(e.endIndex) + " " + e.sources.size();
    }
}
