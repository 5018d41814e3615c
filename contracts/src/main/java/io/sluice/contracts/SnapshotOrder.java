package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * In an engine snapshot ({@link EngineSnapshots}): one order the engine knows, resting in a book or remembered as
 * completed. It holds everything the engine holds about it: owner (gateway, session, firm), terms, status, fills
 * (CumQty and the exact fixed-point notional the average price is computed from). Resting orders come in book priority,
 * so
 * appending them in turn rebuilds the book exactly.
 */
public final class SnapshotOrder extends BytesInBinaryMarshallable {
    private boolean resting;
    private long orderId;
    private int gatewayId;
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    @LongConversion(ShortTextLongConverter.class)
    private long firm;
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
    private OrdStatus ordStatus;
    private long cumQty;
    private long notional;
    @LongConversion(ShortTextLongConverter.class)
    private long onBehalfOfCompId;
    @LongConversion(ShortTextLongConverter.class)
    private long deliverToCompId;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    /** Sets whether the order rests in a book (true) or is a remembered completed order (false). */
    public SnapshotOrder resting(final boolean resting) {
        this.resting = resting;
        return this;
    }

    public SnapshotOrder owner(final long orderId, final int gatewayId, final long session, final long firm) {
        this.orderId = orderId;
        this.gatewayId = gatewayId;
        this.session = session;
        this.firm = firm;
        return this;
    }

    public SnapshotOrder terms(final long clOrdId, final long account, final long symbol, final Side side,
                               final OrdType ordType, final TimeInForce timeInForce, final long orderQty, final long price) {
        this.clOrdId = clOrdId;
        this.account = account;
        this.symbol = symbol;
        this.side = side;
        this.ordType = ordType;
        this.timeInForce = timeInForce;
        this.orderQty = orderQty;
        this.price = price;
        return this;
    }

    public SnapshotOrder state(final OrdStatus ordStatus, final long cumQty, final long notional) {
        this.ordStatus = ordStatus;
        this.cumQty = cumQty;
        this.notional = notional;
        return this;
    }

    /** Sets the order's routing: the OnBehalfOfCompID (115) and DeliverToCompID (128) its client gave it. */
    public SnapshotOrder routing(final long onBehalfOfCompId, final long deliverToCompId) {
        this.onBehalfOfCompId = onBehalfOfCompId;
        this.deliverToCompId = deliverToCompId;
        return this;
    }

    public long onBehalfOfCompId() {
        return onBehalfOfCompId;
    }

    public long deliverToCompId() {
        return deliverToCompId;
    }

    public boolean resting() {
        return resting;
    }

    public long orderId() {
        return orderId;
    }

    public int gatewayId() {
        return gatewayId;
    }

    public long session() {
        return session;
    }

    public long firm() {
        return firm;
    }

    public long clOrdId() {
        return clOrdId;
    }

    public long account() {
        return account;
    }

    public long symbol() {
        return symbol;
    }

    public Side side() {
        return side;
    }

    public OrdType ordType() {
        return ordType;
    }

    public TimeInForce timeInForce() {
        return timeInForce;
    }

    public long orderQty() {
        return orderQty;
    }

    public long price() {
        return price;
    }

    public OrdStatus ordStatus() {
        return ordStatus;
    }

    public long cumQty() {
        return cumQty;
    }

    /** @return the sum of quantity times price of the order's fills, fixed point */
    public long notional() {
        return notional;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeByte((byte) (resting ? 1 : 0));
        out.writeLong(orderId);
        out.writeInt(gatewayId);
        out.writeLong(session);
        out.writeLong(firm);
        out.writeLong(clOrdId);
        out.writeLong(account);
        out.writeLong(symbol);
        Event.writeCode(out, side);
        Event.writeCode(out, ordType);
        Event.writeCode(out, timeInForce);
        out.writeLong(orderQty);
        out.writeLong(price);
        Event.writeCode(out, ordStatus);
        out.writeLong(cumQty);
        out.writeLong(notional);
        out.writeLong(onBehalfOfCompId);
        out.writeLong(deliverToCompId);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        resting = in.readByte() != 0;
        orderId = in.readLong();
        gatewayId = in.readInt();
        session = in.readLong();
        firm = in.readLong();
        clOrdId = in.readLong();
        account = in.readLong();
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
        ordType = OrdType.fromFixCode(in.readByte());
        timeInForce = TimeInForce.fromFixCode(in.readByte());
        orderQty = in.readLong();
        price = in.readLong();
        ordStatus = OrdStatus.fromFixCode(in.readByte());
        cumQty = in.readLong();
        notional = in.readLong();
        onBehalfOfCompId = in.readLong();
        deliverToCompId = in.readLong();
        in.end();
    }
}
