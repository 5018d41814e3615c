package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.transport.KeytoolCertificates;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.testkit.fix.TestFixClient;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gateway in {@code replication: acknowledged} on a TLS address: the gate holds the plaintext before the SSLEngine
 * wraps it, so no TLS record carries a byte Kafka has not acknowledged. A real gateway, real journals, a JDK TLS 1.3
 * client socket, and the shipper's counters file: the real memory-mapped file and gauge a shipper publishes
 * ({@link AcknowledgedIndexReader}), written by the test in the shipper's place so that it decides exactly how far
 * "Kafka" has acknowledged the gateway's journal (bench's {@code AcknowledgedReplicationTest} runs a real shipper and
 * broker). Each "nothing arrives" is checked once the held message's {@code sent} record is journaled (the gateway
 * queues and flushes a message right after journaling it), or once the message before it arrived.
 */
class AcknowledgedTlsTest {
    private static final String PASSWORD = "changeit";
    private static final int GATEWAY = 7;
    /** How long the client listens to show that a held message does not arrive. */
    private static final long SILENCE_MILLIS = 500;

    @TempDir
    static Path keys;
    private static KeytoolCertificates.Party gatewayParty;
    private static SSLContext clientContext;

    @TempDir
    Path root;

    @BeforeAll
    static void makeKeys() throws Exception {
        final KeytoolCertificates certificates = new KeytoolCertificates(keys, PASSWORD);
        gatewayParty = certificates.party("gateway", "CN=localhost,O=Sluice test");
        final KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificates.trustStore("client-trust", gatewayParty))) {
            trusted.load(in, PASSWORD.toCharArray());
        }
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        clientContext = SSLContext.getInstance("TLSv1.3");
        clientContext.init(null, trust.getTrustManagers(), null);
    }

    @Test
    void nothingReachesTheTlsClientBeforeKafkaAcknowledgedItsRecordThenExactlyWhatIsAcknowledged() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(GATEWAY).journalRoot(root)
                .listen("tls://127.0.0.1:0").tls(new TlsConfig().keyStore(gatewayParty.keyStore(), PASSWORD))
                .replication(GatewayReplication.ACKNOWLEDGED).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        try (RunningGateway gateway = new RunningGateway(config);
             // The handshake completes: its records carry no FIX message and are never held.
             TestFixClient client = TestFixClient.tls((InetSocketAddress) gateway.address(), clientContext,
                     "CLIENT1", 1)) {
            client.logon("secret1");
            final long logonAnswer = awaitSent(1).get(0);
            client.expectSilenceFor(SILENCE_MILLIS); // no shipper at all: not even the Logon's answer

            try (CountersFile shipper = CountersFile.create(root, AcknowledgedIndexReader.SHIPPER_PROCESS)) {
                final AtomicCounter acknowledged = shipper.gauge(AcknowledgedIndexReader.label(
                        Journals.gatewayDeliveries(root, GATEWAY).getFileName().toString()));
                acknowledged.setRelease(logonAnswer);
                client.expect("A");

                // Three messages larger together than one TLS record (16 KiB of plaintext), queued while held:
                // released one stamp at a time, each flush wraps only what is released.
                final String[] ids = new String[3];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = i + "X".repeat(6_000);
                    final String id = ids[i];
                    client.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, id));
                }
                final List<Long> sent = awaitSent(4);
                client.expectSilenceFor(SILENCE_MILLIS);
                acknowledged.setRelease(sent.get(2));
                assertEquals(ids[0], client.expect("0").get(FixTags.TEST_REQ_ID));
                assertEquals(ids[1], client.expect("0").get(FixTags.TEST_REQ_ID));
                client.expectSilenceFor(SILENCE_MILLIS); // the third heartbeat's record is not acknowledged yet
                acknowledged.setRelease(sent.get(3));
                assertEquals(ids[2], client.expect("0").get(FixTags.TEST_REQ_ID));

                // A Logout answered while held: the gateway lingers with it, sends it once released, then closes.
                client.send(MsgTypes.LOGOUT, logout -> { });
                final long logoutAnswer = awaitSent(5).get(4);
                client.expectSilenceFor(SILENCE_MILLIS);
                acknowledged.setRelease(logoutAnswer);
                client.expect("5");
                client.expectClosed();
            }
        }
    }

    /** @return the indexes of the gateway's {@code sent} records, once there are {@code count} of them */
    private List<Long> awaitSent(final int count) throws IOException {
        JournalProbe.await(count + " messages journaled as sent",
                () -> JournalProbe.sentIndexes(root, GATEWAY).size() >= count);
        final List<Long> sent = JournalProbe.sentIndexes(root, GATEWAY);
        assertEquals(count, sent.size(), () -> "messages journaled as sent: " + sent);
        return sent;
    }
}
