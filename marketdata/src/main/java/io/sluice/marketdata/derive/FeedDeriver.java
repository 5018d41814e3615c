package io.sluice.marketdata.derive;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.BookEffect;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.Side;
import io.sluice.marketdata.book.Applied;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.BookChecksum;
import io.sluice.marketdata.feed.DeleteOrder;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.FeedText;
import io.sluice.marketdata.feed.ModifyOrder;
import io.sluice.marketdata.feed.Trade;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchWriter;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.DirectBuffer;

/**
 * Turns the reports of one engine-journal excerpt (one input's) into feed messages: the one place that says which
 * report makes which message. It is a pure function of the reports and of the state the messages before left.
 * <ul>
 * <li>{@link BookEffect#ADDED}: an {@link AddOrder}, after the excerpt's other messages (an aggressor's remainder
 *     rests after the trades it made, so the book is never crossed between two messages);</li>
 * <li>{@link BookEffect#UPDATED}: a {@link Trade} (a passive fill; the aggressor's side is the other one) or a
 *     {@link ModifyOrder} (a replace that kept its place);</li>
 * <li>{@link BookEffect#REMOVED}: a {@link Trade} leaving nothing, or a {@link DeleteOrder};</li>
 * <li>{@link BookEffect#REQUEUED}: a {@link DeleteOrder}, then an {@link AddOrder} after the excerpt's others;</li>
 * <li>an acknowledged halt, resume, open or close of trading: a {@link TradingStatus} for each instrument whose status
 *     changed.</li>
 * </ul>
 * Each message is applied to the deriver's {@link OrderBooks} as it is made; an instrument that has had
 * {@code checksumEvery} book messages since its last checksum gets a {@link BookChecksum} at the end of the excerpt.
 * Every timestamp is the report's {@code reportWriting}: nothing of this run enters the feed.
 */
public final class FeedDeriver extends NoOpEngineToGateway {
    private final OrderBooks books;
    private final BatchWriter batch;
    private final int checksumEvery;
    private final boolean[] sessionOpen;
    private final boolean[] halted;
    private final int[] sinceChecksum;
    private final AddOrder add = new AddOrder();
    private final ModifyOrder modify = new ModifyOrder();
    private final DeleteOrder delete = new DeleteOrder();
    private final Trade trade = new Trade();
    private final TradingStatus status = new TradingStatus();
    private final BookChecksum checksum = new BookChecksum();
    private final TradingStatus readStatus = new TradingStatus();
    private boolean pendingAdd;
    private byte pendingSide;
    private long pendingSymbol;
    private long pendingTimestamp;
    private long pendingOrderId;
    private long pendingPrice;
    private long pendingQuantity;
    private long lastTimestamp;
    private long engineIndex;

    /**
     * @param books         the books the messages are applied to, every instrument in status {@code startOpen}
     * @param batch         where the messages of one excerpt gather
     * @param checksumEvery book messages of one instrument between two of its checksums
     */
    public FeedDeriver(final OrderBooks books, final BatchWriter batch, final int checksumEvery) {
        this.books = books;
        this.batch = batch;
        this.checksumEvery = checksumEvery;
        sessionOpen = new boolean[books.instruments()];
        halted = new boolean[books.instruments()];
        sinceChecksum = new int[books.instruments()];
        for (int i = 0; i < books.instruments(); i++) {
            sessionOpen[i] = books.status(i) != TradingStatus.CLOSED;
            halted[i] = books.status(i) == TradingStatus.HALTED;
        }
    }

    /** The batch of a new journal: every instrument's status, in the feed's order. */
    public void initialStatuses() {
        for (int i = 0; i < books.instruments(); i++) {
            emitStatus(i, 0);
        }
    }

    /** Starts the messages of engine-journal excerpt {@code index} (for error messages). */
    public void beginExcerpt(final long index) {
        engineIndex = index;
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        final BookEffect effect = report.bookEffect();
        if (effect == BookEffect.NONE) {
            return;
        }
        final long timestamp = report.metaData().reportWriting();
        lastTimestamp = timestamp;
        instrument(report.symbol());
        final byte side = report.side() == Side.BUY ? FeedMessage.BUY : FeedMessage.SELL;
        final long symbol = report.symbol();
        final boolean traded = report.execType() == ExecType.TRADE;
        switch (effect) {
            case ADDED -> pend(side, symbol, timestamp, report.orderId(), report.price(), report.leavesQty());
            case UPDATED -> {
                if (traded) {
                    trade(side, symbol, timestamp, report, report.leavesQty());
                } else {
                    modify.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                    emit(modify.encode(side, symbol, timestamp, report.orderId(), report.leavesQty()));
                }
            }
            case REMOVED -> {
                if (traded) {
                    trade(side, symbol, timestamp, report, 0);
                } else {
                    deleteOrder(side, symbol, timestamp, report.orderId());
                }
            }
            case REQUEUED -> {
                deleteOrder(side, symbol, timestamp, report.orderId());
                pend(side, symbol, timestamp, report.orderId(), report.price(), report.leavesQty());
            }
            default -> throw new IllegalStateException("engine journal excerpt 0x" + Long.toHexString(engineIndex)
                    + ": an execution report with book effect " + effect);
        }
    }

    @Override
    public void adminOutcome(final AdminOutcome outcome) {
        if (outcome.result() != AdminResult.ACKNOWLEDGED || outcome.action() == null) {
            return;
        }
        lastTimestamp = outcome.metaData().reportWriting();
        switch (outcome.action()) {
            case HALT, RESUME -> {
                final int instrument = instrument(outcome.symbol());
                halted[instrument] = outcome.action() == AdminAction.HALT;
                emitStatus(instrument, lastTimestamp);
            }
            case OPEN_TRADING, CLOSE_TRADING -> {
                final boolean open = outcome.action() == AdminAction.OPEN_TRADING;
                if (outcome.symbol() != 0) {
                    openOrClose(instrument(outcome.symbol()), open);
                } else {
                    for (int i = 0; i < books.instruments(); i++) {
                        openOrClose(i, open);
                    }
                }
            }
            default -> {
                // cancels and the kill switch change the book through their execution reports only
            }
        }
    }

    /** Ends the excerpt's messages: the pending add, then the checksums that are due. */
    public void endExcerpt() {
        if (pendingAdd) {
            pendingAdd = false;
            add.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            emit(add.encode(pendingSide, pendingSymbol, pendingTimestamp, pendingOrderId, pendingPrice, pendingQuantity));
        }
        for (int i = 0; i < sinceChecksum.length; i++) {
            if (sinceChecksum[i] >= checksumEvery) {
                checksum.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                emit(checksum.encode(books.symbol(i), lastTimestamp, books.checksum(i)));
            }
        }
    }

    /**
     * Takes a message already in the market-data journal, as if this deriver had made it: how a restarted deriver
     * rebuilds its state (books, statuses, checksum counts) from its own journal.
     */
    public void replay(final DirectBuffer buffer, final int offset) {
        final byte type = FeedMessage.typeAt(buffer, offset);
        final Applied applied = books.apply(buffer, offset);
        if (applied != Applied.OK) {
            throw new IllegalStateException("the market-data journal does not rebuild: " + applied);
        }
        final int instrument = books.instrumentOf(FeedMessage.symbolAt(buffer, offset));
        if (type == TradingStatus.TYPE_S) {
            readStatus.wrapForDecode(buffer, offset);
            sessionOpen[instrument] = readStatus.status() != TradingStatus.CLOSED;
            halted[instrument] = readStatus.halt();
        } else if (type == BookChecksum.TYPE_C) {
            sinceChecksum[instrument] = 0;
        } else {
            sinceChecksum[instrument]++;
        }
    }

    private void openOrClose(final int instrument, final boolean open) {
        if (sessionOpen[instrument] != open) {
            sessionOpen[instrument] = open;
            emitStatus(instrument, lastTimestamp);
        }
    }

    private void emitStatus(final int instrument, final long timestamp) {
        status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
        emit(status.encode(TradingStatus.of(sessionOpen[instrument], halted[instrument]), books.symbol(instrument),
                timestamp, halted[instrument]));
    }

    private void trade(final byte restingSide, final long symbol, final long timestamp, final ExecutionReport report,
                       final long restingQuantity) {
        trade.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
        emit(trade.encode(restingSide == FeedMessage.BUY ? FeedMessage.SELL : FeedMessage.BUY, symbol, timestamp,
                report.orderId(), report.execId(), report.lastPx(), report.lastQty(), restingQuantity));
    }

    private void deleteOrder(final byte side, final long symbol, final long timestamp, final long orderId) {
        delete.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
        emit(delete.encode(side, symbol, timestamp, orderId));
    }

    private void pend(final byte side, final long symbol, final long timestamp, final long orderId, final long price,
                      final long quantity) {
        if (pendingAdd) {
            throw new IllegalStateException("engine journal excerpt 0x" + Long.toHexString(engineIndex)
                    + ": two orders come to rest in one input");
        }
        instrument(symbol);
        pendingAdd = true;
        pendingSide = side;
        pendingSymbol = symbol;
        pendingTimestamp = timestamp;
        pendingOrderId = orderId;
        pendingPrice = price;
        pendingQuantity = quantity;
    }

    /** Applies the message just encoded at the batch's next offset, then takes it into the batch. */
    private void emit(final int length) {
        final int offset = batch.nextMessageOffset();
        final DirectBuffer buffer = batch.buffer();
        final Applied applied = books.apply(buffer, offset);
        if (applied != Applied.OK) {
            throw new IllegalStateException("engine journal excerpt 0x" + Long.toHexString(engineIndex) + ": "
                    + FeedText.describe(buffer, offset) + " does not apply to the book: " + applied);
        }
        final byte type = FeedMessage.typeAt(buffer, offset);
        final int instrument = books.instrumentOf(FeedMessage.symbolAt(buffer, offset));
        if (type == BookChecksum.TYPE_C) {
            sinceChecksum[instrument] = 0;
        } else if (type != TradingStatus.TYPE_S) {
            sinceChecksum[instrument]++;
        }
        batch.commit(length);
    }

    /** @return the instrument of {@code symbol} @throws IllegalStateException naming it if the feed has none */
    private int instrument(final long symbol) {
        final int instrument = books.instrumentOf(symbol);
        if (instrument < 0) {
            throw new IllegalStateException("engine journal excerpt 0x" + Long.toHexString(engineIndex)
                    + " changes the book of " + ShortTextLongConverter.INSTANCE.asString(symbol)
                    + ", an instrument the market-data config does not list: list every instrument of the engine's config");
        }
        return instrument;
    }
}
