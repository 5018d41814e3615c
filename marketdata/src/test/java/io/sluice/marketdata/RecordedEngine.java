package io.sluice.marketdata;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.JournalOutput;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.book.BookSide;
import io.sluice.engine.book.Order;
import io.sluice.engine.book.PriceLevel;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.load.AdminTurns;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.derive.MarketDataService;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A real engine writing a real engine journal under a root, in this process: the input of every market-data test. It
 * writes as the engine process does (one excerpt per input, through {@link JournalingInput} and {@link JournalOutput}).
 * It trades {@link TwoInstrumentMarket} with a {@link MixedOrderFlow} and an operator's turn (halt, resume, close,
 * open) on one instrument now and then; {@link #assertSameBooks} compares market data's books with the engine's.
 */
public final class RecordedEngine implements AutoCloseable {
    private final EngineConfig config;
    private final ChronicleQueue journal;
    private final ExcerptAppender appender;
    private final Engine engine;
    private final JournalingInput input;
    private final MixedOrderFlow flow;
    private final AdminTurns turns;
    private final AdminCommand admin = new AdminCommand();
    private long adminEventId = 1_000_000;

    public RecordedEngine(final Path root, final long seed) {
        config = TwoInstrumentMarket.config(root).maxOpenOrders(100_000);
        journal = Journals.open(Journals.engineJournal(root));
        appender = journal.createAppender();
        final JournalOutput output = new JournalOutput(appender);
        output.goLive();
        engine = new Engine(config, output);
        input = new JournalingInput(appender, engine);
        flow = new MixedOrderFlow(seed, 1, config.instruments(), 4);
        turns = new AdminTurns(config.instruments().get(1).symbol());
    }

    /** @return the instruments as market data lists them */
    public static List<String> symbols() {
        return List.of("VOD.L", "BARC.L");
    }

    /** @return a market-data config for the engine journal under {@code root} (send to {@code incremental}) */
    public static MarketDataConfig marketData(final Path root, final String incremental) {
        return new MarketDataConfig().journalRoot(root).instruments(symbols()).incremental(List.of(incremental))
                .checksumEvery(50);
    }

    /** @return {@code to}, a root holding a copy of the engine journal under {@code from} */
    public static Path copyJournal(final Path from, final Path to) throws IOException {
        final Path target = Files.createDirectories(Journals.engineJournal(to));
        try (Stream<Path> files = Files.list(Journals.engineJournal(from))) {
            for (final Path file : files.toList()) {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
        return to;
    }

    /**
     * @return the sequence the next message will have once {@code config}'s engine journal is derived whole: what one
     * run that never stopped gives (it writes {@code config}'s market-data journal)
     */
    public static long derivedWhole(final MarketDataConfig config) {
        try (MarketDataService service = new MarketDataService(config)) {
            while (service.doWork() > 0) {
                // to the engine journal's end
            }
            return service.nextSequence();
        }
    }

    /** Runs {@code commands} commands of the mixed flow, an operator's turn after every {@code turnEvery}. */
    public RecordedEngine trade(final long commands, final long turnEvery) {
        for (long i = 1; i <= commands; i++) {
            flow.next(input);
            if (i % turnEvery == 0) {
                turns.next(input);
            }
        }
        return this;
    }

    /** One admin command, as the admin journal hands it to the engine. */
    public RecordedEngine admin(final AdminAction action, final String symbol) {
        admin.metaData().clearTimestamps();
        admin.metaData().sourceId(Journals.ADMIN_SOURCE_ID).eventId(++adminEventId);
        admin.action(action).symbol(symbol == null ? 0 : ShortTextLongConverter.INSTANCE.parse(symbol));
        input.adminCommand(admin);
        return this;
    }

    public Engine engine() {
        return engine;
    }

    public EngineConfig config() {
        return config;
    }

    /** Asserts that {@code books} hold exactly the engine's resting orders, level by level, in queue order. */
    public void assertSameBooks(final OrderBooks books) {
        for (int i = 0; i < engine.books(); i++) {
            final InstrumentConfig instrument = config.instruments().get(i);
            final int md = books.instrumentOf(instrument.symbol());
            assertSide(engine.book(i).bids(), books, md, true);
            assertSide(engine.book(i).asks(), books, md, false);
        }
    }

    private static void assertSide(final BookSide side, final OrderBooks books, final int instrument, final boolean bid) {
        int depth = 0;
        for (PriceLevel level = side.level(0); level != null; level = side.level(++depth)) {
            assertEquals(level.price(), books.levelPrice(instrument, bid, depth), "price at depth " + depth);
            int slot = books.firstOrder(instrument, bid, depth);
            long quantity = 0;
            for (Order order = level.head(); order != null; order = order.nextInLevel()) {
                assertEquals(order.orderId(), books.orderId(slot), "queue order at " + level.price());
                assertEquals(order.leavesQty(), books.orderQuantity(slot), "quantity of order " + order.orderId());
                quantity += order.leavesQty();
                slot = books.nextOrder(slot);
            }
            assertEquals(-1, slot, "market data has more orders at " + level.price());
            assertEquals(quantity, books.levelQuantity(instrument, bid, depth));
        }
        assertEquals(depth, books.levels(instrument, bid), "price levels");
    }

    @Override
    public void close() {
        appender.close();
        journal.close();
    }
}
