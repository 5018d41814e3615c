package io.sluice.gateway.transport;

import java.nio.file.Path;
import java.util.List;

/**
 * What the TLS listen addresses of a gateway need, resolved from its configuration. Its own key and certificate (a
 * PKCS12 key store), the certificates it trusts for client certificates (a PKCS12 trust store, or none), whether it
 * asks clients for a certificate, and the protocols and cipher suites it offers.
 *
 * @param keyStore           PKCS12 file holding the gateway's private key and certificate chain
 * @param keyStorePassword   its password (also the key's)
 * @param trustStore         PKCS12 file of trusted client certificate issuers, or null to trust none (then
 *                           {@code clientAuth} must be NONE)
 * @param trustStorePassword its password, or null
 * @param clientAuth         whether clients are asked for a certificate
 * @param protocols          enabled protocols, e.g. TLSv1.3 and TLSv1.2
 * @param cipherSuites       enabled cipher suites
 */
public record TlsSettings(Path keyStore, char[] keyStorePassword, Path trustStore, char[] trustStorePassword,
                          ClientAuth clientAuth, List<String> protocols, List<String> cipherSuites) {
    /** TLS 1.3 and 1.2: nothing older. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * AEAD ciphers with forward secrecy only: the three TLS 1.3 suites, and for TLS 1.2 ECDHE with AES-GCM or
     * ChaCha20-Poly1305 (ECDSA or RSA certificates).
     */
    public static final List<String> DEFAULT_CIPHER_SUITES = List.of(
            "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
}
