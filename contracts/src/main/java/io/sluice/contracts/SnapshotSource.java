package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * In an engine snapshot ({@link EngineSnapshots}): the last input of one source the state includes. The source is a
 * gateway, or the admin journal ({@code gatewayId} {@code Journals.ADMIN_SOURCE_ID}); the input is named by its event
 * id and its index in that source's journal (both 0 when the state includes none of its inputs). A restart resumes
 * reading that journal right after it, having checked that the excerpt there is that event.
 */
public final class SnapshotSource extends BytesInBinaryMarshallable {
    private int gatewayId;
    private long eventId;
    private long journalIndex;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    public SnapshotSource set(final int gatewayId, final long eventId, final long journalIndex) {
        this.gatewayId = gatewayId;
        this.eventId = eventId;
        this.journalIndex = journalIndex;
        return this;
    }

    public int gatewayId() {
        return gatewayId;
    }

    /** @return the event id of the gateway's last input the state includes, 0 for none */
    public long eventId() {
        return eventId;
    }

    /** @return that input's index in the gateway's journal, 0 for none */
    public long journalIndex() {
        return journalIndex;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeInt(gatewayId);
        out.writeLong(eventId);
        out.writeLong(journalIndex);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        gatewayId = in.readInt();
        eventId = in.readLong();
        journalIndex = in.readLong();
        in.end();
    }
}
