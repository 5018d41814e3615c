package io.sluice.tools.dump;

import io.sluice.marketdata.feed.FeedText;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.journal.BatchHandler;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.DirectBuffer;

import java.io.PrintStream;

/**
 * Prints the market-data journal for {@code ./sluice dump data/marketdata}, one YAML document per batch.
 * Each document names the engine excerpt the batch comes from, its first sequence and count, and lists its messages
 * field by field; each batch's checksum is checked ({@link BatchReader}), and {@link DumpLoop} reads and stops as it
 * does for every journal.
 */
final class MarketDataDump implements DumpLoop.ExcerptPrinter, BatchHandler {
    private final ExcerptTailer tailer;
    private final BatchReader reader;
    private final StringBuilder text = new StringBuilder();
    private final MessageHandler describe = this::describe;
    private long sequence;

    MarketDataDump(final ChronicleQueue journal, final ExcerptTailer tailer) {
        this.tailer = tailer;
        reader = new BatchReader(journal, tailer);
    }

    @Override
    public DumpLoop.Read printOne(final boolean toEnd, final boolean showIndex, final PrintStream out) {
        text.setLength(0);
        if (!(toEnd ? reader.readOneToEnd(this) : reader.readOne(this))) {
            return DumpLoop.Read.NONE;
        }
        if (showIndex) {
            out.println("# index 0x" + Long.toHexString(tailer.lastReadIndex()));
        }
        out.print(text);
        return DumpLoop.Read.PRINTED;
    }

    @Override
    public void onBatch(final long engineIndex, final long firstSequence, final int count, final DirectBuffer blocks,
                        final int length) {
        text.append("batch: { engineIndex: ").append(engineIndex == BatchLayout.NO_ENGINE_INDEX ? "none"
                : "0x" + Long.toHexString(engineIndex)).append(", firstSequence: ").append(firstSequence)
                .append(", count: ").append(count).append(" }\n");
        sequence = firstSequence;
        MessageHandler.forEach(blocks, 0, length, describe);
        text.append("...\n");
    }

    private void describe(final DirectBuffer buffer, final int offset, final int messageLength) {
        text.append("  ").append(sequence++).append(": ").append(FeedText.describe(buffer, offset)).append('\n');
    }
}
