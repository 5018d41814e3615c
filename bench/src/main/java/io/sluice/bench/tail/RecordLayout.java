package io.sluice.bench.tail;

import io.sluice.contracts.MetaData;
import org.agrona.DirectBuffer;

/**
 * Where the tail finds what it needs in the bytes of a Sluice record, so it can read a journal without
 * decoding whole commands and reports: the method ids of {@code GatewayToEngine}, {@code EngineToGateway}
 * and {@code GatewayDeliveries}, and the offsets, from the start of a record's payload, of the MetaData fields
 * (which every record starts with, as {@code MetaData.writeMarshallable} writes them) and of the few body
 * fields the join uses. It mirrors the contracts' binary layout ({@code Journals.FORMAT_VERSION} 2: the fields, then
 * the {@link io.sluice.contracts.RecordChecksum} the stream checks); a test checks it against records written through
 * the contracts' own method writers.
 */
final class RecordLayout {
    /** {@code GatewayToEngine.newOrder}. */
    static final int NEW_ORDER = 1;
    /** {@code GatewayToEngine.cancelOrder}. */
    static final int CANCEL_ORDER = 2;
    /** {@code GatewayToEngine.replaceOrder}. */
    static final int REPLACE_ORDER = 3;
    /** {@code EngineToGateway.executionReport}. */
    static final int EXECUTION_REPORT = 11;
    /** {@code EngineToGateway.cancelReject}. */
    static final int CANCEL_REJECT = 12;
    /** {@code GatewayDeliveries.delivered}. */
    static final int DELIVERED = 21;

    private static final int SOURCE_ID = 0;
    private static final int EVENT_ID = SOURCE_ID + Integer.BYTES;
    private static final int FIX_RECEIVED = EVENT_ID + Long.BYTES;
    private static final int COMMAND_WRITING = FIX_RECEIVED + Long.BYTES;
    private static final int ENGINE_READ = COMMAND_WRITING + Long.BYTES;
    private static final int REPORT_WRITING = ENGINE_READ + Long.BYTES;
    private static final int GATEWAY_READ = REPORT_WRITING + Long.BYTES;
    private static final int FIX_SENT = GATEWAY_READ + Long.BYTES;

    /** A command's session: the first field of every command's body. */
    static final int COMMAND_SESSION = MetaData.BINARY_LENGTH;
    /** The bytes a command needs for the tail to read it. */
    static final int COMMAND_LENGTH = COMMAND_SESSION + Long.BYTES;
    /** A report's owning gateway: the first field of {@code Report}'s body. */
    static final int REPORT_GATEWAY_ID = MetaData.BINARY_LENGTH;
    /** A report's owning session, after its gateway id. */
    static final int REPORT_SESSION = REPORT_GATEWAY_ID + Integer.BYTES;
    /** The bytes a report needs for the tail to read it. */
    static final int REPORT_LENGTH = REPORT_SESSION + Long.BYTES;
    /** A delivery's session: the first field of its body. */
    static final int DELIVERY_SESSION = MetaData.BINARY_LENGTH;
    /** The bytes a delivery needs for the tail to read it. */
    static final int DELIVERY_LENGTH = DELIVERY_SESSION + Long.BYTES;

    private RecordLayout() {
    }

    /** Fills {@code metaData} from the record whose payload starts at {@code offset} of {@code buffer}. */
    static MetaData readMetaData(final DirectBuffer buffer, final int offset, final MetaData metaData) {
        return metaData.sourceId(buffer.getInt(offset + SOURCE_ID))
                .eventId(buffer.getLong(offset + EVENT_ID))
                .fixReceived(buffer.getLong(offset + FIX_RECEIVED))
                .commandWriting(buffer.getLong(offset + COMMAND_WRITING))
                .engineRead(buffer.getLong(offset + ENGINE_READ))
                .reportWriting(buffer.getLong(offset + REPORT_WRITING))
                .gatewayRead(buffer.getLong(offset + GATEWAY_READ))
                .fixSent(buffer.getLong(offset + FIX_SENT));
    }
}
