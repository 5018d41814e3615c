package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * Base of every command and report in a Sluice journal: the {@link MetaData} followed by the event's own
 * fields, written as fixed-layout binary (no field names) and read back into a reused instance. In YAML,
 * as dumped by Chronicle's reader or used in tests, the same objects appear field by field.
 */
public abstract class Event extends BytesInBinaryMarshallable {
    private MetaData metaData = new MetaData();

    /** @return this event's MetaData, mutable and owned by this event. */
    public final MetaData metaData() {
        return metaData;
    }

    @Override
    public final void writeMarshallable(final BytesOut<?> bytes) {
        metaData.writeMarshallable(bytes);
        writeBody(bytes);
    }

    @Override
    public final void readMarshallable(final BytesIn<?> bytes) {
        metaData.readMarshallable(bytes);
        readBody(bytes);
    }

    /** Writes the fields after the MetaData. */
    protected abstract void writeBody(BytesOut<?> bytes);

    /** Reads what {@link #writeBody(BytesOut)} wrote, overwriting every field. */
    protected abstract void readBody(BytesIn<?> bytes);

    protected static void writeCode(final BytesOut<?> bytes, final FixCoded value) {
        bytes.writeByte(FixCodeTable.codeOf(value));
    }
}
