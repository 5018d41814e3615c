package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * Base of every command and report in a Sluice journal: the {@link MetaData}, the event's own fields and a {@link
 * RecordChecksum}. It is written as fixed-layout binary (no field names) and read back into a reused instance, the
 * checksum checked on every read. In YAML,
 * as dumped by Chronicle's reader or used in tests, the same objects appear field by field.
 */
public abstract class Event extends BytesInBinaryMarshallable {
    private MetaData metaData = new MetaData();
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    /** @return this event's MetaData, mutable and owned by this event. */
    public final MetaData metaData() {
        return metaData;
    }

    @Override
    public final void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        metaData.writeTo(out);
        writeBody(out);
        out.end();
    }

    @Override
    public final void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        metaData.readFrom(in);
        readBody(in);
        in.end();
    }

    /** Writes the fields after the MetaData: the layout {@link #readBody(RecordIn)} reads. */
    abstract void writeBody(RecordOut out);

    /** Reads what {@link #writeBody(RecordOut)} wrote, overwriting every field. */
    abstract void readBody(RecordIn in);

    static void writeCode(final RecordOut out, final FixCoded value) {
        out.writeByte(FixCodeTable.codeOf(value));
    }
}
