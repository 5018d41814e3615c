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
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.engine.JournalOutput;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The consumption order is read from the engine journal as the engine writes it (one excerpt per input,
 * through {@link JournalOutput}), without decoding the reports: the input each excerpt answers, in journal
 * order, the excerpt's bytes for comparison, and a clear error for an excerpt that names two inputs or is
 * not made of reports.
 */
final class ConsumptionOrderTest {
    private static final long EXECUTION = ReportLayout.ofThisBuild().execution().length();
    private static final long REJECT = ReportLayout.ofThisBuild().cancelReject().length();

    @TempDir
    Path dir;

    private ChronicleQueue journal;
    private ExcerptAppender appender;
    private JournalOutput output;

    @BeforeEach
    void openJournal() {
        journal = Journals.open(Journals.engineJournal(dir));
        appender = journal.createAppender();
        output = new JournalOutput();
        output.goLive(appender);
    }

    @AfterEach
    void closeJournal() {
        journal.close();
    }

    @Test
    void eachExcerptNamesTheInputItAnswersInJournalOrder() {
        write(out -> out.executionReport(execution(2, 7)));
        write(out -> {
            out.executionReport(execution(1, 3));
            out.executionReport(execution(1, 3));
            out.cancelReject(reject(1, 3));
        });
        write(out -> out.cancelReject(reject(2, 8)));

        try (ConsumptionOrder order = new ConsumptionOrder(journal)) {
            assertInput(order, 2, 7, EXECUTION);
            assertInput(order, 1, 3, 2 * EXECUTION + REJECT);
            assertInput(order, 2, 8, REJECT);
            assertFalse(order.next());
            assertEquals(null, order.excerpt());
        }
    }

    @Test
    void adminCommandsAndMassCancelsAreInputsReadInPlace() {
        final long outcome = ReportLayout.ofThisBuild().adminOutcome().length();
        final long massCancel = ReportLayout.ofThisBuild().massCancelReport().length();
        write(out -> out.executionReport(execution(1, 1)));
        write(out -> { // an admin command (source 0) that canceled an order: the cancel, then its outcome
            final ExecutionReport cancel = execution(Journals.ADMIN_SOURCE_ID, 1);
            cancel.gatewayId(1);
            out.executionReport(cancel);
            final AdminOutcome answer = new AdminOutcome().acknowledged(1);
            answer.metaData().sourceId(Journals.ADMIN_SOURCE_ID).eventId(1);
            out.adminOutcome(answer);
        });
        write(out -> {
            final MassCancelReport report = new MassCancelReport().scope(MassCancelScope.ALL)
                    .cause(MassCancelCause.CLIENT_REQUEST).affectedOrders(0);
            report.metaData().sourceId(1).eventId(2);
            out.massCancelReport(report);
        });

        try (ConsumptionOrder order = new ConsumptionOrder(journal)) {
            assertInput(order, 1, 1, EXECUTION);
            assertInput(order, Journals.ADMIN_SOURCE_ID, 1, EXECUTION + outcome);
            assertInput(order, 1, 2, massCancel);
            assertFalse(order.next());
        }
    }

    @Test
    void anExcerptWithoutReportsAndChroniclesMetadataAreSkipped() {
        write(out -> out.executionReport(execution(1, 1)));
        write(out -> {
        });
        try (DocumentContext dc = appender.writingDocument(true)) {
            dc.wire().write("note").text("Chronicle metadata, not an input");
        }
        write(out -> out.executionReport(execution(1, 2)));

        try (ConsumptionOrder order = new ConsumptionOrder(journal)) {
            assertInput(order, 1, 1, EXECUTION);
            assertInput(order, 1, 2, EXECUTION);
            assertFalse(order.next());
        }
    }

    @Test
    void anExcerptNamingTwoInputsIsCorruptAndTheErrorSaysWhere() {
        write(out -> out.executionReport(execution(1, 1)));
        write(out -> {
            out.executionReport(execution(1, 2));
            out.cancelReject(reject(2, 2));
        });
        final long index = journal.lastIndex();

        try (ConsumptionOrder order = new ConsumptionOrder(journal)) {
            assertInput(order, 1, 1, EXECUTION);
            final CorruptJournalException e = assertThrows(CorruptJournalException.class, order::next);
            assertTrue(e.getMessage().contains("reports of two different inputs in one excerpt"), e.getMessage());
            assertTrue(e.getMessage().contains(Journals.engineJournal(dir).toAbsolutePath().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("excerpt index 0x" + Long.toHexString(index)), e.getMessage());
        }
    }

    @Test
    void anExcerptThatIsNotReportsIsDecodedAndItsProblemNamed() {
        write(out -> out.executionReport(execution(1, 1)));
        try (DocumentContext dc = appender.writingDocument()) {
            dc.wire().write("notAReport").text("garbage");
        }
        final long index = journal.lastIndex();

        try (ConsumptionOrder order = new ConsumptionOrder(journal)) {
            assertInput(order, 1, 1, EXECUTION);
            final CorruptJournalException e = assertThrows(CorruptJournalException.class, order::next);
            assertTrue(e.getMessage().contains("unknown message 'notAReport'"), e.getMessage());
            assertTrue(e.getMessage().contains("excerpt index 0x" + Long.toHexString(index)), e.getMessage());
        }
    }

    @Test
    void eachExcerptGivesWhenTheEngineWroteItsReportsReadInPlace() {
        final long before = SluiceClock.nowTicks();
        write(out -> out.executionReport(execution(1, 1)));
        final long between = SluiceClock.nowTicks();
        write(out -> {
            out.cancelReject(reject(2, 1));
            out.executionReport(execution(2, 1));
        });
        final long after = SluiceClock.nowTicks();
        final List<Long> decoded = new ArrayList<>();
        final MethodReader reader = journal.createTailer().methodReader(new EngineToGateway() {
            @Override
            public void executionReport(final ExecutionReport report) {
                decoded.add(report.metaData().reportWriting());
            }

            @Override
            public void cancelReject(final CancelReject reject) {
                decoded.add(reject.metaData().reportWriting());
            }

            @Override
            public void massCancelReport(final MassCancelReport report) {
                decoded.add(report.metaData().reportWriting());
            }

            @Override
            public void adminOutcome(final AdminOutcome outcome) {
                decoded.add(outcome.metaData().reportWriting());
            }
        });
        while (reader.readOne()) {
            // every report's stamp, as a plain reader decodes it
        }

        try (ConsumptionOrder order = new ConsumptionOrder(journal)) {
            assertTrue(order.next());
            assertEquals(decoded.get(0), order.reportWriting());
            assertTrue(before <= order.reportWriting() && order.reportWriting() <= between, "stamped while written");
            assertTrue(order.next());
            assertEquals(decoded.get(1), order.reportWriting(), "the excerpt's first report's stamp");
            assertEquals(decoded.get(2), order.reportWriting(), "one stamp for all the reports of one input");
            assertTrue(between <= order.reportWriting() && order.reportWriting() <= after, "stamped while written");
        }
    }

    private static void assertInput(final ConsumptionOrder order, final int sourceId, final long eventId, final long bytes) {
        assertTrue(order.next(), "an excerpt answering input " + eventId + " of gateway " + sourceId);
        assertEquals(sourceId, order.sourceId());
        assertEquals(eventId, order.eventId());
        assertNotNull(order.excerpt());
        assertEquals(bytes, order.excerpt().readRemaining(), "the excerpt's bytes: its reports");
    }

    /** Writes the reports {@code reports} sends to the engine's output as one excerpt, as the engine does for one input. */
    private void write(final Consumer<EngineToGateway> reports) {
        try (DocumentContext dc = appender.writingDocument()) {
            reports.accept(output);
        }
    }

    private static ExecutionReport execution(final int sourceId, final long eventId) {
        final ExecutionReport report = new ExecutionReport();
        report.metaData().sourceId(sourceId).eventId(eventId);
        report.gatewayId(sourceId).session(11).orderId(eventId).clOrdId(2).ordStatus(OrdStatus.NEW).rejectReason(RejectReason.NONE);
        return report.execId(eventId).execType(ExecType.NEW).account(11).symbol(12).side(Side.BUY).ordType(OrdType.LIMIT)
                .timeInForce(TimeInForce.DAY).orderQty(200);
    }

    private static CancelReject reject(final int sourceId, final long eventId) {
        final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
        reject.metaData().sourceId(sourceId).eventId(eventId);
        reject.gatewayId(sourceId).session(11).clOrdId(3).origClOrdId(2).ordStatus(OrdStatus.REJECTED)
                .rejectReason(RejectReason.UNKNOWN_ORDER);
        return reject;
    }
}
