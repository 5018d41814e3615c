package io.sluice.marketdata.derive;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.EngineBooks;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.MarketDataJournalContents;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import io.sluice.testkit.JournalSurgery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market-data journal derived from a real engine journal: the books it describes are the engine's, order by order,
 * after every stretch of inputs; the same engine journal always gives the same journal byte for byte, whether derived
 * in one run, in two, or after a restart half way; what the engine's trading-status outcomes say reaches the feed; an
 * instrument the config does not list stops the deriver with a message naming it; a damaged batch header stops a restart
 * naming it, never taken for the journal's end.
 */
final class MarketDataServiceTest {
    private static final String NOWHERE = "127.0.0.1:9";

    @TempDir
    Path dir;

    @Test
    void theBooksAreTheEnginesOrderByOrderAfterEveryStretchOfInputs() {
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 7);
             MarketDataService marketData = new MarketDataService(TwoInstrumentMarketData.config(root, NOWHERE))) {
            for (int stretch = 0; stretch < 20; stretch++) {
                engine.trade(1_000, 397);
                drain(marketData);
                EngineBooks.assertSameBooks(engine, marketData.books());
            }
            assertTrue(marketData.books().restingOrders() > 100, "orders rest: " + marketData.books().restingOrders());
        }
    }

    @Test
    void theSameEngineJournalGivesTheSameMarketDataJournalByteForByteInOneRunTwoRunsOrAfterARestart() throws Exception {
        final Path first = dir.resolve("first");
        try (RecordedEngine engine = new RecordedEngine(first, 11)) {
            engine.trade(10_000, 501);
        }
        final Path second = RecordedEngine.copyJournal(first, dir.resolve("second"));
        final Path restarted = RecordedEngine.copyJournal(first, dir.resolve("restarted"));
        EngineBooks.derivedWhole(TwoInstrumentMarketData.config(first, NOWHERE));
        EngineBooks.derivedWhole(TwoInstrumentMarketData.config(second, NOWHERE));
        try (MarketDataService half = new MarketDataService(TwoInstrumentMarketData.config(restarted, NOWHERE))) {
            for (int i = 0; i < 40; i++) {
                half.doWork();
            }
        }
        final long resumedAt;
        try (MarketDataService rest = new MarketDataService(TwoInstrumentMarketData.config(restarted, NOWHERE))) {
            resumedAt = rest.nextSequence();
            drain(rest);
        }
        final List<byte[]> expected = MarketDataJournalContents.excerpts(first);
        assertTrue(expected.size() > 1_000, "batches: " + expected.size());
        assertTrue(resumedAt > 1 && resumedAt < MarketDataJournalContents.messages(first).size(), "resumed at " + resumedAt);
        for (final Path other : List.of(second, restarted)) {
            final List<byte[]> actual = MarketDataJournalContents.excerpts(other);
            assertEquals(expected.size(), actual.size(), "batches of " + other.getFileName());
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), "batch " + i + " of " + other.getFileName());
            }
        }
    }

    @Test
    void haltsClosesAndOpensReachTheFeedAsTradingStatusesAndAClosedSessionShowsOverAHalt() {
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 3);
             MarketDataService marketData = new MarketDataService(TwoInstrumentMarketData.config(root, NOWHERE))) {
            engine.admin(AdminAction.HALT, "VOD.L").admin(AdminAction.HALT, "VOD.L") // the second is refused
                    .admin(AdminAction.CLOSE_TRADING, null).admin(AdminAction.OPEN_TRADING, "BARC.L")
                    .admin(AdminAction.OPEN_TRADING, "VOD.L").admin(AdminAction.RESUME, "VOD.L");
            drain(marketData);
        }
        final List<String> statuses = MarketDataJournalContents.messages(root).stream()
                .map(m -> m.replaceAll("timestamp: \\d+, ", "")).toList();
        assertEquals(List.of(
                "1: tradingStatus: { symbol: VOD.L, status: O, halt: false }",
                "2: tradingStatus: { symbol: BARC.L, status: O, halt: false }",
                "3: tradingStatus: { symbol: VOD.L, status: H, halt: true }",
                "4: tradingStatus: { symbol: VOD.L, status: C, halt: true }",
                "5: tradingStatus: { symbol: BARC.L, status: C, halt: false }",
                "6: tradingStatus: { symbol: BARC.L, status: O, halt: false }",
                "7: tradingStatus: { symbol: VOD.L, status: H, halt: true }",
                "8: tradingStatus: { symbol: VOD.L, status: O, halt: false }"), statuses);
    }

    @Test
    void anInstrumentTheConfigDoesNotListStopsTheDeriverNamingIt() {
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 5)) {
            engine.trade(2_000, 10_000);
        }
        final MarketDataConfig onlyVod = TwoInstrumentMarketData.config(root, NOWHERE).instruments(List.of("VOD.L"));
        try (MarketDataService marketData = new MarketDataService(onlyVod)) {
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> drain(marketData));
            assertTrue(e.getMessage().contains("changes the book of BARC.L, an instrument the market-data config does"
                    + " not list"), e.getMessage());
        }
    }

    @Test
    void aDamagedBatchHeaderStopsTheRestartNamingTheMarketDataJournalNotTakenForItsEnd() throws Exception {
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 13);
             MarketDataService marketData = new MarketDataService(TwoInstrumentMarketData.config(root, NOWHERE))) {
            engine.trade(200, 397);
            drain(marketData);
        }
        final Path journal = Journals.marketDataJournal(root);
        final JournalSurgery.Change damaged = JournalSurgery.damageHeader(journal, 5);
        final CorruptJournalException e = assertThrows(CorruptJournalException.class,
                () -> new MarketDataService(TwoInstrumentMarketData.config(root, NOWHERE)).close());
        assertEquals(damaged.index(), e.index(), e.getMessage());
        assertEquals(damaged.offset(), e.fileOffset(), e.getMessage());
        assertTrue(e.getMessage().contains("journal " + journal.toAbsolutePath() + ", file " + damaged.file().getFileName()),
                e.getMessage());
    }

    static void drain(final MarketDataService service) {
        while (service.doWork() > 0) {
            // until the engine journal's end
        }
    }
}
