package io.sluice.contracts;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.function.Consumer;

import static io.sluice.contracts.EventFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every constant of {@link RecordLayout} holds for the records the contracts' own method writers write into a
 * journal: the method id before each payload, and at each offset the field it names. The fixtures give every
 * field a value of its own, so a field that moves in a {@code writeTo}/{@code writeBody}, or a record that grows or
 * shrinks, fails here before a reader takes a wrong field from the bytes.
 */
final class RecordLayoutTest {
    @TempDir
    Path root;

    @Test
    void metaDataEndsWhereEveryBodyStarts() {
        assertEquals(RecordLayout.BODY, RecordLayout.FIX_SENT + Long.BYTES);
    }

    @Test
    void commandsHaveTheirMethodIdsMetaDataAndSessionWhereTheLayoutSays() {
        final NewOrder order = newOrder();
        final ReplaceOrder replace = replaceOrder();
        final CancelOrder cancel = cancelOrder();
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, 1))) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(order);
            writer.replaceOrder(replace);
            writer.cancelOrder(cancel);
            final ExcerptTailer tailer = queue.createTailer();
            read(tailer, RecordLayout.NEW_ORDER, payload -> {
                assertMetaData(payload, order.metaData());
                assertEquals(order.session(), payload.readLong(RecordLayout.COMMAND_SESSION));
            });
            read(tailer, RecordLayout.REPLACE_ORDER, payload -> {
                assertMetaData(payload, replace.metaData());
                assertEquals(replace.session(), payload.readLong(RecordLayout.COMMAND_SESSION));
            });
            read(tailer, RecordLayout.CANCEL_ORDER, payload -> {
                assertMetaData(payload, cancel.metaData());
                assertEquals(cancel.session(), payload.readLong(RecordLayout.COMMAND_SESSION));
            });
        }
    }

    @Test
    void reportsHaveTheirMethodIdsFieldsAndLengthsWhereTheLayoutSays() {
        final ExecutionReport report = executionReport();
        final CancelReject reject = cancelReject();
        reject.orderId(43);
        try (ChronicleQueue queue = Journals.open(Journals.engineJournal(root))) {
            final EngineToGateway writer = queue.methodWriter(EngineToGateway.class);
            writer.executionReport(report);
            writer.cancelReject(reject);
            final ExcerptTailer tailer = queue.createTailer();
            read(tailer, RecordLayout.EXECUTION_REPORT, payload -> {
                assertEquals(RecordLayout.EXECUTION_REPORT_LENGTH, payload.readRemaining());
                assertReport(payload, report);
                assertEquals(report.execId(), payload.readLong(RecordLayout.EXEC_ID));
                assertEquals(report.bookEffect().ordinal(), payload.readByte(RecordLayout.BOOK_EFFECT));
            });
            read(tailer, RecordLayout.CANCEL_REJECT, payload -> {
                assertEquals(RecordLayout.CANCEL_REJECT_LENGTH, payload.readRemaining());
                assertReport(payload, reject);
            });
        }
    }

    @Test
    void massCancelsAndAdminRecordsHaveTheirMethodIdsAndMetaDataWhereTheLayoutSays() {
        final MassCancel cancel = massCancel();
        final MassCancelReport report = massCancelReport();
        final AdminCommand command = adminCommand();
        final AdminOutcome outcome = adminOutcome();
        try (ChronicleQueue gateway = Journals.open(Journals.gatewayJournal(root, 1));
             ChronicleQueue engine = Journals.open(Journals.engineJournal(root));
             ChronicleQueue admin = Journals.open(Journals.adminJournal(root));
             ChronicleQueue records = Journals.open(Journals.gatewayDeliveries(root, 1))) {
            gateway.methodWriter(GatewayToEngine.class).massCancel(cancel);
            read(gateway.createTailer(), RecordLayout.MASS_CANCEL, payload -> {
                assertMetaData(payload, cancel.metaData());
                assertEquals(cancel.session(), payload.readLong(RecordLayout.COMMAND_SESSION));
            });
            final EngineToGateway reports = engine.methodWriter(EngineToGateway.class);
            reports.massCancelReport(report);
            reports.adminOutcome(outcome);
            final ExcerptTailer tailer = engine.createTailer();
            read(tailer, RecordLayout.MASS_CANCEL_REPORT, payload -> {
                assertEquals(RecordLayout.MASS_CANCEL_REPORT_LENGTH, payload.readRemaining());
                assertReport(payload, report);
            });
            read(tailer, RecordLayout.ENGINE_ADMIN_OUTCOME, payload -> {
                assertEquals(RecordLayout.ADMIN_OUTCOME_LENGTH, payload.readRemaining());
                assertMetaData(payload, outcome.metaData());
            });
            admin.methodWriter(AdminCommands.class).adminCommand(command);
            read(admin.createTailer(), RecordLayout.ADMIN_COMMAND, payload -> {
                assertMetaData(payload, command.metaData());
                assertEquals(Journals.ADMIN_SOURCE_ID, payload.readInt(RecordLayout.SOURCE_ID));
            });
            records.methodWriter(GatewayRecords.class).adminAnswered(outcome);
            read(records.createTailer(), RecordLayout.GATEWAY_ADMIN_OUTCOME,
                    payload -> assertMetaData(payload, outcome.metaData()));
        }
    }

    @Test
    void aDeliveryHasItsMethodIdMetaDataAndSessionWhereTheLayoutSays() {
        final Delivery delivery = new Delivery().session(id("CLIENT3")).execId(77);
        metaData(delivery.metaData(), 6_000);
        try (ChronicleQueue queue = Journals.open(Journals.gatewayDeliveries(root, 1))) {
            queue.methodWriter(GatewayDeliveries.class).delivered(delivery);
            read(queue.createTailer(), RecordLayout.DELIVERED, payload -> {
                assertMetaData(payload, delivery.metaData());
                assertEquals(delivery.session(), payload.readLong(RecordLayout.DELIVERY_SESSION));
            });
        }
    }

    @Test
    void aSentMessageHasItsMethodIdAndEngineIndexWhereTheLayoutSays() {
        final UnsafeBuffer body = new UnsafeBuffer(new byte[]{'3', '5', '=', '8'});
        final SentMessage sent = new SentMessage().set(id("CLIENT3"), 12, '8', 1_767_225_600_000L, 0x512e00000007L, body, 0, 4);
        try (ChronicleQueue queue = Journals.open(Journals.gatewayDeliveries(root, 1))) {
            queue.methodWriter(GatewayRecords.class).sent(sent);
            read(queue.createTailer(), RecordLayout.SENT,
                    payload -> assertEquals(0x512e00000007L, payload.readLong(RecordLayout.SENT_ENGINE_INDEX)));
        }
    }

    @Test
    void commandsAreTheirFieldsInOrderThenTheChecksum() {
        final NewOrder order = newOrder();
        order.routing(id("DESK-3"), id("VENUE-4"));
        final ReplaceOrder replace = replaceOrder();
        replace.routing(id("DESK-5"), 0);
        final CancelOrder cancel = cancelOrder();
        cancel.routing(0, id("VENUE-6"));
        final MassCancel massCancel = massCancel();
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, 1))) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(order);
            writer.replaceOrder(replace);
            writer.cancelOrder(cancel);
            writer.massCancel(massCancel);
            final ExcerptTailer tailer = queue.createTailer();
            read(tailer, RecordLayout.NEW_ORDER, payload -> assertFields(payload, orderTerms(order)));
            read(tailer, RecordLayout.REPLACE_ORDER,
                    payload -> assertFields(payload, orderTerms(replace).writeLong(replace.origClOrdId())));
            read(tailer, RecordLayout.CANCEL_ORDER, payload -> assertFields(payload, metaDataBytes(cancel.metaData())
                    .writeLong(cancel.session()).writeLong(cancel.firm()).writeLong(cancel.clOrdId()).writeLong(cancel.origClOrdId())
                    .writeLong(cancel.symbol()).writeByte(FixCodeTable.codeOf(cancel.side()))
                    .writeLong(cancel.onBehalfOfCompId()).writeLong(cancel.deliverToCompId())));
            read(tailer, RecordLayout.MASS_CANCEL, payload -> assertFields(payload, metaDataBytes(massCancel.metaData())
                    .writeLong(massCancel.session()).writeLong(massCancel.firm()).writeLong(massCancel.clOrdId())
                    .writeByte(FixCodeTable.codeOf(massCancel.scope())).writeLong(massCancel.symbol())
                    .writeByte(FixCodeTable.codeOf(massCancel.side())).writeByte((byte) massCancel.cause().ordinal())
                    .writeLong(massCancel.onBehalfOfCompId()).writeLong(massCancel.deliverToCompId())));
        }
    }

    @Test
    void adminRecordsAreTheirFieldsInOrderThenTheChecksum() {
        final AdminCommand command = adminCommand();
        final AdminOutcome outcome = adminOutcome();
        try (ChronicleQueue admin = Journals.open(Journals.adminJournal(root));
             ChronicleQueue engine = Journals.open(Journals.engineJournal(root))) {
            admin.methodWriter(AdminCommands.class).adminCommand(command);
            read(admin.createTailer(), RecordLayout.ADMIN_COMMAND, payload -> assertFields(payload,
                    metaDataBytes(command.metaData()).writeByte((byte) command.action().ordinal())
                            .writeInt(command.gatewayId()).writeLong(command.session()).writeLong(command.symbol())
                            .writeLong(command.nextSenderSeqNum()).writeLong(command.nextTargetSeqNum())
                            .writeLong(command.reason()).writeLong(command.user()).writeLong(command.firm())
                            .writeByte((byte) command.limit().ordinal()).writeLong(command.limitValue())));
            engine.methodWriter(EngineToGateway.class).adminOutcome(outcome);
            read(engine.createTailer(), RecordLayout.ENGINE_ADMIN_OUTCOME, payload -> assertFields(payload,
                    metaDataBytes(outcome.metaData()).writeByte((byte) outcome.action().ordinal())
                            .writeInt(outcome.gatewayId()).writeLong(outcome.session()).writeLong(outcome.symbol())
                            .writeByte((byte) outcome.result().ordinal()).writeByte((byte) outcome.refusal().ordinal())
                            .writeLong(outcome.affected())));
        }
    }

    /** Reads the next excerpt, one call of {@code methodId} with a length-prefixed payload, and checks the payload. */
    private static void read(final ExcerptTailer tailer, final int methodId, final Consumer<Bytes<?>> check) {
        try (DocumentContext context = tailer.readingDocument()) {
            final Bytes<?> bytes = context.wire().bytes();
            assertEquals(BinaryWireCode.FIELD_NUMBER, bytes.readUnsignedByte());
            assertEquals(methodId, bytes.readStopBit());
            assertEquals(BinaryWireCode.BYTES_LENGTH32, bytes.readUnsignedByte());
            final int length = bytes.readInt();
            assertEquals(length, bytes.readRemaining(), "one call per excerpt");
            final Bytes<?> payload = Bytes.allocateElasticOnHeap(length);
            payload.write(bytes, bytes.readPosition(), length);
            check.accept(payload);
        }
    }

    private static void assertReport(final Bytes<?> payload, final Report report) {
        assertMetaData(payload, report.metaData());
        assertEquals(report.gatewayId(), payload.readInt(RecordLayout.REPORT_GATEWAY_ID));
        assertEquals(report.session(), payload.readLong(RecordLayout.REPORT_SESSION));
        assertEquals(report.firm(), payload.readLong(RecordLayout.REPORT_FIRM));
        assertEquals(report.orderId(), payload.readLong(RecordLayout.REPORT_ORDER_ID));
    }

    /** The fields every order command writes, MetaData first, in the order a reader takes them. */
    private static Bytes<?> orderTerms(final OrderCommand order) {
        return metaDataBytes(order.metaData()).writeLong(order.session()).writeLong(order.firm())
                .writeLong(order.clOrdId()).writeLong(order.account()).writeLong(order.symbol())
                .writeByte(FixCodeTable.codeOf(order.side())).writeByte(FixCodeTable.codeOf(order.ordType()))
                .writeByte(FixCodeTable.codeOf(order.timeInForce())).writeLong(order.orderQty())
                .writeLong(order.price()).writeLong(order.onBehalfOfCompId()).writeLong(order.deliverToCompId());
    }

    /** A record's MetaData as written at the start of every event: sourceId, then eventId and the six timestamps. */
    private static Bytes<?> metaDataBytes(final MetaData metaData) {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap(RecordOut.MAX_RECORD_BYTES);
        bytes.writeInt(metaData.sourceId()).writeLong(metaData.eventId()).writeLong(metaData.fixReceived())
                .writeLong(metaData.commandWriting()).writeLong(metaData.engineRead()).writeLong(metaData.reportWriting())
                .writeLong(metaData.gatewayRead()).writeLong(metaData.fixSent());
        return bytes;
    }

    /** The payload is exactly {@code fields}, byte for byte, followed by a checksum and nothing else. */
    private static void assertFields(final Bytes<?> payload, final Bytes<?> fields) {
        assertEquals(fields.readRemaining() + RecordChecksum.LENGTH, payload.readRemaining(), "the record's length");
        for (long at = 0; at < fields.readRemaining(); at++) {
            assertEquals(fields.readByte(at), payload.readByte(at), "the byte at offset " + at);
        }
    }

    private static void assertMetaData(final Bytes<?> payload, final MetaData expected) {
        assertEquals(expected.sourceId(), payload.readInt(RecordLayout.SOURCE_ID));
        assertEquals(expected.eventId(), payload.readLong(RecordLayout.EVENT_ID));
        assertEquals(expected.fixReceived(), payload.readLong(RecordLayout.FIX_RECEIVED));
        assertEquals(expected.commandWriting(), payload.readLong(RecordLayout.COMMAND_WRITING));
        assertEquals(expected.engineRead(), payload.readLong(RecordLayout.ENGINE_READ));
        assertEquals(expected.reportWriting(), payload.readLong(RecordLayout.REPORT_WRITING));
        assertEquals(expected.gatewayRead(), payload.readLong(RecordLayout.GATEWAY_READ));
        assertEquals(expected.fixSent(), payload.readLong(RecordLayout.FIX_SENT));
    }
}
