package io.sluice.marketdata;

import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.feed.FeedText;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.journal.BatchReader;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a market-data journal holds, read back for assertions: its excerpts' bytes, or its messages as text. */
public final class MarketDataJournalContents {
    private MarketDataJournalContents() {
    }

    /** @return every excerpt of the market-data journal under {@code root}, byte for byte */
    public static List<byte[]> excerpts(final Path root) {
        final List<byte[]> excerpts = new ArrayList<>();
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.marketDataJournal(root));
             ExcerptTailer tailer = journal.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return excerpts;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    excerpts.add(bytes.toByteArray());
                }
            }
        }
    }

    /** @return every message of the market-data journal under {@code root}, as "sequence: text" */
    public static List<String> messages(final Path root) {
        final List<String> messages = new ArrayList<>();
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.marketDataJournal(root));
             ExcerptTailer tailer = journal.createTailer()) {
            final BatchReader reader = new BatchReader(journal, tailer);
            while (reader.readOne((engineIndex, firstSequence, count, blocks, length) -> {
                final long[] sequence = {firstSequence};
                MessageHandler.forEach(blocks, 0, length, (buffer, offset, messageLength) ->
                        messages.add(sequence[0]++ + ": " + FeedText.describe(buffer, offset)));
            })) {
                // every batch
            }
        }
        return messages;
    }
}
