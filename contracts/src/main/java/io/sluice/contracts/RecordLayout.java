package io.sluice.contracts;

/**
 * The one statement of where things lie in Sluice's binary records. It is for readers that take fields straight from a
 * journal's bytes instead of decoding whole records: the latency tail, and the engine's recovery and replay comparison.
 * It gives the method id of every journal call (the {@code @MethodId} of {@link GatewayToEngine},
 * {@link EngineToGateway}, {@link GatewayDeliveries}, {@link GatewayRecords}, {@link AdminCommands} and {@link EngineSnapshots} are these
 * constants), and, from the
 * start of a call's payload, the offsets of the {@link MetaData} fields every record starts with, of the few body
 * fields those readers use, and each record's length (its fields, then its {@link RecordChecksum}).
 * <p>
 * The offsets follow the order in which {@code MetaData.writeTo} and each event's {@code writeBody} write the fields
 * ({@code Journals.FORMAT_VERSION} 7). {@code RecordLayoutTest} writes every record through the contracts' own
 * method writers and checks each constant here against the bytes, so a field that moves fails the build.
 */
public final class RecordLayout {
    /** {@link GatewayToEngine#newOrder}. */
    public static final int NEW_ORDER = 1;
    /** {@link GatewayToEngine#cancelOrder}. */
    public static final int CANCEL_ORDER = 2;
    /** {@link GatewayToEngine#replaceOrder}. */
    public static final int REPLACE_ORDER = 3;
    /** {@link GatewayToEngine#massCancel}. */
    public static final int MASS_CANCEL = 4;
    /** {@link AdminCommands#adminCommand}, in the admin journal. */
    public static final int ADMIN_COMMAND = 5;
    /** {@link EngineToGateway#executionReport}. */
    public static final int EXECUTION_REPORT = 11;
    /** {@link EngineToGateway#cancelReject}. */
    public static final int CANCEL_REJECT = 12;
    /** {@link EngineToGateway#massCancelReport}. */
    public static final int MASS_CANCEL_REPORT = 13;
    /** {@link EngineToGateway#adminOutcome}. */
    public static final int ENGINE_ADMIN_OUTCOME = 14;
    /** {@link GatewayDeliveries#delivered}. */
    public static final int DELIVERED = 21;
    /** {@link GatewayRecords#sent}. */
    public static final int SENT = 31;
    /** {@link GatewayRecords#received}. */
    public static final int RECEIVED = 32;
    /** {@link GatewayRecords#reset}. */
    public static final int RESET = 33;
    /** {@link GatewayRecords#adminAnswered}. */
    public static final int GATEWAY_ADMIN_OUTCOME = 34;
    /** {@link GatewayRecords#checkpoint}. */
    public static final int CHECKPOINT = 35;
    /** {@link EngineSnapshots#snapshotBegin}. */
    public static final int SNAPSHOT_BEGIN = 41;
    /** {@link EngineSnapshots#snapshotSource}. */
    public static final int SNAPSHOT_SOURCE = 42;
    /** {@link EngineSnapshots#snapshotInstrument}. */
    public static final int SNAPSHOT_INSTRUMENT = 43;
    /** {@link EngineSnapshots#snapshotOrder}. */
    public static final int SNAPSHOT_ORDER = 44;
    /** {@link EngineSnapshots#snapshotEnd}. */
    public static final int SNAPSHOT_END = 45;
    /** {@link EngineSnapshots#snapshotFirm}. */
    public static final int SNAPSHOT_FIRM = 46;
    /** {@link EngineSnapshots#snapshotFirmPosition}. */
    public static final int SNAPSHOT_FIRM_POSITION = 47;
    /** {@link EngineSnapshots#snapshotSessionKillSwitch}. */
    public static final int SNAPSHOT_SESSION_KILL_SWITCH = 48;

    /** MetaData's sourceId, an int: the first field of every record. */
    public static final int SOURCE_ID = 0;
    /** MetaData's eventId, a long. */
    public static final int EVENT_ID = SOURCE_ID + Integer.BYTES;
    /** MetaData's fixReceived, a long, as are the timestamps after it. */
    public static final int FIX_RECEIVED = EVENT_ID + Long.BYTES;
    /** MetaData's commandWriting. */
    public static final int COMMAND_WRITING = FIX_RECEIVED + Long.BYTES;
    /** MetaData's engineRead: the first of the four run timestamps a replay does not compare. */
    public static final int ENGINE_READ = COMMAND_WRITING + Long.BYTES;
    /** MetaData's reportWriting. */
    public static final int REPORT_WRITING = ENGINE_READ + Long.BYTES;
    /** MetaData's gatewayRead. */
    public static final int GATEWAY_READ = REPORT_WRITING + Long.BYTES;
    /** MetaData's fixSent: the last of the run timestamps and of the MetaData. */
    public static final int FIX_SENT = GATEWAY_READ + Long.BYTES;
    /** Where an event's own fields start: right after its MetaData. */
    public static final int BODY = MetaData.BINARY_LENGTH;

    /**
     * A command's session (a long): the first body field of every {@link SessionCommand} ({@link NewOrder},
     * {@link ReplaceOrder}, {@link CancelOrder} and {@link MassCancel}).
     */
    public static final int COMMAND_SESSION = BODY;

    /** A report's owning gateway (an int): the first body field of every {@link Report}. */
    public static final int REPORT_GATEWAY_ID = BODY;
    /** A report's owning session (a long). */
    public static final int REPORT_SESSION = REPORT_GATEWAY_ID + Integer.BYTES;
    /** A report's firm (a long, packed short text, 0 for none), after its session. */
    public static final int REPORT_FIRM = REPORT_SESSION + Long.BYTES;
    /** A report's OrderID (a long), after its firm. */
    public static final int REPORT_ORDER_ID = REPORT_FIRM + Long.BYTES;
    /**
     * The fields {@link Report} writes for every report: gatewayId, session, firm, orderId, clOrdId, origClOrdId, ordStatus,
     * rejectReason, onBehalfOfCompId, deliverToCompId, limitValue.
     */
    private static final int REPORT_FIELDS_END = REPORT_ORDER_ID + 3 * Long.BYTES + 2 * Byte.BYTES + 3 * Long.BYTES;
    /** An execution report's ExecID (a long): its first field after the ones every report has. */
    public static final int EXEC_ID = REPORT_FIELDS_END;
    /**
     * An execution report's {@link BookEffect} (one byte, its ordinal): its last field, after execId, execType, account,
     * symbol, side, ordType, timeInForce, orderQty, price, lastQty, lastPx, cumQty, leavesQty and avgPx (10 longs, 4
     * one-byte codes).
     */
    public static final int BOOK_EFFECT = EXEC_ID + 10 * Long.BYTES + 4 * Byte.BYTES;
    /** A whole execution report: MetaData, Report's fields, its own fields, checksum. */
    public static final int EXECUTION_REPORT_LENGTH = BOOK_EFFECT + Byte.BYTES + RecordChecksum.LENGTH;
    /** A whole cancel reject: MetaData, Report's fields, its responseTo code, checksum. */
    public static final int CANCEL_REJECT_LENGTH = REPORT_FIELDS_END + Byte.BYTES + RecordChecksum.LENGTH;
    /**
     * A whole mass cancel report: MetaData, Report's fields, its scope, symbol, side, cause and affectedOrders
     * (3 one-byte codes, 2 longs), checksum.
     */
    public static final int MASS_CANCEL_REPORT_LENGTH = REPORT_FIELDS_END + 3 * Byte.BYTES + 2 * Long.BYTES
            + RecordChecksum.LENGTH;
    /**
     * A whole admin outcome ({@link AdminOutcome}, no {@link Report} fields): MetaData, action, gatewayId, session,
     * symbol, result, refusal, affected, checksum.
     */
    public static final int ADMIN_OUTCOME_LENGTH = BODY + Byte.BYTES + Integer.BYTES + 2 * Long.BYTES + 2 * Byte.BYTES
            + Long.BYTES + RecordChecksum.LENGTH;

    /** A delivery's session (a long): the first body field of {@link Delivery}. */
    public static final int DELIVERY_SESSION = BODY;

    /**
     * A sent message's engineIndex (a long): the engine-journal index of the report it carried, 0 for other messages;
     * after its session, seqNum (longs), msgType (an int) and sendingTime (a long). {@link SentMessage} has no MetaData.
     */
    public static final int SENT_ENGINE_INDEX = 2 * Long.BYTES + Integer.BYTES + Long.BYTES;

    private RecordLayout() {
    }
}
