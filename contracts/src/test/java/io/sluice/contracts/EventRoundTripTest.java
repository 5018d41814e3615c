package io.sluice.contracts;

import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.journal.RecordChecksumException;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.Marshallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Proxy;
import java.nio.BufferUnderflowException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static io.sluice.contracts.EventFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

/** Every command and report survives a journal, field for field, through generated method writers and readers. */
final class EventRoundTripTest {
    @TempDir
    Path root;

    @Test
    void commandsRoundTripThroughAGatewayJournal() {
        final List<Event> read = new ArrayList<>();
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, 1))) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(newOrder());
            writer.replaceOrder(replaceOrder());
            writer.cancelOrder(cancelOrder());
            writer.massCancel(massCancel());

            final MethodReader reader = queue.createTailer().methodReader(new GatewayToEngine() {
                @Override
                public void newOrder(final NewOrder order) {
                    read.add(order.deepCopy());
                }

                @Override
                public void cancelOrder(final CancelOrder cancel) {
                    read.add(cancel.deepCopy());
                }

                @Override
                public void replaceOrder(final ReplaceOrder replace) {
                    read.add(replace.deepCopy());
                }

                @Override
                public void massCancel(final MassCancel massCancel) {
                    read.add(massCancel.deepCopy());
                }
            });
            while (reader.readOne()) {
                // drain
            }
        }
        assertEquals(List.of(newOrder(), replaceOrder(), cancelOrder(), massCancel()), read);
    }

    @Test
    void reportsRoundTripThroughTheEngineJournal() {
        final List<Event> read = new ArrayList<>();
        try (ChronicleQueue queue = Journals.open(Journals.engineJournal(root))) {
            final EngineToGateway writer = queue.methodWriter(EngineToGateway.class);
            writer.executionReport(executionReport());
            writer.cancelReject(cancelReject());
            writer.massCancelReport(massCancelReport());
            writer.adminOutcome(adminOutcome());

            final MethodReader reader = queue.createTailer().methodReader(new EngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    read.add(report.deepCopy());
                }

                @Override
                public void cancelReject(final CancelReject reject) {
                    read.add(reject.deepCopy());
                }

                @Override
                public void massCancelReport(final MassCancelReport report) {
                    read.add(report.deepCopy());
                }

                @Override
                public void adminOutcome(final AdminOutcome outcome) {
                    read.add(outcome.deepCopy());
                }
            });
            while (reader.readOne()) {
                // drain
            }
        }
        assertEquals(List.of(executionReport(), cancelReject(), massCancelReport(), adminOutcome()), read);
    }

    @Test
    void methodWritersAndReadersAreGeneratedCodeNotProxies() {
        try (ChronicleQueue queue = Journals.open(Journals.engineJournal(root))) {
            final EngineToGateway writer = queue.methodWriter(EngineToGateway.class);
            assertFalse(Proxy.isProxyClass(writer.getClass()),
                    "Chronicle fell back to a proxy method writer: check jvm.options; got " + writer.getClass());
            final ExcerptTailer tailer = queue.createTailer();
            final MethodReader reader = tailer.methodReader(new NoOpEngineToGateway());
            assertFalse(reader.getClass().getName().contains("VanillaMethodReader"),
                    "Chronicle fell back to the reflective method reader: " + reader.getClass());
        }
    }

    @Test
    void everyEventRoundTripsThroughYaml() {
        for (final Event event : List.of(newOrder(), replaceOrder(), cancelOrder(), executionReport(), cancelReject(),
                massCancel(), massCancelReport(), adminCommand(), adminOutcome())) {
            final String yaml = event.toString();
            assertEquals(event, Marshallable.fromString(yaml), yaml);
        }
    }

    @Test
    void yamlShowsIdentifiersAsTextAndPricesAsDecimals() {
        final String yaml = newOrder().toString();
        assertTrue(yaml.contains("clOrdId: ORD-000001"), yaml);
        assertTrue(yaml.contains("symbol: VOD.L"), yaml);
        assertTrue(yaml.contains("price: 101.25"), yaml);
        assertTrue(yaml.contains("side: BUY"), yaml);
    }

    @Test
    void absentEnumsAndZeroFieldsRoundTrip() {
        final CancelOrder empty = new CancelOrder();
        final CancelOrder read = new CancelOrder();
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        empty.writeMarshallable(bytes);
        read.side(Side.BUY).session(99);
        read.readMarshallable(bytes);
        assertEquals(empty, read);
        assertNull(read.side());
    }

    @ParameterizedTest
    @EnumSource(RejectReason.class)
    void everyRejectReasonRoundTrips(final RejectReason reason) {
        final ExecutionReport report = executionReport();
        report.rejectReason(reason).ordStatus(OrdStatus.REJECTED);
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        report.writeMarshallable(bytes);
        final ExecutionReport read = new ExecutionReport();
        read.readMarshallable(bytes);
        assertEquals(reason, read.rejectReason());
    }

    @Test
    void everyFixCodedConstantRoundTripsThroughItsCode() {
        for (final Side v : Side.values()) assertSame(v, Side.fromFixCode(v.fixCode()));
        for (final OrdType v : OrdType.values()) assertSame(v, OrdType.fromFixCode(v.fixCode()));
        for (final TimeInForce v : TimeInForce.values()) assertSame(v, TimeInForce.fromFixCode(v.fixCode()));
        for (final ExecType v : ExecType.values()) assertSame(v, ExecType.fromFixCode(v.fixCode()));
        for (final OrdStatus v : OrdStatus.values()) assertSame(v, OrdStatus.fromFixCode(v.fixCode()));
        for (final CxlRejResponseTo v : CxlRejResponseTo.values()) assertSame(v, CxlRejResponseTo.fromFixCode(v.fixCode()));
        assertNull(Side.fromFixCode('Z'));
        assertNull(Side.fromFixCode(-1));
        assertNull(Side.fromFixCode(0x7FFF));
    }

    @Test
    void metaDataEdgeValuesRoundTrip() {
        final MetaData max = new MetaData().sourceId(Integer.MAX_VALUE).eventId(Long.MAX_VALUE)
                .fixReceived(Long.MAX_VALUE).commandWriting(1).engineRead(Long.MIN_VALUE)
                .reportWriting(-1).gatewayRead(0).fixSent(Long.MAX_VALUE - 1);
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        max.writeMarshallable(bytes);
        assertEquals(MetaData.BINARY_LENGTH + RecordChecksum.LENGTH, bytes.readRemaining());
        final MetaData read = new MetaData();
        read.readMarshallable(bytes);
        assertEquals(max, read);
        assertEquals(Long.MIN_VALUE, read.engineRead());
    }

    @Test
    void anEventWritesTheSameBytesToDirectMemoryAsToTheHeap() {
        final List<Event> events = List.of(newOrder(), replaceOrder(), cancelOrder(), executionReport(), new CancelOrder());
        for (final Event event : events) {
            final Bytes<?> heap = Bytes.allocateElasticOnHeap();
            final Bytes<?> direct = Bytes.allocateElasticDirect(16); // smaller than a record: it must grow first
            try {
                direct.writeLong(-1L);
                heap.writeLong(-1L);
                event.writeMarshallable(heap);
                event.writeMarshallable(direct);
                direct.writeInt(7);
                heap.writeInt(7);
                assertEquals(heap.toHexString(), direct.toHexString(), event.getClass().getSimpleName());
            } finally {
                direct.releaseLast();
            }
        }
    }

    @Test
    void anEventReadsBackFromDirectMemoryAsFromTheHeap() {
        final ExecutionReport written = executionReport();
        final Bytes<?> direct = Bytes.allocateElasticDirect(16);
        try {
            written.writeMarshallable(direct);
            direct.writeInt(7);
            final ExecutionReport read = new ExecutionReport();
            read.readMarshallable(direct);
            assertEquals(written, read);
            assertEquals(7, direct.readInt(), "the read position moved past the record, no further");
        } finally {
            direct.releaseLast();
        }
    }

    @Test
    void aRecordCutShortFailsToReadInsteadOfReadingPastItsEnd() {
        final Bytes<?> heap = Bytes.allocateElasticOnHeap();
        executionReport().writeMarshallable(heap);
        final Bytes<?> direct = Bytes.allocateElasticDirect(16);
        try {
            direct.write(heap, heap.readPosition(), heap.readRemaining() - 1);
            final long end = direct.readLimit();
            assertThrows(BufferUnderflowException.class, () -> new ExecutionReport().readMarshallable(direct));
            assertEquals(end, direct.readLimit());
            heap.readLimit(heap.readLimit() - 1);
            assertThrows(BufferUnderflowException.class, () -> new ExecutionReport().readMarshallable(heap));
        } finally {
            direct.releaseLast();
        }
    }

    @Test
    void everyRecordEndsWithTheCrc32cOfItsFields() {
        final Bytes<?> heap = Bytes.allocateElasticOnHeap();
        newOrder().writeMarshallable(heap);
        final byte[] record = heap.toByteArray();
        final CRC32C crc = new CRC32C();
        crc.update(record, 0, record.length - RecordChecksum.LENGTH);
        assertEquals((int) crc.getValue(), heap.readInt(record.length - RecordChecksum.LENGTH));
    }

    @Test
    void aFlippedByteFailsTheChecksumNamingItsOffset() {
        for (int flipped = 0; flipped < 60; flipped += 7) {
            final Bytes<?> direct = Bytes.allocateElasticDirect(16);
            try {
                direct.writeLong(-1L);
                executionReport().writeMarshallable(direct);
                direct.writeByte(Long.BYTES + flipped, (byte) (direct.readByte(Long.BYTES + flipped) ^ 0x10));
                direct.readSkip(Long.BYTES);
                final RecordChecksumException e = assertThrows(
                        RecordChecksumException.class, () -> new ExecutionReport().readMarshallable(direct));
                assertEquals(Long.BYTES, e.fileOffset(), "the record's first byte");
                assertTrue(e.getMessage().contains("byte offset 8: checksum mismatch"), e.getMessage());
                final Bytes<?> heap = Bytes.allocateElasticOnHeap();
                heap.write(direct, direct.readPosition(), direct.readRemaining());
                assertThrows(RecordChecksumException.class, () -> new ExecutionReport().readMarshallable(heap));
            } finally {
                direct.releaseLast();
            }
        }
    }
}
