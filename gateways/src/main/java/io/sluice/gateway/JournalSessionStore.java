package io.sluice.gateway;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionCheckpoint;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionStore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's {@link SessionStore}, in its own journal ({@link GatewayRecords}). On open it reads the
 * journal from its first kept record ({@link SessionStoreRecovery}: every record checked, a damaged one throws a
 * {@link io.sluice.contracts.journal.CorruptJournalException} naming file, excerpt and byte offset), to recover, per
 * session, the next sequence numbers, plus the last engine-journal index delivered (and how many of that excerpt's
 * reports: one excerpt holds every report of one input) and the last command eventId whose progress was recorded.
 * The gateway then writes all of it as a checkpoint ({@link #checkpoint()}), and again whenever the journal rolls to a
 * new day ({@link #checkpointOnNewDay()}), so that the days before the newest checkpoint can be archived without
 * changing what a restart recovers. Resends read the stored messages back from the journal itself,
 * so memory does not grow with the number of messages; messages of archived days are no longer there, and a resend
 * of them is gap-filled, with a log line naming the session and the range. Every write is one excerpt. Unresendable
 * messages (market data) get no record each: one record reserves a block of numbers for them
 * ({@link #sentUnresendable}). A report's
 * {@code sent} record, carrying its engine-journal index, is written before the message goes out (a restart needs
 * it); its {@code delivered} record, for the latency tail, once the socket has taken the message ({@link #delivered}).
 */
public final class JournalSessionStore implements SessionStore, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalSessionStore.class);
    private static final long NOT_STORED = -1;
    private static final DirectBuffer NO_BODY = new UnsafeBuffer(new byte[0]);

    private final ChronicleQueue queue;
    private final ExcerptAppender appender;
    private final GatewayRecords writer;
    private final ExcerptTailer resendTailer;
    private final SentMessage outgoing;
    private final SessionProgress progress = new SessionProgress();
    private final SessionCheckpoint checkpoint = new SessionCheckpoint();
    private final SessionStoreRecovery state;
    private final Long2ObjectHashMap<SessionStoreRecovery.History> histories;
    private long lastSentIndex;
    private int checkpointCycle = Integer.MIN_VALUE;
    private final Scan scan = new Scan();
    private final JournalReader scanReader;

    /** Opens (creating if needed) the journal in {@code queue} and recovers from it. */
    public JournalSessionStore(final ChronicleQueue queue, final int maxBodyLength) {
        this(queue, maxBodyLength, null);
    }

    /**
     * Opens the journal in {@code queue} and recovers from it, reading on from {@code readAhead} (the state read from
     * the same journal before, which it takes over), or from the journal's start if null.
     */
    public JournalSessionStore(final ChronicleQueue queue, final int maxBodyLength, final SessionStoreRecovery readAhead) {
        this.queue = queue;
        this.outgoing = new SentMessage(maxBodyLength);
        state = readAhead == null ? SessionStoreRecovery.read(queue) : readAhead.readOn(queue);
        histories = state.histories;
        lastSentIndex = state.lastIndex();
        this.appender = queue.createAppender();
        // Through this very appender, whose disk space the gateway keeps reserved (the queue's own method writer
        // uses another one).
        this.writer = Journals.methodWriter(appender, GatewayRecords.class);
        this.resendTailer = queue.createTailer();
        this.scanReader = new JournalReader(queue, resendTailer, scan);
    }

    /** @return the next MsgSeqNum to send on {@code session}, as recovered (1 if it never sent). */
    public long nextSenderSeq(final long session) {
        return state.nextSenderSeq(session);
    }

    /** @return the next MsgSeqNum expected from {@code session}, as recovered (1 if none). */
    public long nextTargetSeq(final long session) {
        return state.nextTargetSeq(session);
    }

    /**
     * @return the last eventId written when a client message of {@code session} was last recorded as processed (its
     *         progress record), or -1 if none was: whether the client was active after a command of the gateway's own
     */
    public long lastProgressEventId(final long session) {
        final SessionStoreRecovery.History history = histories.get(session);
        return history == null ? -1 : history.lastProgressEventId;
    }

    /** Counts a command found in the command journal whose client message's progress was not recorded. */
    public void commandWithoutProgress(final long session) {
        state.history(session).nextTargetSeq++;
    }

    /**
     * Notes that the progress of every command up to {@code lastEventId} is now accounted for (the gateway's start
     * has counted those without a recorded progress): what the next checkpoint records.
     */
    public void commandsRecovered(final long lastEventId) {
        state.recordedEventId = Math.max(state.recordedEventId, lastEventId);
    }

    /** @return the engine-journal index of the last report delivered, or 0 if none. */
    public long deliveredEngineIndex() {
        return state.deliveredEngineIndex;
    }

    /**
     * @return how many of this gateway's reports in the excerpt at {@link #deliveredEngineIndex()} were delivered:
     *         a gateway that stopped part way through an excerpt delivers the rest of it after a restart
     */
    public long reportsDeliveredFromExcerpt() {
        return state.deliveredFromExcerpt;
    }

    /**
     * @return the journal index of the last {@link #sent} record (recovered: of the journal's last record), or -1 if
     *         the journal holds none: a message queued now has its record at or below it
     */
    public long lastSentIndex() {
        return lastSentIndex;
    }

    /** @return the highest command eventId a recorded session progress covers. */
    public long recordedEventId() {
        return state.recordedEventId;
    }

    /**
     * Writes everything a restart recovers, one {@link SessionCheckpoint} per session with state, in one excerpt: a
     * restart that finds it needs none of the journal before it. Nothing when no session has state yet.
     */
    public void checkpoint() {
        checkpointCycle = ((SingleChronicleQueue) queue).cycle();
        if (histories.isEmpty()) {
            return;
        }
        try (DocumentContext ignored = appender.writingDocument()) {
            final Long2ObjectHashMap<SessionStoreRecovery.History>.EntryIterator entries = histories.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                final SessionStoreRecovery.History history = entries.getValue();
                writer.checkpoint(checkpoint.set(entries.getLongKey(), history.nextSenderSeq, history.nextTargetSeq,
                        state.recordedEventId, state.deliveredEngineIndex, state.deliveredFromExcerpt,
                        history.lastProgressEventId, state.answeredAdminEventId));
            }
        }
    }

    /**
     * Writes a {@link #checkpoint()} if the journal's day has changed since the last one, so that every day's cycle
     * file holds one: cheap enough for the gateway's housekeeping (a clock read and a compare).
     */
    public void checkpointOnNewDay() {
        if (((SingleChronicleQueue) queue).cycle() != checkpointCycle) {
            checkpoint();
        }
    }

    /**
     * @return the admin journal's eventId of the last admin command this gateway answered ({@link #adminAnswered}),
     *         0 if none: after a restart the gateway carries out only later ones
     */
    public long answeredAdminEventId() {
        return state.answeredAdminEventId;
    }

    /** Records the gateway's answer to an admin command it carried out or refused (its MetaData is the command's). */
    public void adminAnswered(final AdminOutcome outcome) {
        writer.adminAnswered(outcome);
        state.answeredAdminEventId = Math.max(state.answeredAdminEventId, outcome.metaData().eventId());
    }

    @Override
    public void sent(final FixSession session, final long seqNum, final int msgType, final long sendingTimeMillis,
                     final DirectBuffer buffer, final int bodyOffset, final int bodyLength, final long engineIndex) {
        writer.sent(outgoing.set(session.id(), seqNum, msgType, sendingTimeMillis, engineIndex, buffer, bodyOffset,
                bodyLength));
        lastSentIndex = appender.lastIndexAppended();
        state.countDelivered(engineIndex);
        final SessionStoreRecovery.History history = state.history(session.id());
        history.nextSenderSeq = Math.max(history.nextSenderSeq, seqNum + 1);
    }

    /**
     * Writes nothing while {@code seqNum} lies in the block of numbers last reserved for the session; past it, reserves
     * the next {@value SessionStoreRecovery#RESERVED_BLOCK} numbers from {@code seqNum} in one record, so that a
     * restart starts past them (the client's ResendRequest for those it never got is gap-filled).
     */
    @Override
    public void sentUnresendable(final FixSession session, final long seqNum, final long sendingTimeMillis) {
        final SessionStoreRecovery.History history = state.history(session.id());
        if (seqNum < history.nextSenderSeq) {
            return;
        }
        final long lastReserved = seqNum + SessionStoreRecovery.RESERVED_BLOCK - 1;
        writer.sent(outgoing.set(session.id(), lastReserved, SessionStoreRecovery.RESERVATION, sendingTimeMillis, 0,
                NO_BODY, 0, 0));
        lastSentIndex = appender.lastIndexAppended();
        history.nextSenderSeq = lastReserved + 1;
    }
    /**
     * Records, for the latency tail, that a report reached its client's socket (or, with {@code fixSent} 0, that
     * it will be timed no further), after the fact: an excerpt of its own, or part of the one a
     * {@link #deliveriesExcerpt()} holds open. Recovery does not need it: the report's {@link #sent} record says
     * it was delivered.
     */
    public void delivered(final Delivery delivery) {
        writer.delivered(delivery);
    }

    /**
     * @return an open excerpt that the {@link #delivered} calls made before it is closed go into, so that the
     *         deliveries one socket write completed cost one excerpt; close it (try-with-resources) right after
     */
    DocumentContext deliveriesExcerpt() {
        return appender.writingDocument();
    }

    @Override
    public void received(final FixSession session, final long nextTargetSeq, final long lastEventId) {
        writer.received(progress.set(session.id(), session.nextSenderSeq(), nextTargetSeq, lastEventId));
        final SessionStoreRecovery.History history = state.history(session.id());
        history.nextTargetSeq = nextTargetSeq;
        history.lastProgressEventId = lastEventId;
        state.recordedEventId = Math.max(state.recordedEventId, lastEventId);
    }

    @Override
    public void reset(final FixSession session, final long nextSenderSeq, final long nextTargetSeq,
                      final long lastEventId) {
        writer.reset(progress.set(session.id(), nextSenderSeq, nextTargetSeq, lastEventId));
        state.recordedEventId = Math.max(state.recordedEventId, lastEventId);
        final SessionStoreRecovery.History history = state.history(session.id());
        history.nextSenderSeq = nextSenderSeq;
        history.nextTargetSeq = nextTargetSeq;
    }

    /**
     * Finds the stored messages by reading the journal, not an in-memory index (which would grow with every
     * message): backwards from the end to the first of the session's messages at or after {@code beginSeq}
     * (stopping at a sequence reset), then forwards from there. Resends are rare; the cost is the distance.
     */
    @Override
    public void replay(final FixSession session, final long beginSeq, final long endSeq,
                       final StoredMessageHandler handler) {
        replay(session, 0, beginSeq, endSeq, handler);
    }

    /**
     * The same scan as {@link #replay}, first passing the session's last reset record backwards: the forward
     * part stops at that record, so messages stored after the reset (with new, lower numbers) are never
     * mistaken for the old sequence's.
     */
    @Override
    public void replayBeforeReset(final FixSession session, final long beginSeq, final long endSeq,
                                  final StoredMessageHandler handler) {
        replay(session, 1, beginSeq, endSeq, handler);
    }

    private void replay(final FixSession session, final int resetsToPass, final long beginSeq, final long endSeq,
                        final StoredMessageHandler handler) {
        final long id = session.id();
        long start = NOT_STORED;
        long firstFound = NOT_STORED;
        boolean ranOffTheStart = true;
        int resetsPassed = 0;
        resendTailer.direction(TailerDirection.BACKWARD).toEnd();
        while (scanReader.readOne()) {
            if (scan.session != id || scan.kind == Scan.OTHER) {
                continue;
            }
            if (resetsPassed < resetsToPass) {
                if (scan.kind == Scan.RESET) {
                    resetsPassed++;
                }
                continue;
            }
            if (scan.kind == Scan.RESET || scan.message.seqNum() < beginSeq) {
                ranOffTheStart = false;
                break;
            }
            start = resendTailer.lastReadIndex();
            firstFound = scan.message.seqNum();
        }
        if (ranOffTheStart && resetsToPass == 0) {
            // The journal's first kept record came before any message below beginSeq: the ones from beginSeq to the
            // first one found were in days archived since. The session gap-fills them, as it does anything not resent.
            final long notKeptTo = firstFound == NOT_STORED ? endSeq : Math.min(endSeq, firstFound - 1);
            if (notKeptTo >= beginSeq) {
                LOG.warn("{}: session {} -> {} asked for a resend of MsgSeqNum {} to {}, no longer kept (their days were"
                                + " archived): answered with SequenceReset-GapFill", queue.fileAbsolutePath(),
                        session.identity().clientCompId(), session.identity().gatewayCompId(), beginSeq, notKeptTo);
            }
        }
        if (start == NOT_STORED) {
            return;
        }
        resendTailer.direction(TailerDirection.FORWARD);
        if (!resendTailer.moveToIndex(start)) {
            return;
        }
        while (scanReader.readOne()) {
            if (scan.session == id && scan.kind == Scan.RESET) {
                break;
            }
            if (scan.session != id || scan.kind != Scan.SENT) {
                continue;
            }
            final SentMessage message = scan.message;
            if (message.seqNum() > endSeq) {
                break;
            }
            if (message.bodyLength() > 0 && message.seqNum() >= beginSeq
                    && !handler.onStoredMessage(message.seqNum(), message.msgType(), message.sendingTime(),
                    message.body(), 0, message.bodyLength())) {
                break;
            }
        }
    }

    /** @return the appender this store writes through, whose disk space the gateway keeps reserved */
    ExcerptAppender appender() {
        return appender;
    }

    @Override
    public void close() {
        queue.close();
    }

    /** Notes what kind of record a resend scan just read, for which session. */
    private static final class Scan implements GatewayRecords {
        static final int OTHER = 0;
        static final int SENT = 1;
        static final int RESET = 2;

        int kind;
        long session;
        SentMessage message;

        @Override
        public void sent(final SentMessage message) {
            kind = message.msgType() == SessionStoreRecovery.RESERVATION ? OTHER : SENT;
            session = message.session();
            this.message = message;
        }

        @Override
        public void received(final SessionProgress progress) {
            kind = OTHER;
            session = progress.session();
        }

        @Override
        public void reset(final SessionProgress progress) {
            kind = RESET;
            session = progress.session();
        }

        @Override
        public void checkpoint(final SessionCheckpoint checkpoint) {
            kind = OTHER;
            session = checkpoint.session();
        }

        @Override
        public void adminAnswered(final AdminOutcome outcome) {
            kind = OTHER;
            session = outcome.session();
        }

        @Override
        public void delivered(final Delivery delivery) {
            kind = OTHER;
            session = delivery.session();
        }
    }
}
