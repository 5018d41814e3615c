package io.sluice.gateway;

import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.ResetPolicy;
import io.sluice.gateway.session.SessionIdentity;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.util.List;
import java.util.Locale;

/**
 * One FIX session a gateway accepts, as configured in YAML. The client's SenderCompID, the CompID it must address the
 * gateway by, its credentials (Username 553 is checked only when configured), optionally its own minimum HeartBtInt
 * (108), overriding the gateway's, and optionally its firm. The firm (at most 10 characters,
 * like other identifiers) is written into every order command of the session: orders of one firm never trade
 * with each other (self-match prevention across sessions), and gateways may share CompIDs only as one firm
 * ({@link SessionClaims}). Without a firm, a session is its own scope.
 * <p>
 * Over TLS, a session may require a client certificate as a second factor beside its password: the certificate's
 * subject ({@code clientCertificateSubject}, a distinguished name such as {@code "CN=CLIENT1,O=Acme"}, compared as
 * X.500 names) or its SHA-256 fingerprint ({@code clientCertificateSha256}, hex, colons allowed), checked by
 * {@link ClientCertificates}. And it may be throttled: at most {@code maxMessagesPerSecond} application messages a
 * second (0, the default: no limit), the excess answered as {@code throttleAction} says ({@link InboundThrottle}).
 * <p>
 * Optionally, a session resets its sequence numbers by itself ({@link ResetPolicy}), and has its resting orders
 * canceled when its client is gone ({@link CancelOnDisconnectConfig}, off by default).
 * <p>
 * A session with {@code dropCopy: <firm>} is a drop-copy session: it logs on like any other, sends no orders (each
 * application message is refused, {@link DropCopyRefusals}), and receives a copy of every ExecutionReport and
 * OrderCancelReject of that firm's sessions on every gateway ({@link DropCopies}).
 */
public final class SessionConfig extends SelfDescribingMarshallable {
    private String senderCompId;
    private String targetCompId;
    private String username;
    private String password;
    private int minHeartBtIntSeconds;
    private String firm;
    private String clientCertificateSubject;
    private String clientCertificateSha256;
    private int maxMessagesPerSecond;
    private String throttleAction = "reject";
    private boolean resetOnLogon;
    private boolean resetOnLogout;
    private boolean resetOnDisconnect;
    private String resetTime;
    private CancelOnDisconnectConfig cancelOnDisconnect;
    private MarketDataEntitlement marketData;
    private String dropCopy;

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

    /** @return the distinguished name the session's client certificate must have, or null. */
    public String clientCertificateSubject() {
        return clientCertificateSubject == null || clientCertificateSubject.isEmpty() ? null : clientCertificateSubject;
    }

    public SessionConfig clientCertificateSubject(final String subject) {
        this.clientCertificateSubject = subject;
        return this;
    }

    /** @return the SHA-256 fingerprint (hex) the session's client certificate must have, or null. */
    public String clientCertificateSha256() {
        return clientCertificateSha256 == null || clientCertificateSha256.isEmpty() ? null : clientCertificateSha256;
    }

    public SessionConfig clientCertificateSha256(final String fingerprint) {
        this.clientCertificateSha256 = fingerprint;
        return this;
    }

    /** @return application messages the session may send per second, 0 for no limit. */
    public int maxMessagesPerSecond() {
        return maxMessagesPerSecond;
    }

    /** @return what the excess gets: a Business Message Reject each, or a Logout. */
    public InboundThrottle.Action throttleAction() {
        return InboundThrottle.Action.parse(throttleAction);
    }

    public SessionConfig throttle(final int maxMessagesPerSecond, final InboundThrottle.Action action) {
        this.maxMessagesPerSecond = maxMessagesPerSecond;
        this.throttleAction = action.name().toLowerCase(Locale.ROOT);
        return this;
    }

    /** Adds what is wrong with the session's certificate and throttle settings to {@code problems}. */
    void validateTlsAndThrottle(final List<String> problems, final boolean clientCertificatesAsked) {
        if (clientCertificateSubject() != null || clientCertificateSha256() != null) {
            if (!clientCertificatesAsked) {
                problems.add("session " + senderCompId + ": a client certificate is required, but tls.clientAuth does"
                        + " not ask clients for one (set it to want or need)");
            }
            if (clientCertificateSubject() != null && clientCertificateSha256() != null) {
                problems.add("session " + senderCompId + ": give clientCertificateSubject or clientCertificateSha256,"
                        + " not both");
            }
            try {
                ClientCertificates.Expected.of(this);
            } catch (final IllegalArgumentException e) {
                problems.add("session " + senderCompId + ": " + e.getMessage());
            }
        }
        if (maxMessagesPerSecond < 0) {
            problems.add("session " + senderCompId + ": maxMessagesPerSecond must be positive, or 0 for no limit, got "
                    + maxMessagesPerSecond);
        }
        if (InboundThrottle.Action.parse(throttleAction) == null) {
            problems.add("session " + senderCompId + ": throttleAction must be reject or logout, got '"
                    + throttleAction + "'");
        }
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

    /** @return the session's cancel-on-disconnect setting (off unless configured). */
    public CancelOnDisconnectConfig cancelOnDisconnect() {
        return cancelOnDisconnect == null ? new CancelOnDisconnectConfig() : cancelOnDisconnect;
    }

    public SessionConfig cancelOnDisconnect(final CancelOnDisconnectConfig setting) {
        this.cancelOnDisconnect = setting;
        return this;
    }

    /** @return the market data the session may subscribe to (none unless configured) */
    public MarketDataEntitlement marketData() {
        return marketData == null ? new MarketDataEntitlement() : marketData;
    }

    public SessionConfig marketData(final MarketDataEntitlement entitlement) {
        this.marketData = entitlement;
        return this;
    }

    /** @return whether the session's entry gives it market data at all */
    boolean hasMarketData() {
        return marketData != null;
    }

    /** @return the firm whose reports this drop-copy session receives, or null: the session is no drop copy */
    public String dropCopy() {
        return dropCopy == null || dropCopy.isEmpty() ? null : dropCopy;
    }

    public SessionConfig dropCopy(final String firm) {
        this.dropCopy = firm;
        return this;
    }

    /** Adds what is wrong with the session's {@code dropCopy} setting, given with the others, to {@code problems}. */
    void validateDropCopy(final List<String> problems) {
        if (dropCopy() == null) {
            return;
        }
        final String prefix = "session " + senderCompId + ": ";
        if (ShortText.parse(dropCopy) == ShortText.INVALID) {
            problems.add(prefix + "dropCopy firm '" + dropCopy + "' must be 1 to 10 characters of letters, digits and "
                    + ShortText.ALPHABET.trim());
        }
        if (firm() != null) {
            problems.add(prefix + "a drop-copy session places no orders and has no firm of its own: give dropCopy"
                    + " or firm, not both");
        }
        if (hasMarketData()) {
            problems.add(prefix + "a drop-copy session receives no market data: give dropCopy or marketData, not both");
        }
        if (cancelOnDisconnect().enabled()) {
            problems.add(prefix + "a drop-copy session has no orders to cancel on disconnect: remove"
                    + " cancelOnDisconnect");
        }
    }

    /** @return the firm this drop-copy session copies, packed as reports carry it (it must be valid). */
    long dropCopyFirmId() {
        return ShortText.parse(dropCopy);
    }

    SessionIdentity identity() {
        return new SessionIdentity(senderCompId, targetCompId, username, password);
    }
}
