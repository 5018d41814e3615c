package io.sluice.gateway.session;

/**
 * Where a FIX session stands. An acceptor session is {@link #DISCONNECTED} until a valid Logon binds a
 * connection to it; {@link #ACTIVE} while messages flow in sequence; {@link #RESEND_REQUESTED} after it
 * saw a MsgSeqNum above the expected one and asked the client to resend the gap; {@link #LOGOUT_SENT}
 * after it sent a Logout and waits for the client's Logout (or a timeout) before closing.
 */
public enum FixSessionState {
    DISCONNECTED,
    ACTIVE,
    RESEND_REQUESTED,
    LOGOUT_SENT
}
