package io.sluice.gateway;

import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.LogonCheck;
import org.agrona.collections.Long2ObjectHashMap;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import javax.security.auth.x500.X500Principal;

/**
 * The client certificate as a second factor beside the password: a session configured with a certificate subject or
 * fingerprint ({@link SessionConfig#clientCertificateSubject()}, {@link SessionConfig#clientCertificateSha256()})
 * logs on only over a TLS connection whose client presented that certificate (the handshake has already checked it
 * chains to the trust store). A Logon without it, or with another client's, is refused like a wrong password; the
 * log says which certificate was presented. Sessions without either setting log on with any certificate, or none.
 * Checked once per Logon, never per message.
 */
final class ClientCertificates implements LogonCheck {
    private final Long2ObjectHashMap<Expected> bySession = new Long2ObjectHashMap<>();

    ClientCertificates(final List<SessionConfig> sessions) {
        for (final SessionConfig session : sessions) {
            final Expected expected = Expected.of(session);
            if (expected != null) {
                bySession.put(ShortText.parse(session.senderCompId()), expected);
            }
        }
    }

    /** @return the check, or {@link LogonCheck#NONE} if no session requires a certificate. */
    static LogonCheck of(final List<SessionConfig> sessions) {
        final ClientCertificates certificates = new ClientCertificates(sessions);
        return certificates.bySession.isEmpty() ? LogonCheck.NONE : certificates;
    }

    @Override
    public CharSequence refusal(final FixSession session, final FixConnection connection) {
        final Expected expected = bySession.get(session.id());
        if (expected == null) {
            return null;
        }
        final X509Certificate presented = connection.peerCertificate();
        if (presented == null) {
            return "no client certificate presented; the session requires " + expected;
        }
        if (expected.matches(presented)) {
            return null;
        }
        return "client certificate " + presented.getSubjectX500Principal().getName() + " (SHA-256 "
                + HexFormat.of().formatHex(sha256(presented)) + ") is not the session's: it requires " + expected;
    }

    /**
     * The certificate one session requires, by subject or by fingerprint.
     *
     * @param subject the subject's distinguished name, or null
     * @param sha256  the SHA-256 of the certificate's DER encoding, or null
     */
    record Expected(X500Principal subject, byte[] sha256) {
        /** @return what {@code session} requires, or null if nothing; @throws IllegalArgumentException if unreadable */
        static Expected of(final SessionConfig session) {
            if (session.clientCertificateSubject() != null) {
                try {
                    return new Expected(new X500Principal(session.clientCertificateSubject()), null);
                } catch (final IllegalArgumentException e) {
                    throw new IllegalArgumentException("clientCertificateSubject '" + session.clientCertificateSubject()
                            + "' is not a distinguished name such as CN=CLIENT1,O=Acme: " + e.getMessage());
                }
            }
            if (session.clientCertificateSha256() != null) {
                final String hex = session.clientCertificateSha256().replace(":", "");
                try {
                    final byte[] fingerprint = HexFormat.of().parseHex(hex);
                    if (fingerprint.length == 32) {
                        return new Expected(null, fingerprint);
                    }
                } catch (final IllegalArgumentException e) {
                    // reported below
                }
                throw new IllegalArgumentException("clientCertificateSha256 must be 32 bytes in hex (colons allowed),"
                        + " as keytool -list -v prints it, got '" + session.clientCertificateSha256() + "'");
            }
            return null;
        }

        boolean matches(final X509Certificate certificate) {
            return subject != null ? subject.equals(certificate.getSubjectX500Principal())
                    : MessageDigest.isEqual(sha256, ClientCertificates.sha256(certificate));
        }

        @Override
        public String toString() {
            return subject != null ? "subject " + subject.getName() : "SHA-256 " + HexFormat.of().formatHex(sha256);
        }
    }

    private static byte[] sha256(final X509Certificate certificate) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
        } catch (final NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
