package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

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
    protected void writeBody(final BytesOut<?> bytes) {
        super.writeBody(bytes);
        writeCode(bytes, responseTo);
    }

    @Override
    protected void readBody(final BytesIn<?> bytes) {
        super.readBody(bytes);
        responseTo = CxlRejResponseTo.fromFixCode(bytes.readByte());
    }
}
