package io.sluice.engine;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.load.AdminTurns;
import io.sluice.engine.load.MixedOrderFlow;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine allocates nothing per command once warmed up: the thread's allocated-bytes counter stays
 * (all but) still while it processes a few hundred thousand mixed commands, with a mass cancel of one session's
 * orders (one instrument or all, one side or both) every {@value #MASS_CANCEL_EVERY} commands, and every
 * {@value #ADMIN_EVERY} commands an operator's turn on one instrument: halt, resume, close (its DAY orders expire) and
 * open again.
 */
final class EngineAllocationTest {
    private static final int WARM_UP = 400_000;
    private static final int MEASURED = 300_000;
    private static final int MASS_CANCEL_EVERY = 97;
    private static final int SESSIONS = 16;
    private static final int ADMIN_EVERY = 9_973;

    @Test
    void processingMixedCommandsAllocatesNothing() throws Exception {
        final EngineConfig config = EngineConfig.load(Path.of(getClass().getResource("/engine-example.yaml").toURI()))
                .maxOpenOrders(200_000).completedOrderMemory(100_000);
        final CountingOutput output = new CountingOutput();
        final Engine engine = new Engine(config, output);
        final MixedOrderFlow flow = new MixedOrderFlow(7, 1, config.instruments(), SESSIONS);
        final AdminTurns admin = new AdminTurns(config.instruments().getLast().symbol());
        for (int i = 0; i < WARM_UP; i++) {
            next(flow, admin, engine);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long reportsBefore = output.reports;
        threads.getCurrentThreadAllocatedBytes(); // the first call may set itself up
        final long before = threads.getCurrentThreadAllocatedBytes();
        final long massCancelsBefore = output.massCancelReports;
        final long outcomesBefore = output.adminOutcomes;
        for (int i = 0; i < MEASURED; i++) {
            next(flow, admin, engine);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        final long reports = output.reports - reportsBefore;
        assertTrue(reports > MEASURED, "every command is answered, trades twice: " + reports);
        assertTrue(output.massCancelReports - massCancelsBefore >= MEASURED / MASS_CANCEL_EVERY,
                "mass cancels answered: " + (output.massCancelReports - massCancelsBefore));
        assertTrue(output.massCanceled > 0, "mass cancels canceled orders: " + output.massCanceled);
        assertTrue(output.adminOutcomes - outcomesBefore >= AdminTurns.commandsPerTurn() * (MEASURED / ADMIN_EVERY),
                "admin commands answered: " + (output.adminOutcomes - outcomesBefore));
        assertTrue(output.expired > 0, "closes expired DAY orders: " + output.expired);
        // Hundreds rest (mass cancels and the closes of one instrument keep the books shallower than the flow alone).
        assertTrue(engine.openOrders() > 500 && engine.openOrders() < config.maxOpenOrders(),
                "orders rest without filling the engine: " + engine.openOrders());
        // One allocation per command would be at least 16 B x 300 000 = 4.8 MB. A few hundred bytes once
        // (a JIT transition running a method in the interpreter) are tolerated; usually it reads 0.
        assertTrue(allocated < 4_096, "bytes allocated for " + MEASURED + " commands: " + allocated);
    }

    private static void next(final MixedOrderFlow flow, final AdminTurns admin, final Engine engine) {
        flow.next(engine);
        if (flow.eventId() % MASS_CANCEL_EVERY == 0) {
            flow.massCancel(engine);
        }
        if (flow.eventId() % ADMIN_EVERY == 0) {
            admin.next(engine);
        }
    }

    /** Counts reports and keeps nothing. */
    private static final class CountingOutput implements EngineToGateway {
        long reports;
        long massCancelReports;
        long massCanceled;
        long adminOutcomes;
        long expired;

        @Override
        public void executionReport(final ExecutionReport report) {
            reports++;
            if (report.execType() == io.sluice.contracts.ExecType.EXPIRED) {
                expired++;
            }
        }

        @Override
        public void cancelReject(final CancelReject reject) {
            reports++;
        }

        @Override
        public void massCancelReport(final io.sluice.contracts.MassCancelReport report) {
            reports++;
            massCancelReports++;
            massCanceled += report.affectedOrders();
        }

        @Override
        public void adminOutcome(final io.sluice.contracts.AdminOutcome outcome) {
            reports++;
            adminOutcomes++;
        }
    }
}
