package io.sluice.engine.process;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;

/**
 * Counts the excerpts of the engine journal under a root as they are committed: how the tests with killed engine
 * processes measure its progress. A torn one, from an engine killed while writing it, never shows.
 */
public final class CommittedExcerpts implements AutoCloseable {
    private final ChronicleQueue queue;
    private final ExcerptTailer tailer;
    private long count;

    public CommittedExcerpts(final Path root) {
        queue = Journals.open(Journals.engineJournal(root));
        tailer = queue.createTailer();
    }

    /** @return how many excerpts are committed now (reading at most 10,000 more per call) */
    public long count() {
        for (int i = 0; i < 10_000; i++) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                count++;
            }
        }
        return count;
    }

    @Override
    public void close() {
        queue.close();
    }
}
