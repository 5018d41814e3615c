package io.sluice.gateway.marketdata;

import io.sluice.gateway.codec.EncodedFields;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixSession;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.TradingStatus;
import org.agrona.DirectBuffer;

/**
 * Encodes the FIX market-data messages a session sends: MarketDataSnapshotFullRefresh (W) of a subscription's book,
 * MarketDataIncrementalRefresh (X) entries, SecurityStatus (f) and MarketDataRequestReject (Y). A book deeper than one
 * message holds goes out as a W of its best levels and X messages that add the deeper ones ({@link #deeperLevels}).
 * W, X and f carry the
 * feed's sequence in RptSeq (83, after MDReqID) and are sent unresendable ({@link FixSession#sendUnresendable}): a
 * resend gap-fills them, as a book is stale once sent. Nothing is allocated.
 */
public final class MarketDataMessages {
    /** MDUpdateAction (279) values. */
    public static final char NEW = '0';
    public static final char CHANGE = '1';
    public static final char DELETE = '2';
    /** MDEntryType (269) values. */
    public static final char BID = '0';
    public static final char OFFER = '1';
    public static final char TRADE = '2';
    /** SecurityTradingStatus (326) values. */
    public static final int TRADING_HALT = 2;
    public static final int READY_TO_TRADE = 17;
    public static final int NOT_AVAILABLE_FOR_TRADING = 18;
    /**
     * The room one snapshot entry takes at most: 269, 270 (a signed fixed-point price), 271 (a long), 346 (an int),
     * with their separators.
     */
    private static final int SNAPSHOT_ENTRY_BYTES = 6 + 26 + 24 + 15;
    /** The room one incremental entry takes at most: a snapshot entry's, 279 and Symbol (55, up to 8 characters). */
    private static final int INCREMENTAL_ENTRY_BYTES = SNAPSHOT_ENTRY_BYTES + 6 + 12;
    /** The room the other fields of a W or X take at most, the header's included. */
    private static final int MESSAGE_OVERHEAD = 256 + Subscriptions.MAX_REQ_ID;

    private final OrderBooks books;
    private final int maxSnapshotEntries;
    private final int maxIncrementalEntries;

    /** @param maxMessageBytes the largest message a session sends: a W or X lists as many levels as fit */
    public MarketDataMessages(final OrderBooks books, final int maxMessageBytes) {
        this.books = books;
        this.maxSnapshotEntries = Math.max(3, (maxMessageBytes - MESSAGE_OVERHEAD) / SNAPSHOT_ENTRY_BYTES);
        this.maxIncrementalEntries = Math.max(1, (maxMessageBytes - MESSAGE_OVERHEAD) / INCREMENTAL_ENTRY_BYTES);
    }

    /**
     * @return how many levels of each side asked for a snapshot (W) lists at most: its depth, or fewer if they do not
     *         fit one message (its share of what fits)
     */
    public int snapshotLevels(final int depth, final int types) {
        final boolean both = (types & Subscriptions.BID) != 0 && (types & Subscriptions.OFFER) != 0;
        return Math.min(depth, both ? (maxSnapshotEntries - 1) / 2 : maxSnapshotEntries - 1);
    }

    /**
     * Sends the subscription's book as a MarketDataSnapshotFullRefresh (W): its bid levels best first, then its offer
     * levels, then the last trade, each if asked for, at most {@link #snapshotLevels} a side.
     *
     * @return false if the session could not queue it
     */
    public boolean snapshot(final Subscriptions subscriptions, final int slot, final long rptSeq) {
        return snapshot(subscriptions.owner(slot), subscriptions.reqIds(), subscriptions.reqIdOffset(slot),
                subscriptions.reqIdLength(slot), subscriptions.instrument(slot), subscriptions.depth(slot),
                subscriptions.entryTypes(slot), rptSeq);
    }

    /**
     * Sends {@code session} a snapshot (W) of {@code instrument}'s book with the MDReqID in {@code reqIds}, of the
     * entry-type bits {@code types} ({@link Subscriptions#BID} ...), of the best {@code depth} levels of each side
     * ({@link Subscriptions#FULL_BOOK} for all).
     *
     * @return false if the session could not queue it
     */
    public boolean snapshot(final FixSession session, final DirectBuffer reqIds, final int reqIdOffset,
                            final int reqIdLength, final int instrument, final int depth, final int types,
                            final long rptSeq) {
        final int most = snapshotLevels(depth, types);
        final int bids = (types & Subscriptions.BID) != 0 ? Math.min(most, books.levels(instrument, true)) : 0;
        final int offers = (types & Subscriptions.OFFER) != 0 ? Math.min(most, books.levels(instrument, false)) : 0;
        final boolean trade = (types & Subscriptions.TRADE) != 0 && books.lastTradeQuantity(instrument) > 0;
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.MARKET_DATA_SNAPSHOT_FULL_REFRESH)
                .field(FixTags.MD_REQ_ID, reqIds, reqIdOffset, reqIdLength)
                .longField(FixTags.RPT_SEQ, rptSeq)
                .shortTextField(FixTags.SYMBOL, books.symbol(instrument))
                .longField(FixTags.NO_MD_ENTRIES, bids + offers + (trade ? 1 : 0));
        levels(encoder, instrument, true, bids);
        levels(encoder, instrument, false, offers);
        if (trade) {
            encoder.charField(FixTags.MD_ENTRY_TYPE, TRADE)
                    .priceField(FixTags.MD_ENTRY_PX, books.lastTradePrice(instrument))
                    .longField(FixTags.MD_ENTRY_SIZE, books.lastTradeQuantity(instrument));
        }
        return session.sendUnresendable() != FixSession.NOT_QUEUED;
    }

    private void levels(final FixEncoder encoder, final int instrument, final boolean bid, final int count) {
        for (int level = 0; level < count; level++) {
            encoder.charField(FixTags.MD_ENTRY_TYPE, bid ? BID : OFFER)
                    .priceField(FixTags.MD_ENTRY_PX, books.levelPrice(instrument, bid, level))
                    .longField(FixTags.MD_ENTRY_SIZE, books.levelQuantity(instrument, bid, level))
                    .longField(FixTags.NUMBER_OF_ORDERS, books.levelOrders(instrument, bid, level));
        }
    }

    /**
     * Sends {@code session} a MarketDataIncrementalRefresh (X) that adds (279=0) the levels of {@code instrument}'s
     * side from level {@code from} (0 is the best) up to, not including, level {@code to}, as many as fit one
     * message, with the MDReqID in {@code reqIds}: the part of a book its snapshot (W) could not hold.
     *
     * @return how many levels it added, or -1 if the session could not queue it
     */
    public int deeperLevels(final FixSession session, final DirectBuffer reqIds, final int reqIdOffset,
                            final int reqIdLength, final int instrument, final boolean bid, final int from,
                            final int to, final long rptSeq) {
        final int count = Math.min(maxIncrementalEntries, to - from);
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.MARKET_DATA_INCREMENTAL_REFRESH)
                .field(FixTags.MD_REQ_ID, reqIds, reqIdOffset, reqIdLength)
                .longField(FixTags.RPT_SEQ, rptSeq)
                .longField(FixTags.NO_MD_ENTRIES, count);
        final long symbol = books.symbol(instrument);
        for (int level = from, end = from + count; level < end; level++) {
            levelEntry(encoder, NEW, bid, symbol, books.levelPrice(instrument, bid, level),
                    books.levelQuantity(instrument, bid, level), books.levelOrders(instrument, bid, level));
        }
        return session.sendUnresendable() != FixSession.NOT_QUEUED ? count : -1;
    }

    /**
     * Begins the part of a MarketDataIncrementalRefresh (X) of {@code entries} entries that every subscriber gets the
     * same: all after MDReqID. Add the entries with {@link #levelEntry} and {@link #tradeEntry}, {@link EncodedFields#end}
     * it, then {@link #sendIncremental} it to each subscriber.
     */
    public FixEncoder incrementalBody(final EncodedFields body, final long rptSeq, final int entries) {
        return body.start().longField(FixTags.RPT_SEQ, rptSeq).longField(FixTags.NO_MD_ENTRIES, entries);
    }

    /**
     * Sends the subscription an X: its header and MDReqID, then {@code body}, encoded once by {@link #incrementalBody}.
     *
     * @return false if the session could not queue it
     */
    public boolean sendIncremental(final Subscriptions subscriptions, final int slot, final EncodedFields body) {
        final FixSession session = subscriptions.owner(slot);
        session.startApplicationMessage(MsgTypes.MARKET_DATA_INCREMENTAL_REFRESH)
                .field(FixTags.MD_REQ_ID, subscriptions.reqIds(), subscriptions.reqIdOffset(slot),
                        subscriptions.reqIdLength(slot))
                .encodedFields(body);
        return session.sendUnresendable() != FixSession.NOT_QUEUED;
    }

    /** One price level's entry: its new quantity and order count (0 and DELETE once it is gone). */
    public void levelEntry(final FixEncoder encoder, final char action, final boolean bid, final long symbol,
                           final long price, final long quantity, final int orders) {
        encoder.charField(FixTags.MD_UPDATE_ACTION, action)
                .charField(FixTags.MD_ENTRY_TYPE, bid ? BID : OFFER)
                .shortTextField(FixTags.SYMBOL, symbol)
                .priceField(FixTags.MD_ENTRY_PX, price)
                .longField(FixTags.MD_ENTRY_SIZE, quantity)
                .longField(FixTags.NUMBER_OF_ORDERS, orders);
    }

    /** One trade's entry: its price and quantity. */
    public void tradeEntry(final FixEncoder encoder, final long symbol, final long price, final long quantity) {
        encoder.charField(FixTags.MD_UPDATE_ACTION, NEW)
                .charField(FixTags.MD_ENTRY_TYPE, TRADE)
                .shortTextField(FixTags.SYMBOL, symbol)
                .priceField(FixTags.MD_ENTRY_PX, price)
                .longField(FixTags.MD_ENTRY_SIZE, quantity);
    }

    /**
     * Sends a SecurityStatus (f) of the subscription's instrument: SecurityStatusReqID (324) is its MDReqID,
     * SecurityTradingStatus (326) 17 (open), 2 (halted) or 18 (closed).
     *
     * @return false if the session could not queue it
     */
    public boolean status(final Subscriptions subscriptions, final int slot, final long rptSeq) {
        final int instrument = subscriptions.instrument(slot);
        final FixSession session = subscriptions.owner(slot);
        session.startApplicationMessage(MsgTypes.SECURITY_STATUS)
                .field(FixTags.SECURITY_STATUS_REQ_ID, subscriptions.reqIds(), subscriptions.reqIdOffset(slot),
                        subscriptions.reqIdLength(slot))
                .longField(FixTags.RPT_SEQ, rptSeq)
                .shortTextField(FixTags.SYMBOL, books.symbol(instrument))
                .longField(FixTags.SECURITY_TRADING_STATUS, tradingStatus(books.status(instrument)));
        return session.sendUnresendable() != FixSession.NOT_QUEUED;
    }

    /** @return the SecurityTradingStatus (326) of a feed trading status */
    static int tradingStatus(final byte status) {
        return switch (status) {
            case TradingStatus.HALTED -> TRADING_HALT;
            case TradingStatus.CLOSED -> NOT_AVAILABLE_FOR_TRADING;
            default -> READY_TO_TRADE;
        };
    }

    /**
     * Sends a MarketDataRequestReject (Y) of {@code request}: its MDReqID, MDReqRejReason (281) unless {@code reason}
     * is negative, and Text. Stored and resent like any answer to a request.
     */
    public static void reject(final FixSession session, final FixMessage request, final int reason,
                              final CharSequence text) {
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.MARKET_DATA_REQUEST_REJECT);
        final int reqId = request.indexOf(FixTags.MD_REQ_ID);
        if (reqId >= 0) {
            encoder.field(FixTags.MD_REQ_ID, request.buffer(), request.valueOffset(reqId), request.valueLength(reqId));
        }
        if (reason >= 0) {
            encoder.charField(FixTags.MD_REQ_REJ_REASON, (char) ('0' + reason));
        }
        encoder.textField(FixTags.TEXT, text);
        session.sendApplicationMessage(0);
    }
}
