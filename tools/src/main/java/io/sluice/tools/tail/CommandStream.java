package io.sluice.tools.tail;

import io.sluice.contracts.RecordLayout;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * A gateway's command journal: every command ({@code GatewayToEngine} call) is handed to the
 * {@link LatencyJoin} with its MetaData and session.
 */
final class CommandStream extends JournalStream {
    private final int gatewayId;
    private final LatencyJoin join;

    CommandStream(final Path dir, final int gatewayId, final boolean fromStart, final LatencyJoin join,
                  final Findings findings) {
        super(dir, fromStart, findings);
        this.gatewayId = gatewayId;
        this.join = join;
    }

    int gatewayId() {
        return gatewayId;
    }

    @Override
    boolean reads(final long methodId) {
        return methodId == RecordLayout.NEW_ORDER || methodId == RecordLayout.CANCEL_ORDER
                || methodId == RecordLayout.REPLACE_ORDER;
    }

    @Override
    int minimumLength(final long methodId) {
        return RecordLayout.COMMAND_SESSION + Long.BYTES;
    }

    @Override
    void read(final long methodId, final DirectBuffer buffer, final int offset) {
        join.onCommand(gatewayId, metaData(buffer, offset), buffer.getLong(offset + RecordLayout.COMMAND_SESSION));
    }
}
