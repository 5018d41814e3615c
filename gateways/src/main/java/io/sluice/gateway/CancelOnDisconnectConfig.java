package io.sluice.gateway;

import io.sluice.runtime.config.DurationText;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.util.List;

/**
 * A session's cancel-on-disconnect setting, as written in its {@code !Session} entry:
 * {@code cancelOnDisconnect: { enabled: true, gracePeriod: 2s }}. Off by default. When on, a session whose client was
 * logged on and is gone (its connection lost, or it logged out) and has not logged on again within
 * {@code gracePeriod} has every resting order canceled ({@link CancelOnDisconnect}). The grace period is written
 * {@code 500ms}, {@code 2s}, {@code 1m} or a number of seconds ({@link DurationText}), 0 to
 * {@value #MAX_GRACE_SECONDS} seconds (default 0: at once).
 */
public final class CancelOnDisconnectConfig extends SelfDescribingMarshallable {
    /** The longest grace period: an hour. */
    static final long MAX_GRACE_SECONDS = 3600;

    private boolean enabled;
    private String gracePeriod = "0s";

    public CancelOnDisconnectConfig() {
    }

    public CancelOnDisconnectConfig(final boolean enabled, final String gracePeriod) {
        this.enabled = enabled;
        this.gracePeriod = gracePeriod;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * @return the grace period in milliseconds
     * @throws IllegalArgumentException naming the value and the form expected
     */
    public long gracePeriodMillis() {
        final long millis;
        try {
            millis = DurationText.parse(gracePeriod).toMillis();
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("cancelOnDisconnect.gracePeriod: " + e.getMessage());
        }
        if (millis < 0 || millis > MAX_GRACE_SECONDS * 1000) {
            throw new IllegalArgumentException("cancelOnDisconnect.gracePeriod must be 0 to " + MAX_GRACE_SECONDS
                    + " s, got '" + gracePeriod + "'");
        }
        return millis;
    }

    /** Adds what is wrong with this setting of session {@code session} to {@code problems}. */
    void validate(final String session, final List<String> problems) {
        try {
            gracePeriodMillis();
        } catch (final IllegalArgumentException e) {
            problems.add("session " + session + ": " + e.getMessage());
        }
    }
}
