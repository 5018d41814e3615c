package io.sluice.gateway.session;

/**
 * Slows down password guessing from an address without letting it lock a CompID's owner out from another.
 * <p>
 * Failed logons (an unknown CompID, a wrong TargetCompID, Username, Password or client certificate) are counted per
 * (SenderCompID, source address) and per source address. After {@code failuresAllowed} failures in a row, logons for
 * that CompID from that address, or every logon from that address, are refused, even with the right password, for a
 * time that doubles with each further failure, from {@code backoffMillis} up to {@code maxBackoffMillis}. Failures
 * from one address never block a CompID for another address, so whoever knows a CompID cannot keep its owner out. An
 * unknown CompID is counted exactly as a configured one (its text is the key), so what gets blocked tells nothing about
 * which CompIDs exist. Logons refused while blocked are not counted, so the back-off ends on time however hard an
 * attacker keeps trying. A successful logon clears the counts of its CompID from its address and of its address. Both
 * tables are fixed in size ({@link BackoffTable}) and used on the I/O thread without allocating; time comes from the
 * gateway's clock.
 */
public final class LogonThrottle {
    /** How many (CompID, address) pairs, and how many addresses, the throttle remembers at once. */
    public static final int SLOTS = 4096;
    /** The CompID half of the key under which failures from an address are counted whatever the CompID. */
    private static final long ANY_COMP_ID = 0;

    /** What blocks a logon now, if anything; {@link #reason()} is for the log only, never for the client. */
    public enum Block {
        NONE(null),
        COMP_ID_FROM_ADDRESS("blocked after repeated failed logons for this CompID from this address"),
        ADDRESS("blocked after repeated failed logons from this address");

        private final String reason;

        Block(final String reason) {
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    private final BackoffTable byCompIdAndAddress;
    private final BackoffTable byAddress;

    /**
     * @param failuresAllowed  failed logons in a row before a CompID from an address, or an address, is blocked
     * @param backoffMillis    the first block
     * @param maxBackoffMillis the longest block
     */
    public LogonThrottle(final int failuresAllowed, final long backoffMillis, final long maxBackoffMillis) {
        byCompIdAndAddress = new BackoffTable(SLOTS, failuresAllowed, backoffMillis, maxBackoffMillis);
        byAddress = new BackoffTable(SLOTS, failuresAllowed, backoffMillis, maxBackoffMillis);
    }

    /**
     * @param compId the Logon's SenderCompID as a ShortText long, configured or not
     * @return what refuses a logon for {@code compId} from {@code address} now, or {@link Block#NONE}
     */
    public Block block(final long compId, final long address, final long nowMillis) {
        if (byAddress.isBlocked(ANY_COMP_ID, address, nowMillis)) {
            return Block.ADDRESS;
        }
        return byCompIdAndAddress.isBlocked(compId, address, nowMillis) ? Block.COMP_ID_FROM_ADDRESS : Block.NONE;
    }

    /** A Logon for {@code compId} (configured or not) from {@code address} failed. */
    public void failed(final long compId, final long address, final long nowMillis) {
        byCompIdAndAddress.failed(compId, address, nowMillis);
        byAddress.failed(ANY_COMP_ID, address, nowMillis);
    }

    /** A connection from {@code address} failed before it named any CompID (its TLS handshake failed). */
    public void failed(final long address, final long nowMillis) {
        byAddress.failed(ANY_COMP_ID, address, nowMillis);
    }

    /** {@code compId} logged on from {@code address}. */
    public void succeeded(final long compId, final long address) {
        byCompIdAndAddress.succeeded(compId, address);
        byAddress.succeeded(ANY_COMP_ID, address);
    }
}
