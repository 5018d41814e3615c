package io.sluice.marketdata.journal;

import io.sluice.contracts.RecordChecksum;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.marketdata.feed.FeedLayout;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads the market-data journal batch by batch on one tailer, checking each batch's checksum and shape.
 * A damaged excerpt stops reading with a {@link CorruptJournalException} naming the journal, the excerpt's index and
 * offset; {@link #readOneToEnd} also tells the journal's end from a damaged excerpt header. Allocation-free per batch;
 * single-threaded, like the tailer.
 */
public final class BatchReader {
    private final ChronicleQueue journal;
    private final ExcerptTailer tailer;
    private final UnsafeBuffer excerpt = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer blocks = new UnsafeBuffer(0, 0);
    private final JournalReader.ReadStep<BatchHandler> readStep = this::readOne;

    public BatchReader(final ChronicleQueue journal, final ExcerptTailer tailer) {
        this.journal = journal;
        this.tailer = tailer;
    }

    /** @return the tailer this reader reads with */
    public ExcerptTailer tailer() {
        return tailer;
    }

    /**
     * Reads the next batch into {@code handler}.
     *
     * @return false if there is none (yet)
     */
    public boolean readOne(final BatchHandler handler) {
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return false;
                }
                if (dc.isMetaData()) {
                    continue;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                final long position = bytes.readPosition();
                final int length = (int) bytes.readRemaining();
                excerpt.wrap(bytes.addressForRead(position), length);
                final int blocksLength = length < BatchLayout.BLOCKS + RecordChecksum.LENGTH ? -1
                        : excerpt.getInt(BatchLayout.BLOCKS_LENGTH, FeedLayout.ORDER);
                if (blocksLength < 0 || BatchLayout.BLOCKS + blocksLength + RecordChecksum.LENGTH != length
                        || !RecordChecksum.holds(excerpt.addressOffset(), BatchLayout.BLOCKS + blocksLength)) {
                    throw CorruptJournalException.at(journal, dc.index(), position,
                            "a market-data batch of " + length + " bytes whose length or checksum does not hold", null);
                }
                blocks.wrap(excerpt, BatchLayout.BLOCKS, blocksLength);
                handler.onBatch(excerpt.getLong(BatchLayout.ENGINE_INDEX, FeedLayout.ORDER),
                        excerpt.getLong(BatchLayout.FIRST_SEQUENCE, FeedLayout.ORDER),
                        excerpt.getInt(BatchLayout.COUNT, FeedLayout.ORDER), blocks, blocksLength);
                return true;
            }
        }
    }

    /**
     * Reads the next batch as {@link #readOne} does; where there is none, proves that the tailer stands at the journal's
     * end ({@link JournalReader#readOneToEnd(ChronicleQueue, ExcerptTailer, JournalReader.ReadStep, Object)}). Not for a
     * live loop: finding nothing costs a look-up of the journal's last index.
     *
     * @return false at the journal's end
     * @throws CorruptJournalException if a batch is damaged, its excerpt header included
     */
    public boolean readOneToEnd(final BatchHandler handler) {
        return JournalReader.readOneToEnd(journal, tailer, readStep, handler);
    }
}
