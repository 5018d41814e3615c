package io.sluice.gateway.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throwaway TLS keys and certificates for tests and benchmarks, made with the JDK's own {@code keytool}. It runs as a
 * child process from {@code java.home} in a directory of the caller's: self-signed EC P-256 certificates valid for two
 * days, each party's key in a PKCS12 key store, and PKCS12 trust stores holding the certificates a party trusts.
 * Nothing private is ever committed, and no library beyond the JDK is needed. Every store has the one password given.
 */
public final class KeytoolCertificates {
    private static final long KEYTOOL_TIMEOUT_SECONDS = 120;

    private final Path dir;
    private final String password;

    /**
     * One party's key and certificate.
     *
     * @param keyStore    PKCS12 key store holding its private key and self-signed certificate
     * @param certificate its certificate (DER), for trust stores
     * @param subject     the certificate's subject, e.g. {@code CN=CLIENT1,O=Sluice test}
     */
    public record Party(Path keyStore, Path certificate, String subject) {
        /** @return the certificate's SHA-256 fingerprint, lower-case hex without colons. */
        public String sha256() {
            try (InputStream in = Files.newInputStream(certificate)) {
                final X509Certificate x509 = (X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(in);
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(x509.getEncoded()));
            } catch (final IOException | GeneralSecurityException e) {
                throw new IllegalStateException("cannot read " + certificate + ": " + e, e);
            }
        }
    }

    public KeytoolCertificates(final Path dir, final String password) {
        this.dir = dir;
        this.password = password;
    }

    public String password() {
        return password;
    }

    /**
     * Makes a key pair and self-signed certificate for {@code name}, valid for localhost and 127.0.0.1.
     *
     * @param subject the certificate's distinguished name
     */
    public Party party(final String name, final String subject) throws IOException {
        final Path keyStore = dir.resolve(name + ".p12");
        final Path certificate = dir.resolve(name + ".cer");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", subject,
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", password, "-keypass", password);
        keytool("-exportcert", "-alias", name, "-keystore", keyStore.toString(), "-storepass", password,
                "-file", certificate.toString());
        return new Party(keyStore, certificate, subject);
    }

    /** @return a PKCS12 trust store named {@code name} holding the certificates of {@code trusted}. */
    public Path trustStore(final String name, final Party... trusted) throws IOException {
        final Path store = dir.resolve(name + ".p12");
        for (final Party party : trusted) {
            keytool("-importcert", "-noprompt", "-alias", party.keyStore().getFileName().toString(),
                    "-file", party.certificate().toString(), "-storetype", "PKCS12", "-keystore", store.toString(),
                    "-storepass", password);
        }
        return store;
    }

    private static void keytool(final String... arguments) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s: " + command);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for keytool", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + arguments[0] + " failed (exit " + process.exitValue() + "): " + output);
        }
    }
}
