package io.sluice.tools.tail;

import io.sluice.contracts.MetaData;
import io.sluice.contracts.RecordChecksum;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * One journal the tail follows: opened read-only (so the tail can never disturb a writer), read one excerpt
 * at a time, from its start or from its end at the time of opening.
 * <p>
 * An excerpt holds one or more method-writer calls, each a field number (the method id) and a
 * length-prefixed binary payload. The tail reads them straight from the mapped journal at the offsets
 * the contracts' {@link RecordLayout} gives, instead of decoding whole commands and reports through a method reader: it
 * needs MetaData and one or two body fields only, and is several times faster this way. Calls of methods the
 * subclass does not know (a gateway's private records), however they are encoded, are skipped through
 * Chronicle's wire; a known method whose payload is not in the expected layout is skipped and counted as a
 * {@link Finding#UNREADABLE_RECORDS finding}; one whose {@link RecordChecksum} fails is skipped and counted as
 * {@link Finding#DAMAGED_RECORDS damaged}, naming its cycle file and byte offset.
 */
abstract class JournalStream implements AutoCloseable {
    private static final int FIELD_NUMBER = BinaryWireCode.FIELD_NUMBER;
    private static final int BYTES_LENGTH32 = BinaryWireCode.BYTES_LENGTH32;
    private static final int LENGTH_BYTES = Integer.BYTES;
    private static final int STOP_BIT_MORE = 0x80;
    private static final int STOP_BIT_VALUE = 0x7F;
    private static final int MAX_ID_BYTES = 5;

    private final String name;
    private final Findings findings;
    private final ChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final UnsafeBuffer excerpt = new UnsafeBuffer(0, 0);
    private final MetaData metaData = new MetaData();

    JournalStream(final Path dir, final boolean fromStart, final Findings findings) {
        this.name = dir.getFileName().toString();
        this.findings = findings;
        this.queue = Journals.openReadOnly(dir);
        this.tailer = queue.createTailer();
        // Only the thread running the tail reads it (see Tail#run); Chronicle's per-read check of that costs ~10 %.
        tailer.singleThreadedCheckDisabled(true);
        if (!fromStart) {
            ExcerptCount.toEnd(queue, tailer); // a journal its writer is creating now has nothing to skip
        }
    }

    /** @return whether the payload of a call of {@code methodId} is one this stream reads (the others are skipped). */
    abstract boolean reads(long methodId);

    /** @return the payload bytes a call of {@code methodId} needs for {@link #read} to read it. */
    abstract int minimumLength(long methodId);

    /** Reads a call of {@code methodId} whose payload starts at {@code offset} of {@code buffer}. */
    abstract void read(long methodId, DirectBuffer buffer, int offset);

    /** @return {@code metaData}, filled from the payload at {@code offset} of {@code buffer}: reused, do not keep. */
    final MetaData metaData(final DirectBuffer buffer, final int offset) {
        return metaData.sourceId(buffer.getInt(offset + RecordLayout.SOURCE_ID))
                .eventId(buffer.getLong(offset + RecordLayout.EVENT_ID))
                .fixReceived(buffer.getLong(offset + RecordLayout.FIX_RECEIVED))
                .commandWriting(buffer.getLong(offset + RecordLayout.COMMAND_WRITING))
                .engineRead(buffer.getLong(offset + RecordLayout.ENGINE_READ))
                .reportWriting(buffer.getLong(offset + RecordLayout.REPORT_WRITING))
                .gatewayRead(buffer.getLong(offset + RecordLayout.GATEWAY_READ))
                .fixSent(buffer.getLong(offset + RecordLayout.FIX_SENT));
    }

    /** @return whether an excerpt was read (and its calls handed on); false when the journal has nothing more now. */
    final boolean readOne() {
        try (DocumentContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return false;
            }
            readCalls(context.wire(), context.index());
            return true;
        }
    }

    private void readCalls(final Wire wire, final long index) {
        final Bytes<?> bytes = wire.bytes();
        final long start = bytes.readPosition();
        final int length = (int) bytes.readRemaining();
        excerpt.wrap(bytes.addressForRead(start, length), length);
        int offset = 0;
        while (offset < length) {
            int next = readCall(start, offset, length, index);
            if (next == offset) {
                next = skipCall(wire, start, offset);
            }
            if (next <= offset) {
                break; // nothing more can be made of this excerpt
            }
            offset = next;
        }
    }

    /**
     * @param start where the excerpt starts in its cycle file
     * @return where the next call starts, or {@code offset} if this call is not a length-prefixed one to read here
     */
    private int readCall(final long start, final int offset, final int length, final long index) {
        if ((excerpt.getByte(offset) & 0xFF) != FIELD_NUMBER) {
            return offset;
        }
        int position = offset + 1;
        long methodId = 0;
        int shift = 0;
        int octet;
        do {
            if (position >= length || shift >= MAX_ID_BYTES * 7) {
                return offset;
            }
            octet = excerpt.getByte(position++) & 0xFF;
            methodId |= (long) (octet & STOP_BIT_VALUE) << shift;
            shift += 7;
        } while ((octet & STOP_BIT_MORE) != 0);
        if (!reads(methodId)) {
            return offset;
        }
        final int payload = position + 1 + LENGTH_BYTES;
        if (payload > length || (excerpt.getByte(position) & 0xFF) != BYTES_LENGTH32) {
            findings.unreadableRecord(name, index, methodId);
            return offset;
        }
        final int size = excerpt.getInt(position + 1);
        if (size < minimumLength(methodId) || size > length - payload) {
            findings.unreadableRecord(name, index, methodId);
            return offset;
        }
        if (!RecordChecksum.holds(excerpt.addressOffset() + payload, size - RecordChecksum.LENGTH)) {
            findings.damagedRecord(name, Journals.cycleFile(queue, queue.rollCycle().toCycle(index)).getFileName().toString(),
                    index, start + payload, methodId);
            return payload + size;
        }
        read(methodId, excerpt, payload);
        return payload + size;
    }

    /** Skips one call, of whatever encoding, through Chronicle's wire: @return where the next call starts. */
    private static int skipCall(final Wire wire, final long start, final int offset) {
        final Bytes<?> bytes = wire.bytes();
        bytes.readPosition(start + offset);
        wire.consumePadding();
        if (bytes.readRemaining() > 0) {
            wire.read().skipValue();
        }
        return (int) (bytes.readPosition() - start);
    }

    @Override
    public void close() {
        queue.close();
    }
}
