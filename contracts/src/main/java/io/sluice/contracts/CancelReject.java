package io.sluice.contracts;

/**
 * The engine refused a cancel or a cancel/replace: FIX OrderCancelReject (35=9). The order, if it exists,
 * is unchanged; {@link #ordStatus()} is its current state.
 */
public final class CancelReject extends Report {
    private CxlRejResponseTo responseTo;

    public CxlRejResponseTo responseTo() {
        return responseTo;
    }

    public CancelReject responseTo(final CxlRejResponseTo responseTo) {
        this.responseTo = responseTo;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        super.writeBody(out);
        writeCode(out, responseTo);
    }

    @Override
    void readBody(final RecordIn in) {
        super.readBody(in);
        responseTo = CxlRejResponseTo.fromFixCode(in.readByte());
    }
}
