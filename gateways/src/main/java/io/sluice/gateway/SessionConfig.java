package io.sluice.gateway;

import io.sluice.gateway.session.SessionIdentity;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

/**
 * One FIX session a gateway accepts, as configured in YAML: the client's SenderCompID, the CompID it must
 * address the gateway by, and its credentials (Username 553 is checked only when configured); optionally its own
 * minimum HeartBtInt (108), overriding the gateway's.
 */
public final class SessionConfig extends SelfDescribingMarshallable {
    private String senderCompId;
    private String targetCompId;
    private String username;
    private String password;
    private int minHeartBtIntSeconds;

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

    SessionIdentity identity() {
        return new SessionIdentity(senderCompId, targetCompId, username, password);
    }
}
