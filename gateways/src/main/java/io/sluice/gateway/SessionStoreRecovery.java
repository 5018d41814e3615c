package io.sluice.gateway;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionCheckpoint;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.gateway.codec.MsgTypes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * What a gateway's restart recovers from its own journal ({@link GatewayRecords}), read on its own. Per session the
 * next sequence numbers, and for the gateway the last command eventId whose progress is recorded and the engine-journal
 * excerpt of the last report delivered (with how many of its reports were) and the last admin command answered. The
 * journal is read from its first kept record to its end, every checksum checked; a {@link GatewayRecords#checkpoint}
 * replaces everything read before it, so once the journal's older days are archived (the newest checkpoint kept), the
 * state is the same as from the whole journal. A {@code sent} record only raises a session's next MsgSeqNum (a
 * reservation for unresendable messages numbers past those sent after it); only a reset or a checkpoint lowers it.
 * {@link JournalSessionStore} starts from it; {@code ./sluice archive} reads, without the gateway, what a restart still
 * needs: the newest checkpoint ({@link #lastCheckpointIndex()}) and the engine-journal excerpt
 * delivery resumes at ({@link #deliveredEngineIndex()}). Start-up code.
 */
public final class SessionStoreRecovery implements GatewayRecords {
    /** What is known about one session. */
    static final class History {
        long nextSenderSeq = 1;
        long nextTargetSeq = 1;
        /** The eventId of the session's last recorded client progress, -1 if none (cancel-on-disconnect's restart). */
        long lastProgressEventId = -1;
    }

    /**
     * How many MsgSeqNums one reservation record keeps for unresendable messages: at most this many go unused (and are
     * gap-filled) after a restart.
     */
    static final int RESERVED_BLOCK = 1_024;
    /** The MsgType of a {@code sent} record that is no message but reserves the numbers up to its MsgSeqNum. */
    static final int RESERVATION = MsgTypes.INVALID;

    final Long2ObjectHashMap<History> histories = new Long2ObjectHashMap<>();
    long deliveredEngineIndex;
    long deliveredFromExcerpt;
    long recordedEventId;
    long answeredAdminEventId;
    private long lastIndex = -1;
    private long lastCheckpointIndex = -1;
    private boolean checkpointRead;

    private SessionStoreRecovery() {
    }

    /**
     * Reads {@code journal} (a gateway's {@code -out} journal, which may be opened read-only) from its start.
     *
     * @throws io.sluice.contracts.journal.CorruptJournalException if a record is damaged
     */
    public static SessionStoreRecovery read(final ChronicleQueue journal) {
        return new SessionStoreRecovery().readOn(journal);
    }

    /**
     * Reads on from after the last excerpt read (from the start if none) to the end of {@code journal}: what the same
     * journal, which only grows, holds since. So a standby's gateway that read its replica journal ahead of the
     * promotion reads only the rest once it writes it.
     *
     * @return this
     * @throws io.sluice.contracts.journal.CorruptJournalException if a record is damaged, or the excerpt last read is
     *                                                             no longer there
     */
    SessionStoreRecovery readOn(final ChronicleQueue journal) {
        try (ExcerptTailer tailer = journal.createTailer(); JournalReader reader = new JournalReader(journal, tailer, this)) {
            if (lastIndex >= 0) {
                skipLastRead(journal, tailer);
            }
            while (reader.readOneToEnd()) {
                lastIndex = tailer.lastReadIndex();
                if (checkpointRead) {
                    lastCheckpointIndex = lastIndex;
                    checkpointRead = false;
                }
            }
        }
        return this;
    }

    /** Moves {@code tailer} past the excerpt read last, which must still be there. */
    private void skipLastRead(final ChronicleQueue journal, final ExcerptTailer tailer) {
        final boolean there;
        if (tailer.moveToIndex(lastIndex)) {
            try (DocumentContext excerpt = tailer.readingDocument()) {
                there = excerpt.isPresent();
            }
        } else {
            there = false;
        }
        if (!there) {
            throw CorruptJournalException.at(journal, lastIndex, -1, "the excerpt read last is no longer there: the"
                    + " journal was not only appended to since", null);
        }
    }

    /** @return the index of the journal's last excerpt, or -1 if it holds none */
    public long lastIndex() {
        return lastIndex;
    }

    /** @return the index of the newest checkpoint excerpt, or -1 if the journal holds none */
    public long lastCheckpointIndex() {
        return lastCheckpointIndex;
    }

    /** @return the engine-journal index of the last report delivered, 0 if none: where report delivery resumes */
    public long deliveredEngineIndex() {
        return deliveredEngineIndex;
    }

    /** @return how many sessions have state */
    public int sessions() {
        return histories.size();
    }

    /** @return the next MsgSeqNum the gateway sends on {@code session} (1 if it never sent) */
    public long nextSenderSeq(final long session) {
        final History history = histories.get(session);
        return history == null ? 1 : history.nextSenderSeq;
    }

    /** @return the next MsgSeqNum the gateway expects from {@code session} (1 if none) */
    public long nextTargetSeq(final long session) {
        final History history = histories.get(session);
        return history == null ? 1 : history.nextTargetSeq;
    }

    History history(final long session) {
        History history = histories.get(session);
        if (history == null) {
            history = new History();
            histories.put(session, history);
        }
        return history;
    }

    /** Counts a report of the engine excerpt at {@code engineIndex} as delivered; 0: the message was no report. */
    void countDelivered(final long engineIndex) {
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

    @Override
    public void sent(final SentMessage message) {
        final History history = history(message.session());
        history.nextSenderSeq = Math.max(history.nextSenderSeq, message.seqNum() + 1);
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
    public void checkpoint(final SessionCheckpoint checkpoint) {
        final History history = history(checkpoint.session());
        history.nextSenderSeq = checkpoint.nextSenderSeq();
        history.nextTargetSeq = checkpoint.nextTargetSeq();
        history.lastProgressEventId = checkpoint.lastProgressEventId();
        recordedEventId = checkpoint.recordedEventId();
        answeredAdminEventId = checkpoint.answeredAdminEventId();
        deliveredEngineIndex = checkpoint.deliveredEngineIndex();
        deliveredFromExcerpt = checkpoint.deliveredFromExcerpt();
        checkpointRead = true;
    }

    @Override
    public void adminAnswered(final AdminOutcome outcome) {
        answeredAdminEventId = Math.max(answeredAdminEventId, outcome.metaData().eventId());
    }

    @Override
    public void delivered(final Delivery delivery) {
        // Deliveries are for the latency tail; the report's sent record carries the engine index.
    }
}
