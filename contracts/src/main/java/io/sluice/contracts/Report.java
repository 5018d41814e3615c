package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * What every engine report shares: who it is for, the order it is about, and why a request was refused, if it was. The
 * owner is {@link #gatewayId()} and {@link #session()}, the owner of the order, which need not be the sender of the
 * input in the MetaData. Gateways deliver a report only to the session that owns it, and a copy to the drop-copy
 * sessions of its {@link #firm()}, whichever gateway they are on.
 */
public abstract class Report extends Event {
    private int gatewayId;
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    @LongConversion(ShortTextLongConverter.class)
    private long firm;
    private long orderId;
    @LongConversion(ShortTextLongConverter.class)
    private long clOrdId;
    @LongConversion(ShortTextLongConverter.class)
    private long origClOrdId;
    private OrdStatus ordStatus;
    private RejectReason rejectReason = RejectReason.NONE;
    @LongConversion(ShortTextLongConverter.class)
    private long onBehalfOfCompId;
    @LongConversion(ShortTextLongConverter.class)
    private long deliverToCompId;
    private long limitValue;

    /** @return the gateway that owns the order and must deliver this report. */
    public int gatewayId() {
        return gatewayId;
    }

    public Report gatewayId(final int gatewayId) {
        this.gatewayId = gatewayId;
        return this;
    }

    /** @return the FIX session (client SenderCompID) that owns the order. */
    public long session() {
        return session;
    }

    public Report session(final long session) {
        this.session = session;
        return this;
    }

    /**
     * @return the firm the owning session's gateway configures for it, as its order commands carry it, or 0 for a
     *         session without a firm: the drop-copy sessions of that firm get a copy of the report
     */
    public long firm() {
        return firm;
    }

    public Report firm(final long firm) {
        this.firm = firm;
        return this;
    }

    /** @return the engine's id for the order (OrderID, 37); 0 when the order was never accepted. */
    public long orderId() {
        return orderId;
    }

    public Report orderId(final long orderId) {
        this.orderId = orderId;
        return this;
    }

    public long clOrdId() {
        return clOrdId;
    }

    public Report clOrdId(final long clOrdId) {
        this.clOrdId = clOrdId;
        return this;
    }

    public long origClOrdId() {
        return origClOrdId;
    }

    public Report origClOrdId(final long origClOrdId) {
        this.origClOrdId = origClOrdId;
        return this;
    }

    public OrdStatus ordStatus() {
        return ordStatus;
    }

    public Report ordStatus(final OrdStatus ordStatus) {
        this.ordStatus = ordStatus;
        return this;
    }

    /** @return why the request was refused; {@link RejectReason#NONE} when it was not. */
    public RejectReason rejectReason() {
        return rejectReason;
    }

    public Report rejectReason(final RejectReason rejectReason) {
        this.rejectReason = rejectReason;
        return this;
    }

    /**
     * @return the OnBehalfOfCompID (115) of the order or request this report answers, as the client sent it, or 0:
     *         the gateway sends it back as DeliverToCompID (128)
     */
    public long onBehalfOfCompId() {
        return onBehalfOfCompId;
    }

    /**
     * @return the DeliverToCompID (128) of the order or request this report answers, as the client sent it, or 0:
     *         the gateway sends it back as OnBehalfOfCompID (115)
     */
    public long deliverToCompId() {
        return deliverToCompId;
    }

    /** Sets the routing the client gave the order or request this report answers (115 and 128, as sent). */
    public Report routing(final long onBehalfOfCompId, final long deliverToCompId) {
        this.onBehalfOfCompId = onBehalfOfCompId;
        this.deliverToCompId = deliverToCompId;
        return this;
    }

    /**
     * @return the value of the firm limit {@link #rejectReason()} names ({@link RejectReason#limit()}), as it was when
     *         the request was refused; 0 otherwise
     */
    public long limitValue() {
        return limitValue;
    }

    public Report limitValue(final long limitValue) {
        this.limitValue = limitValue;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        out.writeInt(gatewayId);
        out.writeLong(session);
        out.writeLong(firm);
        out.writeLong(orderId);
        out.writeLong(clOrdId);
        out.writeLong(origClOrdId);
        writeCode(out, ordStatus);
        out.writeByte((byte) rejectReason.ordinal());
        out.writeLong(onBehalfOfCompId);
        out.writeLong(deliverToCompId);
        out.writeLong(limitValue);
    }

    @Override
    void readBody(final RecordIn in) {
        gatewayId = in.readInt();
        session = in.readLong();
        firm = in.readLong();
        orderId = in.readLong();
        clOrdId = in.readLong();
        origClOrdId = in.readLong();
        ordStatus = OrdStatus.fromFixCode(in.readByte());
        rejectReason = RejectReason.fromOrdinal(in.readByte());
        onBehalfOfCompId = in.readLong();
        deliverToCompId = in.readLong();
        limitValue = in.readLong();
    }
}
