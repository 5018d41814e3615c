package io.sluice.gateway;

import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.session.FixApplication;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.FixSessionState;

import java.util.Locale;

/**
 * A per-session inbound throttle, so that a session that floods the gateway cannot take the engine's or the I/O
 * thread's time from the others: at most {@code maxPerSecond} application messages per second reach the order entry;
 * the excess is answered as configured and never reaches the journal. It sits between a session and its
 * {@link FixApplication} (one instance per throttled session), after the session layer has checked and consumed each
 * message's MsgSeqNum, so a rejected message is still a received one and the sequence stays gapless.
 * <p>
 * Windows are fixed, one second long, each starting at the first message after the previous one ended; time is the
 * message's receive time, read once per socket read by the transport ({@link FixSession#receivedTicks()}), so the
 * throttle reads no clock of its own and allocates nothing. Over the limit:
 * <ul>
 *   <li>{@link Action#REJECT}: each excess message gets a Business Message Reject (35=j) with BusinessRejectReason
 *   (380) 0, Other (FIX 4.4 has no throttle reason; 8, "Throttle limit exceeded", is FIX 5.0 SP1's and a FIX 4.4
 *   counterparty's dictionary would refuse it), and Text {@value #TEXT_PREFIX} with the limit;</li>
 *   <li>{@link Action#LOGOUT}: the first excess message logs the session out with that Text; application messages that
 *   arrive before the client's Logout reply are dropped.</li>
 * </ul>
 */
final class InboundThrottle implements FixApplication {
    /** What the excess gets. */
    enum Action {
        /** A Business Message Reject per excess message; the session stays logged on. */
        REJECT,
        /** A Logout at the first excess message. */
        LOGOUT;

        /** @return the action named {@code text} (any case), or null. */
        static Action parse(final String text) {
            for (final Action action : values()) {
                if (action.name().equalsIgnoreCase(text)) {
                    return action;
                }
            }
            return null;
        }
    }

    /** BusinessRejectReason (380) 0: Other. */
    static final int REASON_OTHER = 0;
    static final String TEXT_PREFIX = "Throttle limit exceeded";
    private static final long TICKS_PER_SECOND = 1_000_000_000L / SluiceClock.NANOS_PER_TICK;

    private final FixApplication application;
    private final long maxPerSecond;
    private final Action action;
    private final String text;
    private long windowStartTicks = Long.MIN_VALUE / 2;
    private long inWindow;

    InboundThrottle(final FixApplication application, final int maxPerSecond, final Action action) {
        this.application = application;
        this.maxPerSecond = maxPerSecond;
        this.action = action;
        this.text = TEXT_PREFIX + ": at most " + maxPerSecond + " application messages per second";
    }

    /** @return {@code application} throttled as {@code session} configures, or as it is if it has no limit. */
    static FixApplication wrap(final FixApplication application, final SessionConfig session) {
        return session.maxMessagesPerSecond() > 0
                ? new InboundThrottle(application, session.maxMessagesPerSecond(), session.throttleAction())
                : application;
    }

    @Override
    public void onApplicationMessage(final FixSession session, final FixMessage message) {
        if (session.state() == FixSessionState.LOGOUT_SENT && action == Action.LOGOUT) {
            return; // logged out for flooding: what it sends before its Logout reply is dropped
        }
        final long now = session.receivedTicks();
        if (now - windowStartTicks >= TICKS_PER_SECOND) {
            windowStartTicks = now;
            inWindow = 0;
        }
        inWindow++;
        if (inWindow <= maxPerSecond) {
            application.onApplicationMessage(session, message);
        } else if (action == Action.REJECT) {
            session.businessReject(message, REASON_OTHER, text);
        } else if (inWindow == maxPerSecond + 1) {
            session.logout(text);
        }
    }

    @Override
    public long lastEventId() {
        return application.lastEventId();
    }

    @Override
    public String toString() {
        return maxPerSecond + "/s, then " + action.name().toLowerCase(Locale.ROOT);
    }
}
