package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * The answer to one {@link AdminCommand}: the engine writes one to its journal for every command it reads (so the
 * engine journal records where each was consumed), the gateway hosting the named session one to its own journal
 * for the commands it carries out. Its MetaData is the command's, so {@code ./sluice admin} finds the answer to its
 * command by the admin journal's eventId.
 */
public final class AdminOutcome extends Event {
    private AdminAction action;
    private int gatewayId;
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private AdminResult result;
    private AdminRefusal refusal = AdminRefusal.NONE;
    private long affected;

    public AdminAction action() {
        return action;
    }

    public int gatewayId() {
        return gatewayId;
    }

    public long session() {
        return session;
    }

    public long symbol() {
        return symbol;
    }

    /** Copies what the command named: its MetaData, action, gateway, session and instrument. */
    public AdminOutcome answering(final AdminCommand command) {
        metaData().copyFrom(command.metaData());
        action = command.action();
        gatewayId = command.gatewayId();
        session = command.session();
        symbol = command.symbol();
        return this;
    }

    public AdminResult result() {
        return result;
    }

    /** @return why the command was refused; {@link AdminRefusal#NONE} unless {@link #result()} is REFUSED. */
    public AdminRefusal refusal() {
        return refusal;
    }

    public AdminOutcome acknowledged(final long affected) {
        this.result = AdminResult.ACKNOWLEDGED;
        this.refusal = AdminRefusal.NONE;
        this.affected = affected;
        return this;
    }

    public AdminOutcome refused(final AdminRefusal refusal) {
        this.result = AdminResult.REFUSED;
        this.refusal = refusal;
        this.affected = 0;
        return this;
    }

    public AdminOutcome passedToGateway() {
        this.result = AdminResult.PASSED_TO_GATEWAY;
        this.refusal = AdminRefusal.NONE;
        this.affected = 0;
        return this;
    }

    /** @return what the command touched: orders canceled or expired, sessions disconnected; 0 where not counted. */
    public long affected() {
        return affected;
    }

    @Override
    void writeBody(final RecordOut out) {
        out.writeByte((byte) (action == null ? -1 : action.ordinal()));
        out.writeInt(gatewayId);
        out.writeLong(session);
        out.writeLong(symbol);
        out.writeByte((byte) (result == null ? -1 : result.ordinal()));
        out.writeByte((byte) refusal.ordinal());
        out.writeLong(affected);
    }

    @Override
    void readBody(final RecordIn in) {
        action = AdminAction.fromOrdinal(in.readByte());
        gatewayId = in.readInt();
        session = in.readLong();
        symbol = in.readLong();
        result = AdminResult.fromOrdinal(in.readByte());
        refusal = AdminRefusal.fromOrdinal(in.readByte());
        affected = in.readLong();
    }
}
