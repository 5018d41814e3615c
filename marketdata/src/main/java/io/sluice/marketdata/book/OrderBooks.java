package io.sluice.marketdata.book;

import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.BookChecksum;
import io.sluice.marketdata.feed.DeleteOrder;
import io.sluice.marketdata.feed.EndOfSnapshot;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.ModifyOrder;
import io.sluice.marketdata.feed.Trade;
import io.sluice.marketdata.feed.TradingStatus;
import org.agrona.DirectBuffer;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

/**
 * The order-level books of every instrument of a feed, built by applying feed messages. Every resting order (id, side,
 * price, quantity, place in its queue), the price levels, the trading status, the last trade and a checksum of each
 * book. The publisher keeps one to derive and snapshot the feed, the feed handler one to rebuild it: one code for
 * both, so their checksums agree by construction when they saw the same messages. Everything is allocated at start.
 * <p>
 * The checksum of a book is the sum (mod 2^64) of a 64-bit mix of each resting order's id, side, price and quantity:
 * kept up to date with every change, in constant time. It does not cover an order's place in its queue, which follows
 * from the order of the messages.
 */
public final class OrderBooks {
    private static final long NONE = -1;

    private final long[] symbols;
    private final Long2LongHashMap instrumentOf = new Long2LongHashMap(NONE);
    private final BookSide[] bids;
    private final BookSide[] asks;
    private final byte[] statuses;
    private final long[] checksums;
    private final long[] lastTradePrices;
    private final long[] lastTradeQuantities;
    private final Long2LongHashMap slotOf;
    private final long[] orderIds;
    private final long[] prices;
    private final long[] quantities;
    private final byte[] sides;
    private final int[] instruments;
    private final int[] next;
    private final int[] previous;
    private final AddOrder add = new AddOrder();
    private final ModifyOrder modify = new ModifyOrder();
    private final DeleteOrder delete = new DeleteOrder();
    private final Trade trade = new Trade();
    private final TradingStatus status = new TradingStatus();
    private int free;
    private int resting;

    /**
     * @param symbols   the instruments, in the feed's order
     * @param status    the trading status every instrument starts with ({@link TradingStatus#OPEN} ...)
     * @param maxOrders resting orders the books hold at most, all instruments together
     * @param maxLevels price levels per side of each instrument
     */
    public OrderBooks(final long[] symbols, final byte status, final int maxOrders, final int maxLevels) {
        this.symbols = symbols.clone();
        bids = new BookSide[symbols.length];
        asks = new BookSide[symbols.length];
        statuses = new byte[symbols.length];
        checksums = new long[symbols.length];
        lastTradePrices = new long[symbols.length];
        lastTradeQuantities = new long[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            instrumentOf.put(symbols[i], i);
            bids[i] = new BookSide(true, maxLevels);
            asks[i] = new BookSide(false, maxLevels);
            statuses[i] = status;
        }
        slotOf = new Long2LongHashMap(Math.max(16, maxOrders * 2), Hashing.DEFAULT_LOAD_FACTOR, NONE);
        orderIds = new long[maxOrders];
        prices = new long[maxOrders];
        quantities = new long[maxOrders];
        sides = new byte[maxOrders];
        instruments = new int[maxOrders];
        next = new int[maxOrders];
        previous = new int[maxOrders];
        clear(status);
    }

    /** Empties every book and sets every instrument's status, as at start. */
    public void clear(final byte status) {
        slotOf.clear();
        for (int i = 0; i < next.length; i++) {
            next[i] = i + 1 < next.length ? i + 1 : -1;
        }
        free = next.length > 0 ? 0 : -1;
        resting = 0;
        for (int i = 0; i < symbols.length; i++) {
            bids[i].clear();
            asks[i].clear();
            statuses[i] = status;
            checksums[i] = 0;
            lastTradePrices[i] = 0;
            lastTradeQuantities[i] = 0;
        }
    }

    /** Applies the message at {@code offset} of {@code buffer}; @return whether it was taken */
    public Applied apply(final DirectBuffer buffer, final int offset) {
        final byte type = FeedMessage.typeAt(buffer, offset);
        switch (type) {
            case AddOrder.TYPE_A -> {
                add.wrapForDecode(buffer, offset);
                return add(add.symbol(), add.flag(), add.orderId(), add.price(), add.quantity());
            }
            case ModifyOrder.TYPE_U -> {
                modify.wrapForDecode(buffer, offset);
                return requantify(modify.orderId(), modify.quantity());
            }
            case DeleteOrder.TYPE_D -> {
                delete.wrapForDecode(buffer, offset);
                return requantify(delete.orderId(), 0);
            }
            case Trade.TYPE_T -> {
                trade.wrapForDecode(buffer, offset);
                final Applied applied = requantify(trade.restingOrderId(), trade.restingQuantity());
                if (applied == Applied.OK) {
                    final int instrument = (int) instrumentOf.get(trade.symbol());
                    lastTradePrices[instrument] = trade.price();
                    lastTradeQuantities[instrument] = trade.quantity();
                }
                return applied;
            }
            case TradingStatus.TYPE_S -> {
                status.wrapForDecode(buffer, offset);
                final long instrument = instrumentOf.get(status.symbol());
                if (instrument == NONE) {
                    return Applied.UNKNOWN_INSTRUMENT;
                }
                statuses[(int) instrument] = status.status();
                return Applied.OK;
            }
            case BookChecksum.TYPE_C, EndOfSnapshot.TYPE_E -> {
                return Applied.OK;
            }
            default -> {
                return Applied.UNKNOWN_TYPE;
            }
        }
    }

    private Applied add(final long symbol, final byte side, final long orderId, final long price, final long quantity) {
        final long instrument = instrumentOf.get(symbol);
        if (instrument == NONE) {
            return Applied.UNKNOWN_INSTRUMENT;
        }
        if (slotOf.get(orderId) != NONE) {
            return Applied.DUPLICATE_ORDER;
        }
        final BookSide bookSide = side == FeedMessage.BUY ? bids[(int) instrument] : asks[(int) instrument];
        int level = bookSide.find(price);
        if (level < 0) {
            level = bookSide.insert(-level - 1, price);
        }
        if (level < 0 || free < 0) {
            return Applied.NO_ROOM;
        }
        final int slot = free;
        free = next[slot];
        orderIds[slot] = orderId;
        prices[slot] = price;
        quantities[slot] = quantity;
        sides[slot] = side;
        instruments[slot] = (int) instrument;
        next[slot] = -1;
        final int tail = bookSide.tail(level);
        previous[slot] = tail;
        if (tail < 0) {
            bookSide.head(level, slot);
        } else {
            next[tail] = slot;
        }
        bookSide.tail(level, slot);
        bookSide.addQuantity(level, quantity);
        bookSide.countOne(level, 1);
        slotOf.put(orderId, slot);
        checksums[(int) instrument] += orderHash(orderId, side, price, quantity);
        resting++;
        return Applied.OK;
    }

    /** Sets a resting order's quantity, in place; 0 takes it out of the book. */
    private Applied requantify(final long orderId, final long quantity) {
        final long found = slotOf.get(orderId);
        if (found == NONE) {
            return Applied.UNKNOWN_ORDER;
        }
        final int slot = (int) found;
        final int instrument = instruments[slot];
        final byte side = sides[slot];
        final long price = prices[slot];
        final BookSide bookSide = side == FeedMessage.BUY ? bids[instrument] : asks[instrument];
        final int level = bookSide.find(price);
        checksums[instrument] -= orderHash(orderId, side, price, quantities[slot]);
        bookSide.addQuantity(level, quantity - quantities[slot]);
        quantities[slot] = quantity;
        if (quantity > 0) {
            checksums[instrument] += orderHash(orderId, side, price, quantity);
            return Applied.OK;
        }
        final int before = previous[slot];
        final int after = next[slot];
        if (before < 0) {
            bookSide.head(level, after);
        } else {
            next[before] = after;
        }
        if (after < 0) {
            bookSide.tail(level, before);
        } else {
            previous[after] = before;
        }
        bookSide.countOne(level, -1);
        slotOf.remove(orderId);
        next[slot] = free;
        free = slot;
        resting--;
        return Applied.OK;
    }

    /** @return a 64-bit mix of one resting order's fields: what the book checksum sums */
    static long orderHash(final long orderId, final byte side, final long price, final long quantity) {
        long h = orderId * 0x9E3779B97F4A7C15L;
        h = Long.rotateLeft(h ^ price * 0xC2B2AE3D27D4EB4FL, 31);
        h ^= quantity * 0x165667B19E3779F9L + side;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }

    /** @return how many instruments */
    public int instruments() {
        return symbols.length;
    }

    /** @return the symbol of instrument {@code instrument} */
    public long symbol(final int instrument) {
        return symbols[instrument];
    }

    /** @return the instrument of {@code symbol}, or -1 */
    public int instrumentOf(final long symbol) {
        return (int) instrumentOf.get(symbol);
    }

    /** @return the book checksum of instrument {@code instrument} */
    public long checksum(final int instrument) {
        return checksums[instrument];
    }

    /** @return the trading status byte of instrument {@code instrument} ({@link TradingStatus#OPEN} ...) */
    public byte status(final int instrument) {
        return statuses[instrument];
    }

    /** @return how many orders rest, all instruments together */
    public int restingOrders() {
        return resting;
    }

    /** @return the price of the last trade of {@code instrument}, or 0 */
    public long lastTradePrice(final int instrument) {
        return lastTradePrices[instrument];
    }

    /** @return the quantity of the last trade of {@code instrument}, or 0 */
    public long lastTradeQuantity(final int instrument) {
        return lastTradeQuantities[instrument];
    }

    /** @return how many price levels one side of {@code instrument} has */
    public int levels(final int instrument, final boolean bid) {
        return side(instrument, bid).size();
    }

    /** @return the level of {@code price} on one side of {@code instrument} (0 is the best), or negative if none */
    public int levelOf(final int instrument, final boolean bid, final long price) {
        return side(instrument, bid).find(price);
    }

    /** @return the price of a level (0 is the best) */
    public long levelPrice(final int instrument, final boolean bid, final int level) {
        return side(instrument, bid).price(level);
    }

    /** @return the total quantity of a level */
    public long levelQuantity(final int instrument, final boolean bid, final int level) {
        return side(instrument, bid).quantity(level);
    }

    /** @return how many orders a level holds */
    public int levelOrders(final int instrument, final boolean bid, final int level) {
        return side(instrument, bid).count(level);
    }

    /** @return the slot of the first order in a level's queue */
    public int firstOrder(final int instrument, final boolean bid, final int level) {
        return side(instrument, bid).head(level);
    }

    /** @return the slot of the order behind {@code slot} in its queue, or -1 */
    public int nextOrder(final int slot) {
        return next[slot];
    }

    public long orderId(final int slot) {
        return orderIds[slot];
    }

    public long orderQuantity(final int slot) {
        return quantities[slot];
    }

    public long orderPrice(final int slot) {
        return prices[slot];
    }

    public byte orderSide(final int slot) {
        return sides[slot];
    }

    /** @return the slot of resting order {@code orderId}, or -1 */
    public int slotOf(final long orderId) {
        return (int) slotOf.get(orderId);
    }

    private BookSide side(final int instrument, final boolean bid) {
        return bid ? bids[instrument] : asks[instrument];
    }
}
