package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.FixValidation;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ShortText;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * Turns the bytes of client connections into session events. It frames and parses each message, routes a connection's
 * first message (which must be a Logon naming a configured SenderCompID) to its session, and every later one to the
 * session the connection is bound to. Anything refused before a session is bound is
 * answered with a Logout outside any session's sequence (MsgSeqNum 1, not stored), and the connection is
 * closed. A logged-on session's garbled messages (bad CheckSum or BodyLength, first fields other than 8, 9, 35) are
 * ignored with a log line, the bytes skipped up to the next BeginString; a BeginString other than FIX.4.4 logs it
 * out. Before a Logon, garbled bytes and a first message that is not a Logon get their specific reason; every refused
 * Logon (unknown CompID, wrong TargetCompID, Username or Password, blocked by the {@link LogonThrottle},
 * already logged on, bad sequence number...) gets the one text {@link #LOGON_REJECTED}, so that a client
 * learns nothing about which CompIDs exist or are online; the real reason goes to {@link SessionEvents}.
 */
public final class FixAcceptor {
    /** The Logout text of every refused Logon. */
    public static final String LOGON_REJECTED = "Logon rejected";
    private static final int FAILURES_ALLOWED = 3;
    private static final long BACKOFF_MILLIS = 1_000;
    private static final long MAX_BACKOFF_MILLIS = 60_000;
    private static final long BLOCKED_LOG_INTERVAL_MILLIS = 1_000;

    private final FixSession[] sessions;
    private final Long2ObjectHashMap<FixSession> sessionsByCompId = new Long2ObjectHashMap<>();
    private final FixFramer framer;
    private final FixMessage message;
    private final FixEncoder refusal;
    private final EpochClock clock;
    private final SessionEvents events;
    private final LogonThrottle throttle;
    private final LogonCheck logonCheck;
    private final StringBuilder refusedCompId = new StringBuilder(64);
    private final StringBuilder blockedReason = new StringBuilder(160);
    private long blockedLoggedMillis;
    private int blockedNotLogged;

    /** With the default throttle (3 failures, 1 s to 60 s) and the standard's validation. */
    public FixAcceptor(final List<FixSession> sessions, final EpochClock clock, final int maxBodyLength,
                       final int maxFields, final SessionEvents events) {
        this(sessions, clock, maxBodyLength, maxFields, events,
                new LogonThrottle(FAILURES_ALLOWED, BACKOFF_MILLIS, MAX_BACKOFF_MILLIS), LogonCheck.NONE,
                FixValidation.STANDARD);
    }

    /**
     * @param events     hears about every session's logons and disconnects and about refused connections
     * @param throttle   counts failed logons and refuses blocked (CompID, address) pairs and addresses, in
     *                   {@code clock}'s time
     * @param logonCheck a second factor beside the credentials (the client certificate), checked like them
     * @param validation the data-dictionary checks every client message goes through
     */
    public FixAcceptor(final List<FixSession> sessions, final EpochClock clock, final int maxBodyLength,
                       final int maxFields, final SessionEvents events, final LogonThrottle throttle,
                       final LogonCheck logonCheck, final FixValidation validation) {
        this.events = events;
        this.throttle = throttle;
        this.logonCheck = logonCheck;
        this.sessions = sessions.toArray(new FixSession[0]);
        for (final FixSession session : sessions) {
            session.events(events);
            if (sessionsByCompId.put(session.id(), session) != null) {
                throw new IllegalArgumentException("SenderCompID " + session.identity().clientCompId()
                        + " is configured twice");
            }
        }
        this.clock = clock;
        this.framer = new FixFramer(maxBodyLength);
        this.message = new FixMessage(maxFields, validation);
        this.refusal = new FixEncoder(new UnsafeBuffer(new byte[1024]));
    }

    /** @return the session of a client SenderCompID (as a ShortText long), or null. */
    public FixSession session(final long clientCompId) {
        return sessionsByCompId.get(clientCompId);
    }

    public int sessionCount() {
        return sessions.length;
    }

    public FixSession session(final int index) {
        return sessions[index];
    }

    /**
     * Processes the complete messages among {@code length} received bytes.
     *
     * @param receivedTicks when the bytes were read (SluiceClock ticks), for MetaData
     * @return how many bytes were consumed (the rest is an incomplete message), or -1 if the connection was
     *         closed and the bytes must be dropped
     */
    public int onData(final FixConnection connection, final DirectBuffer buffer, final int offset, final int length,
                      final long receivedTicks) {
        int consumed = 0;
        while (consumed < length && !connection.isClosed()) {
            final int frame = framer.scan(buffer, offset + consumed, length - consumed);
            if (frame == 0) {
                break;
            }
            final FixSession session = connection.session();
            if (frame < 0) {
                if (session == null) {
                    refuse(connection, null, framer.error().text(), framer.error().text());
                    return -1;
                }
                if (framer.error() == FixError.BAD_BEGIN_STRING) {
                    session.onFramingError(framer.error());
                    return -1;
                }
                final int skipped = FixFramer.nextFrameStart(buffer, offset + consumed, length - consumed);
                events.onGarbled(session, framer.error(), skipped);
                consumed += skipped;
                continue;
            }
            consumed += frame;
            if (framer.error() == FixError.BAD_CHECKSUM) {
                if (session != null) {
                    events.onGarbled(session, FixError.BAD_CHECKSUM, frame);
                }
                continue;
            }
            message.parse(buffer, framer.bodyStart(), framer.bodyEnd());
            if (session == null) {
                logon(connection, receivedTicks);
            } else if (message.error() == FixError.GARBLED) {
                events.onGarbled(session, FixError.GARBLED, frame);
            } else {
                session.onMessage(message, receivedTicks);
            }
        }
        return connection.isClosed() ? -1 : consumed;
    }

    /** The transport lost a connection (the client closed it, or an I/O error). */
    public void onDisconnected(final FixConnection connection) {
        final FixSession session = connection.session();
        if (session != null) {
            connection.session(null);
            session.onDisconnected();
        }
    }

    /**
     * A connection failed before it could send a Logon (its TLS handshake failed): counted as a failed logon from its
     * source address, so that an address that keeps failing is blocked like one that keeps guessing passwords.
     */
    public void onConnectionFailed(final FixConnection connection) {
        throttle.failed(connection.remoteAddressKey(), clock.time());
    }

    /** Runs every session's timers; @return the amount of work done. */
    public int onTimer() {
        int work = 0;
        for (final FixSession session : sessions) {
            work += session.onTimer();
        }
        return work;
    }

    private void logon(final FixConnection connection, final long receivedTicks) {
        if (message.error() != FixError.NONE) {
            refuse(connection, message, message.error().text(), message.error().text());
            return;
        }
        if (message.msgType() != MsgTypes.LOGON) {
            final String text = "First message must be a Logon (35=A)";
            refuse(connection, message, text, text);
            return;
        }
        final long now = clock.time();
        final long address = connection.remoteAddressKey();
        final int sender = message.indexOf(FixTags.SENDER_COMP_ID);
        // Configured or not, the CompID keys the throttle alike: what it blocks tells nothing about which exist.
        final long compId = sender < 0 ? ShortText.INVALID
                : ShortText.parse(message.buffer(), message.valueOffset(sender), message.valueLength(sender));
        final LogonThrottle.Block block = throttle.block(compId, address, now);
        if (block != LogonThrottle.Block.NONE) {
            refuseBlocked(connection, now, block.reason());
            return;
        }
        final FixSession session = compId == ShortText.INVALID ? null : sessionsByCompId.get(compId);
        if (session == null) {
            throttle.failed(compId, address, now);
            refuse(connection, message, LOGON_REJECTED, "unknown SenderCompID (49)");
            return;
        }
        if (!session.acceptsCredentials(message)) {
            throttle.failed(compId, address, now);
            refuse(connection, message, LOGON_REJECTED, "wrong TargetCompID (56), Username (553) or Password (554)");
            return;
        }
        final CharSequence checkFailed = logonCheck.refusal(session, connection);
        if (checkFailed != null) {
            throttle.failed(compId, address, now);
            refuse(connection, message, LOGON_REJECTED, checkFailed);
            return;
        }
        if (session.state() != FixSessionState.DISCONNECTED) {
            refuse(connection, message, LOGON_REJECTED, "the session is already logged on");
            return;
        }
        // Bound before the session answers, so that its Logon reply and any redelivery go to its own buffers.
        connection.session(session);
        final CharSequence refused = session.logon(connection, message, receivedTicks);
        if (refused != null) {
            connection.session(null);
            refuse(connection, message, LOGON_REJECTED, refused);
        } else {
            throttle.succeeded(compId, address);
        }
    }

    /**
     * Refuses a Logon the throttle blocks. An attacker may keep trying as fast as it can connect, so these
     * go to the log at most once a second, the line counting those left out since the last.
     */
    private void refuseBlocked(final FixConnection connection, final long now, final String reason) {
        if (now - blockedLoggedMillis < BLOCKED_LOG_INTERVAL_MILLIS) {
            blockedNotLogged++;
            refuse(connection, message, LOGON_REJECTED, null);
            return;
        }
        blockedReason.setLength(0);
        blockedReason.append(reason);
        if (blockedNotLogged > 0) {
            blockedReason.append(" (and ").append(blockedNotLogged).append(" more blocked logons since the last such line)");
        }
        blockedLoggedMillis = now;
        blockedNotLogged = 0;
        refuse(connection, message, LOGON_REJECTED, blockedReason);
    }

    /**
     * Answers with a Logout saying {@code text} and closes; {@code reason}, the real one, goes to the log
     * with the client's address and SenderCompID (unless null: not to be logged).
     */
    private void refuse(final FixConnection connection, final FixMessage refusedMessage, final CharSequence text,
                        final CharSequence reason) {
        refusal.start(MsgTypes.LOGOUT);
        copyField(refusedMessage, FixTags.TARGET_COMP_ID, FixTags.SENDER_COMP_ID);
        copyField(refusedMessage, FixTags.SENDER_COMP_ID, FixTags.TARGET_COMP_ID);
        refusal.longField(FixTags.MSG_SEQ_NUM, 1)
                .timestampField(FixTags.SENDING_TIME, clock.time())
                .textField(FixTags.TEXT, text)
                .finish();
        connection.sendAndClose(refusal.buffer(), refusal.messageOffset(), refusal.messageLength());
        if (reason == null) {
            return;
        }
        refusedCompId.setLength(0);
        final int sender = refusedMessage == null ? -1 : refusedMessage.indexOf(FixTags.SENDER_COMP_ID);
        if (sender >= 0) {
            final int offset = refusedMessage.valueOffset(sender);
            final int length = Math.min(64, refusedMessage.valueLength(sender));
            for (int i = 0; i < length; i++) {
                final byte b = refusedMessage.buffer().getByte(offset + i);
                refusedCompId.append(b >= ' ' && b <= '~' ? (char) b : '?');
            }
        }
        events.onRefused(connection.remoteAddress(), refusedCompId, reason);
    }

    private void copyField(final FixMessage from, final int fromTag, final int toTag) {
        final int index = from == null ? -1 : from.indexOf(fromTag);
        if (index >= 0 && from.valueLength(index) <= 64) {
            refusal.field(toTag, from.buffer(), from.valueOffset(index), from.valueLength(index));
        } else {
            refusal.textField(toTag, "UNKNOWN");
        }
    }
}
