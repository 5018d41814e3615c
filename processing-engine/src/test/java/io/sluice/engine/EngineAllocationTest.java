package io.sluice.engine;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.engine.config.EngineConfig;
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
        final MassCancels massCancels = new MassCancels(config);
        final AdminTurns admin = new AdminTurns(config);
        for (int i = 0; i < WARM_UP; i++) {
            next(flow, massCancels, admin, engine);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long reportsBefore = output.reports;
        threads.getCurrentThreadAllocatedBytes(); // the first call may set itself up
        final long before = threads.getCurrentThreadAllocatedBytes();
        final long massCancelsBefore = output.massCancelReports;
        final long outcomesBefore = output.adminOutcomes;
        for (int i = 0; i < MEASURED; i++) {
            next(flow, massCancels, admin, engine);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        final long reports = output.reports - reportsBefore;
        assertTrue(reports > MEASURED, "every command is answered, trades twice: " + reports);
        assertTrue(output.massCancelReports - massCancelsBefore >= MEASURED / MASS_CANCEL_EVERY,
                "mass cancels answered: " + (output.massCancelReports - massCancelsBefore));
        assertTrue(output.massCanceled > 0, "mass cancels canceled orders: " + output.massCanceled);
        assertTrue(output.adminOutcomes - outcomesBefore >= 4 * (MEASURED / ADMIN_EVERY),
                "admin commands answered: " + (output.adminOutcomes - outcomesBefore));
        assertTrue(output.expired > 0, "closes expired DAY orders: " + output.expired);
        // Hundreds rest (mass cancels and the closes of one instrument keep the books shallower than the flow alone).
        assertTrue(engine.openOrders() > 500 && engine.openOrders() < config.maxOpenOrders(),
                "orders rest without filling the engine: " + engine.openOrders());
        // One allocation per command would be at least 16 B x 300 000 = 4.8 MB. A few hundred bytes once
        // (a JIT transition running a method in the interpreter) are tolerated; usually it reads 0.
        assertTrue(allocated < 4_096, "bytes allocated for " + MEASURED + " commands: " + allocated);
    }

    private static void next(final MixedOrderFlow flow, final MassCancels massCancels, final AdminTurns admin,
                             final Engine engine) {
        flow.next(engine);
        if (flow.eventId() % MASS_CANCEL_EVERY == 0) {
            massCancels.next(flow.eventId(), engine);
        }
        if (flow.eventId() % ADMIN_EVERY == 0) {
            admin.next(engine);
        }
    }

    /**
     * An operator's turn on the config's last instrument (the others keep their depth): halt, resume, close, open;
     * numbered as the admin journal numbers.
     */
    private static final class AdminTurns {
        private final long symbol;
        private final io.sluice.contracts.AdminCommand command = new io.sluice.contracts.AdminCommand();
        private final io.sluice.contracts.AdminAction[] turn = {io.sluice.contracts.AdminAction.HALT,
                io.sluice.contracts.AdminAction.RESUME, io.sluice.contracts.AdminAction.CLOSE_TRADING,
                io.sluice.contracts.AdminAction.OPEN_TRADING};
        private long eventId;

        AdminTurns(final EngineConfig config) {
            symbol = config.instruments().getLast().symbol();
        }

        void next(final Engine engine) {
            for (final io.sluice.contracts.AdminAction action : turn) {
                command.metaData().clearTimestamps();
                command.metaData().sourceId(io.sluice.contracts.journal.Journals.ADMIN_SOURCE_ID).eventId(++eventId);
                command.action(action).symbol(symbol);
                engine.adminCommand(command);
            }
        }
    }

    /**
     * Mass cancels of the flow's sessions, in turn, cycling through the scopes and side filters; numbered as the
     * flow's commands are (gateway 1), the event id one above the flow's last.
     */
    private static final class MassCancels {
        private final long[] sessions = new long[SESSIONS];
        private final long[] symbols;
        private final io.sluice.contracts.MassCancel command = new io.sluice.contracts.MassCancel();
        private final io.sluice.contracts.Side[] sides = {null, io.sluice.contracts.Side.BUY, io.sluice.contracts.Side.SELL};
        private long count;

        MassCancels(final EngineConfig config) {
            for (int i = 0; i < SESSIONS; i++) {
                sessions[i] = net.openhft.chronicle.wire.ShortTextLongConverter.INSTANCE.parse("G1S" + i);
            }
            symbols = config.instruments().stream().mapToLong(io.sluice.engine.config.InstrumentConfig::symbol).toArray();
        }

        void next(final long flowEventId, final Engine engine) {
            final long n = count++;
            command.metaData().clearTimestamps();
            command.metaData().sourceId(1).eventId(flowEventId);
            command.session(sessions[(int) (n % SESSIONS)]).clOrdId(n + 1)
                    .scope(n % 2 == 0 ? io.sluice.contracts.MassCancelScope.SECURITY : io.sluice.contracts.MassCancelScope.ALL)
                    .symbol(symbols[(int) (n % symbols.length)]).side(sides[(int) (n % sides.length)])
                    .cause(io.sluice.contracts.MassCancelCause.CLIENT_REQUEST);
            engine.massCancel(command);
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
