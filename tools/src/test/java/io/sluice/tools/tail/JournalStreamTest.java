package io.sluice.tools.tail;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayDeliveries;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.Side;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.testkit.JournalSetWriter;
import io.sluice.testkit.SyntheticJournals;
import net.openhft.chronicle.bytes.MethodId;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tail reads records straight from their bytes ({@link JournalStream}, at the offsets of the contracts' {@link
 * io.sluice.contracts.RecordLayout}): every command and report type the
 * contracts' method writers write is read with its own MetaData and session. Each record below has its own
 * session and its own hop durations, so a field read at the wrong offset shows as a wrong count or latency.
 */
class JournalStreamTest {
    private static final long T0 = SyntheticJournals.START_TICKS;
    private static final long ORDER_SESSION = ShortTextLongConverter.INSTANCE.parse("NEWORDER");
    private static final long CANCEL_SESSION = ShortTextLongConverter.INSTANCE.parse("CANCEL");
    private static final long REPLACE_SESSION = ShortTextLongConverter.INSTANCE.parse("REPLACE");

    @TempDir
    Path root;

    /** A record type of a newer format: a known method id whose payload is not length-prefixed binary. */
    interface NewerFormat {
        @MethodId(RecordLayout.DELIVERED)
        void delivered(long eventId);
    }

    @BeforeEach
    void writeOneOfEachType() {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            final GatewayToEngine commands = writer.writer(Journals.gatewayJournal(root, 1), GatewayToEngine.class);
            final NewOrder order = new NewOrder();
            times(order.metaData(), 1, 11);
            order.session(ORDER_SESSION).side(Side.BUY);
            commands.newOrder(order);
            final CancelOrder cancel = new CancelOrder().session(CANCEL_SESSION).side(Side.SELL);
            times(cancel.metaData(), 2, 22);
            commands.cancelOrder(cancel);
            final ReplaceOrder replace = new ReplaceOrder();
            times(replace.metaData(), 3, 33);
            replace.session(REPLACE_SESSION).side(Side.BUY);
            commands.replaceOrder(replace);

            final EngineToGateway reports = writer.writer(Journals.engineJournal(root), EngineToGateway.class);
            final ExecutionReport report = new ExecutionReport().execType(ExecType.NEW).side(Side.BUY);
            times(report.metaData(), 1, 11);
            report.gatewayId(1).session(ORDER_SESSION).ordStatus(OrdStatus.NEW);
            reports.executionReport(report);
            final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
            times(reject.metaData(), 2, 22);
            reject.gatewayId(1).session(CANCEL_SESSION).ordStatus(OrdStatus.NEW);
            reports.cancelReject(reject);
            times(report.metaData(), 3, 33);
            report.execType(ExecType.REPLACED).session(REPLACE_SESSION);
            reports.executionReport(report);

            final GatewayDeliveries deliveries = writer.writer(Journals.gatewayDeliveries(root, 1), GatewayDeliveries.class);
            final Delivery delivery = new Delivery();
            for (final long[] input : new long[][] {{1, 11, ORDER_SESSION}, {2, 22, CANCEL_SESSION}, {3, 33, REPLACE_SESSION}}) {
                times(delivery.metaData(), input[0], input[1]);
                deliveries.delivered(delivery.session(input[2]));
            }
        }
    }

    @Test
    void aNewOrderItsReportAndDeliveryAreReadWithTheirSessionAndTimes() {
        assertHops(run(ORDER_SESSION), 11);
    }

    @Test
    void aCancelItsRejectAndDeliveryAreReadWithTheirSessionAndTimes() {
        assertHops(run(CANCEL_SESSION), 22);
    }

    @Test
    void aReplaceItsReportAndDeliveryAreReadWithTheirSessionAndTimes() {
        assertHops(run(REPLACE_SESSION), 33);
    }

    @Test
    void aKnownRecordInAnotherLayoutIsSkippedAndSaidToBeUnreadable() {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            final Path out = Journals.gatewayDeliveries(root, 1);
            final NewerFormat newer = writer.writer(out, NewerFormat.class);
            try (DocumentContext ignored = writer.excerpt(out)) {
                newer.delivered(3);
                final Delivery delivery = new Delivery().session(REPLACE_SESSION);
                times(delivery.metaData(), 3, 33);
                writer.writer(out, GatewayDeliveries.class).delivered(delivery);
            }
        }
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final Tail tail = new Tail(new TailOptions().root(root).offline(true), new PrintStream(output, true, StandardCharsets.UTF_8));
        tail.run();

        assertEquals(1, tail.findings().total(Finding.UNREADABLE_RECORDS));
        assertEquals(4, tail.join().deliveriesRead(), "the delivery after it in the same excerpt is read");
        final String text = output.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("! 1 commands, reports or deliveries not in Sluice's binary layout, skipped"), text);
        assertTrue(text.contains("gateway-1-out: excerpt index 0x"), text);
    }

    /** Input {@code eventId} of gateway 1, each of its hops {@code step} ticks long but the engine's, twice that. */
    private static void times(final MetaData metaData, final long eventId, final long step) {
        final long received = T0 + eventId * 1_000;
        metaData.sourceId(1).eventId(eventId).fixReceived(received).commandWriting(received + step)
                .engineRead(received + 2 * step).reportWriting(received + 4 * step).gatewayRead(received + 5 * step)
                .fixSent(received + 6 * step);
    }

    private Tail run(final long session) {
        final Tail tail = new Tail(new TailOptions().root(root).offline(true).sessions(new long[] {session}),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        tail.run();
        assertEquals(3, tail.join().commandsRead());
        assertEquals(3, tail.join().reportsRead());
        assertEquals(3, tail.join().deliveriesRead());
        for (final Finding finding : Finding.values()) {
            assertEquals(0, tail.findings().total(finding), finding.description());
        }
        return tail;
    }

    private static void assertHops(final Tail tail, final long step) {
        assertHop(tail, Hop.GATEWAY_IN, step);
        assertHop(tail, Hop.JOURNAL_IN, step);
        assertHop(tail, Hop.ENGINE, 2 * step);
        assertHop(tail, Hop.JOURNAL_OUT, step);
        assertHop(tail, Hop.GATEWAY_OUT, step);
        assertHop(tail, Hop.END_TO_END, 6 * step);
    }

    private static void assertHop(final Tail tail, final Hop hop, final long ticks) {
        final Histogram histogram = tail.statistics(hop).total();
        assertEquals(1, histogram.getTotalCount(), hop.label() + ": only the session's one message");
        assertTrue(histogram.valuesAreEquivalent(ticks * SluiceClock.NANOS_PER_TICK, histogram.getMaxValue()),
                hop.label() + ": " + histogram.getMaxValue() + " ns");
    }
}
