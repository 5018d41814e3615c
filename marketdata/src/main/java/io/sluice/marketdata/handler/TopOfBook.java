package io.sluice.marketdata.handler;

import io.sluice.contracts.Price;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.FeedText;

/**
 * One line of an instrument's top of book, as {@code ./sluice feed} and {@code ./sluice demo} print it. Status, best
 * bid and ask (quantity, price and orders), the last trade, and the book checksum. Allocates: for people, at most
 * once a second, never per message.
 */
public final class TopOfBook {
    private TopOfBook() {
    }

    /** @return e.g. {@code VOD.L O  bid 30 @ 99.99 (2)  ask 10 @ 100.01 (1)  last 10 @ 100  checksum 0x1f3a...} */
    public static String line(final OrderBooks books, final int instrument) {
        final StringBuilder text = new StringBuilder(128).append(String.format("%-10s", FeedText.symbol(books.symbol(instrument))))
                .append(' ').append((char) books.status(instrument));
        side(text.append("  bid "), books, instrument, true);
        side(text.append("  ask "), books, instrument, false);
        text.append("  last ");
        if (books.lastTradeQuantity(instrument) == 0) {
            text.append('-');
        } else {
            text.append(books.lastTradeQuantity(instrument)).append(" @ ");
            Price.Text.appendTo(text, books.lastTradePrice(instrument));
        }
        return text.append("  checksum 0x").append(Long.toHexString(books.checksum(instrument))).toString();
    }

    private static void side(final StringBuilder text, final OrderBooks books, final int instrument, final boolean bid) {
        if (books.levels(instrument, bid) == 0) {
            text.append('-');
            return;
        }
        text.append(books.levelQuantity(instrument, bid, 0)).append(" @ ");
        Price.Text.appendTo(text, books.levelPrice(instrument, bid, 0));
        text.append(" (").append(books.levelOrders(instrument, bid, 0)).append(')');
    }
}
