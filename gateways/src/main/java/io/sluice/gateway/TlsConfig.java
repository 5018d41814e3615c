package io.sluice.gateway;

import io.sluice.gateway.transport.ClientAuth;
import io.sluice.gateway.transport.TlsContext;
import io.sluice.gateway.transport.TlsSettings;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code tls} entry of a gateway's configuration ({@code !Tls}), used by every {@code tls://} and {@code tls+unix:}
 * listen address. The gateway's PKCS12 key store, the PKCS12 trust store client certificates must chain to, whether
 * clients are asked for a certificate ({@code clientAuth: none | want | need}), and the protocols and cipher suites
 * (defaults: {@link TlsSettings#DEFAULT_PROTOCOLS}, {@link TlsSettings#DEFAULT_CIPHER_SUITES}).
 * Each password is given either in the file ({@code keyStorePassword}) or, to keep it out of the file, as the name of
 * an environment variable that holds it ({@code keyStorePasswordEnv}); the same for the trust store.
 */
public final class TlsConfig extends SelfDescribingMarshallable {
    private String keyStore;
    private String keyStorePassword;
    private String keyStorePasswordEnv;
    private String trustStore;
    private String trustStorePassword;
    private String trustStorePasswordEnv;
    private String clientAuth = "none";
    private List<String> protocols = new ArrayList<>(TlsSettings.DEFAULT_PROTOCOLS);
    private List<String> cipherSuites = new ArrayList<>(TlsSettings.DEFAULT_CIPHER_SUITES);

    public TlsConfig keyStore(final Path file, final String password) {
        this.keyStore = file.toString();
        this.keyStorePassword = password;
        return this;
    }

    public TlsConfig keyStorePasswordEnv(final String variable) {
        this.keyStorePassword = null;
        this.keyStorePasswordEnv = variable;
        return this;
    }

    public TlsConfig trustStore(final Path file, final String password) {
        this.trustStore = file.toString();
        this.trustStorePassword = password;
        return this;
    }

    public TlsConfig clientAuth(final ClientAuth clientAuth) {
        this.clientAuth = clientAuth.name().toLowerCase(Locale.ROOT);
        return this;
    }

    /** Adds what is wrong with these settings to {@code problems}, reading passwords from {@code environment}. */
    void validate(final List<String> problems, final Map<String, String> environment) {
        final int before = problems.size();
        if (keyStore == null || keyStore.isEmpty()) {
            problems.add("tls: keyStore (a PKCS12 file) is required");
        } else if (!Files.isReadable(Path.of(keyStore))) {
            problems.add("tls: keyStore " + keyStore + " is not a readable file");
        }
        password("keyStore", keyStorePassword, keyStorePasswordEnv, environment, problems);
        if (trustStore != null && !trustStore.isEmpty()) {
            if (!Files.isReadable(Path.of(trustStore))) {
                problems.add("tls: trustStore " + trustStore + " is not a readable file");
            }
            password("trustStore", trustStorePassword, trustStorePasswordEnv, environment, problems);
        }
        final ClientAuth auth = parseClientAuth();
        if (auth == null) {
            problems.add("tls: clientAuth must be none, want or need, got '" + clientAuth + "'");
        } else if (auth != ClientAuth.NONE && (trustStore == null || trustStore.isEmpty())) {
            problems.add("tls: clientAuth " + clientAuth + " needs a trustStore to check client certificates against");
        }
        if (protocols == null || protocols.isEmpty()) {
            problems.add("tls: protocols must name at least one, e.g. [TLSv1.3, TLSv1.2]");
        }
        if (cipherSuites == null || cipherSuites.isEmpty()) {
            problems.add("tls: cipherSuites must name at least one");
        }
        if (problems.size() == before) {
            try {
                new TlsContext(settings(environment)); // opens both stores: a wrong password is a configuration problem
            } catch (final IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
    }

    /** @return the settings, passwords resolved from {@code environment}; call after {@link #validate}. */
    TlsSettings settings(final Map<String, String> environment) {
        final boolean trusted = trustStore != null && !trustStore.isEmpty();
        return new TlsSettings(Path.of(keyStore), resolve(keyStorePassword, keyStorePasswordEnv, environment),
                trusted ? Path.of(trustStore) : null,
                trusted ? resolve(trustStorePassword, trustStorePasswordEnv, environment) : null,
                parseClientAuth(), List.copyOf(protocols), List.copyOf(cipherSuites));
    }

    /** @return whether clients are asked for a certificate (want or need). */
    boolean asksForClientCertificates() {
        final ClientAuth auth = parseClientAuth();
        return auth != null && auth != ClientAuth.NONE;
    }

    private ClientAuth parseClientAuth() {
        for (final ClientAuth auth : ClientAuth.values()) {
            if (auth.name().equalsIgnoreCase(clientAuth)) {
                return auth;
            }
        }
        return null;
    }

    private static void password(final String store, final String password, final String variable,
                                 final Map<String, String> environment, final List<String> problems) {
        final boolean inFile = password != null;
        final boolean fromEnvironment = variable != null && !variable.isEmpty();
        if (inFile == fromEnvironment) {
            problems.add("tls: give either " + store + "Password or " + store + "PasswordEnv (the name of an"
                    + " environment variable holding it), not " + (inFile ? "both" : "neither"));
        } else if (fromEnvironment && environment.get(variable) == null) {
            problems.add("tls: " + store + "PasswordEnv names the environment variable " + variable
                    + ", which is not set");
        }
    }

    private static char[] resolve(final String password, final String variable, final Map<String, String> environment) {
        return (password != null ? password : environment.get(variable)).toCharArray();
    }
}
