package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;

/**
 * Copies one journal's excerpts, bytes unchanged, into another journal, a given number at a time: as a replication
 * receiver fills a replica journal, so tests can make journals arrive in steps and out of step with each other, or
 * keep only the start of one. The target journal is created (empty, in this Sluice's journal format) at once.
 */
final class ExcerptCopier implements AutoCloseable {
    private final ChronicleQueue source;
    private final ChronicleQueue target;
    private final ExcerptTailer tailer;
    private final ExcerptAppender appender;

    /** @param from the journal directory read (read-only); @param to the journal directory written */
    ExcerptCopier(final Path from, final Path to) {
        source = Journals.openReadOnly(from);
        target = Journals.open(to);
        tailer = source.createTailer();
        appender = target.createAppender();
    }

    /** Copies up to {@code excerpts} more excerpts; @return how many there were */
    int copy(final int excerpts) {
        int copied = 0;
        while (copied < excerpts) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                appender.writeBytes(dc.wire().bytes());
            }
            copied++;
        }
        return copied;
    }

    /** Copies every excerpt left; @return how many */
    int copyRest() {
        return copy(Integer.MAX_VALUE);
    }

    @Override
    public void close() {
        target.close();
        source.close();
    }
}
