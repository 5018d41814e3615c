package io.sluice.gateway;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.sluice.contracts.EventFixtures.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The I/O thread allocates nothing per message once warm: orders in (parse, validate, command journal,
 * session journal) and reports out (engine journal, encode, session journal, socket), counted by
 * HotSpot's per-thread allocation counter over 2000 round trips after warm-up. Most windows count 0
 * bytes; now and then Chronicle Queue or the VM (re-materialising objects on deoptimisation) charges a
 * few hundred bytes to the thread, so the bound is less than one small object per message on average,
 * which any per-message allocation, or a structure growing with the message count, exceeds.
 */
class GatewayAllocationTest {
    private static final int MEASURED = 2_000;

    @TempDir
    Path root;

    @Test
    void theIoThreadAllocatesNothingPerOrderAndReport() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleStrategies.YIELD).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        try (RunningGateway gateway = new RunningGateway(config);
             ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
            final ExecutionReport report = EventFixtures.executionReport();
            report.gatewayId(1).session(id("CLIENT1"));
            client.logon("secret1");
            client.expect("A");
            roundTrips(client, engine, report, 3_000);
            final long before = gateway.allocatedBytes();
            assertTrue(before > 0, "the counter works: start-up and warm-up allocated");
            roundTrips(client, engine, report, MEASURED);
            final long allocated = gateway.allocatedBytes() - before;
            System.out.println("gateway I/O thread allocated " + allocated + " bytes over " + MEASURED
                    + " order/report round trips");
            assertTrue(allocated < 16L * MEASURED, "bytes allocated by the I/O thread over " + MEASURED
                    + " orders and reports: " + allocated);
        }
    }

    private static void roundTrips(final TestFixClient client, final EngineToGateway engine,
                                   final ExecutionReport report, final int count) throws Exception {
        for (int i = 0; i < count; i++) {
            client.newOrder("ORD-" + i, "VOD.L", '1', 100, "101.25");
            report.execId(i);
            engine.executionReport(report);
            assertEquals(Integer.toString(i), client.expect("8").get(FixTags.EXEC_ID));
        }
    }
}
