package io.sluice.gateway.session;

/**
 * A check of a Logon beyond its CompIDs and credentials, made once they are right. The gateway checks the client
 * certificate a session must present over TLS. A Logon it refuses is refused like one with a wrong password (the
 * Logout every refused Logon gets, counted by the {@link LogonThrottle}).
 */
@FunctionalInterface
public interface LogonCheck {
    /** Checks nothing. */
    LogonCheck NONE = (session, connection) -> null;

    /** @return null if {@code session} may log on over {@code connection}, otherwise the real reason, for the log */
    CharSequence refusal(FixSession session, FixConnection connection);
}
