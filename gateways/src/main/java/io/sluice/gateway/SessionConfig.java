package io.sluice.gateway;

import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.ResetPolicy;
import io.sluice.gateway.session.SessionIdentity;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

/**
 * One FIX session a gateway accepts, as configured in YAML: the client's SenderCompID, the CompID it must
 * address the gateway by, its credentials (Username 553 is checked only when configured), optionally its own
 * minimum HeartBtInt (108), overriding the gateway's, and optionally its firm. The firm (at most 10 characters,
 * like other identifiers) is written into every order command of the session: orders of one firm never trade
 * with each other (self-match prevention across sessions), and gateways may share CompIDs only as one firm
 * ({@link SessionClaims}). Without a firm, a session is its own scope. Optionally, when it resets its sequence
 * numbers by itself ({@link ResetPolicy}).
 */
public final class SessionConfig extends SelfDescribingMarshallable {
    private String senderCompId;
    private String targetCompId;
    private String username;
    private String password;
    private int minHeartBtIntSeconds;
    private String firm;
    private boolean resetOnLogon;
    private boolean resetOnLogout;
    private boolean resetOnDisconnect;
    private String resetTime;

    public SessionConfig() {
    }

    public SessionConfig(final String senderCompId, final String targetCompId, final String password) {
        this.senderCompId = senderCompId;
        this.targetCompId = targetCompId;
        this.password = password;
    }

    public String senderCompId() {
        return senderCompId;
    }

    public String targetCompId() {
        return targetCompId;
    }

    public String username() {
        return username;
    }

    public SessionConfig username(final String username) {
        this.username = username;
        return this;
    }

    public String password() {
        return password;
    }

    /** @return the smallest HeartBtInt (108) this session may log on with, or 0 for the gateway's minimum. */
    public int minHeartBtIntSeconds() {
        return minHeartBtIntSeconds;
    }

    public SessionConfig minHeartBtIntSeconds(final int seconds) {
        this.minHeartBtIntSeconds = seconds;
        return this;
    }

    /** @return the session's firm, or null if it has none. */
    public String firm() {
        return firm == null || firm.isEmpty() ? null : firm;
    }

    public SessionConfig firm(final String firm) {
        this.firm = firm;
        return this;
    }

    /** @return the firm packed as order commands carry it, 0 for none (it must be valid, see {@code validate}). */
    long firmId() {
        return firm() == null ? 0 : ShortText.parse(firm);
    }

    public SessionConfig resets(final boolean onLogon, final boolean onLogout, final boolean onDisconnect,
                                final String dailyAt) {
        this.resetOnLogon = onLogon;
        this.resetOnLogout = onLogout;
        this.resetOnDisconnect = onDisconnect;
        this.resetTime = dailyAt;
        return this;
    }

    /**
     * @return when the session resets its sequence numbers by itself (ResetOnLogon, ResetOnLogout,
     *         ResetOnDisconnect, resetTime HH:MM:SS UTC); none by default
     * @throws IllegalArgumentException for a resetTime not of that form
     */
    public ResetPolicy resetPolicy() {
        return new ResetPolicy(resetOnLogon, resetOnLogout, resetOnDisconnect,
                resetTime == null || resetTime.isEmpty() ? ResetPolicy.NO_DAILY_RESET : ResetPolicy.secondOfDay(resetTime));
    }

    SessionIdentity identity() {
        return new SessionIdentity(senderCompId, targetCompId, username, password);
    }
}
