package io.sluice.gateway.session;

/**
 * What an operator wants to see in the log: sessions logging on and off (with the reason) and connections
 * refused before a Logon succeeded. Called on the I/O thread at these rare moments only, never per message.
 */
public interface SessionEvents {
    /** Does nothing: for tests and embedded use. */
    SessionEvents NONE = new SessionEvents() {
    };

    default void onLogon(final FixSession session, final long nextSenderSeq, final long nextTargetSeq) {
    }

    /** @param reason why, or null for an orderly Logout the client asked for */
    default void onDisconnect(final FixSession session, final CharSequence reason) {
    }

    /** A connection was refused (garbled bytes, no Logon, unknown CompID, bad credentials...). */
    default void onRefused(final CharSequence reason) {
    }
}
