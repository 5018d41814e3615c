package io.sluice.gateway.marketdata;

import io.sluice.gateway.codec.EncodedFields;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import io.sluice.marketdata.book.Applied;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.DeleteOrder;
import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.feed.ModifyOrder;
import io.sluice.marketdata.feed.Trade;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchHandler;
import io.sluice.marketdata.journal.BatchReader;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.EpochClock;

/**
 * The gateway's one reader of the market-data journal, and the fan-out of what it reads to every subscription. It
 * applies each feed message to its own copy of the books ({@link OrderBooks}, the feed's own code) and sends each
 * subscription the change its depth and entry types ask for, as a MarketDataIncrementalRefresh (X) numbered with the
 * feed's sequence (RptSeq), or a SecurityStatus (f) for a change of trading status.
 * <p>
 * A book deeper than one snapshot (W) holds is completed by incrementals that add its deeper levels, one message per
 * round while the socket has room (the subscription is FILLING): meanwhile its client gets the changes of the levels it
 * holds, and a deeper level goes out as it stands when its turn comes, so the client's book is right as far as it goes.
 * <p>
 * A subscription whose socket has less room than half its send buffer (kept for the order path's reports) plus one
 * message falls behind: its incrementals are dropped, and once its socket has room again one snapshot (W) of the
 * latest book replaces them (conflation); behind or filling for longer than the slow-subscriber timeout, its session
 * is logged out saying why. So a slow subscriber never fills the socket its reports need, nor holds up anyone else. At most
 * {@value #BATCHES_PER_POLL} batches are read and {@value #INCREMENTALS_PER_POLL} incrementals sent per round of the
 * gateway's loop: a fan-out to more subscribers resumes where it stopped next round, after the order path's work, and
 * a subscription that starts meanwhile gets its snapshot once it is done. Each incremental's body is encoded once for
 * all subscribers it fits ({@link SharedIncrementals}). Nothing is allocated per message.
 */
public final class MarketDataFanOut implements BatchHandler, MessageHandler {
    /** The Logout text of a session whose subscriptions stayed behind too long; the timeout in ms follows. */
    public static final String SLOW_SUBSCRIBER_TEXT = "Market data not read fast enough: behind for more than ";
    private static final int BATCHES_PER_POLL = 16;
    /**
     * How many incrementals one round sends at most: a fan-out to more subscribers goes on in the next rounds, so an
     * order that arrives meanwhile is read and its report sent between them.
     */
    static final int INCREMENTALS_PER_POLL = 10;
    private static final int NOT_PAUSED = -1;

    private final BatchReader reader;
    private final OrderBooks books;
    private final Subscriptions subscriptions;
    private final MarketDataMessages messages;
    private final SharedIncrementals incrementals;
    private final EpochClock clock;
    private final int halfSendBuffer;
    private final int maxMessageBytes;
    private final long slowTimeoutMillis;
    private final String slowText;
    private final AddOrder add = new AddOrder();
    private final ModifyOrder modify = new ModifyOrder();
    private final DeleteOrder delete = new DeleteOrder();
    private final Trade trade = new Trade();
    private final TradingStatus status = new TradingStatus();
    private final LevelChange change = new LevelChange();
    /** The rest of a batch whose fan-out stopped for the round, from {@link #pendingFrom} to {@link #pendingTo}. */
    private final ExpandableArrayBuffer pendingBlocks = new ExpandableArrayBuffer(64 * 1024);
    private int pendingFrom;
    private int pendingTo;
    /** The slot the fan-out of {@link #change} resumes at next round, or {@link #NOT_PAUSED}. */
    private int resumeSlot = NOT_PAUSED;
    private int incrementalsLeft = Integer.MAX_VALUE;
    private long nextSequence;
    private long lastSequence;
    private long conflated;
    private long cutOff;

    public MarketDataFanOut(final BatchReader reader, final OrderBooks books, final Subscriptions subscriptions,
                            final EpochClock clock, final int sendBufferBytes, final int maxMessageBytes,
                            final long slowTimeoutMillis) {
        this.reader = reader;
        this.books = books;
        this.subscriptions = subscriptions;
        this.messages = new MarketDataMessages(books, maxMessageBytes);
        this.incrementals = new SharedIncrementals(maxMessageBytes);
        this.clock = clock;
        this.halfSendBuffer = sendBufferBytes / 2;
        this.maxMessageBytes = maxMessageBytes;
        this.slowTimeoutMillis = slowTimeoutMillis;
        this.slowText = SLOW_SUBSCRIBER_TEXT + slowTimeoutMillis + " ms; logging out";
    }

    /**
     * Reads the journal to its proven end, building the books, before any client subscribes: a damaged batch, its
     * excerpt header included, stops the start naming it, as every other start-up reader does. @return batches read
     */
    public long catchUp() {
        incrementalsLeft = Integer.MAX_VALUE;
        long batches = 0;
        while (reader.readOneToEnd(this)) {
            batches++;
        }
        return batches;
    }

    /**
     * Resumes a fan-out the last round stopped, then reads up to {@value #BATCHES_PER_POLL} batches, sending at most
     * {@value #INCREMENTALS_PER_POLL} incrementals in all; once every fan-out is done, brings back subscriptions whose
     * sockets have room and sends filling ones their next deeper levels.
     */
    public int poll() {
        incrementalsLeft = INCREMENTALS_PER_POLL;
        int work = 0;
        if (resumeSlot != NOT_PAUSED) {
            work++;
            fanOut(change, resumeSlot);
            if (resumeSlot == NOT_PAUSED && pendingFrom < pendingTo) {
                pendingFrom = messages(pendingBlocks, pendingFrom, pendingTo);
            }
        }
        while (resumeSlot == NOT_PAUSED && work < BATCHES_PER_POLL && reader.readOne(this)) {
            work++;
        }
        if (resumeSlot == NOT_PAUSED && subscriptions.incompleteCount() > 0) {
            work += complete(clock.time());
        }
        return work;
    }

    /** @return the sequence of the last feed message applied (0 before the first) */
    public long lastSequence() {
        return lastSequence;
    }

    public OrderBooks books() {
        return books;
    }

    /** @return how many incrementals were dropped for subscriptions behind their sockets */
    public long conflated() {
        return conflated;
    }

    /** @return how many sessions were logged out for staying behind */
    public long cutOff() {
        return cutOff;
    }

    /** Sends a new subscription its snapshot and trading status, or leaves it behind until its socket has room. */
    public void start(final int slot) {
        if (resumeSlot != NOT_PAUSED) {
            subscriptions.fallBehind(slot, clock.time()); // its snapshot follows the fan-out under way
        } else if (!hasRoom(subscriptions.owner(slot)) || !snapshotAndStatus(slot, clock.time())) {
            subscriptions.fallBehind(slot, clock.time());
        }
    }

    /**
     * Answers a snapshot request (SubscriptionRequestType 0): one snapshot (W) of the best {@code depth} levels of the
     * latest book, numbered with the last feed sequence applied, and at once the incrementals that add the levels it
     * could not hold; no subscription is kept. @return false if the session could not queue them all
     */
    public boolean snapshotOnly(final FixSession session, final int instrument, final int depth, final int types,
                                final DirectBuffer reqIds, final int reqIdOffset, final int reqIdLength) {
        if (!messages.snapshot(session, reqIds, reqIdOffset, reqIdLength, instrument, depth, types, lastSequence)) {
            return false;
        }
        final int sent = messages.snapshotLevels(depth, types);
        for (int side = 0; side < 2; side++) {
            final boolean bid = side == 0;
            if ((types & (bid ? Subscriptions.BID : Subscriptions.OFFER)) == 0) {
                continue;
            }
            for (int from = sent, end = Math.min(depth, books.levels(instrument, bid)); from < end; ) {
                final int added = messages.deeperLevels(session, reqIds, reqIdOffset, reqIdLength, instrument, bid,
                        from, end, lastSequence);
                if (added < 0) {
                    return false;
                }
                from += added;
            }
        }
        return true;
    }

    @Override
    public void onBatch(final long engineIndex, final long firstSequence, final int count, final DirectBuffer blocks,
                        final int length) {
        nextSequence = firstSequence;
        final int stopped = messages(blocks, 0, length);
        if (stopped < length) {
            pendingBlocks.putBytes(0, blocks, stopped, length - stopped);
        }
        pendingFrom = 0;
        pendingTo = length - stopped;
    }

    /**
     * Hands the message blocks from {@code from} to {@code to} of {@code blocks} to {@link #onMessage}, in order, until a
     * fan-out stops for the round. @return where the messages not handed over start ({@code to} if none are left)
     */
    private int messages(final DirectBuffer blocks, final int from, final int to) {
        int at = from;
        while (resumeSlot == NOT_PAUSED && at + FeedLayout.BLOCK_LENGTH_PREFIX <= to) {
            final int length = blocks.getShort(at, FeedLayout.ORDER) & 0xFFFF;
            onMessage(blocks, at + FeedLayout.BLOCK_LENGTH_PREFIX, length);
            at += FeedLayout.BLOCK_LENGTH_PREFIX + length;
        }
        return resumeSlot == NOT_PAUSED ? to : at;
    }

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length) {
        final long sequence = nextSequence++;
        switch (FeedMessage.typeAt(buffer, offset)) {
            case AddOrder.TYPE_A -> {
                add.wrapForDecode(buffer, offset);
                onLevel(buffer, offset, sequence, add.symbol(), add.flag() == FeedMessage.BUY, add.price(), 0, 0);
            }
            case ModifyOrder.TYPE_U -> {
                modify.wrapForDecode(buffer, offset);
                onResting(buffer, offset, sequence, modify.symbol(), modify.orderId(), 0, 0);
            }
            case DeleteOrder.TYPE_D -> {
                delete.wrapForDecode(buffer, offset);
                onResting(buffer, offset, sequence, delete.symbol(), delete.orderId(), 0, 0);
            }
            case Trade.TYPE_T -> {
                trade.wrapForDecode(buffer, offset);
                onResting(buffer, offset, sequence, trade.symbol(), trade.restingOrderId(), trade.price(),
                        trade.quantity());
            }
            case TradingStatus.TYPE_S -> {
                status.wrapForDecode(buffer, offset);
                onStatus(buffer, offset, sequence, status.symbol());
            }
            default -> apply(buffer, offset, sequence);
        }
    }

    private void onResting(final DirectBuffer buffer, final int offset, final long sequence, final long symbol,
                           final long orderId, final long tradePrice, final long tradeQuantity) {
        final int slot = books.slotOf(orderId);
        if (slot < 0) {
            apply(buffer, offset, sequence); // fails, naming the message
            return;
        }
        onLevel(buffer, offset, sequence, symbol, books.orderSide(slot) == FeedMessage.BUY, books.orderPrice(slot),
                tradePrice, tradeQuantity);
    }

    /**
     * Applies a message that changes the level at {@code price}, and sends each subscriber what changed within its
     * depth: the level itself, and the level its depth no longer holds (a new level pushed it out) or now holds (a
     * level gone pulled it in), deletions first.
     */
    private void onLevel(final DirectBuffer buffer, final int offset, final long sequence, final long symbol,
                         final boolean bid, final long price, final long tradePrice, final long tradeQuantity) {
        final int instrument = books.instrumentOf(symbol);
        if (instrument < 0) {
            apply(buffer, offset, sequence);
            return;
        }
        final int levelBefore = books.levelOf(instrument, bid, price);
        final LevelChange change = this.change;
        change.quantityBefore = levelBefore >= 0 ? books.levelQuantity(instrument, bid, levelBefore) : 0;
        apply(buffer, offset, sequence);
        final int levelAfter = books.levelOf(instrument, bid, price);
        change.quantityAfter = levelAfter >= 0 ? books.levelQuantity(instrument, bid, levelAfter) : 0;
        change.ordersAfter = levelAfter >= 0 ? books.levelOrders(instrument, bid, levelAfter) : 0;
        change.rank = levelBefore >= 0 ? levelBefore : levelAfter >= 0 ? levelAfter : -levelAfter - 1;
        change.levels = books.levels(instrument, bid);
        change.sequence = sequence;
        change.symbol = symbol;
        change.instrument = instrument;
        change.bid = bid;
        change.price = price;
        change.tradePrice = tradePrice;
        change.tradeQuantity = tradeQuantity;
        incrementals.clear();
        fanOut(change, 0);
    }

    /**
     * Sends each subscriber from {@code fromSlot} on what {@code change} changed within its depth: the level itself,
     * and the level its depth no longer holds (a new level pushed it out) or now holds (a level gone pulled it in),
     * deletions first. Once the round's incrementals are used up, it stops, and the next round resumes at the slot it
     * stopped at ({@link #resumeSlot}), the books unchanged meanwhile.
     */
    private void fanOut(final LevelChange change, final int fromSlot) {
        final int instrument = change.instrument;
        final boolean bid = change.bid;
        final long price = change.price;
        final boolean levelChanged = change.levelChanged();
        final boolean added = change.added();
        final boolean removed = change.removed();
        final int levels = change.levels;
        final int side = bid ? Subscriptions.BID : Subscriptions.OFFER;
        for (int slot = fromSlot, slots = subscriptions.capacity(); slot < slots; slot++) {
            if (!subscriptions.updatedFor(slot, instrument)) {
                continue;
            }
            final int depth = subscriptions.depth(slot);
            final boolean book = levelChanged && subscriptions.wants(slot, side)
                    && subscriptions.holdsLevel(slot, bid, price, change.rank);
            final boolean pushedOut = book && added && levels > depth
                    && subscriptions.holdsLevel(slot, bid, books.levelPrice(instrument, bid, depth), depth - 1);
            final boolean pulledIn = book && removed && levels >= depth
                    && subscriptions.holdsLevel(slot, bid, books.levelPrice(instrument, bid, depth - 1), depth - 1);
            final boolean traded = change.tradeQuantity > 0 && subscriptions.wants(slot, Subscriptions.TRADE);
            if (!book && !traded) {
                continue;
            }
            if (incrementalsLeft == 0) {
                resumeSlot = slot;
                return;
            }
            final FixSession session = subscriptions.owner(slot);
            if (!hasRoom(session)) {
                behind(slot);
                continue;
            }
            incrementalsLeft--;
            final long shape = SharedIncrementals.shape(traded, book, pushedOut, pulledIn, depth);
            EncodedFields body = incrementals.find(shape);
            if (body == null) {
                body = incrementals.claim(shape);
                encodeBody(body, change, depth, traded, book, pushedOut, pulledIn);
            }
            if (!messages.sendIncremental(subscriptions, slot, body)) {
                behind(slot);
            }
        }
        resumeSlot = NOT_PAUSED;
    }

    private void encodeBody(final EncodedFields body, final LevelChange change, final int depth, final boolean traded,
                            final boolean book, final boolean pushedOut, final boolean pulledIn) {
        final int instrument = change.instrument;
        final boolean bid = change.bid;
        final long symbol = change.symbol;
        final FixEncoder encoder = messages.incrementalBody(body, change.sequence,
                (book ? 1 : 0) + (pushedOut || pulledIn ? 1 : 0) + (traded ? 1 : 0));
        if (traded) {
            messages.tradeEntry(encoder, symbol, change.tradePrice, change.tradeQuantity);
        }
        if (pushedOut) {
            messages.levelEntry(encoder, MarketDataMessages.DELETE, bid, symbol,
                    books.levelPrice(instrument, bid, depth), 0, 0);
        }
        if (book) {
            messages.levelEntry(encoder, change.action(), bid, symbol, change.price, change.quantityAfter,
                    change.ordersAfter);
        }
        if (pulledIn) {
            messages.levelEntry(encoder, MarketDataMessages.NEW, bid, symbol,
                    books.levelPrice(instrument, bid, depth - 1), books.levelQuantity(instrument, bid, depth - 1),
                    books.levelOrders(instrument, bid, depth - 1));
        }
        body.end();
    }

    private void onStatus(final DirectBuffer buffer, final int offset, final long sequence, final long symbol) {
        final int instrument = books.instrumentOf(symbol);
        final byte before = instrument >= 0 ? books.status(instrument) : 0;
        apply(buffer, offset, sequence);
        if (books.status(instrument) == before) {
            return;
        }
        for (int slot = 0, slots = subscriptions.capacity(); slot < slots; slot++) {
            if (!subscriptions.updatedFor(slot, instrument)) {
                continue;
            }
            if (!hasRoom(subscriptions.owner(slot)) || !messages.status(subscriptions, slot, sequence)) {
                behind(slot);
            }
        }
    }

    private void apply(final DirectBuffer buffer, final int offset, final long sequence) {
        final Applied applied = books.apply(buffer, offset);
        if (applied != Applied.OK) {
            throw new IllegalStateException("market-data message " + sequence + " of type '"
                    + (char) FeedMessage.typeAt(buffer, offset) + "' does not apply to the gateway's books: " + applied
                    + (applied == Applied.UNKNOWN_INSTRUMENT ? " (list it in the gateway's marketData.instruments)"
                    : applied == Applied.NO_ROOM ? " (raise marketData.maxOrders or maxPriceLevels)" : ""));
        }
        lastSequence = sequence;
    }

    private void behind(final int slot) {
        conflated++;
        subscriptions.fallBehind(slot, clock.time());
    }

    /**
     * Sends each subscription behind whose socket has room again a snapshot, and each filling one its next deeper
     * levels; logs out the sessions of those behind or filling too long.
     */
    private int complete(final long nowMillis) {
        int work = 0;
        for (int slot = 0, slots = subscriptions.capacity(); slot < slots; slot++) {
            final SubscriptionState state = subscriptions.state(slot);
            if (state != SubscriptionState.BEHIND && state != SubscriptionState.FILLING || !subscriptions.current(slot)) {
                continue;
            }
            final FixSession session = subscriptions.owner(slot);
            if (hasRoom(session) && (state == SubscriptionState.BEHIND ? snapshotAndStatus(slot, nowMillis)
                    : fillDeeper(slot))) {
                work++;
            } else if (nowMillis - subscriptions.incompleteSinceMillis(slot) > slowTimeoutMillis) {
                subscriptions.removeAll(subscriptions.sessionOf(session));
                session.logoutAndClose(slowText);
                cutOff++;
                work++;
            }
        }
        return work;
    }

    private boolean snapshotAndStatus(final int slot, final long nowMillis) {
        if (!messages.snapshot(subscriptions, slot, lastSequence) || !messages.status(subscriptions, slot, lastSequence)) {
            return false;
        }
        final int instrument = subscriptions.instrument(slot);
        final int sent = messages.snapshotLevels(subscriptions.depth(slot), subscriptions.entryTypes(slot));
        subscriptions.snapshotSent(slot, worstSent(slot, instrument, true, sent),
                worstSent(slot, instrument, false, sent), nowMillis);
        return true;
    }

    /** @return the worst price of the side its client holds once sent its best {@code sent} levels */
    private long worstSent(final int slot, final int instrument, final boolean bid, final int sent) {
        final boolean partial = subscriptions.wants(slot, bid ? Subscriptions.BID : Subscriptions.OFFER)
                && Math.min(subscriptions.depth(slot), books.levels(instrument, bid)) > sent;
        return partial ? books.levelPrice(instrument, bid, sent - 1) : Subscriptions.wholeSide(bid);
    }

    /**
     * Sends a filling subscription the next deeper levels within its depth of its bids, or else of its offers.
     * @return false if the session could not queue them
     */
    private boolean fillDeeper(final int slot) {
        final int instrument = subscriptions.instrument(slot);
        final boolean bid = subscriptions.worstHeld(slot, true) != Subscriptions.wholeSide(true);
        final long worstHeld = subscriptions.worstHeld(slot, bid);
        final int end = Math.min(subscriptions.depth(slot), books.levels(instrument, bid));
        int from = 0;
        while (from < end && !worse(bid, books.levelPrice(instrument, bid, from), worstHeld)) {
            from++;
        }
        int added = 0;
        if (from < end) {
            added = messages.deeperLevels(subscriptions.owner(slot), subscriptions.reqIds(),
                    subscriptions.reqIdOffset(slot), subscriptions.reqIdLength(slot), instrument, bid, from, end,
                    lastSequence);
            if (added < 0) {
                return false;
            }
        }
        final long worst = from + added < end ? books.levelPrice(instrument, bid, from + added - 1)
                : Subscriptions.wholeSide(bid);
        subscriptions.filledTo(slot, bid ? worst : subscriptions.worstHeld(slot, true),
                bid ? subscriptions.worstHeld(slot, false) : worst);
        return true;
    }

    private static boolean worse(final boolean bid, final long price, final long than) {
        return bid ? price < than : price > than;
    }

    /** @return whether the session's socket has room for one more message beyond the half kept for its reports */
    private boolean hasRoom(final FixSession session) {
        final FixConnection connection = session.connection();
        return connection != null && connection.writableBytes() >= halfSendBuffer + maxMessageBytes;
    }
}
