package io.sluice.marketdata.publish;

import io.sluice.contracts.TradingSession;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.book.Applied;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.feed.PacketWriter;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchHandler;
import io.sluice.marketdata.journal.BatchReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The feed's sender, as an Agrona {@link Agent}: tails the market-data journal and sends its messages in sequenced UDP
 * packets. A packet holds as many consecutive messages as fit, and goes as soon as the journal has nothing more now; a
 * heartbeat (a packet of no messages, naming the next sequence) goes when it has sent nothing for the heartbeat
 * interval, and on the snapshot channel, every snapshot interval, a snapshot of the books as of the last message it
 * sent ({@link SnapshotEncoder}). It keeps its own {@link OrderBooks}, built from the messages as it sends them.
 * <p>
 * On start it reads the journal to its end (the books as they are) and sends what is appended after: a receiver that
 * missed messages in between, or while this process was down, has them retransmitted.
 */
public final class FeedPublisher implements Agent, AutoCloseable {
    /** Batches read per {@link #doWork()} at most. */
    private static final int BURST = 256;
    /** More messages than one packet holds. */
    private static final int MAX_PER_PACKET = 128;

    private final ChronicleQueue journal;
    private final ExcerptTailer tailer;
    private final BatchReader reader;
    private final OrderBooks books;
    private final PacketWriter packet;
    private final SnapshotEncoder snapshots;
    private final UdpSender incremental;
    private final UdpSender snapshotChannel;
    private final long heartbeatNanos;
    private final long snapshotNanos;
    private final boolean snapshotting;
    private final long[] timestamps = new long[MAX_PER_PACKET];
    private final BatchHandler onBatch = this::onBatch;
    private final MessageHandler onMessage = this::onMessage;
    private final Consumer<ByteBuffer> sendSnapshotPacket;
    private final NanoClock clock;
    private SendLatency latency = SendLatency.NONE;
    private long nextSequence;
    private long lastSentNanos;
    private long nextSnapshotNanos;
    private long packetsSent;
    private long snapshotsSent;

    /** @param clock read once per {@link #doWork()}, after the round's packets went */
    public FeedPublisher(final MarketDataConfig config, final ChronicleQueue journal, final NanoClock clock) {
        this.journal = journal;
        this.clock = clock;
        tailer = journal.createTailer();
        reader = new BatchReader(journal, tailer);
        books = new OrderBooks(config.symbols(),
                config.tradingSessionAtStart() == TradingSession.OPEN ? TradingStatus.OPEN : TradingStatus.CLOSED,
                config.maxOrders(), config.maxPriceLevels());
        packet = new PacketWriter(config.sessionBytes());
        snapshots = new SnapshotEncoder(config.sessionBytes());
        incremental = new UdpSender(config.incrementalAddresses(), config.multicastInterface());
        snapshotChannel = new UdpSender(config.snapshotAddresses(), config.multicastInterface());
        sendSnapshotPacket = snapshotChannel::send;
        heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(config.heartbeatIntervalMillis());
        snapshotNanos = TimeUnit.MILLISECONDS.toNanos(config.snapshotIntervalMillis());
        snapshotting = !config.snapshotAddresses().isEmpty();
        nextSequence = 1;
        final BatchHandler catchUp = (engineIndex, firstSequence, count, blocks, length) -> {
            MessageHandler.forEach(blocks, 0, length, (buffer, offset, messageLength) -> apply(buffer, offset));
            nextSequence = firstSequence + count;
        };
        while (reader.readOneToEnd(catchUp)) {
            // to the journal's end: the books as they are
        }
        lastSentNanos = clock.nanoTime();
        nextSnapshotNanos = lastSentNanos;
    }

    /** Reports each message's order-to-tick to {@code latency} from now on (benchmarks). */
    public FeedPublisher latency(final SendLatency latency) {
        this.latency = latency;
        return this;
    }

    @Override
    public int doWork() {
        final long packetsBefore = packetsSent;
        int work = 0;
        while (work < BURST && reader.readOne(onBatch)) {
            work++;
        }
        if (packet.count() > 0) {
            send();
        }
        final long now = clock.nanoTime();
        if (work == 0 && now - lastSentNanos >= heartbeatNanos) {
            packet.begin(nextSequence);
            send();
            work++;
        }
        if (packetsSent != packetsBefore) {
            lastSentNanos = now;
        }
        if (snapshotting && now - nextSnapshotNanos >= 0) {
            snapshots.write(books, nextSequence - 1, SluiceClock.nowTicks(), sendSnapshotPacket);
            snapshotsSent++;
            nextSnapshotNanos = now + snapshotNanos;
            work++;
        }
        return work;
    }

    private void onBatch(final long engineIndex, final long firstSequence, final int count, final DirectBuffer blocks,
                         final int length) {
        if (firstSequence != nextSequence) {
            throw CorruptJournalException.at(journal, tailer.lastReadIndex(), -1, "a batch numbered from "
                    + firstSequence + " where " + nextSequence + " was next", null);
        }
        MessageHandler.forEach(blocks, 0, length, onMessage);
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length) {
        apply(buffer, offset);
        if (packet.count() > 0 && (!packet.fits(length) || packet.count() == MAX_PER_PACKET)) {
            send();
        }
        if (packet.count() == 0) {
            packet.begin(nextSequence);
        }
        timestamps[packet.count()] = buffer.getLong(offset + FeedMessage.TIMESTAMP, FeedLayout.ORDER);
        packet.append(buffer, offset, length);
        nextSequence++;
    }

    private void apply(final DirectBuffer buffer, final int offset) {
        final Applied applied = books.apply(buffer, offset);
        if (applied != Applied.OK) {
            throw new IllegalStateException("the market-data journal's message " + nextSequence + " does not apply: "
                    + applied);
        }
    }

    private void send() {
        final int count = packet.count();
        incremental.send(packet.finish());
        packetsSent++;
        if (latency != SendLatency.NONE && count > 0) {
            final long sent = SluiceClock.nowTicks();
            for (int i = 0; i < count; i++) {
                latency.onSent(timestamps[i], sent);
            }
        }
        packet.begin(nextSequence);
    }

    /** @return the sequence the next message sent will have */
    public long nextSequence() {
        return nextSequence;
    }

    /** @return incremental packets sent (heartbeats included) */
    public long packetsSent() {
        return packetsSent;
    }

    /** @return snapshots sent */
    public long snapshotsSent() {
        return snapshotsSent;
    }

    /** @return packets the sockets could not take, incremental and snapshot */
    public long packetsDropped() {
        return incremental.dropped() + snapshotChannel.dropped();
    }

    @Override
    public String roleName() {
        return "marketdata-publisher";
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public void close() {
        tailer.close();
        incremental.close();
        snapshotChannel.close();
    }
}
