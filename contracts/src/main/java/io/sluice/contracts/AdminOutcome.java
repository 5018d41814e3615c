package io.sluice.contracts;

/**
 * The answer to one {@link AdminCommand}. The engine writes one to its journal for every command it reads (so the
 * engine journal records where each was consumed), the gateway hosting the named session one to its own journal for the
 * commands it carries out. Its MetaData is the command's, so {@code ./sluice admin} finds the answer to its
 * command by the admin journal's eventId.
 */
public final class AdminOutcome extends AdminRecord<AdminOutcome> {
    private AdminResult result;
    private AdminRefusal refusal = AdminRefusal.NONE;
    private long affected;

    /** Copies what the command named: its MetaData, action, gateway, session and instrument. */
    public AdminOutcome answering(final AdminCommand command) {
        return copyNaming(command);
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
        super.writeBody(out);
        out.writeByte((byte) (result == null ? -1 : result.ordinal()));
        out.writeByte((byte) refusal.ordinal());
        out.writeLong(affected);
    }

    @Override
    void readBody(final RecordIn in) {
        super.readBody(in);
        result = AdminResult.fromOrdinal(in.readByte());
        refusal = AdminRefusal.fromOrdinal(in.readByte());
        affected = in.readLong();
    }
}
