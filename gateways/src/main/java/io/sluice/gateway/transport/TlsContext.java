package io.sluice.gateway.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The JDK TLS context of a gateway's TLS listen addresses, built once at start from {@link TlsSettings}. It loads both
 * PKCS12 stores and checks that every protocol and cipher suite asked for is one the JDK supports, so that a wrong
 * setting stops the start with a message naming it instead of failing each handshake. Makes one server-mode
 * {@link SSLEngine} per accepted connection, and tells the transport how large TLS records get, so it can
 * allocate the buffers they pass through once, at start.
 */
public final class TlsContext {
    private final SSLContext context;
    private final TlsSettings settings;
    private final String[] protocols;
    private final String[] cipherSuites;
    private final int packetBytes;
    private final int applicationBytes;

    /** @throws IllegalArgumentException naming the store, protocol or suite that cannot be used */
    public TlsContext(final TlsSettings settings) {
        this.settings = settings;
        try {
            final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(settings.keyStore(), settings.keyStorePassword(), "keyStore"), settings.keyStorePassword());
            TrustManager[] trust = null;
            if (settings.trustStore() != null) {
                final TrustManagerFactory trustFactory =
                        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trustFactory.init(load(settings.trustStore(), settings.trustStorePassword(), "trustStore"));
                trust = trustFactory.getTrustManagers();
            }
            context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust, null);
        } catch (final GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: cannot use key store " + settings.keyStore() + ": " + e, e);
        }
        final SSLParameters supported = context.getSupportedSSLParameters();
        protocols = supportedOrFail(settings.protocols(), supported.getProtocols(), "protocol");
        cipherSuites = supportedOrFail(settings.cipherSuites(), supported.getCipherSuites(), "cipher suite");
        final SSLEngine probe = context.createSSLEngine();
        packetBytes = probe.getSession().getPacketBufferSize();
        applicationBytes = probe.getSession().getApplicationBufferSize();
    }

    /** @return a server-mode engine for a connection from {@code peer}, its handshake not begun. */
    public SSLEngine newServerEngine(final SocketAddress peer) {
        final SSLEngine engine = peer instanceof InetSocketAddress inet
                ? context.createSSLEngine(inet.getHostString(), inet.getPort()) : context.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(protocols);
        engine.setEnabledCipherSuites(cipherSuites);
        switch (settings.clientAuth()) {
            case NEED -> engine.setNeedClientAuth(true);
            case WANT -> engine.setWantClientAuth(true);
            case NONE -> engine.setNeedClientAuth(false);
        }
        return engine;
    }

    /** @return the largest TLS record on the wire, in bytes. */
    public int packetBytes() {
        return packetBytes;
    }

    /** @return the largest plaintext one TLS record carries, in bytes. */
    public int applicationBytes() {
        return applicationBytes;
    }

    private static KeyStore load(final Path file, final char[] password, final String what) {
        try (InputStream in = Files.newInputStream(file)) {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return store;
        } catch (final IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("tls: cannot read " + what + " " + file + " as PKCS12: " + e.getMessage(), e);
        }
    }

    private static String[] supportedOrFail(final List<String> wanted, final String[] supported, final String what) {
        final List<String> known = Arrays.asList(supported);
        final List<String> unknown = new ArrayList<>();
        for (final String name : wanted) {
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty() || wanted.isEmpty()) {
            throw new IllegalArgumentException("tls: " + (wanted.isEmpty() ? "no " + what + " given"
                    : what + " " + unknown + " not supported by this JDK"));
        }
        return wanted.toArray(new String[0]);
    }
}
