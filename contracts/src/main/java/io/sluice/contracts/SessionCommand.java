package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * How every command a gateway writes for a client session is framed, written and read here once. The session (the
 * client's SenderCompID) is the first field after the MetaData ({@link RecordLayout#COMMAND_SESSION}), then its firm,
 * then come the command's own fields, then the routing the client gave it, OnBehalfOfCompID (115) and DeliverToCompID (128), which
 * every answer carries back swapped. {@link OrderCommand}, {@link CancelOrder} and {@link MassCancel}
 * are such commands; {@link ReplaceOrder} adds its OrigClOrdID after the routing of the order terms it shares.
 *
 * @param <C> the command itself, which the setters return
 */
public abstract class SessionCommand<C extends SessionCommand<C>> extends Event {
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    @LongConversion(ShortTextLongConverter.class)
    private long firm;
    @LongConversion(ShortTextLongConverter.class)
    private long onBehalfOfCompId;
    @LongConversion(ShortTextLongConverter.class)
    private long deliverToCompId;

    /** @return the FIX session (the client's SenderCompID) the command is from and whose orders it concerns. */
    public long session() {
        return session;
    }

    public C session(final long session) {
        this.session = session;
        return self();
    }

    /**
     * @return the firm the gateway configures for the session, or 0 if it configures none: the engine carries it into
     *         every report of the command, for the firm's drop-copy sessions
     */
    public long firm() {
        return firm;
    }

    public C firm(final long firm) {
        this.firm = firm;
        return self();
    }

    /** @return the client's OnBehalfOfCompID (115), or 0: the answers carry it back as DeliverToCompID (128). */
    public long onBehalfOfCompId() {
        return onBehalfOfCompId;
    }

    /** @return the client's DeliverToCompID (128), or 0: the answers carry it back as OnBehalfOfCompID (115). */
    public long deliverToCompId() {
        return deliverToCompId;
    }

    /** Sets the routing the client gave the command (115 and 128, as sent; 0 for none). */
    public C routing(final long onBehalfOfCompId, final long deliverToCompId) {
        this.onBehalfOfCompId = onBehalfOfCompId;
        this.deliverToCompId = deliverToCompId;
        return self();
    }

    @Override
    void writeBody(final RecordOut out) {
        out.writeLong(session);
        out.writeLong(firm);
        writeFields(out);
        out.writeLong(onBehalfOfCompId);
        out.writeLong(deliverToCompId);
    }

    @Override
    void readBody(final RecordIn in) {
        session = in.readLong();
        firm = in.readLong();
        readFields(in);
        onBehalfOfCompId = in.readLong();
        deliverToCompId = in.readLong();
    }

    /** Writes the command's own fields, between its session and its routing. */
    abstract void writeFields(RecordOut out);

    /** Reads what {@link #writeFields(RecordOut)} wrote, overwriting every one of those fields. */
    abstract void readFields(RecordIn in);

    @SuppressWarnings("unchecked")
    private C self() {
        return (C) this;
    }
}
