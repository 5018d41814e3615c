package io.sluice.engine;

import com.sun.management.ThreadMXBean;
import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.engine.load.AdminTurns;
import io.sluice.engine.load.MixedOrderFlow;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine allocates nothing per command once warmed up: the thread's allocated-bytes counter stays
 * (all but) still while it processes a few hundred thousand mixed commands, with a mass cancel of one session's
 * orders (one instrument or all, one side or both) every {@value #MASS_CANCEL_EVERY} commands, and every
 * {@value #ADMIN_EVERY} commands an operator's turn on one instrument: halt, resume, close (its DAY orders expire) and
 * open again; and so with firm limits checked and reached, a firm's kill switch turned on and off, and its limit set.
 */
final class EngineAllocationTest {
    private static final int WARM_UP = 400_000;
    private static final int MEASURED = 300_000;
    private static final int MASS_CANCEL_EVERY = 97;
    private static final int SESSIONS = 16;
    private static final int ADMIN_EVERY = 9_973;

    @ParameterizedTest(name = "firm limits {0}")
    @ValueSource(booleans = {false, true})
    void processingMixedCommandsAllocatesNothing(final boolean firmLimits) throws Exception {
        final EngineConfig plain = EngineConfig.load(Path.of(getClass().getResource("/engine-example.yaml").toURI()))
                .maxOpenOrders(200_000).completedOrderMemory(100_000);
        final EngineConfig config = firmLimits ? withFirmLimits(plain) : plain;
        final CountingOutput output = new CountingOutput();
        final Engine engine = new Engine(config, output);
        final MixedOrderFlow flow = new MixedOrderFlow(7, 1, config.instruments(), SESSIONS);
        final AdminTurns admin = new AdminTurns(config.instruments().getLast().symbol());
        final FirmTurns firms = new FirmTurns();
        for (int i = 0; i < WARM_UP; i++) {
            next(flow, admin, firms, engine);
        }
        final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long reportsBefore = output.reports;
        threads.getCurrentThreadAllocatedBytes(); // the first call may set itself up
        final long before = threads.getCurrentThreadAllocatedBytes();
        final long massCancelsBefore = output.massCancelReports;
        final long outcomesBefore = output.adminOutcomes;
        final long limitRejectsBefore = output.limitRejects;
        for (int i = 0; i < MEASURED; i++) {
            next(flow, admin, firms, engine);
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
        if (firmLimits) {
            assertTrue(output.limitRejects - limitRejectsBefore > MEASURED / 1000,
                    "firm limits rejected orders: " + (output.limitRejects - limitRejectsBefore));
        }
        // Hundreds rest (mass cancels and the closes of one instrument keep the books shallower than the flow alone,
        // and the firms' open orders limits shallower still).
        assertTrue(engine.openOrders() > (firmLimits ? 200 : 500) && engine.openOrders() < config.maxOpenOrders(),
                "orders rest without filling the engine: " + engine.openOrders());
        // One allocation per command would be at least 16 B x 300 000 = 4.8 MB. A few hundred bytes once
        // (a JIT transition running a method in the interpreter) are tolerated; usually it reads 0.
        assertTrue(allocated < 4_096, "bytes allocated for " + MEASURED + " commands: " + allocated);
    }

    private static void next(final MixedOrderFlow flow, final AdminTurns admin, final FirmTurns firms,
                             final Engine engine) {
        flow.next(engine);
        if (flow.eventId() % MASS_CANCEL_EVERY == 0) {
            flow.massCancel(engine);
        }
        if (flow.eventId() % ADMIN_EVERY == 0) {
            admin.next(engine);
            firms.next(engine);
        }
    }

    /**
     * Every firm (each session of the flow is its own) held to limits the flow reaches now and then: open orders,
     * position, a price collar; the rest set so high they only cost their check.
     */
    private static EngineConfig withFirmLimits(final EngineConfig config) {
        final FirmLimitsConfig limits = new FirmLimitsConfig();
        for (final FirmLimit limit : FirmLimit.values()) {
            limits.value(limit, limit.maxValue());
        }
        limits.value(FirmLimit.MAX_OPEN_ORDERS, 60).value(FirmLimit.MAX_POSITION, 3_000)
                .value(FirmLimit.PRICE_COLLAR, 300);
        return config.risk(new RiskConfig().defaults(limits)).restartFromSnapshots(false);
    }

    /**
     * An operator's turn on one firm after another (a session of the flow): its kill switch on (its orders canceled)
     * and off again, and its open orders limit set; numbered after {@link AdminTurns}' commands. Allocation-free.
     */
    private static final class FirmTurns {
        private final AdminCommand command = new AdminCommand();
        private final long[] sessions = new long[SESSIONS];
        private long eventId = 1_000_000;
        private int turn;

        FirmTurns() {
            for (int i = 0; i < SESSIONS; i++) {
                sessions[i] = ShortTextLongConverter.INSTANCE.parse("G1S" + i);
            }
        }

        void next(final AdminCommands target) {
            final long firm = sessions[turn++ % SESSIONS];
            send(target, command.action(AdminAction.FIRM_KILL_SWITCH_ON).firm(firm));
            send(target, command.action(AdminAction.FIRM_KILL_SWITCH_OFF).firm(firm));
            send(target, command.action(AdminAction.SET_FIRM_LIMIT).firm(firm).limit(FirmLimit.MAX_OPEN_ORDERS,
                    40 + turn % 40));
        }

        private void send(final AdminCommands target, final AdminCommand next) {
            next.metaData().clearTimestamps();
            next.metaData().sourceId(Journals.ADMIN_SOURCE_ID).eventId(++eventId);
            target.adminCommand(next);
        }
    }

    /** Counts reports and keeps nothing. */
    private static final class CountingOutput implements EngineToGateway {
        long reports;
        long massCancelReports;
        long massCanceled;
        long adminOutcomes;
        long expired;
        long limitRejects;

        @Override
        public void executionReport(final ExecutionReport report) {
            reports++;
            if (report.execType() == ExecType.EXPIRED) {
                expired++;
            }
            if (report.rejectReason().limit() != null) {
                limitRejects++;
            }
        }

        @Override
        public void cancelReject(final CancelReject reject) {
            reports++;
            if (reject.rejectReason().limit() != null) {
                limitRejects++;
            }
        }

        @Override
        public void massCancelReport(final MassCancelReport report) {
            reports++;
            massCancelReports++;
            massCanceled += report.affectedOrders();
        }

        @Override
        public void adminOutcome(final AdminOutcome outcome) {
            reports++;
            adminOutcomes++;
        }
    }
}
