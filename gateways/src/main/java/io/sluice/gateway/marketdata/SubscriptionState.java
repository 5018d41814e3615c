package io.sluice.gateway.marketdata;

/** Where one market-data subscription slot stands. */
public enum SubscriptionState {
    /** Not in use. */
    FREE,
    /** Its client has its book: every incremental goes out as it comes. */
    LIVE,
    /**
     * Its client has the best levels of its book, from a snapshot that could not hold them all: incrementals go out
     * for the levels it holds, and the deeper levels follow, as incrementals that add them, while its socket has room.
     */
    FILLING,
    /**
     * Its client's socket was too far behind to take an incremental: incrementals are dropped (conflated) and, once
     * the socket has room again, a snapshot of the latest book replaces them; behind (or filling) too long, the session
     * is logged out.
     */
    BEHIND
}
