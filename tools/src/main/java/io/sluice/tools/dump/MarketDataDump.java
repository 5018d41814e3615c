package io.sluice.tools.dump;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.feed.FeedText;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code ./sluice dump data/marketdata}: the market-data journal as YAML, one document per batch (the engine excerpt it
 * comes from, its first sequence and count) listing its messages field by field, each checksum checked: a damaged batch
 * stops the dump naming the journal, excerpt and offset, exit code {@value JournalDump#EXIT_CORRUPT}.
 */
final class MarketDataDump {
    private MarketDataDump() {
    }

    static int run(final Path dir, final boolean showIndex, final boolean follow, final long start, final long max,
                   final PrintStream out, final PrintStream err) {
        try (ChronicleQueue journal = Journals.openReadOnly(dir); ExcerptTailer tailer = journal.createTailer()) {
            if (start >= 0 && !tailer.moveToIndex(start)) {
                err.println("dump: no excerpt at index 0x" + Long.toHexString(start) + " in " + dir.toAbsolutePath());
                return 1;
            }
            final BatchReader reader = new BatchReader(journal, tailer);
            final IdleStrategy idle = new BackoffIdleStrategy();
            final StringBuilder text = new StringBuilder();
            long printed = 0;
            while (printed < max) {
                text.setLength(0);
                if (reader.readOne((engineIndex, firstSequence, count, blocks, length) -> {
                    if (showIndex) {
                        text.append("# index 0x").append(Long.toHexString(tailer.lastReadIndex())).append('\n');
                    }
                    text.append("batch: { engineIndex: ").append(engineIndex == BatchLayout.NO_ENGINE_INDEX ? "none"
                            : "0x" + Long.toHexString(engineIndex)).append(", firstSequence: ").append(firstSequence)
                            .append(", count: ").append(count).append(" }\n");
                    final long[] sequence = {firstSequence};
                    MessageHandler.forEach(blocks, 0, length, (buffer, offset, messageLength) ->
                            text.append("  ").append(sequence[0]++).append(": ").append(FeedText.describe(buffer, offset))
                                    .append('\n'));
                    text.append("...\n");
                })) {
                    out.print(text);
                    printed++;
                    idle.reset();
                } else if (follow) {
                    idle.idle();
                } else {
                    break;
                }
            }
            out.flush();
            return 0;
        } catch (final CorruptJournalException e) {
            out.flush();
            err.println("dump: stopped on a damaged journal: " + e.getMessage());
            return JournalDump.EXIT_CORRUPT;
        }
    }
}
