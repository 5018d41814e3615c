package io.sluice.gateway;

import io.sluice.contracts.MassCancelCause;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionEvents;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.EpochClock;

import java.net.SocketAddress;
import java.util.List;

/**
 * Cancel-on-disconnect: for each session that has it on ({@link CancelOnDisconnectConfig}), when its client was logged
 * on and is gone (its connection lost: {@link MassCancelCause#DISCONNECT}; it logged out: {@link MassCancelCause#LOGOUT})
 * and has not logged on again within the session's grace period, the gateway journals a mass cancel of every resting
 * order of the session ({@link OrderEntry#cancelOnDisconnect}). The engine acts on it like any command, so replay
 * reproduces it; its cancel reports are stored for the session and reach the client at its next logon through the
 * resend protocol, like any report for an offline session.
 * <p>
 * Timers run on the gateway's thread, in its {@link EpochClock}'s time ({@link #onTimer}): no thread, no sleep. A
 * session's watch is a {@link Watch} state machine. After a restart (a kill -9 included) the journals say which
 * sessions may still have resting orders to cancel ({@link Recovered}, {@link #armAfterRestart}): those whose
 * client was active since their last cancel-on-disconnect count as disconnected from the restart, their grace period
 * starting then; a cancel already journaled is never written again.
 */
final class CancelOnDisconnect {
    /** Where a watched session stands. */
    enum Watch {
        /** Cancel-on-disconnect is off for the session. */
        OFF,
        /** Nothing to cancel: no client since its last cancel-on-disconnect (or ever). */
        IDLE,
        /** A client is logged on. */
        LOGGED_ON,
        /** The client is gone; the cancel is journaled at the deadline unless it logs on again first. */
        GRACE
    }

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final FixSession[] sessions;
    private final long[] graceMillis;
    private final Watch[] watches;
    private final long[] deadlines;
    private final MassCancelCause[] causes;
    private final Long2LongHashMap indexById = new Long2LongHashMap(-1);
    private final OrderEntry orderEntry;
    private final EpochClock clock;
    private final Log log;
    private long nextDeadline = NO_DEADLINE;

    /** Where the gateway says what cancel-on-disconnect did. */
    interface Log {
        void onCancelOnDisconnect(FixSession session, MassCancelCause cause, long graceMillis, long eventId);
    }

    /**
     * @param sessions the gateway's sessions, in the order of {@code configs}
     * @param configs  their configuration, with each one's cancel-on-disconnect setting
     */
    CancelOnDisconnect(final List<FixSession> sessions, final List<SessionConfig> configs, final OrderEntry orderEntry,
                       final EpochClock clock, final Log log) {
        this.sessions = sessions.toArray(new FixSession[0]);
        this.graceMillis = new long[this.sessions.length];
        this.watches = new Watch[this.sessions.length];
        this.deadlines = new long[this.sessions.length];
        this.causes = new MassCancelCause[this.sessions.length];
        for (int i = 0; i < this.sessions.length; i++) {
            final CancelOnDisconnectConfig setting = configs.get(i).cancelOnDisconnect();
            watches[i] = setting.enabled() ? Watch.IDLE : Watch.OFF;
            graceMillis[i] = setting.enabled() ? setting.gracePeriodMillis() : 0;
            deadlines[i] = NO_DEADLINE;
            indexById.put(this.sessions[i].id(), i);
        }
        this.orderEntry = orderEntry;
        this.clock = clock;
        this.log = log;
    }

    /** @return {@code events}, with this watching every session's logons and disconnects on the way */
    SessionEvents watching(final SessionEvents events) {
        return new SessionEvents() {
            @Override
            public void onLogon(final FixSession session, final long nextSenderSeq, final long nextTargetSeq) {
                loggedOn(session);
                events.onLogon(session, nextSenderSeq, nextTargetSeq);
            }

            @Override
            public void onDisconnect(final FixSession session, final CharSequence reason) {
                events.onDisconnect(session, reason);
                gone(session, reason == null ? MassCancelCause.LOGOUT : MassCancelCause.DISCONNECT);
            }

            @Override
            public void onGarbled(final FixSession session, final FixError why, final int skipped) {
                events.onGarbled(session, why, skipped);
            }

            @Override
            public void onRefused(final SocketAddress from, final CharSequence senderCompId, final CharSequence reason) {
                events.onRefused(from, senderCompId, reason);
            }
        };
    }

    /** What the gateway journal says, per session, read while the gateway recovers (at start only). */
    static final class Recovered {
        private final Long2LongHashMap lastCancelEventIds = new Long2LongHashMap(0);
        private final Long2LongHashMap lastClientEventIds = new Long2LongHashMap(-1);

        /** Notes a client's command read from the gateway journal. */
        void clientCommand(final long session, final long eventId) {
            lastClientEventIds.put(session, eventId);
        }

        /** Notes a cancel-on-disconnect read from the gateway journal. */
        void cancelOnDisconnect(final long session, final long eventId) {
            lastCancelEventIds.put(session, eventId);
        }
    }

    /**
     * After recovery: a session with cancel-on-disconnect on whose client was active after its last cancel-on-disconnect
     * (a client command journaled after it, or a client message recorded as processed since: {@code store}'s progress
     * records carry the last eventId written when they were) counts as disconnected now, its grace period starting.
     */
    void armAfterRestart(final Recovered recovered, final JournalSessionStore store) {
        final long now = clock.time();
        for (int i = 0; i < sessions.length; i++) {
            if (watches[i] == Watch.OFF) {
                continue;
            }
            final long id = sessions[i].id();
            final long lastCancel = recovered.lastCancelEventIds.get(id);
            final long lastReceived = store.lastProgressEventId(id);
            final long lastClientCommand = recovered.lastClientEventIds.get(id);
            final boolean activeSince = lastReceived >= lastCancel && lastReceived >= 0 || lastClientCommand > lastCancel;
            if (activeSince) {
                startGrace(i, MassCancelCause.DISCONNECT, now);
            }
        }
    }

    /** Journals the cancels whose grace period has run out; @return how many */
    int onTimer() {
        if (nextDeadline == NO_DEADLINE) {
            return 0;
        }
        final long now = clock.time();
        if (now < nextDeadline) {
            return 0;
        }
        int work = 0;
        long next = NO_DEADLINE;
        for (int i = 0; i < sessions.length; i++) {
            if (watches[i] != Watch.GRACE) {
                continue;
            }
            if (deadlines[i] <= now) {
                final long eventId = orderEntry.cancelOnDisconnect(sessions[i].id(), causes[i]);
                sessions[i].counters().cancelOnDisconnect(causes[i]);
                log.onCancelOnDisconnect(sessions[i], causes[i], graceMillis[i], eventId);
                watches[i] = Watch.IDLE;
                deadlines[i] = NO_DEADLINE;
                work++;
            } else {
                next = Math.min(next, deadlines[i]);
            }
        }
        nextDeadline = next;
        return work;
    }

    private void loggedOn(final FixSession session) {
        final int index = (int) indexById.get(session.id());
        if (index >= 0 && watches[index] != Watch.OFF) {
            watches[index] = Watch.LOGGED_ON;
            deadlines[index] = NO_DEADLINE; // a stale nextDeadline only makes onTimer look once for nothing
        }
    }

    private void gone(final FixSession session, final MassCancelCause cause) {
        final int index = (int) indexById.get(session.id());
        if (index >= 0 && watches[index] == Watch.LOGGED_ON) {
            startGrace(index, cause, clock.time());
        }
    }

    private void startGrace(final int index, final MassCancelCause cause, final long now) {
        watches[index] = Watch.GRACE;
        causes[index] = cause;
        deadlines[index] = now + graceMillis[index];
        nextDeadline = Math.min(nextDeadline, deadlines[index]);
    }
}
