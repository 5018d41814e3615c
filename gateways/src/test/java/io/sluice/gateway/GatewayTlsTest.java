package io.sluice.gateway;

import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.transport.ClientAuth;
import io.sluice.gateway.transport.KeytoolCertificates;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.AfterEach;
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
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real gateway with a TLS listen address (the JDK's SSLEngine on its NIO transport), real journals, and FIX clients
 * over JDK TLS sockets, with keys and certificates made by keytool for this run: logons over TLS 1.3 and 1.2, the
 * client certificate as a second factor mapped to a session's CompIDs, and failed handshakes (closed, and counted by
 * the failed-logon throttle of their source address).
 */
class GatewayTlsTest {
    private static final String PASSWORD = "changeit";

    @TempDir
    static Path keys;
    private static KeytoolCertificates certificates;
    private static KeytoolCertificates.Party gatewayParty;
    private static KeytoolCertificates.Party client1;
    private static KeytoolCertificates.Party client2;
    private static KeytoolCertificates.Party stranger;
    private static Path gatewayTrust;
    private static Path clientTrust;

    @TempDir
    Path root;
    private RunningGateway gateway;

    @BeforeAll
    static void makeKeys() throws IOException {
        certificates = new KeytoolCertificates(keys, PASSWORD);
        gatewayParty = certificates.party("gateway", "CN=localhost,O=Sluice test");
        client1 = certificates.party("client1", "CN=CLIENT1,O=Sluice test");
        client2 = certificates.party("client2", "CN=CLIENT2,O=Sluice test");
        stranger = certificates.party("stranger", "CN=STRANGER,O=Elsewhere");
        gatewayTrust = certificates.trustStore("gateway-trust", client1, client2);
        clientTrust = certificates.trustStore("client-trust", gatewayParty);
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private void start(final ClientAuth clientAuth, final SessionConfig... sessions) throws Exception {
        final TlsConfig tls = new TlsConfig().keyStore(gatewayParty.keyStore(), PASSWORD).clientAuth(clientAuth);
        if (clientAuth != ClientAuth.NONE) {
            tls.trustStore(gatewayTrust, PASSWORD);
        }
        // Blocked for a minute after 3 failures, so the test sees the block however slowly the host runs.
        final GatewayConfig config = new GatewayConfig().gatewayId(5).journalRoot(root).listen("tls://127.0.0.1:0")
                .tls(tls).logonBackoff(60_000, 60_000);
        for (final SessionConfig session : sessions) {
            config.session(session);
        }
        gateway = new RunningGateway(config);
    }

    private TestFixClient connect(final String sender, final KeytoolCertificates.Party certificate,
                                  final String protocol) throws Exception {
        return TestFixClient.tls((InetSocketAddress) gateway.address(), clientContext(certificate, protocol), sender, 1);
    }

    @Test
    void logsOnAndExchangesMessagesOverTls13AndTls12() throws Exception {
        start(ClientAuth.NONE, new SessionConfig("CLIENT1", "SLUICE", "secret1"),
                new SessionConfig("CLIENT2", "SLUICE", "secret1"));
        for (final String protocol : List.of("TLSv1.3", "TLSv1.2")) {
            try (TestFixClient client = connect(protocol.equals("TLSv1.3") ? "CLIENT1" : "CLIENT2", null, protocol)) {
                assertEquals(protocol, client.tlsProtocol());
                client.logon("secret1");
                client.expect("A");
                // A message larger than one TLS record (16 KiB) crosses record boundaries both ways.
                final String longId = "X".repeat(5_000);
                for (int i = 0; i < 5; i++) {
                    client.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, longId));
                }
                for (int i = 0; i < 5; i++) {
                    assertEquals(longId, client.expect("0").get(FixTags.TEST_REQ_ID));
                }
                client.expectNothingElse();
                client.send(MsgTypes.LOGOUT, logout -> { });
                client.expect("5");
            }
        }
    }

    @Test
    void oneGatewayServesPlainAndTlsAddressesSideBySide() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(6).journalRoot(root).listen("tcp://127.0.0.1:0")
                .alsoListen("tls://127.0.0.1:0").tls(new TlsConfig().keyStore(gatewayParty.keyStore(), PASSWORD))
                .session(new SessionConfig("PLAIN", "SLUICE", "secret1"))
                .session(new SessionConfig("SECURE", "SLUICE", "secret2"));
        gateway = new RunningGateway(config);
        try (TestFixClient plain = new TestFixClient(gateway.address(0), "PLAIN", 1);
             TestFixClient secure = TestFixClient.tls((InetSocketAddress) gateway.address(1),
                     clientContext(null, "TLSv1.3"), "SECURE", 1)) {
            plain.logon("secret1");
            plain.expect("A");
            secure.logon("secret2");
            secure.expect("A");
            plain.expectNothingElse();
            secure.expectNothingElse();
        }
    }

    @Test
    void theClientCertificateIsASecondFactorMappedToTheSessionsCompIds() throws Exception {
        start(ClientAuth.WANT,
                new SessionConfig("CLIENT1", "SLUICE", "secret1").clientCertificateSubject("CN=CLIENT1, O=Sluice test"),
                new SessionConfig("CLIENT2", "SLUICE", "secret2").clientCertificateSha256(client2.sha256()),
                new SessionConfig("CLIENT3", "SLUICE", "secret3"));
        try (TestFixClient client = connect("CLIENT1", client1, "TLSv1.3")) {
            client.logon("secret1");
            client.expect("A");
        }
        // CLIENT2's certificate (trusted, but another session's) does not log on CLIENT1, nor does none at all.
        for (final KeytoolCertificates.Party wrong : new KeytoolCertificates.Party[] {client2, null}) {
            try (TestFixClient client = connect("CLIENT1", wrong, "TLSv1.3")) {
                client.logon("secret1");
                assertEquals(FixAcceptor.LOGON_REJECTED, client.expect("5").get(FixTags.TEXT));
                client.expectClosed();
            }
        }
        try (TestFixClient client = connect("CLIENT2", client2, "TLSv1.2")) {
            client.logon("secret2");
            client.expect("A");
        }
        try (TestFixClient client = connect("CLIENT2", client1, "TLSv1.2")) {
            client.logon("secret2");
            assertEquals(FixAcceptor.LOGON_REJECTED, client.expect("5").get(FixTags.TEXT));
        }
        // A session without a configured certificate logs on with any or none.
        try (TestFixClient client = connect("CLIENT3", null, "TLSv1.3")) {
            client.logon("secret3");
            client.expect("A");
        }
    }

    @Test
    void aFailedHandshakeClosesTheConnectionAndCountsForTheAddressThrottle() throws Exception {
        start(ClientAuth.NEED, new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        // A certificate the trust store does not hold, and no certificate at all: the handshake fails.
        assertThrows(IOException.class, () -> {
            try (TestFixClient client = connect("CLIENT1", stranger, "TLSv1.2")) {
                client.logon("secret1");
                client.expect("A");
            }
        });
        // Plain FIX sent to a TLS address is not a ClientHello: closed without a reply.
        try (TestFixClient plain = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            plain.logon("secret1");
            plain.expectClosed();
        }
        assertThrows(IOException.class, () -> {
            try (TestFixClient client = connect("CLIENT1", null, "TLSv1.2")) {
                client.logon("secret1");
                client.expect("A");
            }
        });
        // Three failures from 127.0.0.1 (logonFailuresAllowed): the right certificate and password are refused now.
        try (TestFixClient client = connect("CLIENT1", client1, "TLSv1.3")) {
            client.logon("secret1");
            assertEquals(FixAcceptor.LOGON_REJECTED, client.expect("5").get(FixTags.TEXT));
        }
    }

    @Test
    void passwordsComeFromTheFileOrAnEnvironmentVariableAndBadSettingsAreNamed() {
        final GatewayConfig fromEnvironment = new GatewayConfig().journalRoot(root).listen("tls://127.0.0.1:0")
                .tls(new TlsConfig().keyStore(gatewayParty.keyStore(), null).keyStorePasswordEnv("SLUICE_TLS_PASSWORD"))
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        fromEnvironment.validate(Map.of("SLUICE_TLS_PASSWORD", PASSWORD));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fromEnvironment.validate(Map.of()))
                .getMessage().contains("SLUICE_TLS_PASSWORD, which is not set"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> fromEnvironment.validate(Map.of("SLUICE_TLS_PASSWORD", "wrong"))).getMessage()
                .contains("cannot read keyStore " + gatewayParty.keyStore()));
        final GatewayConfig noTls = new GatewayConfig().journalRoot(root).listen("tcp://127.0.0.1:0")
                .alsoListen("tls://127.0.0.1:0").session(new SessionConfig("CLIENT1", "SLUICE", "secret1")
                        .clientCertificateSubject("CN=CLIENT1"));
        final String problems = assertThrows(IllegalArgumentException.class, () -> noTls.validate(Map.of())).getMessage();
        assertTrue(problems.contains("needs the tls settings"), problems);
        assertTrue(problems.contains("tls.clientAuth does not ask clients for one"), problems);
    }

    /** @return a client TLS context trusting the gateway, presenting {@code certificate} (none if null). */
    private static SSLContext clientContext(final KeytoolCertificates.Party certificate, final String protocol)
            throws Exception {
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(clientTrust));
        KeyManagerFactory keyManagers = null;
        if (certificate != null) {
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(load(certificate.keyStore()), PASSWORD.toCharArray());
        }
        // A TLSv1.2 context offers 1.2 at most; a TLSv1.3 one offers 1.3 first.
        final SSLContext context = SSLContext.getInstance(protocol);
        context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(final Path file) throws Exception {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }
}
