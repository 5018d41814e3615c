package io.sluice.replay;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Report;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.util.Arrays;

/**
 * Where, in an engine journal excerpt as a method writer lays it out in binary wire, each kind of report
 * starts, how long it is, and where its bytes that a replay must not compare lie: the four run timestamps
 * (MetaData's engineRead, reportWritten, gatewayRead, fixSent, consecutive) and, for replays of some
 * gateways only, OrderID and ExecID. Found once, by writing probe reports with marker values through
 * Chronicle's binary wire and locating the markers, so it follows the contracts' layout rather than
 * repeating it. Every Sluice report has a fixed length.
 */
final class ReportLayout {
    /** The four run timestamps: engineRead, reportWritten, gatewayRead, fixSent. */
    static final int RUN_TIMESTAMPS_LENGTH = 4 * Long.BYTES;

    private static final long ENGINE_READ = 0x5EED_0001_0000_0001L;
    private static final long REPORT_WRITTEN = 0x5EED_0001_0000_0002L;
    private static final long GATEWAY_READ = 0x5EED_0001_0000_0003L;
    private static final long FIX_SENT = 0x5EED_0001_0000_0004L;
    private static final long ORDER_ID = 0x5EED_0001_0000_0005L;
    private static final long EXEC_ID = 0x5EED_0001_0000_0006L;
    private static final int SOURCE_ID = 0x5EED_0007;

    /** An execution report's record. */
    final Shape execution;
    /** A cancel reject's record. */
    final Shape cancelReject;

    private ReportLayout(final Shape execution, final Shape cancelReject) {
        this.execution = execution;
        this.cancelReject = cancelReject;
    }

    /**
     * One kind of report record.
     *
     * @param prefix        the bytes before the MetaData (method id and length), identifying the kind
     * @param length        the whole record's length
     * @param runTimestamps offset of the run timestamps
     * @param orderId       offset of OrderID
     * @param execId        offset of ExecID, or -1 if the kind has none
     */
    record Shape(byte[] prefix, int length, int runTimestamps, int orderId, int execId) {
    }

    /** @return the layout of this build's reports */
    static ReportLayout probe() {
        final ExecutionReport report = new ExecutionReport();
        report.execType(ExecType.TRADE).side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                .ordStatus(OrdStatus.NEW).orderId(ORDER_ID);
        report.execId(EXEC_ID);
        final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
        reject.ordStatus(OrdStatus.REJECTED).orderId(ORDER_ID);
        return new ReportLayout(shape(report, true), shape(reject, false));
    }

    private static Shape shape(final Report report, final boolean execution) {
        report.metaData().sourceId(SOURCE_ID).engineRead(ENGINE_READ).reportWritten(REPORT_WRITTEN)
                .gatewayRead(GATEWAY_READ).fixSent(FIX_SENT);
        final Wire wire = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap(512));
        final EngineToGateway writer = wire.methodWriter(EngineToGateway.class);
        if (execution) {
            writer.executionReport((ExecutionReport) report);
        } else {
            writer.cancelReject((CancelReject) report);
        }
        final byte[] record;
        try (DocumentContext dc = wire.readingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            record = new byte[(int) bytes.readRemaining()];
            bytes.read(record);
        }
        final int metaData = find(record, Integer.BYTES, SOURCE_ID);
        final int timestamps = find(record, Long.BYTES, ENGINE_READ);
        if (find(record, Long.BYTES, REPORT_WRITTEN) != timestamps + 8 || find(record, Long.BYTES, GATEWAY_READ) != timestamps + 16
                || find(record, Long.BYTES, FIX_SENT) != timestamps + 24) {
            throw new IllegalStateException("MetaData's run timestamps are no longer consecutive: replay's comparison needs updating");
        }
        return new Shape(Arrays.copyOf(record, metaData), record.length, timestamps, find(record, Long.BYTES, ORDER_ID),
                execution ? find(record, Long.BYTES, EXEC_ID) : -1);
    }

    private static int find(final byte[] record, final int size, final long marker) {
        for (int i = 0; i + size <= record.length; i++) {
            long value = 0;
            for (int b = size - 1; b >= 0; b--) {
                value = value << 8 | (record[i + b] & 0xFF);
            }
            if (value == (size == Integer.BYTES ? marker & 0xFFFF_FFFFL : marker)) {
                return i;
            }
        }
        throw new IllegalStateException("probe marker 0x" + Long.toHexString(marker) + " not found in a report record");
    }
}
