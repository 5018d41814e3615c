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
 * (all but) still while it processes a few hundred thousand mixed commands.
 */
final class EngineAllocationTest {
    private static final int WARM_UP = 400_000;
    private static final int MEASURED = 300_000;

    @Test
    void processingMixedCommandsAllocatesNothing() throws Exception {
        final EngineConfig config = EngineConfig.load(Path.of(getClass().getResource("/engine-example.yaml").toURI()))
                .maxOpenOrders(200_000).completedOrderMemory(100_000);
        final CountingOutput output = new CountingOutput();
        final Engine engine = new Engine(config, output);
        final MixedOrderFlow flow = new MixedOrderFlow(7, 1, config.instruments(), 16);
        for (int i = 0; i < WARM_UP; i++) {
            flow.next(engine);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long reportsBefore = output.reports;
        threads.getCurrentThreadAllocatedBytes(); // the first call may set itself up
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            flow.next(engine);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        final long reports = output.reports - reportsBefore;
        assertTrue(reports > MEASURED, "every command is answered, trades twice: " + reports);
        assertTrue(engine.openOrders() > 1_000 && engine.openOrders() < config.maxOpenOrders(),
                "orders rest without filling the engine: " + engine.openOrders());
        // One allocation per command would be at least 16 B x 300 000 = 4.8 MB. A few hundred bytes once
        // (a JIT transition running a method in the interpreter) are tolerated; usually it reads 0.
        assertTrue(allocated < 4_096, "bytes allocated for " + MEASURED + " commands: " + allocated);
    }

    /** Counts reports and keeps nothing. */
    private static final class CountingOutput implements EngineToGateway {
        long reports;

        @Override
        public void executionReport(final ExecutionReport report) {
            reports++;
        }

        @Override
        public void cancelReject(final CancelReject reject) {
            reports++;
        }

        @Override
        public void massCancelReport(final io.sluice.contracts.MassCancelReport report) {
            reports++;
        }

        @Override
        public void adminOutcome(final io.sluice.contracts.AdminOutcome outcome) {
            reports++;
        }
    }
}
