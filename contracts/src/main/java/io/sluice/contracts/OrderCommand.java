package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * The terms of an order as a client states them, shared by {@link NewOrder} (35=D) and
 * {@link ReplaceOrder} (35=G). Identifiers (session, firm, ClOrdID, account, symbol) are short ASCII texts of
 * at most 10 characters packed into longs by Chronicle's {@link ShortTextLongConverter}, so commands
 * carry no strings; they read as text in YAML.
 * <p>
 * The session is the client's SenderCompID; with the MetaData's {@code sourceId} (the gateway) it names the
 * session in the engine. The firm ({@link SessionCommand#firm()}): orders of one non-zero firm never trade with each
 * other, whichever session or gateway they came from.
 * OnBehalfOfCompID (115) and DeliverToCompID (128), when the client routes the order through a third party, travel
 * with the order so that every report of it, built by whichever gateway instance from the engine journal, is routed
 * back the same way.
 */
public abstract class OrderCommand extends SessionCommand<OrderCommand> {
    @LongConversion(ShortTextLongConverter.class)
    private long clOrdId;
    @LongConversion(ShortTextLongConverter.class)
    private long account;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private Side side;
    private OrdType ordType;
    private TimeInForce timeInForce;
    private long orderQty;
    @LongConversion(Price.Text.class)
    private long price;

    public long clOrdId() {
        return clOrdId;
    }

    public OrderCommand clOrdId(final long clOrdId) {
        this.clOrdId = clOrdId;
        return this;
    }

    public long account() {
        return account;
    }

    public OrderCommand account(final long account) {
        this.account = account;
        return this;
    }

    public long symbol() {
        return symbol;
    }

    public OrderCommand symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    public Side side() {
        return side;
    }

    public OrderCommand side(final Side side) {
        this.side = side;
        return this;
    }

    public OrdType ordType() {
        return ordType;
    }

    public OrderCommand ordType(final OrdType ordType) {
        this.ordType = ordType;
        return this;
    }

    public TimeInForce timeInForce() {
        return timeInForce;
    }

    public OrderCommand timeInForce(final TimeInForce timeInForce) {
        this.timeInForce = timeInForce;
        return this;
    }

    public long orderQty() {
        return orderQty;
    }

    public OrderCommand orderQty(final long orderQty) {
        this.orderQty = orderQty;
        return this;
    }

    /** @return the limit price, fixed point (see {@link Price}); 0 for market orders. */
    public long price() {
        return price;
    }

    public OrderCommand price(final long price) {
        this.price = price;
        return this;
    }

    @Override
    void writeFields(final RecordOut out) {
        out.writeLong(clOrdId);
        out.writeLong(account);
        out.writeLong(symbol);
        writeCode(out, side);
        writeCode(out, ordType);
        writeCode(out, timeInForce);
        out.writeLong(orderQty);
        out.writeLong(price);
    }

    @Override
    void readFields(final RecordIn in) {
        clOrdId = in.readLong();
        account = in.readLong();
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
        ordType = OrdType.fromFixCode(in.readByte());
        timeInForce = TimeInForce.fromFixCode(in.readByte());
        orderQty = in.readLong();
        price = in.readLong();
    }
}
