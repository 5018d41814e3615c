package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.transport.KeytoolCertificates;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.SluiceTls;
import io.sluice.tools.fix.StandardOrders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ExecType;
import quickfix.field.OrdStatus;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * QuickFIX/J over TLS: a real engine and a real gateway (child processes) whose listen address is
 * {@code tls://}, keys and certificates made by keytool for the run, and QuickFIX/J 3.0.0 as the initiator with
 * SocketUseSSL=Y and its PKCS12 key and trust stores. It logs on over TLS 1.3 and trades (ack, then fill against
 * resting liquidity); a session that requires a client certificate logs on with the right one and is refused
 * ("Logon rejected") with another client's certificate or none.
 */
class QuickFixJTlsTest {
    private static final String PASSWORD = "secret";
    private static final String STORE_PASSWORD = "storepass";

    @TempDir
    static Path dir;
    private static SluiceDeployment sluice;
    private static LiquiditySeeder liquidity;
    private static KeytoolCertificates.Party client;
    private static KeytoolCertificates.Party other;
    private static Path clientTrust;

    @BeforeAll
    static void startEngineAndTlsGateway() throws Exception {
        final KeytoolCertificates certificates = new KeytoolCertificates(Files.createDirectories(dir.resolve("keys")),
                STORE_PASSWORD);
        final KeytoolCertificates.Party gateway = certificates.party("gateway", "CN=localhost,O=Sluice test");
        client = certificates.party("client", "CN=CERTED,O=Sluice test");
        other = certificates.party("other", "CN=OTHER,O=Sluice test");
        clientTrust = certificates.trustStore("client-trust", gateway);
        final Path gatewayTrust = certificates.trustStore("gateway-trust", client, other);
        final KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(clientTrust)) {
            trusted.load(in, STORE_PASSWORD.toCharArray());
        }
        final SluiceTls tls = new SluiceTls(gateway.keyStore(), STORE_PASSWORD, SluiceTls.clientContext(trusted),
                gatewayTrust, "want");

        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final List<SessionIdentity> sessions = List.of(SessionIdentity.ofSluiceClient("PLAINTLS", PASSWORD),
                SessionIdentity.ofSluiceClient("CERTED", PASSWORD), seeder);
        sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(new SluiceDeployment.GatewaySpec(1,
                        FixTransport.TLS, sessions, Map.of("CERTED", "clientCertificateSubject: \"CN=CERTED,O=Sluice test\""))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS,
                tls);
        liquidity = StandardOrders.seeder(new FixClientSession(gateway(), seeder));
        liquidity.start(QuickFixJClient.TIMEOUT);
    }

    @AfterAll
    static void stop() throws Exception {
        if (liquidity != null) {
            liquidity.close();
        }
        if (sluice != null) {
            sluice.close();
        }
    }

    @Test
    void quickFixJLogsOnOverTlsAndTradesThroughTheEngine() throws Exception {
        try (QuickFixJClient qfj = client("PLAINTLS", null).logOn()) {
            trades(qfj, "T1");
        }
        assertTrue(sluice.gateway(1).logText().contains("TLS handshake with"), sluice.logs(3_000));
    }

    @Test
    void aSessionRequiringAClientCertificateLogsOnWithItAndIsRefusedWithAnotherOrNone() throws Exception {
        try (QuickFixJClient qfj = client("CERTED", client).logOn()) {
            trades(qfj, "C1");
        }
        for (final KeytoolCertificates.Party wrong : new KeytoolCertificates.Party[] {other, null}) {
            try (QuickFixJClient qfj = client("CERTED", wrong).start()) {
                PollUntil.await(() -> qfj.traffic().stream().anyMatch(line -> line.startsWith("<- ")),
                        QuickFixJClient.TIMEOUT, () -> "an answer to the Logon; " + qfj.trafficText());
                final String answer = qfj.traffic().stream().filter(line -> line.startsWith("<- ")).findFirst()
                        .orElseThrow();
                assertTrue(answer.contains("\u000135=5\u0001")
                        && answer.contains("\u000158=" + FixAcceptor.LOGON_REJECTED + "\u0001"), answer);
                assertEquals(0, qfj.logons());
            }
        }
        final String log = sluice.gateway(1).logText();
        assertTrue(log.contains("client certificate CN=OTHER,O=Sluice test") && log.contains("no client certificate"
                + " presented"), log);
    }

    private static void trades(final QuickFixJClient qfj, final String clOrdId) throws Exception {
        qfj.send(buy(clOrdId, 10, 100));
        qfj.await("the ack of " + clOrdId, report(clOrdId, ExecType.NEW));
        final Message fill = qfj.await("the fill of " + clOrdId, report(clOrdId, ExecType.TRADE));
        assertEquals(OrdStatus.FILLED, fill.getChar(OrdStatus.FIELD));
    }

    /** @return a QuickFIX/J initiator over TLS 1.3 presenting {@code certificate}'s key (its bundled default if null). */
    private static QuickFixJClient client(final String compId, final KeytoolCertificates.Party certificate)
            throws Exception {
        final Map<String, String> ssl = new HashMap<>();
        ssl.put("SocketUseSSL", "Y");
        ssl.put("EnabledProtocols", "TLSv1.3");
        ssl.put("SocketTrustStore", clientTrust.toString());
        ssl.put("SocketTrustStorePassword", STORE_PASSWORD);
        ssl.put("TrustStoreType", "PKCS12");
        if (certificate != null) {
            ssl.put("SocketKeyStore", certificate.keyStore().toString());
            ssl.put("SocketKeyStorePassword", STORE_PASSWORD);
            ssl.put("KeyStoreType", "PKCS12");
        }
        return new QuickFixJClient(gateway(), compId, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                dir.resolve("qfj-" + compId + "-" + (certificate == null ? "none" : certificate.subject().hashCode())),
                false, ssl);
    }

    private static FixEndpoint gateway() {
        return sluice.endpoint(1);
    }
}
