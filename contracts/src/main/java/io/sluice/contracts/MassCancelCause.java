package io.sluice.contracts;

/**
 * Why a session's orders are mass canceled. Only a {@link #CLIENT_REQUEST} is answered to the client with an
 * OrderMassCancelReport (35=r); the others are the gateway acting for an absent client (cancel-on-disconnect), whose
 * individual cancel reports wait for its next logon.
 */
public enum MassCancelCause {
    /** The client sent an OrderMassCancelRequest (35=q). */
    CLIENT_REQUEST,
    /** Cancel-on-disconnect: the session's connection dropped and its grace period ran out. */
    DISCONNECT,
    /** Cancel-on-disconnect: the session logged out and its grace period ran out. */
    LOGOUT;

    private static final MassCancelCause[] VALUES = values();

    /** @return the cause with this ordinal, or {@code null} if out of range (as stored in the journal). */
    public static MassCancelCause fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
