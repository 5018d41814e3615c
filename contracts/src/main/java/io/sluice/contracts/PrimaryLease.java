package io.sluice.contracts;

/**
 * Whether this primary may take orders, as the admin journal last told the engine (its lease watch, or a fenced shipper).
 * {@link AdminAction#LEASE_LAPSED}, {@link AdminAction#LEASE_REGAINED} and {@link AdminAction#FENCED} move it; kept in
 * engine snapshots. While it is not {@link #HELD} new orders and replaces are rejected, cancels are taken and resting
 * orders stay.
 */
public enum PrimaryLease {
    /** Orders are taken (subject to the kill switches, each instrument's session and halt). */
    HELD,
    /** Kafka acknowledged no write of the shipper sent within its lease: rejected {@link RejectReason#LEASE_LAPSED}. */
    LAPSED,
    /** A newer primary fenced this one: rejected {@link RejectReason#PRIMARY_FENCED}, for good. */
    FENCED;

    private static final PrimaryLease[] VALUES = values();

    /** @return the state with this ordinal, or {@code null} if out of range (as stored in a snapshot). */
    public static PrimaryLease fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
