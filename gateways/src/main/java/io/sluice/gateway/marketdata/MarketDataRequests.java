package io.sluice.gateway.marketdata;

import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixApplication;
import io.sluice.gateway.session.FixSession;
import io.sluice.marketdata.book.OrderBooks;
import org.agrona.DirectBuffer;

/**
 * Answers MarketDataRequests (V) and hands every other application message to the order path. A subscribe
 * (SubscriptionRequestType 1) names an MDReqID, a MarketDepth (0 full book, N the best N levels of each side, up to
 * the gateway's {@code marketData.maxDepth}), MDEntryTypes (0 bid,
 * 1 offer, 2 trade) and symbols; each symbol becomes one subscription, sent its snapshot (W) and trading status (f) at
 * once, then incrementals (X) by the {@link MarketDataFanOut}. An unsubscribe (2) ends every subscription of that
 * MDReqID. A snapshot request (0) is answered with one snapshot per symbol and keeps nothing (its MDReqID is no
 * subscription's, nor counts against the session's limit). A request is taken whole or refused whole with a
 * MarketDataRequestReject (Y) naming the first thing wrong ({@link MdReqRejReason}): its SubscriptionRequestType,
 * MarketDepth or MDEntryType, a duplicate MDReqID, an unknown symbol, a symbol the session is not entitled to, or more
 * subscriptions than the session may hold.
 */
public final class MarketDataRequests implements FixApplication {
    private final FixApplication orders;
    private final MarketDataFanOut fanOut;
    private final Subscriptions subscriptions;
    private final OrderBooks books;
    private final String[] tooManyTexts;
    private final int maxDepth;
    private final String depthText;

    /** @param maxDepth the deepest MarketDepth served; deeper ones are refused */
    public MarketDataRequests(final FixApplication orders, final MarketDataFanOut fanOut,
                              final Subscriptions subscriptions, final int sessions, final int maxDepth) {
        this.orders = orders;
        this.fanOut = fanOut;
        this.subscriptions = subscriptions;
        this.books = fanOut.books();
        this.maxDepth = maxDepth;
        this.depthText = MdReqRejReason.UNSUPPORTED_MARKET_DEPTH_TEXT + maxDepth + " (the best N levels of each side)";
        tooManyTexts = new String[sessions];
        for (int i = 0; i < sessions; i++) {
            tooManyTexts[i] = MdReqRejReason.TOO_MANY_TEXT + subscriptions.maxSubscriptions(i) + " per session";
        }
    }

    @Override
    public void onApplicationMessage(final FixSession session, final FixMessage message) {
        if (message.msgType() == MsgTypes.MARKET_DATA_REQUEST) {
            onRequest(session, message);
        } else {
            orders.onApplicationMessage(session, message);
        }
    }

    @Override
    public long lastEventId() {
        return orders.lastEventId();
    }

    private void onRequest(final FixSession session, final FixMessage request) {
        final int owner = subscriptions.sessionOf(session);
        final int reqId = request.indexOf(FixTags.MD_REQ_ID);
        final DirectBuffer buffer = request.buffer();
        final int reqIdOffset = request.valueOffset(reqId);
        final int reqIdLength = request.valueLength(reqId);
        if (reqIdLength > Subscriptions.MAX_REQ_ID) {
            MarketDataMessages.reject(session, request, MdReqRejReason.NONE, MdReqRejReason.MD_REQ_ID_TOO_LONG_TEXT);
            return;
        }
        final long type = request.charValue(FixTags.SUBSCRIPTION_REQUEST_TYPE);
        if (type == '2') {
            if (subscriptions.remove(owner, buffer, reqIdOffset, reqIdLength) == 0) {
                MarketDataMessages.reject(session, request, MdReqRejReason.NONE, MdReqRejReason.UNKNOWN_MD_REQ_ID_TEXT);
            }
            return;
        }
        if (type != '1' && type != '0') {
            MarketDataMessages.reject(session, request, MdReqRejReason.UNSUPPORTED_SUBSCRIPTION_REQUEST_TYPE,
                    MdReqRejReason.UNSUPPORTED_SUBSCRIPTION_REQUEST_TYPE_TEXT);
            return;
        }
        final long marketDepth = request.unsignedValue(FixTags.MARKET_DEPTH);
        if (marketDepth < 0 || marketDepth > maxDepth) {
            MarketDataMessages.reject(session, request, MdReqRejReason.UNSUPPORTED_MARKET_DEPTH, depthText);
            return;
        }
        final int depth = marketDepth == 0 ? Subscriptions.FULL_BOOK : (int) marketDepth;
        final int types = entryTypes(request);
        if (types == 0) {
            MarketDataMessages.reject(session, request, MdReqRejReason.UNSUPPORTED_MD_ENTRY_TYPE,
                    MdReqRejReason.UNSUPPORTED_MD_ENTRY_TYPE_TEXT);
            return;
        }
        if (type == '1' && subscriptions.holds(owner, buffer, reqIdOffset, reqIdLength)) {
            MarketDataMessages.reject(session, request, MdReqRejReason.DUPLICATE_MD_REQ_ID,
                    MdReqRejReason.DUPLICATE_MD_REQ_ID_TEXT);
            return;
        }
        int symbols = 0;
        for (int i = 0; i < request.fieldCount(); i++) {
            if (request.tag(i) == FixTags.SYMBOL) {
                final int instrument = instrument(request, i);
                if (instrument < 0) {
                    MarketDataMessages.reject(session, request, MdReqRejReason.UNKNOWN_SYMBOL,
                            MdReqRejReason.UNKNOWN_SYMBOL_TEXT);
                    return;
                }
                if (!subscriptions.entitled(owner, instrument)) {
                    MarketDataMessages.reject(session, request, MdReqRejReason.INSUFFICIENT_PERMISSIONS,
                            MdReqRejReason.NOT_ENTITLED_TEXT);
                    return;
                }
                symbols++;
            }
        }
        if (type == '0') {
            for (int i = 0; i < request.fieldCount(); i++) {
                if (request.tag(i) == FixTags.SYMBOL) {
                    fanOut.snapshotOnly(session, instrument(request, i), depth, types, buffer, reqIdOffset,
                            reqIdLength);
                }
            }
            return;
        }
        if (subscriptions.held(owner) + symbols > subscriptions.maxSubscriptions(owner)) {
            MarketDataMessages.reject(session, request, MdReqRejReason.INSUFFICIENT_PERMISSIONS, tooManyTexts[owner]);
            return;
        }
        for (int i = 0; i < request.fieldCount(); i++) {
            if (request.tag(i) == FixTags.SYMBOL) {
                fanOut.start(subscriptions.add(owner, session, instrument(request, i), depth, types, buffer,
                        reqIdOffset, reqIdLength));
            }
        }
    }

    private int instrument(final FixMessage request, final int index) {
        return books.instrumentOf(ShortText.parse(request.buffer(), request.valueOffset(index),
                request.valueLength(index)));
    }

    /** @return the entry-type bits the request asks for, or 0 if it names one the gateway does not serve */
    private static int entryTypes(final FixMessage request) {
        int types = 0;
        for (int i = 0; i < request.fieldCount(); i++) {
            if (request.tag(i) == FixTags.MD_ENTRY_TYPE) {
                final int value = request.valueLength(i) == 1 ? request.buffer().getByte(request.valueOffset(i)) : -1;
                if (value < '0' || value > '2') {
                    return 0;
                }
                types |= 1 << (value - '0');
            }
        }
        return types;
    }
}
