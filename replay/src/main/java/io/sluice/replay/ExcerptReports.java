package io.sluice.replay;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.Report;
import net.openhft.chronicle.bytes.Bytes;

import java.util.Arrays;

/**
 * The reports one input caused, kept as binary so a recorded excerpt and a fresh run's can be compared
 * byte for byte without decoding field by field. Each report is kept with the timestamps that measure a
 * run (see {@link #clearRunTimestamps}) zeroed, and everything else as the engine wrote it, including the
 * input's own {@code fixReceived} and {@code commandWritten}, which the engine copies.
 * <p>
 * Reused for every input: no allocation once the largest excerpt has been seen.
 */
public final class ExcerptReports implements EngineToGateway {
    private static final byte EXECUTION_REPORT = 1;
    private static final byte CANCEL_REJECT = 2;

    private final Bytes<byte[]> bytes = Bytes.allocateElasticOnHeap(1024);
    private final boolean ignoreEngineIds;
    private long[] ends = new long[16];
    private int count;

    /** Keeps reports whole, but for the run timestamps. */
    public ExcerptReports() {
        this(false);
    }

    /**
     * @param ignoreEngineIds also zero OrderID and ExecID, the engine-wide counters: for replays of only some
     *                        gateways, where they cannot match the recording's
     */
    public ExcerptReports(final boolean ignoreEngineIds) {
        this.ignoreEngineIds = ignoreEngineIds;
    }

    /** Zeroes the MetaData timestamps a run stamps itself: engine read, report written, and later hops. */
    public static void clearRunTimestamps(final MetaData metaData) {
        metaData.engineRead(0).reportWritten(0).gatewayRead(0).fixSent(0);
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        if (ignoreEngineIds) {
            report.execId(0);
        }
        keep(EXECUTION_REPORT, report);
    }

    @Override
    public void cancelReject(final CancelReject reject) {
        keep(CANCEL_REJECT, reject);
    }

    private void keep(final byte type, final Report report) {
        clearRunTimestamps(report.metaData());
        if (ignoreEngineIds) {
            report.orderId(0);
        }
        bytes.writeByte(type);
        report.writeMarshallable(bytes);
        if (count == ends.length) {
            ends = Arrays.copyOf(ends, count * 2);
        }
        ends[count++] = bytes.writePosition();
    }

    /** Forgets the reports kept so far, for the next input. */
    public void clear() {
        bytes.clear();
        count = 0;
    }

    /** @return how many reports are kept. */
    public int count() {
        return count;
    }

    /** @return true if {@code other} holds the same reports, in the same order. */
    public boolean sameAs(final ExcerptReports other) {
        return count == other.count && bytes.contentEquals(other.bytes);
    }

    /** @return the position of the first report that differs from {@code other}'s (or that only one of them has). */
    public int firstDifference(final ExcerptReports other) {
        final int common = Math.min(count, other.count);
        for (int i = 0; i < common; i++) {
            if (!sameReport(i, other)) {
                return i;
            }
        }
        return common;
    }

    private boolean sameReport(final int i, final ExcerptReports other) {
        final long start = start(i);
        final long length = ends[i] - start;
        if (other.ends[i] - other.start(i) != length) {
            return false;
        }
        for (long offset = 0; offset < length; offset++) {
            if (bytes.readByte(start + offset) != other.bytes.readByte(other.start(i) + offset)) {
                return false;
            }
        }
        return true;
    }

    private long start(final int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    /** @return report {@code i} as YAML (run timestamps zeroed), or "(no report)" if there is none: for messages. */
    public String yaml(final int i) {
        if (i >= count) {
            return "(no report)";
        }
        final Bytes<byte[]> one = Bytes.allocateElasticOnHeap((int) (ends[i] - start(i)));
        one.write(bytes, start(i), ends[i] - start(i));
        final Report report = one.readByte() == EXECUTION_REPORT ? new ExecutionReport() : new CancelReject();
        report.readMarshallable(one);
        return report.toString();
    }
}
