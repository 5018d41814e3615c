package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.bench.replication.ReplicationProcesses;
import io.sluice.kafka.KafkaCluster;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import quickfix.field.ExecType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway in {@code replication: acknowledged}, a real engine and gateway, a real Kafka broker and shipper, all
 * child processes, and QuickFIX/J as the client: with no shipper, nothing at all reaches the client (not even the
 * answer to its Logon) and the gateway says why; once a shipper runs, everything flows; with the shipper killed, a
 * report waits (and the gateway says so) until a new shipper has Kafka acknowledge its journal record. The same over
 * plain TCP and over TLS 1.3 (QuickFIX/J's SocketUseSSL against a {@code tls://} gateway address), where the gate holds
 * the plaintext before the gateway's SSLEngine wraps it.
 */
class AcknowledgedReplicationTest {
    private static final String PASSWORD = "secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = FixTransport.class, names = {"TCP", "TLS"})
    void nothingReachesTheClientUntilKafkaAcknowledgedItsRecord(final FixTransport transport) throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment sluice = SluiceDeployment.prepare(dir.resolve("sluice"),
                    List.of(new SluiceDeployment.GatewaySpec(1, transport,
                            List.of(SessionIdentity.ofSluiceClient("ACKD", PASSWORD)))),
                    SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(),
                    SluiceDeployment.JournalDisk.DEFAULTS).gatewayReplication("acknowledged");
            // Over TLS: the deployment's keys (made under <root>/tls), the client trusting its gateway certificate.
            final Map<String, String> tls = transport != FixTransport.TLS ? Map.of() : Map.of("SocketUseSSL", "Y",
                    "EnabledProtocols", "TLSv1.3", "SocketTrustStore", sluice.tls().gatewayKeyStore().getParent()
                            .resolve("client-trust.p12").toString(), "SocketTrustStorePassword", sluice.tls().password(),
                    "TrustStoreType", "PKCS12");
            try (QuickFixJClient client = new QuickFixJClient(sluice.endpoint(1), "ACKD",
                    SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"), false, tls)) {
                sluice.startGateway(1);
                sluice.launchEngine();
                client.start();
                PollUntil.await(() -> sluice.gateway(1).logText().contains("holding every outgoing message"), TIMEOUT,
                        () -> "the gateway to say it holds the Logon's answer; " + sluice.logs(3000));
                assertTrue(sluice.gateway(1).logText().contains("no shipper counters file "), sluice.logs(3000));
                assertFalse(client.isLoggedOn(), client.trafficText());
                assertTrue(client.traffic().stream().noneMatch(line -> line.startsWith("<- ")),
                        "nothing reached the client; " + client.trafficText());
                if (transport == FixTransport.TLS) {
                    assertTrue(sluice.gateway(1).logText().contains("TLS handshake with"), sluice.logs(3000));
                }

                final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper-1", "ackd", sluice.journals(),
                        kafka.bootstrapServers());
                client.awaitLoggedOn();
                client.send(buy("A1", 10, 100));
                client.await("the order to be acknowledged", report("A1", ExecType.NEW));

                shipper.kill9(); // its counters stay where Kafka last acknowledged
                client.send(buy("A2", 10, 100));
                PollUntil.await(() -> sluice.gateway(1).logText().contains("held for over a second"), TIMEOUT,
                        () -> "the gateway to say it holds a message; " + sluice.logs(3000));
                assertTrue(client.applicationMessages().stream().noneMatch(report("A2", ExecType.NEW)),
                        "the report waits for Kafka; " + client.trafficText());

                try (JavaProcess again = ReplicationProcesses.ship(dir, "shipper-2", "ackd", sluice.journals(),
                        kafka.bootstrapServers())) {
                    client.await("the order to be acknowledged once Kafka has its record",
                            report("A2", ExecType.NEW));
                    PollUntil.await(() -> sluice.gateway(1).logText().contains("acknowledges gateway-1-out again"),
                            TIMEOUT, () -> "the gateway to say it follows again; " + sluice.logs(3000));
                    assertTrue(again.isAlive(), again.logText());
                }
            } finally {
                sluice.close();
            }
        }
    }
}
