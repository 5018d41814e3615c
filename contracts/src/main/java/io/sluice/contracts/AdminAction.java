package io.sluice.contracts;

/**
 * What an {@link AdminCommand} asks for, and who acts on it. The engine acts on orders, instruments, the kill switch
 * and the trading session; the gateway that hosts the named session on its connection and sequence numbers. Both read
 * every admin command; the one that does not act on it passes it over ({@link AdminResult#PASSED_TO_GATEWAY}).
 */
public enum AdminAction {
    /** Cancel every resting order of one session (gateway and session named). */
    CANCEL_SESSION(Actor.ENGINE),
    /** Cancel every resting order of one instrument (symbol named), whoever owns it. */
    CANCEL_INSTRUMENT(Actor.ENGINE),
    /** Cancel every resting order. */
    CANCEL_ALL(Actor.ENGINE),
    /** Cancel every resting order and reject new orders until {@link #KILL_SWITCH_OFF}. */
    KILL_SWITCH_ON(Actor.ENGINE),
    /** Accept new orders again after {@link #KILL_SWITCH_ON}. */
    KILL_SWITCH_OFF(Actor.ENGINE),
    /** Halt one instrument: new orders and replaces are rejected, cancels accepted, resting orders stay. */
    HALT(Actor.ENGINE),
    /** Resume a halted instrument. */
    RESUME(Actor.ENGINE),
    /** Open the trading session of one instrument (symbol named) or of all (symbol 0). */
    OPEN_TRADING(Actor.ENGINE),
    /** Close the trading session of one instrument or of all: resting DAY orders expire, new orders are rejected. */
    CLOSE_TRADING(Actor.ENGINE),
    /** Disconnect one FIX session, with a Logout carrying the command's reason. */
    DISCONNECT(Actor.GATEWAY),
    /** Set one FIX session's next sequence numbers (in and out). */
    SET_SEQUENCE(Actor.GATEWAY),
    /** Cancel every resting order of one firm (firm named) and reject its new orders and replaces until FIRM_KILL_SWITCH_OFF. */
    FIRM_KILL_SWITCH_ON(Actor.ENGINE),
    /** Accept one firm's orders again, after FIRM_KILL_SWITCH_ON or a kill switch its limits tripped. */
    FIRM_KILL_SWITCH_OFF(Actor.ENGINE),
    /** Cancel every resting order of one session (gateway and session named) and reject its new orders until off. */
    SESSION_KILL_SWITCH_ON(Actor.ENGINE),
    /** Accept one session's orders again after SESSION_KILL_SWITCH_ON. */
    SESSION_KILL_SWITCH_OFF(Actor.ENGINE),
    /** Set one limit of one firm (firm, limit and value named; {@link FirmLimit#NONE} lifts it). */
    SET_FIRM_LIMIT(Actor.ENGINE),
    /**
     * The primary's lease lapsed (Kafka acknowledged no write of its shipper sent within the lease): reject new orders
     * and replaces until {@link #LEASE_REGAINED}, resting orders staying ({@link PrimaryLease#LAPSED}). Appended by the
     * engine process's lease watch.
     */
    LEASE_LAPSED(Actor.ENGINE),
    /**
     * Kafka acknowledged a write of the shipper sent after the lapse, and it was not fenced: accept orders again.
     * Appended by the engine process's lease watch.
     */
    LEASE_REGAINED(Actor.ENGINE),
    /**
     * A newer primary fenced this one's shipper: reject new orders and replaces for good ({@link PrimaryLease#FENCED}),
     * resting orders staying. Appended by the fenced shipper as it stops.
     */
    FENCED(Actor.ENGINE);

    /** Which process acts on an action. */
    public enum Actor {
        ENGINE,
        GATEWAY
    }

    private static final AdminAction[] VALUES = values();

    private final Actor actor;

    AdminAction(final Actor actor) {
        this.actor = actor;
    }

    /** @return the process that carries the action out and answers it. */
    public Actor actor() {
        return actor;
    }

    /** @return the action with this ordinal, or {@code null} if out of range (as stored in the journal). */
    public static AdminAction fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
