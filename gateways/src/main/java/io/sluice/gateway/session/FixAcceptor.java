package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ShortText;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * Turns the bytes of client connections into session events: frames and parses each message, routes a
 * connection's first message (which must be a Logon naming a configured SenderCompID) to its session, and
 * every later one to the session the connection is bound to. Anything refused before a session is bound
 * (garbled bytes, a first message that is not Logon, an unknown CompID, a bad password) is answered with
 * a Logout stating the reason, outside any session's sequence (MsgSeqNum 1, not stored), and the
 * connection is closed.
 */
public final class FixAcceptor {
    private final FixSession[] sessions;
    private final Long2ObjectHashMap<FixSession> sessionsByCompId = new Long2ObjectHashMap<>();
    private final FixFramer framer;
    private final FixMessage message;
    private final FixEncoder refusal;
    private final EpochClock clock;
    private final SessionEvents events;

    public FixAcceptor(final List<FixSession> sessions, final EpochClock clock, final int maxBodyLength,
                       final int maxFields) {
        this(sessions, clock, maxBodyLength, maxFields, SessionEvents.NONE);
    }

    /** @param events hears about every session's logons and disconnects and about refused connections */
    public FixAcceptor(final List<FixSession> sessions, final EpochClock clock, final int maxBodyLength,
                       final int maxFields, final SessionEvents events) {
        this.events = events;
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
        this.message = new FixMessage(maxFields);
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
                if (session != null) {
                    session.onFramingError(framer.error());
                } else {
                    refuse(connection, null, framer.error().text());
                }
                return -1;
            }
            consumed += frame;
            if (framer.error() == FixError.BAD_CHECKSUM) {
                continue;
            }
            message.parse(buffer, framer.bodyStart(), framer.bodyEnd());
            if (session != null) {
                session.onMessage(message, receivedTicks);
            } else {
                logon(connection, receivedTicks);
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
            refuse(connection, message, message.error().text());
            return;
        }
        if (message.msgType() != MsgTypes.LOGON) {
            refuse(connection, message, "First message must be a Logon (35=A)");
            return;
        }
        final int sender = message.indexOf(FixTags.SENDER_COMP_ID);
        final FixSession session = sender < 0 ? null : sessionsByCompId.get(
                ShortText.parse(message.buffer(), message.valueOffset(sender), message.valueLength(sender)));
        if (session == null) {
            refuse(connection, message, "Unknown SenderCompID (49)");
            return;
        }
        final CharSequence refused = session.logon(connection, message, receivedTicks);
        if (refused != null) {
            refuse(connection, message, refused);
        } else {
            connection.session(session);
        }
    }

    private void refuse(final FixConnection connection, final FixMessage refusedMessage, final CharSequence text) {
        refusal.start(MsgTypes.LOGOUT);
        copyField(refusedMessage, FixTags.TARGET_COMP_ID, FixTags.SENDER_COMP_ID);
        copyField(refusedMessage, FixTags.SENDER_COMP_ID, FixTags.TARGET_COMP_ID);
        refusal.longField(FixTags.MSG_SEQ_NUM, 1)
                .timestampField(FixTags.SENDING_TIME, clock.time())
                .textField(FixTags.TEXT, text)
                .finish();
        connection.sendAndClose(refusal.buffer(), refusal.messageOffset(), refusal.messageLength());
        events.onRefused(text);
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
