package io.sluice.engine.recovery;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MassCancelScope;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.RecordChecksum;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Consumer;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Where each kind of report starts in an engine journal excerpt, how long it is, and where its fields of interest lie.
 * The excerpt is as a method writer lays it out in binary wire; the fields are the input's sourceId and eventId (which
 * {@link ConsumptionOrder} reads without decoding the report), the four run timestamps (MetaData's engineRead,
 * reportWriting, gatewayRead, fixSent, consecutive) that a replay must not compare, and OrderID and ExecID; its {@link
 * RecordChecksum} ends it ({@link Shape#checksum()}). The offsets and lengths are the
 * contracts' {@link RecordLayout}; only the bytes Chronicle's wire puts before a call's payload (method id and
 * length) are learnt, once, by writing one report of each kind through a method writer.
 */
public final class ReportLayout {
    /** The four run timestamps: engineRead, reportWriting, gatewayRead, fixSent. */
    public static final int RUN_TIMESTAMPS_LENGTH = RecordLayout.BODY - RecordLayout.ENGINE_READ;

    private static final ReportLayout THIS_BUILD = probe();

    private final Shape execution;
    private final Shape cancelReject;
    private final Shape massCancelReport;
    private final Shape adminOutcome;
    /** Every kind, the most frequent first, with its prefix: how {@link #shapeAt} tells them apart. */
    private final Shape[] kinds;
    private final Prefix[] prefixes;
    private final int shortest;

    private ReportLayout(final Shape execution, final Shape cancelReject, final Shape massCancelReport,
                         final Shape adminOutcome) {
        this.execution = execution;
        this.cancelReject = cancelReject;
        this.massCancelReport = massCancelReport;
        this.adminOutcome = adminOutcome;
        kinds = new Shape[] {execution, cancelReject, massCancelReport, adminOutcome};
        prefixes = new Prefix[kinds.length];
        int shortestLength = Integer.MAX_VALUE;
        for (int i = 0; i < kinds.length; i++) {
            prefixes[i] = new Prefix(kinds[i].prefix());
            shortestLength = Math.min(shortestLength, kinds[i].length());
        }
        shortest = Math.max(Long.BYTES, shortestLength);
    }

    /**
     * One kind of report record.
     *
     * @param prefix        the bytes before the MetaData (method id and length), identifying the kind
     * @param length        the whole record's length
     * @param sourceId      offset of MetaData's sourceId (an int), followed by its eventId (a long)
     * @param runTimestamps offset of the run timestamps
     * @param orderId       offset of OrderID (an engine id), or -1 if the kind has none
     * @param execId        offset of ExecID, or -1 if the kind has none
     */
    public record Shape(byte[] prefix, int length, int sourceId, int runTimestamps, int orderId, int execId) {
        /**
         * @return the offset of the record's checksum: right after its fields, which start with the MetaData at
         * {@link #sourceId()} (see {@link RecordChecksum})
         */
        public int checksum() {
            return length - RecordChecksum.LENGTH;
        }

        /** @return true if the checksum of the record at {@code address} matches its fields */
        public boolean checksumHolds(final long address) {
            return RecordChecksum.holds(address + sourceId, checksum() - sourceId);
        }

        /** @return the sourceId of the record at {@code address} */
        public int sourceIdAt(final long address) {
            return MEMORY.readInt(address + sourceId);
        }

        /** @return the eventId of the record at {@code address} */
        public long eventIdAt(final long address) {
            return MEMORY.readLong(address + sourceId + RecordLayout.EVENT_ID - RecordLayout.SOURCE_ID);
        }

        /** @return the reportWriting timestamp (0.1 µs ticks) of the record at {@code address} */
        public long reportWritingAt(final long address) {
            return MEMORY.readLong(address + runTimestamps + RecordLayout.REPORT_WRITING - RecordLayout.ENGINE_READ);
        }
    }

    /** @return the layout of this build's reports (probed once) */
    public static ReportLayout ofThisBuild() {
        return THIS_BUILD;
    }

    /** @return an execution report's record */
    public Shape execution() {
        return execution;
    }

    /** @return a cancel reject's record */
    public Shape cancelReject() {
        return cancelReject;
    }

    /** @return a mass cancel report's record */
    public Shape massCancelReport() {
        return massCancelReport;
    }

    /** @return an admin outcome's record */
    public Shape adminOutcome() {
        return adminOutcome;
    }

    /**
     * @param address   where a record starts in memory
     * @param remaining how many bytes of the excerpt there are from {@code address} on
     * @return the shape of the record there, or null if it starts like no report or runs past the excerpt
     */
    public Shape shapeAt(final long address, final long remaining) {
        if (remaining < shortest) {
            return null;
        }
        final long word = MEMORY.readLong(address);
        for (int i = 0; i < kinds.length; i++) {
            if (remaining >= kinds[i].length() && prefixes[i].startsOf(word, address)) {
                return kinds[i];
            }
        }
        return null;
    }

    /**
     * A record kind's first bytes, its first eight compared as one word, in the machine's byte order, as a
     * replay and a recovery do once for every report.
     */
    private static final class Prefix {
        private final byte[] bytes;
        private final long word;
        private final long mask;

        Prefix(final byte[] bytes) {
            this.bytes = bytes;
            final byte[] first = Arrays.copyOf(bytes, Long.BYTES);
            final byte[] ones = new byte[Long.BYTES];
            Arrays.fill(ones, 0, Math.min(Long.BYTES, bytes.length), (byte) 0xFF);
            word = ByteBuffer.wrap(first).order(ByteOrder.nativeOrder()).getLong();
            mask = ByteBuffer.wrap(ones).order(ByteOrder.nativeOrder()).getLong();
        }

        /** @return true if the record at {@code address}, whose first eight bytes are {@code first}, starts with these bytes */
        boolean startsOf(final long first, final long address) {
            if ((first & mask) != word) {
                return false;
            }
            for (int i = Long.BYTES; i < bytes.length; i++) {
                if (MEMORY.readByte(address + i) != bytes[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private static ReportLayout probe() {
        final ExecutionReport report = new ExecutionReport();
        report.execType(ExecType.TRADE).side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                .ordStatus(OrdStatus.NEW);
        final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
        reject.ordStatus(OrdStatus.REJECTED);
        final MassCancelReport massCancel = new MassCancelReport().scope(MassCancelScope.ALL)
                .cause(MassCancelCause.CLIENT_REQUEST);
        final AdminOutcome outcome = new AdminOutcome().acknowledged(0);
        return new ReportLayout(
                shape(w -> w.executionReport(report), RecordLayout.EXECUTION_REPORT_LENGTH, RecordLayout.REPORT_ORDER_ID,
                        RecordLayout.EXEC_ID),
                shape(w -> w.cancelReject(reject), RecordLayout.CANCEL_REJECT_LENGTH, RecordLayout.REPORT_ORDER_ID, -1),
                shape(w -> w.massCancelReport(massCancel), RecordLayout.MASS_CANCEL_REPORT_LENGTH,
                        RecordLayout.REPORT_ORDER_ID, -1),
                shape(w -> w.adminOutcome(outcome), RecordLayout.ADMIN_OUTCOME_LENGTH, -1, -1));
    }

    /**
     * The shape of the kind of report {@code write} writes: its call prefix as written here, and the contracts'
     * offsets after it ({@code orderId} and {@code execId} -1 where the kind has none).
     */
    private static Shape shape(final Consumer<EngineToGateway> write, final int length,
                               final int orderId, final int execId) {
        final Wire wire = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap(512));
        write.accept(wire.methodWriter(EngineToGateway.class));
        final byte[] record;
        try (DocumentContext dc = wire.readingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            record = new byte[(int) bytes.readRemaining()];
            bytes.read(record);
        }
        final int payload = record.length - length;
        if (payload <= 0) {
            throw new IllegalStateException("a report record of " + record.length
                    + " bytes, not the " + length + " of RecordLayout and a call prefix");
        }
        return new Shape(Arrays.copyOf(record, payload), record.length, payload + RecordLayout.SOURCE_ID,
                payload + RecordLayout.ENGINE_READ, orderId < 0 ? -1 : payload + orderId, execId < 0 ? -1 : payload + execId);
    }
}
