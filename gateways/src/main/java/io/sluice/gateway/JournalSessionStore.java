package io.sluice.gateway;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionStore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The gateway's {@link SessionStore}, in its own journal ({@link GatewayRecords}). On open it reads the
 * journal from the start, checking every record ({@link JournalReader}: a damaged one throws a
 * {@link io.sluice.contracts.journal.CorruptJournalException} naming file, excerpt and byte offset), to recover, per session, the next sequence numbers, plus the last engine-journal
 * index delivered (and how many of that excerpt's reports: one excerpt holds every report of one input) and the
 * last command eventId whose progress was recorded. Resends read the stored messages back from the journal itself,
 * so memory does not grow with the number of messages. Every write is one excerpt. A report's {@code sent} record,
 * carrying its engine-journal index, is written before the message goes out (a restart needs it); its
 * {@code delivered} record, for the latency tail, once the socket has taken the message ({@link #delivered}).
 */
public final class JournalSessionStore implements SessionStore, AutoCloseable {
    private static final long NOT_STORED = -1;

    private final ChronicleQueue queue;
    private final ExcerptAppender appender;
    private final GatewayRecords writer;
    private final ExcerptTailer resendTailer;
    private final SentMessage outgoing;
    private final SessionProgress progress = new SessionProgress();
    private final Long2ObjectHashMap<History> histories = new Long2ObjectHashMap<>();
    private long deliveredEngineIndex;
    private long deliveredFromExcerpt;
    private long recordedEventId;
    private long answeredAdminEventId;
    private long lastSentIndex = NOT_STORED;
    private final Scan scan = new Scan();
    private final JournalReader scanReader;

    /** Opens (creating if needed) the journal in {@code queue} and recovers from it. */
    public JournalSessionStore(final ChronicleQueue queue, final int maxBodyLength) {
        this.queue = queue;
        this.outgoing = new SentMessage(maxBodyLength);
        recover();
        this.appender = queue.createAppender();
        // Through this very appender, whose disk space the gateway keeps reserved (the queue's own method writer
        // uses another one).
        this.writer = Journals.methodWriter(appender, GatewayRecords.class);
        this.resendTailer = queue.createTailer();
        this.scanReader = new JournalReader(queue, resendTailer, scan);
    }

    /** @return the next MsgSeqNum to send on {@code session}, as recovered (1 if it never sent). */
    public long nextSenderSeq(final long session) {
        final History history = histories.get(session);
        return history == null ? 1 : history.nextSenderSeq;
    }

    /** @return the next MsgSeqNum expected from {@code session}, as recovered (1 if none). */
    public long nextTargetSeq(final long session) {
        final History history = histories.get(session);
        return history == null ? 1 : history.nextTargetSeq;
    }

    /**
     * @return the last eventId written when a client message of {@code session} was last recorded as processed (its
     *         progress record), or -1 if none was: whether the client was active after a command of the gateway's own
     */
    public long lastProgressEventId(final long session) {
        final History history = histories.get(session);
        return history == null ? -1 : history.lastProgressEventId;
    }

    /** Counts a command found in the command journal whose client message's progress was not recorded. */
    public void commandWithoutProgress(final long session) {
        history(session).nextTargetSeq++;
    }

    /** @return the engine-journal index of the last report delivered, or 0 if none. */
    public long deliveredEngineIndex() {
        return deliveredEngineIndex;
    }

    /**
     * @return how many of this gateway's reports in the excerpt at {@link #deliveredEngineIndex()} were delivered:
     *         a gateway that stopped part way through an excerpt delivers the rest of it after a restart
     */
    public long reportsDeliveredFromExcerpt() {
        return deliveredFromExcerpt;
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
        return recordedEventId;
    }

    /**
     * @return the admin journal's eventId of the last admin command this gateway answered ({@link #adminAnswered}),
     *         0 if none: after a restart the gateway carries out only later ones
     */
    public long answeredAdminEventId() {
        return answeredAdminEventId;
    }

    /** Records the gateway's answer to an admin command it carried out or refused (its MetaData is the command's). */
    public void adminAnswered(final io.sluice.contracts.AdminOutcome outcome) {
        writer.adminAnswered(outcome);
        answeredAdminEventId = Math.max(answeredAdminEventId, outcome.metaData().eventId());
    }

    @Override
    public void sent(final FixSession session, final long seqNum, final int msgType, final long sendingTimeMillis,
                     final DirectBuffer buffer, final int bodyOffset, final int bodyLength, final long engineIndex) {
        writer.sent(outgoing.set(session.id(), seqNum, msgType, sendingTimeMillis, engineIndex, buffer, bodyOffset,
                bodyLength));
        lastSentIndex = appender.lastIndexAppended();
        countDelivered(engineIndex);
        history(session.id()).nextSenderSeq = seqNum + 1;
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
        final History history = history(session.id());
        history.nextTargetSeq = nextTargetSeq;
        history.lastProgressEventId = lastEventId;
    }

    @Override
    public void reset(final FixSession session, final long nextSenderSeq, final long nextTargetSeq,
                      final long lastEventId) {
        writer.reset(progress.set(session.id(), nextSenderSeq, nextTargetSeq, lastEventId));
        final History history = history(session.id());
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
        replay(session.id(), 0, beginSeq, endSeq, handler);
    }

    /**
     * The same scan as {@link #replay}, first passing the session's last reset record backwards: the forward
     * part stops at that record, so messages stored after the reset (with new, lower numbers) are never
     * mistaken for the old sequence's.
     */
    @Override
    public void replayBeforeReset(final FixSession session, final long beginSeq, final long endSeq,
                                  final StoredMessageHandler handler) {
        replay(session.id(), 1, beginSeq, endSeq, handler);
    }

    private void replay(final long id, final int resetsToPass, final long beginSeq, final long endSeq,
                        final StoredMessageHandler handler) {
        long start = NOT_STORED;
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
                break;
            }
            start = resendTailer.lastReadIndex();
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

    private History history(final long session) {
        History history = histories.get(session);
        if (history == null) {
            history = new History();
            histories.put(session, history);
        }
        return history;
    }

    /** Counts a report of the engine excerpt at {@code engineIndex} as delivered; 0: the message was no report. */
    private void countDelivered(final long engineIndex) {
        if (engineIndex == 0) {
            return;
        }
        if (engineIndex == deliveredEngineIndex) {
            deliveredFromExcerpt++;
        } else {
            deliveredEngineIndex = engineIndex;
            deliveredFromExcerpt = 1;
        }
    }

    /** Reads the whole journal, every record's checksum checked: a damaged one stops the gateway's start. */
    private void recover() {
        try (ExcerptTailer tailer = queue.createTailer(); JournalReader reader = new JournalReader(queue, tailer, new Recovery())) {
            while (reader.readOne()) {
                lastSentIndex = tailer.lastReadIndex(); // Recovery updates the histories as it reads.
            }
        }
    }

    /** What the store knows about one session. */
    private static final class History {
        long nextSenderSeq = 1;
        long nextTargetSeq = 1;
        long lastProgressEventId = -1;
    }

    /** Rebuilds the histories from the journal. */
    private final class Recovery implements GatewayRecords {
        @Override
        public void sent(final SentMessage message) {
            history(message.session()).nextSenderSeq = message.seqNum() + 1;
            countDelivered(message.engineIndex());
        }

        @Override
        public void received(final SessionProgress progress) {
            final History history = history(progress.session());
            history.nextTargetSeq = progress.nextTargetSeq();
            history.lastProgressEventId = progress.lastEventId();
            recordedEventId = Math.max(recordedEventId, progress.lastEventId());
        }

        @Override
        public void reset(final SessionProgress progress) {
            final History history = history(progress.session());
            history.nextSenderSeq = progress.nextSenderSeq();
            history.nextTargetSeq = progress.nextTargetSeq();
            recordedEventId = Math.max(recordedEventId, progress.lastEventId());
        }

        @Override
        public void adminAnswered(final io.sluice.contracts.AdminOutcome outcome) {
            answeredAdminEventId = Math.max(answeredAdminEventId, outcome.metaData().eventId());
        }

        @Override
        public void delivered(final Delivery delivery) {
            // Deliveries are for the latency tail; the report's sent record carries the engine index.
        }
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
            kind = SENT;
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
        public void adminAnswered(final io.sluice.contracts.AdminOutcome outcome) {
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
