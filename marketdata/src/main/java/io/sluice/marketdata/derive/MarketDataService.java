package io.sluice.marketdata.derive;

import io.sluice.contracts.TradingSession;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchReader;
import io.sluice.marketdata.journal.BatchWriter;
import io.sluice.runtime.journal.StaleWriteLock;
import io.sluice.runtime.process.ProcessLock;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.Agent;

import java.nio.file.Path;

/**
 * The market-data journal's writer, as an Agrona {@link Agent}: tails the engine journal and appends feed messages. For
 * each engine excerpt that changes a book or a trading status it appends one batch of feed messages ({@link
 * FeedDeriver}) numbered on from the last, naming the engine excerpt it comes from.
 * <p>
 * Restart: the journal is its own checkpoint. On start the messages already in it are applied again ({@link
 * FeedDeriver#replay}), which rebuilds the books, statuses and checksum counts, and give the next sequence and the
 * last engine excerpt answered; the engine journal is read on after that excerpt. A {@code kill -9} at any instant
 * loses at most a batch not yet committed, which is derived again, with the same numbers: a sequence is never used
 * for two messages. A new journal starts with every instrument's status ({@link BatchLayout#NO_ENGINE_INDEX}).
 */
public final class MarketDataService implements Agent, AutoCloseable {
    /** Engine excerpts read per {@link #doWork()} at most. */
    private static final int BURST = 64;

    private final ChronicleQueue engineJournal;
    private final ChronicleQueue marketData;
    private final ProcessLock lock;
    private final ExcerptTailer engineTailer;
    private final JournalReader engineReader;
    private final ExcerptAppender appender;
    private final BatchWriter batch = new BatchWriter();
    private final OrderBooks books;
    private final FeedDeriver deriver;
    private long nextSequence = 1;
    private long lastEngineIndex = BatchLayout.NO_ENGINE_INDEX;
    private long batches;

    /**
     * Opens the engine journal (which must exist) and the market-data journal, takes its writer lock and rebuilds the
     * state its batches leave.
     */
    public MarketDataService(final MarketDataConfig config) {
        final Path root = config.journalRoot();
        // Opened as the gateways open it, not read-only: a read-only queue does not see the cycle files the engine
        // adds after it was opened (the first one included, when the engine has written nothing yet).
        engineJournal = Journals.open(Journals.engineJournal(root));
        final Path dir = Journals.marketDataJournal(root);
        lock = ProcessLock.journalWriter(dir, "marketdata");
        marketData = Journals.open(dir);
        StaleWriteLock.breakIfHolderDead(marketData);
        books = new OrderBooks(config.symbols(),
                config.tradingSessionAtStart() == TradingSession.OPEN ? TradingStatus.OPEN : TradingStatus.CLOSED,
                config.maxOrders(), config.maxPriceLevels());
        deriver = new FeedDeriver(books, batch, config.checksumEvery());
        appender = marketData.createAppender();
        rebuild();
        engineTailer = engineJournal.createTailer();
        if (lastEngineIndex != BatchLayout.NO_ENGINE_INDEX) {
            if (!engineTailer.moveToIndex(lastEngineIndex)) {
                throw CorruptJournalException.at(engineJournal, lastEngineIndex, -1, "the market-data journal answers"
                        + " this engine excerpt, which the engine journal does not hold", null);
            }
            engineTailer.readingDocument().close();
        }
        engineReader = new JournalReader(engineJournal, engineTailer, deriver);
    }

    private void rebuild() {
        final MessageHandler replay = (buffer, offset, length) -> deriver.replay(buffer, offset);
        try (ExcerptTailer tailer = marketData.createTailer()) {
            final BatchReader reader = new BatchReader(marketData, tailer);
            while (reader.readOneToEnd((engineIndex, firstSequence, count, blocks, length) -> {
                if (firstSequence != nextSequence) {
                    throw CorruptJournalException.at(marketData, tailer.lastReadIndex(), -1, "a batch numbered from "
                            + firstSequence + " where " + nextSequence + " was next", null);
                }
                MessageHandler.forEach(blocks, 0, length, replay);
                nextSequence += count;
                if (engineIndex != BatchLayout.NO_ENGINE_INDEX) {
                    lastEngineIndex = engineIndex;
                }
                batches++;
            })) {
                // every batch replayed
            }
        }
        if (batches == 0) {
            deriver.initialStatuses();
            append(BatchLayout.NO_ENGINE_INDEX);
        }
    }

    @Override
    public int doWork() {
        int read = 0;
        while (read < BURST) {
            deriver.beginExcerpt(engineTailer.index());
            if (!engineReader.readOne()) {
                break;
            }
            read++;
            deriver.endExcerpt();
            if (batch.count() > 0) {
                append(engineTailer.lastReadIndex());
            }
        }
        return read;
    }

    private void append(final long engineIndex) {
        final int count = batch.count();
        batch.appendTo(appender, engineIndex, nextSequence);
        nextSequence += count;
        batches++;
    }

    /** @return the sequence the next message will have */
    public long nextSequence() {
        return nextSequence;
    }

    /** @return the books as the journal's messages leave them */
    public OrderBooks books() {
        return books;
    }

    /** @return the market-data journal, for the publisher and the retransmission service of this process */
    public ChronicleQueue journal() {
        return marketData;
    }

    @Override
    public String roleName() {
        return "marketdata";
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public void close() {
        if (!marketData.isClosed()) {
            engineReader.close();
            engineTailer.close();
            appender.close();
            lock.close();
            marketData.close();
            engineJournal.close();
        }
    }
}
