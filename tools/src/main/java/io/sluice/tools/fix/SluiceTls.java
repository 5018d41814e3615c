package io.sluice.tools.fix;

import io.sluice.gateway.transport.KeytoolCertificates;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS keys of a deployment whose gateways listen on TLS. By default a gateway key and certificate made by keytool
 * in {@code <root>/tls} for the run ({@link KeytoolCertificates}), and the client side's TLS context, which trusts that
 * certificate and presents none. A test of client certificates makes its own, with a trust store for them.
 *
 * @param gatewayKeyStore the gateways' PKCS12 key store
 * @param password        its password (and the trust store's)
 * @param clientContext   what Sluice's own clients (load, seeder) connect with
 * @param trustStore      the gateways' PKCS12 trust store of client certificates, or null
 * @param clientAuth      the gateways' {@code clientAuth}: none, want or need
 */
public record SluiceTls(Path gatewayKeyStore, String password, SSLContext clientContext, Path trustStore,
                        String clientAuth) {
    private static final String PASSWORD = "sluice-run";

    /** Makes the keys under {@code dir}. */
    public static SluiceTls create(final Path dir) throws IOException {
        Files.createDirectories(dir);
        final KeytoolCertificates certificates = new KeytoolCertificates(dir, PASSWORD);
        final KeytoolCertificates.Party gateway = certificates.party("gateway", "CN=localhost,O=Sluice run");
        final Path clientTrust = certificates.trustStore("client-trust", gateway);
        try (InputStream in = Files.newInputStream(clientTrust)) {
            final KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(in, PASSWORD.toCharArray());
            return new SluiceTls(gateway.keyStore(), PASSWORD, clientContext(trusted), null, "none");
        } catch (final GeneralSecurityException e) {
            throw new IOException("cannot make the client's TLS context: " + e, e);
        }
    }

    /** @return a client context trusting the certificates of {@code trusted}, presenting none. */
    public static SSLContext clientContext(final KeyStore trusted) throws GeneralSecurityException {
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        final SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** @return the gateway configuration's {@code tls} entry. */
    public String gatewayYaml() {
        return trustStore == null
                ? "!Tls { keyStore: \"%s\", keyStorePassword: \"%s\" }".formatted(gatewayKeyStore, password)
                : ("!Tls { keyStore: \"%s\", keyStorePassword: \"%s\", trustStore: \"%s\", trustStorePassword: \"%s\","
                + " clientAuth: %s }").formatted(gatewayKeyStore, password, trustStore, password, clientAuth);
    }
}
