package io.sluice.gateway;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MassCancelScope;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.transport.KeytoolCertificates;
import io.sluice.gateway.transport.TlsLayer;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static io.sluice.contracts.EventFixtures.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The I/O thread allocates nothing per message once warm: orders in (parse, validate, command journal,
 * session journal) and reports out (engine journal, encode, session journal, socket), counted by
 * HotSpot's per-thread allocation counter over 2000 round trips after a warm-up of 20,000, which lets C2 compile the
 * per-message code first ({@link #WARM_UP}) (and the same for mass cancel
 * requests, 35=q, and their reports, 35=r). Most windows count 0
 * bytes; now and then Chronicle Queue or the VM (re-materialising objects on deoptimisation) charges a
 * few hundred bytes to the thread, so the bound is less than one small object per message on average,
 * which any per-message allocation, or a structure growing with the message count, exceeds.
 * <p>
 * The gateway polls the admin journal at its housekeeping pace during the measured window (polling with nothing new
 * costs nothing). Admin commands themselves are appended before it: reading one (another gateway's, passed over) was
 * seen to charge the I/O thread up to about 2 KB, a cost per operator command, not per message, which the per-message
 * bound here must not mix in.
 * <p>
 * The second case holds 200 files open first, so that the sockets get file descriptors above 127: the
 * JDK's epoll {@code Selector} boxes every ready descriptor ({@code Integer.valueOf}), which allocates for
 * any descriptor outside the JDK's small-integer cache. A gateway process with many journal files and
 * libraries open had such descriptors, and allocated on its I/O thread once every few dozen orders.
 * <p>
 * The third case runs the same over TLS 1.3. The JDK's TLS allocates on every record it wraps or unwraps (its
 * {@code SSLEngineResult}, and per-record cipher state and copies of direct buffers inside its AES-GCM: about 1.9 KB
 * a record on JDK 25), which no caller can avoid. The gateway counts what its thread allocates inside the engine's
 * calls ({@link TlsLayer#COUNT_JDK_ALLOCATION}); everything else the thread allocates must stay under the plain case's
 * bound, and the test prints what the JDK's TLS costs per round trip.
 */
class GatewayAllocationTest {
    private static final int MEASURED = 2_000;
    /**
     * Round trips before the measured window: enough for the per-message methods to reach C2 (HotSpot's tier 4 wants
     * 5,000 invocations, then a place in a compile queue that a loaded machine makes slow). With 3,000, tier-3 (C1)
     * compilations of {@code ReportDelivery.send}, {@code FixSession.commit} and {@code NioConnection.read} were seen
     * (JFR {@code jdk.Compilation}) inside the window; C1 code does no escape analysis, so the objects C2 keeps in
     * registers (inside Chronicle's appender and tailer, mostly) were counted as allocated: 1 to 16 KB per window.
     */
    private static final int WARM_UP = 20_000;
    private static final int HELD_FILES = 200;

    @TempDir
    Path root;

    @Test
    void theIoThreadAllocatesNothingPerOrderAndReport() throws Exception {
        exchangeOrdersAndReports();
    }

    @Test
    void theIoThreadAllocatesNothingPerMassCancelRequestAndReport() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("yield")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        try (RunningGateway gateway = new RunningGateway(config);
             ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
            final MassCancelReport report = new MassCancelReport().scope(MassCancelScope.SECURITY).symbol(id("VOD.L"))
                    .side(Side.SELL).cause(MassCancelCause.CLIENT_REQUEST).affectedOrders(3);
            report.gatewayId(1).session(id("CLIENT1")).clOrdId(id("MC")).rejectReason(RejectReason.NONE);
            client.logon("secret1");
            client.expect("A");
            massCancelRoundTrips(client, engine, report, WARM_UP);
            final long before = gateway.allocatedBytes();
            massCancelRoundTrips(client, engine, report, MEASURED);
            final long allocated = gateway.allocatedBytes() - before;
            System.out.println("gateway I/O thread allocated " + allocated + " bytes over " + MEASURED
                    + " mass cancel request/report round trips");
            assertTrue(allocated < 16L * MEASURED, "bytes allocated by the I/O thread over " + MEASURED
                    + " mass cancels and reports: " + allocated);
        }
    }

    private static void massCancelRoundTrips(final TestFixClient client, final EngineToGateway engine,
                                             final MassCancelReport report, final int count) throws Exception {
        for (int i = 0; i < count; i++) {
            client.send(MsgTypes.ORDER_MASS_CANCEL_REQUEST, request -> request.textField(FixTags.CL_ORD_ID, "MC")
                    .charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '1').textField(FixTags.SYMBOL, "VOD.L")
                    .charField(FixTags.SIDE, '2').timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis()));
            report.orderId(i + 1);
            engine.massCancelReport(report);
            assertEquals(Integer.toString(i + 1), client.expect("r").get(FixTags.ORDER_ID));
        }
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

    @Test
    void overTlsTheIoThreadAllocatesOnlyInsideTheJdksTls() throws Exception {
        exchangeOverTls(GatewayReplication.NONE);
    }

    /**
     * The same over TLS with {@code replication: acknowledged}: every message is held in plaintext until the shipper's
     * counter covers its journal record, then wrapped and written by the gate's release ({@code releaseHeld}). The test
     * plays the shipper: it acknowledges each {@code sent} record as it appears, through the shipper's real counters
     * file, so every report is held first and released by the gate's counter moving.
     */
    @Test
    void overTlsInAcknowledgedReplicationTheIoThreadAllocatesOnlyInsideTheJdksTls() throws Exception {
        exchangeOverTls(GatewayReplication.ACKNOWLEDGED);
    }

    private void exchangeOverTls(final GatewayReplication replication) throws Exception {
        final KeytoolCertificates keys = new KeytoolCertificates(Files.createDirectories(root.resolve("keys")), "gatepass");
        final KeytoolCertificates.Party gatewayKey = keys.party("gateway", "CN=localhost");
        final Path trust = keys.trustStore("client-trust", gatewayKey);
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tls://127.0.0.1:0")
                .tls(new TlsConfig().keyStore(gatewayKey.keyStore(), "gatepass")).replication(replication)
                .idle(IdleConfig.of("yield")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        final KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(trust)) {
            trusted.load(in, "gatepass".toCharArray());
        }
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        final SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, trustManagers.getTrustManagers(), null);
        System.setProperty(TlsLayer.COUNT_JDK_ALLOCATION, "true");
        try (CountersFile shipper = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS);
             RunningGateway gateway = new RunningGateway(config);
             ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             ChronicleQueue records = Journals.open(Journals.gatewayDeliveries(root, 1));
             TestFixClient client = TestFixClient.tls((InetSocketAddress) gateway.address(), context, "CLIENT1", 1)) {
            final AtomicCounter acknowledged = shipper.gauge(AcknowledgedIndexReader.label(
                    Journals.gatewayDeliveries(root, 1).getFileName().toString()));
            final Runnable afterReport = replication == GatewayReplication.ACKNOWLEDGED
                    ? acknowledgingEachSentRecord(records.createTailer(), acknowledged) : () -> { };
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
            final ExecutionReport report = EventFixtures.executionReport();
            report.gatewayId(1).session(id("CLIENT1"));
            client.logon("secret1");
            afterReport.run();
            client.expect("A");
            roundTrips(client, engine, report, WARM_UP, afterReport);
            final long before = gateway.allocatedBytes();
            final long jdkBefore = TlsLayer.jdkAllocatedBytes();
            roundTrips(client, engine, report, MEASURED, afterReport);
            final long allocated = gateway.allocatedBytes() - before;
            final long insideJdk = TlsLayer.jdkAllocatedBytes() - jdkBefore;
            System.out.printf("gateway I/O thread over TLS 1.3, replication %s: %,d bytes over %,d order/report round"
                    + " trips, %,d of them inside the JDK's SSLEngine wrap and unwrap (%,.0f per round trip), %,d outside"
                    + " it%n", replication, allocated, MEASURED, insideJdk, insideJdk / (double) MEASURED,
                    allocated - insideJdk);
            assertTrue(insideJdk > 0, "the JDK's TLS allocates per record, and the count sees it");
            assertTrue(allocated - insideJdk < 16L * MEASURED, "bytes the I/O thread allocated over " + MEASURED
                    + " orders and reports outside the JDK's TLS: " + (allocated - insideJdk));
        } finally {
            System.clearProperty(TlsLayer.COUNT_JDK_ALLOCATION);
        }
    }

    /**
     * @return what the shipper does, once per message the gateway sends: waits (polling, with a deadline) for its
     *         {@code sent} record in gateway 1's journal, then publishes that record's index as acknowledged
     */
    private static Runnable acknowledgingEachSentRecord(final ExcerptTailer tailer,
                                                        final AtomicCounter acknowledged) {
        return () -> {
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent()) {
                        final Bytes<?> bytes = dc.wire().bytes();
                        if (bytes.readUnsignedByte() == BinaryWireCode.FIELD_NUMBER
                                && bytes.readStopBit() == RecordLayout.SENT) {
                            acknowledged.setRelease(dc.index());
                            return;
                        }
                        continue;
                    }
                }
                LockSupport.parkNanos(10_000);
            }
            throw new AssertionError("gateway 1 journaled no message as sent within 30 s");
        };
    }

    private void exchangeOrdersAndReports() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("yield")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        try (RunningGateway gateway = new RunningGateway(config);
             ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE);
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
            final ExecutionReport report = EventFixtures.executionReport();
            report.gatewayId(1).session(id("CLIENT1"));
            final AdminCommand otherGateways = new AdminCommand().action(AdminAction.DISCONNECT).gatewayId(2)
                    .session(id("CLIENT1")).user(id("tester"));
            client.logon("secret1");
            client.expect("A");
            // One command of its own, answered, before warming up: the I/O thread has read the admin journal (and
            // mapped its cycle file, which allocates) before the measured window, however fast the warm-up goes.
            admin.append(new AdminCommand().action(AdminAction.DISCONNECT).gatewayId(1).session(id("NOBODY")));
            awaitAdminAnswer(root);
            admin.append(otherGateways);
            roundTrips(client, engine, report, WARM_UP);
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

    /**
     * A drop-copy session of firm FIRMA beside the trader: each order's report goes to the trader and, copied, to the
     * drop copy, and a report of a FIRMA session on gateway 2 is copied too; the copies cost nothing per message.
     */
    @Test
    void theIoThreadAllocatesNothingPerDropCopy() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("yield")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1").firm("FIRMA"))
                .session(new SessionConfig("DROP1", "SLUICE", "secret2").dropCopy("FIRMA"));
        try (RunningGateway gateway = new RunningGateway(config);
             ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1);
             TestFixClient dropCopy = new TestFixClient(gateway.address(), "DROP1", 1)) {
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
            final ExecutionReport own = EventFixtures.executionReport();
            own.gatewayId(1).session(id("CLIENT1")).firm(id("FIRMA"));
            final ExecutionReport elsewhere = EventFixtures.executionReport();
            elsewhere.gatewayId(2).session(id("CLIENT2")).firm(id("FIRMA"));
            client.logon("secret1");
            client.expect("A");
            // it sends nothing while it receives: the longest heartbeat keeps TestRequests out of a slow run
            dropCopy.logon("secret2", FixSession.MAX_HEARTBEAT_SECONDS);
            dropCopy.expect("A");
            copiedRoundTrips(client, dropCopy, engine, own, elsewhere, WARM_UP);
            final long before = gateway.allocatedBytes();
            copiedRoundTrips(client, dropCopy, engine, own, elsewhere, MEASURED);
            final long allocated = gateway.allocatedBytes() - before;
            System.out.println("gateway I/O thread allocated " + allocated + " bytes over " + MEASURED
                    + " order/report round trips, each report copied with another gateway's to a drop copy");
            assertTrue(allocated < 16L * MEASURED, "bytes allocated by the I/O thread over " + MEASURED
                    + " orders, reports and drop copies: " + allocated);
        }
    }

    private static void copiedRoundTrips(final TestFixClient client, final TestFixClient dropCopy,
                                         final EngineToGateway engine, final ExecutionReport own,
                                         final ExecutionReport elsewhere, final int count) throws Exception {
        for (int i = 0; i < count; i++) {
            client.newOrder("ORD-" + i, "VOD.L", '1', 100, "101.25");
            own.execId(2L * i);
            engine.executionReport(own);
            elsewhere.execId(2L * i + 1);
            engine.executionReport(elsewhere);
            assertEquals(Long.toString(2L * i), client.expect("8").get(FixTags.EXEC_ID));
            assertEquals(Long.toString(2L * i), dropCopy.expect("8").get(FixTags.EXEC_ID));
            assertEquals(Long.toString(2L * i + 1), dropCopy.expect("8").get(FixTags.EXEC_ID));
        }
    }

    private static void roundTrips(final TestFixClient client, final EngineToGateway engine,
                                   final ExecutionReport report, final int count) throws Exception {
        roundTrips(client, engine, report, count, () -> { });
    }

    /** As above, running {@code afterReport} once each report is in the engine journal. */
    private static void roundTrips(final TestFixClient client, final EngineToGateway engine,
                                   final ExecutionReport report, final int count, final Runnable afterReport)
            throws Exception {
        for (int i = 0; i < count; i++) {
            client.newOrder("ORD-" + i, "VOD.L", '1', 100, "101.25");
            report.execId(i);
            engine.executionReport(report);
            afterReport.run();
            assertEquals(Integer.toString(i), client.expect("8").get(FixTags.EXEC_ID));
        }
    }

    /** Waits (polling, with a deadline) until gateway 1 has written its answer to an admin command to its own journal. */
    private static void awaitAdminAnswer(final Path root) {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        try (ChronicleQueue records = Journals.open(Journals.gatewayDeliveries(root, 1))) {
            final ExcerptTailer tailer = records.createTailer();
            while (System.nanoTime() < deadline) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent()) {
                        final Bytes<?> bytes = dc.wire().bytes();
                        if (bytes.readUnsignedByte() == BinaryWireCode.FIELD_NUMBER
                                && bytes.readStopBit() == RecordLayout.GATEWAY_ADMIN_OUTCOME) {
                            return;
                        }
                        continue;
                    }
                }
                LockSupport.parkNanos(1_000_000);
            }
        }
        throw new AssertionError("gateway 1 did not answer an admin command within 30 s");
    }
}
