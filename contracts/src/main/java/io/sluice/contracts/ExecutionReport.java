package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * An execution report, FIX 35=8: an order accepted, traded (partially or fully), canceled, replaced,
 * expired or rejected. Quantities are whole units; prices and AvgPx are fixed point (see {@link Price}).
 */
public final class ExecutionReport extends Report {
    private long execId;
    private ExecType execType;
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
    private long lastQty;
    @LongConversion(Price.Text.class)
    private long lastPx;
    private long cumQty;
    private long leavesQty;
    @LongConversion(Price.Text.class)
    private long avgPx;
    private BookEffect bookEffect = BookEffect.NONE;

    /** @return the engine's unique, deterministic id of this report (ExecID, 17). */
    public long execId() {
        return execId;
    }

    public ExecutionReport execId(final long execId) {
        this.execId = execId;
        return this;
    }

    public ExecType execType() {
        return execType;
    }

    public ExecutionReport execType(final ExecType execType) {
        this.execType = execType;
        return this;
    }

    public long account() {
        return account;
    }

    public ExecutionReport account(final long account) {
        this.account = account;
        return this;
    }

    public long symbol() {
        return symbol;
    }

    public ExecutionReport symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    public Side side() {
        return side;
    }

    public ExecutionReport side(final Side side) {
        this.side = side;
        return this;
    }

    public OrdType ordType() {
        return ordType;
    }

    public ExecutionReport ordType(final OrdType ordType) {
        this.ordType = ordType;
        return this;
    }

    public TimeInForce timeInForce() {
        return timeInForce;
    }

    public ExecutionReport timeInForce(final TimeInForce timeInForce) {
        this.timeInForce = timeInForce;
        return this;
    }

    public long orderQty() {
        return orderQty;
    }

    public ExecutionReport orderQty(final long orderQty) {
        this.orderQty = orderQty;
        return this;
    }

    public long price() {
        return price;
    }

    public ExecutionReport price(final long price) {
        this.price = price;
        return this;
    }

    /** @return quantity of this fill (LastQty, 32); 0 unless {@link ExecType#TRADE}. */
    public long lastQty() {
        return lastQty;
    }

    public ExecutionReport lastQty(final long lastQty) {
        this.lastQty = lastQty;
        return this;
    }

    /** @return price of this fill (LastPx, 31), fixed point; 0 unless {@link ExecType#TRADE}. */
    public long lastPx() {
        return lastPx;
    }

    public ExecutionReport lastPx(final long lastPx) {
        this.lastPx = lastPx;
        return this;
    }

    public long cumQty() {
        return cumQty;
    }

    public ExecutionReport cumQty(final long cumQty) {
        this.cumQty = cumQty;
        return this;
    }

    public long leavesQty() {
        return leavesQty;
    }

    public ExecutionReport leavesQty(final long leavesQty) {
        this.leavesQty = leavesQty;
        return this;
    }

    /** @return average fill price (AvgPx, 6), fixed point, truncated toward zero. */
    public long avgPx() {
        return avgPx;
    }

    public ExecutionReport avgPx(final long avgPx) {
        this.avgPx = avgPx;
        return this;
    }

    /** @return what this report did to the order's place in the book (see {@link BookEffect}). */
    public BookEffect bookEffect() {
        return bookEffect;
    }

    public ExecutionReport bookEffect(final BookEffect bookEffect) {
        this.bookEffect = bookEffect;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        super.writeBody(out);
        out.writeLong(execId);
        writeCode(out, execType);
        out.writeLong(account);
        out.writeLong(symbol);
        writeCode(out, side);
        writeCode(out, ordType);
        writeCode(out, timeInForce);
        out.writeLong(orderQty);
        out.writeLong(price);
        out.writeLong(lastQty);
        out.writeLong(lastPx);
        out.writeLong(cumQty);
        out.writeLong(leavesQty);
        out.writeLong(avgPx);
        out.writeByte((byte) bookEffect.ordinal());
    }

    @Override
    void readBody(final RecordIn in) {
        super.readBody(in);
        execId = in.readLong();
        execType = ExecType.fromFixCode(in.readByte());
        account = in.readLong();
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
        ordType = OrdType.fromFixCode(in.readByte());
        timeInForce = TimeInForce.fromFixCode(in.readByte());
        orderQty = in.readLong();
        price = in.readLong();
        lastQty = in.readLong();
        lastPx = in.readLong();
        cumQty = in.readLong();
        leavesQty = in.readLong();
        avgPx = in.readLong();
        bookEffect = BookEffect.fromOrdinal(in.readByte());
    }
}
