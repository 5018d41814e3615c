package io.sluice.gateway.session;

/**
 * Slows down password guessing: failed logons (an unknown CompID, a wrong TargetCompID, Username or Password)
 * are counted per SenderCompID and per source address, and after {@code failuresAllowed} failures in a row
 * every logon for that CompID or from that address is refused, even with the right password, for a time
 * that doubles with each further failure, from {@code backoffMillis} up to {@code maxBackoffMillis}.
 * Logons refused while blocked are not counted, so the back-off ends on time however hard an attacker
 * keeps trying. A successful logon clears both counts. Both tables are fixed in size ({@link BackoffTable})
 * and used on the I/O thread without allocating; time comes from the gateway's clock.
 */
public final class LogonThrottle {
    /** How many source addresses the throttle remembers at once. */
    public static final int ADDRESS_SLOTS = 4096;

    private final BackoffTable byCompId;
    private final BackoffTable byAddress;

    /**
     * @param compIds          how many SenderCompIDs the gateway accepts
     * @param failuresAllowed  failed logons in a row before a CompID or address is blocked
     * @param backoffMillis    the first block
     * @param maxBackoffMillis the longest block
     */
    public LogonThrottle(final int compIds, final int failuresAllowed, final long backoffMillis,
                         final long maxBackoffMillis) {
        byCompId = new BackoffTable(4 * compIds, failuresAllowed, backoffMillis, maxBackoffMillis);
        byAddress = new BackoffTable(ADDRESS_SLOTS, failuresAllowed, backoffMillis, maxBackoffMillis);
    }

    /** @return true if a logon for {@code compId} from {@code address} is refused now */
    public boolean isBlocked(final long compId, final long address, final long nowMillis) {
        return byCompId.isBlocked(compId, nowMillis) || byAddress.isBlocked(address, nowMillis);
    }

    /** @return true if logons from {@code address} are refused now, whatever the CompID. */
    public boolean isBlocked(final long address, final long nowMillis) {
        return byAddress.isBlocked(address, nowMillis);
    }

    /** A Logon for a configured {@code compId} from {@code address} had wrong credentials. */
    public void failed(final long compId, final long address, final long nowMillis) {
        byCompId.failed(compId, nowMillis);
        byAddress.failed(address, nowMillis);
    }

    /** A Logon from {@code address} named no configured CompID. */
    public void failed(final long address, final long nowMillis) {
        byAddress.failed(address, nowMillis);
    }

    public void succeeded(final long compId, final long address) {
        byCompId.succeeded(compId);
        byAddress.succeeded(address);
    }
}
