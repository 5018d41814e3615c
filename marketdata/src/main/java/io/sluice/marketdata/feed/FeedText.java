package io.sluice.marketdata.feed;

import io.sluice.contracts.Price;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.DirectBuffer;

/**
 * One feed message as a line of YAML, field by field, for people. It serves {@code ./sluice dump} of the market-data
 * journal, the feed handler's output and error messages. Allocates: never on a hot path.
 */
public final class FeedText {
    private FeedText() {
    }

    /** @return the message at {@code offset} of {@code buffer} as {@code name: { field: value, ... }} */
    public static String describe(final DirectBuffer buffer, final int offset) {
        final StringBuilder text = new StringBuilder(96);
        final byte type = FeedMessage.typeAt(buffer, offset);
        final long symbol = FeedMessage.symbolAt(buffer, offset);
        final byte flag = buffer.getByte(offset + FeedMessage.FLAG);
        switch (type) {
            case AddOrder.TYPE_A -> {
                final AddOrder m = new AddOrder();
                m.wrapForDecode(buffer, offset);
                start(text, "addOrder", symbol, m.timestamp()).append(", side: ").append((char) flag)
                        .append(", orderId: ").append(m.orderId()).append(", price: ");
                Price.Text.appendTo(text, m.price());
                text.append(", quantity: ").append(m.quantity());
            }
            case ModifyOrder.TYPE_U -> {
                final ModifyOrder m = new ModifyOrder();
                m.wrapForDecode(buffer, offset);
                start(text, "modifyOrder", symbol, m.timestamp()).append(", side: ").append((char) flag)
                        .append(", orderId: ").append(m.orderId()).append(", quantity: ").append(m.quantity());
            }
            case DeleteOrder.TYPE_D -> {
                final DeleteOrder m = new DeleteOrder();
                m.wrapForDecode(buffer, offset);
                start(text, "deleteOrder", symbol, m.timestamp()).append(", side: ").append((char) flag)
                        .append(", orderId: ").append(m.orderId());
            }
            case Trade.TYPE_T -> {
                final Trade m = new Trade();
                m.wrapForDecode(buffer, offset);
                start(text, "trade", symbol, m.timestamp()).append(", aggressorSide: ").append((char) flag)
                        .append(", restingOrderId: ").append(m.restingOrderId()).append(", tradeId: ").append(m.tradeId())
                        .append(", price: ");
                Price.Text.appendTo(text, m.price());
                text.append(", quantity: ").append(m.quantity()).append(", restingQuantity: ").append(m.restingQuantity());
            }
            case TradingStatus.TYPE_S -> {
                final TradingStatus m = new TradingStatus();
                m.wrapForDecode(buffer, offset);
                start(text, "tradingStatus", symbol, m.timestamp()).append(", status: ").append((char) flag)
                        .append(", halt: ").append(m.halt());
            }
            case BookChecksum.TYPE_C -> {
                final BookChecksum m = new BookChecksum();
                m.wrapForDecode(buffer, offset);
                start(text, "bookChecksum", symbol, m.timestamp()).append(", checksum: 0x")
                        .append(Long.toHexString(m.checksum()));
            }
            case EndOfSnapshot.TYPE_E -> {
                final EndOfSnapshot m = new EndOfSnapshot();
                m.wrapForDecode(buffer, offset);
                text.append("endOfSnapshot: { timestamp: ").append(m.timestamp()).append(", lastSequence: ")
                        .append(m.lastSequence());
            }
            case RetransmitRefusal.TYPE_R -> {
                final RetransmitRefusal m = new RetransmitRefusal();
                m.wrapForDecode(buffer, offset);
                text.append("retransmitRefusal: { reason: ").append(m.reason()).append(", requestedSequence: ")
                        .append(m.requestedSequence()).append(", firstAvailable: ").append(m.firstAvailable())
                        .append(", nextSequence: ").append(m.nextSequence());
            }
            default -> text.append("unknown: { type: ").append(type);
        }
        return text.append(" }").toString();
    }

    /** @return {@code symbol} as its text (e.g. {@code VOD.L}) */
    public static String symbol(final long symbol) {
        return ShortTextLongConverter.INSTANCE.asString(symbol);
    }

    private static StringBuilder start(final StringBuilder text, final String name, final long symbol, final long timestamp) {
        return text.append(name).append(": { symbol: ").append(symbol(symbol)).append(", timestamp: ").append(timestamp);
    }
}
