package io.sluice.tools.tail;

import io.sluice.contracts.RecordLayout;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * The engine journal: every report ({@code EngineToGateway} call) is handed to the {@link LatencyJoin} with
 * its MetaData and the gateway and session it is for.
 */
final class ReportStream extends JournalStream {
    private final LatencyJoin join;

    ReportStream(final Path dir, final boolean fromStart, final LatencyJoin join, final Findings findings) {
        super(dir, fromStart, findings);
        this.join = join;
    }

    @Override
    boolean reads(final long methodId) {
        return methodId == RecordLayout.EXECUTION_REPORT || methodId == RecordLayout.CANCEL_REJECT;
    }

    @Override
    int minimumLength(final long methodId) {
        return RecordLayout.REPORT_SESSION + Long.BYTES;
    }

    @Override
    void read(final long methodId, final DirectBuffer buffer, final int offset) {
        join.onReport(metaData(buffer, offset), buffer.getInt(offset + RecordLayout.REPORT_GATEWAY_ID),
                buffer.getLong(offset + RecordLayout.REPORT_SESSION));
    }
}
