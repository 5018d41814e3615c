package io.sluice.gateway;

import io.sluice.contracts.Delivery;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionStore;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The gateway's {@link SessionStore}, in its own journal ({@link GatewayRecords}). On open it reads the
 * journal from the start to recover, per session, the next sequence numbers and where each stored
 * application message is (for resends), plus the last engine-journal index delivered and the last command
 * eventId whose progress was recorded. Every write is one excerpt; a report's {@code sent} and
 * {@code delivered} records share one (see {@link #attachDelivery}).
 */
public final class JournalSessionStore implements SessionStore, AutoCloseable {
    private static final long NOT_STORED = -1;

    private final ChronicleQueue queue;
    private final ExcerptAppender appender;
    private final GatewayRecords writer;
    private final ExcerptTailer resendTailer;
    private final MethodReader resendReader;
    private final SentMessage outgoing;
    private final SessionProgress progress = new SessionProgress();
    private final Long2ObjectHashMap<History> histories = new Long2ObjectHashMap<>();
    private Delivery pendingDelivery;
    private long pendingEngineIndex;
    private long deliveredEngineIndex;
    private long recordedEventId;
    private long lastEventId;
    private SentMessage replayed;

    /** Opens (creating if needed) the journal in {@code queue} and recovers from it. */
    public JournalSessionStore(final ChronicleQueue queue, final int maxBodyLength) {
        this.queue = queue;
        this.outgoing = new SentMessage(maxBodyLength);
        recover();
        this.appender = queue.createAppender();
        // The writer must write through this very appender so that a sent and a delivered record opened in
        // one writingDocument() land in one excerpt (the queue's own method writer uses another appender).
        this.writer = queue.methodWriterBuilder(GatewayRecords.class).marshallableOut(appender).build();
        this.resendTailer = queue.createTailer();
        this.resendReader = resendTailer.methodReader(new Replay());
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

    /** Counts a command found in the command journal whose client message's progress was not recorded. */
    public void commandWithoutProgress(final long session) {
        history(session).nextTargetSeq++;
    }

    /** @return the engine-journal index of the last report delivered, or 0 if none. */
    public long deliveredEngineIndex() {
        return deliveredEngineIndex;
    }

    /** @return the highest command eventId a recorded session progress covers. */
    public long recordedEventId() {
        return recordedEventId;
    }

    /** Tells the store the last command eventId written, recorded with each session progress. */
    public void lastEventId(final long eventId) {
        this.lastEventId = eventId;
    }

    /** Makes the next {@link #sent} record also carry this delivery and the engine index of its report. */
    public void attachDelivery(final Delivery delivery, final long engineIndex) {
        this.pendingDelivery = delivery;
        this.pendingEngineIndex = engineIndex;
    }

    @Override
    public void sent(final FixSession session, final long seqNum, final int msgType, final long sendingTimeMillis,
                     final DirectBuffer buffer, final int bodyOffset, final int bodyLength) {
        outgoing.set(session.id(), seqNum, msgType, sendingTimeMillis, pendingEngineIndex, buffer, bodyOffset,
                bodyLength);
        try (DocumentContext ignored = appender.writingDocument()) {
            writer.sent(outgoing);
            if (pendingDelivery != null) {
                writer.delivered(pendingDelivery);
            }
        }
        if (pendingEngineIndex != 0) {
            deliveredEngineIndex = pendingEngineIndex;
        }
        pendingDelivery = null;
        pendingEngineIndex = 0;
        final History history = history(session.id());
        history.nextSenderSeq = seqNum + 1;
        if (bodyLength > 0) {
            history.stored.put(seqNum, appender.lastIndexAppended());
        }
    }

    @Override
    public void received(final FixSession session, final long nextTargetSeq) {
        writer.received(progress.set(session.id(), session.nextSenderSeq(), nextTargetSeq, lastEventId));
        history(session.id()).nextTargetSeq = nextTargetSeq;
    }

    @Override
    public void reset(final FixSession session, final long nextSenderSeq, final long nextTargetSeq) {
        writer.reset(progress.set(session.id(), nextSenderSeq, nextTargetSeq, lastEventId));
        final History history = history(session.id());
        history.nextSenderSeq = nextSenderSeq;
        history.nextTargetSeq = nextTargetSeq;
        history.stored.clear();
    }

    @Override
    public void replay(final FixSession session, final long beginSeq, final long endSeq,
                       final StoredMessageHandler handler) {
        final History history = histories.get(session.id());
        if (history == null) {
            return;
        }
        for (long seq = beginSeq; seq <= endSeq; seq++) {
            final long index = history.stored.get(seq);
            if (index == NOT_STORED || !resendTailer.moveToIndex(index)) {
                continue;
            }
            replayed = null;
            resendReader.readOne();
            if (replayed != null && replayed.seqNum() == seq && replayed.session() == session.id()) {
                handler.onStoredMessage(seq, replayed.msgType(), replayed.sendingTime(), replayed.body(), 0,
                        replayed.bodyLength());
            }
        }
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

    private void recover() {
        final ExcerptTailer tailer = queue.createTailer();
        final MethodReader reader = tailer.methodReader(new Recovery(tailer));
        while (reader.readOne()) {
            // Recovery updates the histories as it reads.
        }
        tailer.close();
    }

    /** What the store knows about one session. */
    private static final class History {
        long nextSenderSeq = 1;
        long nextTargetSeq = 1;
        final Long2LongHashMap stored = new Long2LongHashMap(NOT_STORED);
    }

    /** Rebuilds the histories from the journal. */
    private final class Recovery implements GatewayRecords {
        private final ExcerptTailer tailer;

        Recovery(final ExcerptTailer tailer) {
            this.tailer = tailer;
        }

        @Override
        public void sent(final SentMessage message) {
            final History history = history(message.session());
            history.nextSenderSeq = message.seqNum() + 1;
            if (message.bodyLength() > 0) {
                history.stored.put(message.seqNum(), tailer.index());
            }
            if (message.engineIndex() != 0) {
                deliveredEngineIndex = message.engineIndex();
            }
        }

        @Override
        public void received(final SessionProgress progress) {
            history(progress.session()).nextTargetSeq = progress.nextTargetSeq();
            recordedEventId = Math.max(recordedEventId, progress.lastEventId());
        }

        @Override
        public void reset(final SessionProgress progress) {
            final History history = history(progress.session());
            history.nextSenderSeq = progress.nextSenderSeq();
            history.nextTargetSeq = progress.nextTargetSeq();
            history.stored.clear();
            recordedEventId = Math.max(recordedEventId, progress.lastEventId());
        }

        @Override
        public void delivered(final Delivery delivery) {
            // Deliveries are for the latency tail; the sent record next to it carries the engine index.
        }
    }

    /** Captures the stored message a resend reads back. */
    private final class Replay implements GatewayRecords {
        @Override
        public void sent(final SentMessage message) {
            replayed = message;
        }

        @Override
        public void received(final SessionProgress progress) {
        }

        @Override
        public void reset(final SessionProgress progress) {
        }

        @Override
        public void delivered(final Delivery delivery) {
        }
    }
}
