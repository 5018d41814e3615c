package io.sluice.marketdata.publish;

import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.BookChecksum;
import io.sluice.marketdata.feed.EndOfSnapshot;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.PacketWriter;
import io.sluice.marketdata.feed.TradingStatus;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * Writes the whole of {@link OrderBooks} as one snapshot: for each instrument, in the feed's order, its
 * {@link TradingStatus}, an {@link AddOrder} for every resting order (bids then asks, best level first, each queue
 * from its head) and its {@link BookChecksum}; then an {@link EndOfSnapshot} naming the last incremental message the
 * books hold. The packets of one snapshot are numbered from 1, so a receiver knows where one starts and whether it
 * missed a packet of it.
 */
final class SnapshotEncoder {
    private final PacketWriter packet;
    private final AddOrder add = new AddOrder();
    private final TradingStatus status = new TradingStatus();
    private final BookChecksum checksum = new BookChecksum();
    private final EndOfSnapshot end = new EndOfSnapshot();
    private Consumer<ByteBuffer> sink;
    private long packetSequence;

    SnapshotEncoder(final byte[] session) {
        packet = new PacketWriter(session);
    }

    /** Writes a snapshot of {@code books}, as of incremental {@code lastSequence}, packet by packet into {@code sink}. */
    void write(final OrderBooks books, final long lastSequence, final long timestamp, final Consumer<ByteBuffer> sink) {
        this.sink = sink;
        packetSequence = 1;
        packet.begin(packetSequence);
        for (int i = 0; i < books.instruments(); i++) {
            final long symbol = books.symbol(i);
            room(TradingStatus.LENGTH);
            status.wrapForEncode(packet.buffer(), packet.nextMessageOffset());
            packet.commit(status.encode(books.status(i), symbol, timestamp, books.status(i) == TradingStatus.HALTED));
            side(books, i, true, timestamp);
            side(books, i, false, timestamp);
            room(BookChecksum.LENGTH);
            checksum.wrapForEncode(packet.buffer(), packet.nextMessageOffset());
            packet.commit(checksum.encode(symbol, timestamp, books.checksum(i)));
        }
        room(EndOfSnapshot.LENGTH);
        end.wrapForEncode(packet.buffer(), packet.nextMessageOffset());
        packet.commit(end.encode(timestamp, lastSequence));
        sink.accept(packet.finish());
        this.sink = null;
    }

    private void side(final OrderBooks books, final int instrument, final boolean bid, final long timestamp) {
        final byte side = bid ? FeedMessage.BUY : FeedMessage.SELL;
        for (int level = 0; level < books.levels(instrument, bid); level++) {
            final long price = books.levelPrice(instrument, bid, level);
            for (int slot = books.firstOrder(instrument, bid, level); slot >= 0; slot = books.nextOrder(slot)) {
                room(AddOrder.LENGTH);
                add.wrapForEncode(packet.buffer(), packet.nextMessageOffset());
                packet.commit(add.encode(side, books.symbol(instrument), timestamp, books.orderId(slot), price,
                        books.orderQuantity(slot)));
            }
        }
    }

    /** Sends the packet in hand and starts the next if a message of {@code length} does not fit. */
    private void room(final int length) {
        if (!packet.fits(length)) {
            sink.accept(packet.finish());
            packet.begin(packetSequence += packet.count());
        }
    }
}
