package io.sluice.marketdata;

import io.sluice.engine.Engine;
import io.sluice.engine.book.BookSide;
import io.sluice.engine.book.Order;
import io.sluice.engine.book.PriceLevel;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.derive.MarketDataService;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Market data held against the engine that wrote its input: derived whole, and books compared level by level. */
public final class EngineBooks {
    private EngineBooks() {
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

    /** Asserts that {@code books} hold exactly {@code recorded}'s resting orders, level by level, in queue order. */
    public static void assertSameBooks(final RecordedEngine recorded, final OrderBooks books) {
        final Engine engine = recorded.engine();
        for (int i = 0; i < engine.books(); i++) {
            final InstrumentConfig instrument = recorded.config().instruments().get(i);
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
}
