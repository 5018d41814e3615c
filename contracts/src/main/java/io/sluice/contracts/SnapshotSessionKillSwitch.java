package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * In an engine snapshot ({@link EngineSnapshots}): one session whose own kill switch is on, so its orders stay refused.
 * A session is a gateway and a client SenderCompID ({@link AdminAction#SESSION_KILL_SWITCH_ON}).
 */
public final class SnapshotSessionKillSwitch extends BytesInBinaryMarshallable {
    private int gatewayId;
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    public SnapshotSessionKillSwitch set(final int gatewayId, final long session) {
        this.gatewayId = gatewayId;
        this.session = session;
        return this;
    }

    public int gatewayId() {
        return gatewayId;
    }

    public long session() {
        return session;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeInt(gatewayId);
        out.writeLong(session);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        gatewayId = in.readInt();
        session = in.readLong();
        in.end();
    }
}
