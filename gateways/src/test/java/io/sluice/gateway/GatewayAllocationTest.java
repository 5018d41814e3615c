package io.sluice.gateway;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

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
 * <p>
 * The second case holds 200 files open first, so that the sockets get file descriptors above 127: the
 * JDK's epoll {@code Selector} boxes every ready descriptor ({@code Integer.valueOf}), which allocates for
 * any descriptor outside the JDK's small-integer cache. A gateway process with many journal files and
 * libraries open had such descriptors, and allocated on its I/O thread once every few dozen orders.
 */
class GatewayAllocationTest {
    private static final int MEASURED = 2_000;
    private static final int HELD_FILES = 200;

    @TempDir
    Path root;

    @Test
    void theIoThreadAllocatesNothingPerOrderAndReport() throws Exception {
        exchangeOrdersAndReports();
    }

    @Test
    void theIoThreadAllocatesNothingWhenTheSocketsFileDescriptorsAreAbove127() throws Exception {
        final List<FileChannel> held = new ArrayList<>();
        try {
            final Path file = Files.createFile(root.resolve("descriptor-filler"));
            for (int i = 0; i < HELD_FILES; i++) {
                held.add(FileChannel.open(file, StandardOpenOption.READ));
            }
            exchangeOrdersAndReports();
        } finally {
            for (final FileChannel channel : held) {
                channel.close();
            }
        }
    }

    private void exchangeOrdersAndReports() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(io.sluice.runtime.agent.IdleConfig.of("yield")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
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
