package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixError;

import java.net.SocketAddress;

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

    /**
     * A garbled message of a logged-on session was ignored (no MsgSeqNum consumed, the session kept): a bad
     * CheckSum or BodyLength, or first fields other than BeginString, BodyLength and MsgType.
     *
     * @param skipped how many bytes were dropped to find the next message
     */
    default void onGarbled(final FixSession session, final FixError why, final int skipped) {
    }

    /**
     * A connection was refused before a Logon succeeded (garbled bytes, no Logon, unknown CompID, bad
     * credentials, throttled...). The client was told less (every refused Logon gets the same text).
     *
     * @param from         the client's address, or null if unknown
     * @param senderCompId the SenderCompID the client gave, or empty
     * @param reason       the real reason
     */
    default void onRefused(final SocketAddress from, final CharSequence senderCompId, final CharSequence reason) {
    }
}
