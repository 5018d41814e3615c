package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.LongConverter;
import net.openhft.chronicle.wire.NanoTimestampLongConverter;

/**
 * Travels with every command and report: who sent the input, its sequence, and a timestamp at each hop. The sender is
 * {@link #sourceId()} (a gateway), that gateway's sequence for it {@link #eventId()}, and the timestamps are in 0.1 µs
 * ticks of {@link io.sluice.contracts.time.SluiceClock}. A report carries the source and event of the input
 * that caused it, which is how the engine's consumption order is recovered on restart and replay, and
 * how the latency tail joins reports to commands. A timestamp of 0 means "not reached".
 * <p>
 * Each timestamp is read where its name says. A record cannot hold the time its own append ended, so the two
 * stamped by a journal's writer are named for the start of the write ({@link #commandWriting()},
 * {@link #reportWriting()}): the append falls in the journal hop that follows. {@link #fixSent()} is read after
 * the socket write, and so travels in a record of its own written after it (a gateway's delivery record).
 */
public final class MetaData extends BytesInBinaryMarshallable {
    /** Bytes of a MetaData in a binary journal: an int and seven longs. */
    public static final int BINARY_LENGTH = Integer.BYTES + 7 * Long.BYTES;

    private int sourceId;
    private long eventId;
    @LongConversion(Ticks.class)
    private long fixReceived;
    @LongConversion(Ticks.class)
    private long commandWriting;
    @LongConversion(Ticks.class)
    private long engineRead;
    @LongConversion(Ticks.class)
    private long reportWriting;
    @LongConversion(Ticks.class)
    private long gatewayRead;
    @LongConversion(Ticks.class)
    private long fixSent;
    private transient RecordOut out;
    private transient RecordIn in;

    /** @return the id of the gateway whose journal the input came from. */
    public int sourceId() {
        return sourceId;
    }

    public MetaData sourceId(final int sourceId) {
        this.sourceId = sourceId;
        return this;
    }

    /** @return the input's sequence within its gateway journal: 1, 2, 3, ... without gaps. */
    public long eventId() {
        return eventId;
    }

    public MetaData eventId(final long eventId) {
        this.eventId = eventId;
        return this;
    }

    /** @return when the socket read that brought in the FIX message's last byte returned, in the gateway. */
    public long fixReceived() {
        return fixReceived;
    }

    public MetaData fixReceived(final long ticks) {
        this.fixReceived = ticks;
        return this;
    }

    /**
     * @return when the gateway began writing the command to its journal: after decoding the FIX message and building
     *         the command, just before the append (which this record cannot time: it falls in the journal-in hop)
     */
    public long commandWriting() {
        return commandWriting;
    }

    public MetaData commandWriting(final long ticks) {
        this.commandWriting = ticks;
        return this;
    }

    /** @return when the engine had read the command from the gateway's journal, before validating it. */
    public long engineRead() {
        return engineRead;
    }

    public MetaData engineRead(final long ticks) {
        this.engineRead = ticks;
        return this;
    }

    /**
     * @return when the engine began writing the reports of the input to its journal, after matching: the same for
     *         every report of one input, read just before the first one's append (which falls in the journal-out hop)
     */
    public long reportWriting() {
        return reportWriting;
    }

    public MetaData reportWriting(final long ticks) {
        this.reportWriting = ticks;
        return this;
    }

    /** @return when the owning gateway had read the report from the engine journal, before encoding it. */
    public long gatewayRead() {
        return gatewayRead;
    }

    public MetaData gatewayRead(final long ticks) {
        this.gatewayRead = ticks;
        return this;
    }

    /**
     * @return when the socket write that handed the FIX message's last byte to the kernel returned, in the gateway:
     *         after the message was stored in the gateway's journal, queued, and flushed with the round's others.
     *         0 if it never was: the client was offline (the message goes out later, by resend) or the connection
     *         closed first. Only a gateway's delivery records carry it; a report's is always 0.
     */
    public long fixSent() {
        return fixSent;
    }

    public MetaData fixSent(final long ticks) {
        this.fixSent = ticks;
        return this;
    }

    /** Copies every field of {@code other} into this one. */
    public MetaData copyFrom(final MetaData other) {
        sourceId = other.sourceId;
        eventId = other.eventId;
        fixReceived = other.fixReceived;
        commandWriting = other.commandWriting;
        engineRead = other.engineRead;
        reportWriting = other.reportWriting;
        gatewayRead = other.gatewayRead;
        fixSent = other.fixSent;
        return this;
    }

    /** Zeroes the hop timestamps, keeping source and event: what replay comparison ignores. */
    public MetaData clearTimestamps() {
        fixReceived = 0;
        commandWriting = 0;
        engineRead = 0;
        reportWriting = 0;
        gatewayRead = 0;
        fixSent = 0;
        return this;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        if (out == null) {
            out = new RecordOut();
        }
        out.begin(bytes);
        writeTo(out);
        out.end();
    }

    /** Writes the fields, as {@link #readMarshallable(BytesIn)} reads them: also the start of every event. */
    void writeTo(final RecordOut out) {
        out.writeInt(sourceId);
        out.writeLong(eventId);
        out.writeLong(fixReceived);
        out.writeLong(commandWriting);
        out.writeLong(engineRead);
        out.writeLong(reportWriting);
        out.writeLong(gatewayRead);
        out.writeLong(fixSent);
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        if (in == null) {
            in = new RecordIn();
        }
        in.begin(bytes);
        readFrom(in);
        in.end();
    }

    /** Reads what {@link #writeTo(RecordOut)} wrote, overwriting every field. */
    void readFrom(final RecordIn in) {
        sourceId = in.readInt();
        eventId = in.readLong();
        fixReceived = in.readLong();
        commandWriting = in.readLong();
        engineRead = in.readLong();
        reportWriting = in.readLong();
        gatewayRead = in.readLong();
        fixSent = in.readLong();
    }

    /** Shows tick timestamps in YAML as UTC date-times with 0.1 µs resolution. */
    public static final class Ticks implements LongConverter {
        private static final LongConverter NANOS =
                NanoTimestampLongConverter.INSTANCE;

        @Override
        public long parse(final CharSequence text) {
            return text.length() == 0 || "0".contentEquals(text) ? 0 : NANOS.parse(text) / 100;
        }

        @Override
        public void append(final StringBuilder text, final long ticks) {
            if (ticks == 0) {
                text.append('0');
            } else {
                NANOS.append(text, ticks * 100);
            }
        }
    }
}
