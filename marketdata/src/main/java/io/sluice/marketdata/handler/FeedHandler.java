package io.sluice.marketdata.handler;

import io.sluice.marketdata.book.Applied;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.BookChecksum;
import io.sluice.marketdata.feed.EndOfSnapshot;
import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.PacketHeader;
import io.sluice.marketdata.feed.RefusalReason;
import io.sluice.marketdata.feed.RetransmitRefusal;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;

/**
 * The reference feed handler, as an Agrona {@link Agent}: rebuilds the publisher's books from the binary feed alone.
 * <ul>
 * <li><b>Joining</b> ({@link State#JOINING}), at any time: incremental packets are kept ({@link PacketStash}) while it
 *     waits for a whole snapshot (packets numbered from 1 without a gap, every book checksum in it matching); the
 *     snapshot's end names the last message it holds, and the kept packets after it are applied.</li>
 * <li><b>Live</b>: a packet of the next sequence is applied; one wholly before it is a duplicate and dropped (a packet
 *     that overlaps is applied from the next sequence); one after it is kept, and the gap before it asked for from the
 *     retransmission service (again every {@value #REREQUEST_MILLIS} ms while it stays open). A heartbeat naming a
 *     later sequence is a gap too. Retransmitted packets take the same path as live ones.</li>
 * <li>Every book checksum of the feed is compared with the handler's own ({@link BookListener#onChecksum}).</li>
 * <li>A message that does not apply (the books diverged), and a refusal because the messages were archived away, make
 *     it join again from the next snapshot.</li>
 * </ul>
 * Zero allocation per packet in steady state; single-threaded.
 */
public final class FeedHandler implements Agent, AutoCloseable {
    static final long REREQUEST_MILLIS = 100;
    /** Packets read per socket per {@link #doWork()} at most. */
    private static final int BURST = 64;

    /** Where the handler is. */
    public enum State {
        /** Waiting for a whole snapshot; incrementals are kept. */
        JOINING,
        /** Applying incrementals in sequence. */
        LIVE
    }

    private final byte[] session;
    private final byte statusAtStart;
    private final OrderBooks books;
    private final DatagramChannel incremental;
    private final DatagramChannel snapshots;
    private final RetransmitClient retransmit;
    private final InetSocketAddress retransmitAddress;
    private final PacketStash stash;
    private final NanoClock clock;
    private final ByteBuffer received = ByteBuffer.allocateDirect(FeedLayout.MAX_PACKET + 1);
    private final UnsafeBuffer receivedView = new UnsafeBuffer(received);
    private final UnsafeBuffer kept = new UnsafeBuffer(ByteBuffer.allocateDirect(FeedLayout.MAX_PACKET));
    private final BookChecksum checksum = new BookChecksum();
    private final EndOfSnapshot end = new EndOfSnapshot();
    private final RetransmitRefusal refusal = new RetransmitRefusal();
    private final RetransmitClient.Receiver onRetransmitted = this::onRetransmitted;
    private BookListener listener = BookListener.NONE;
    private State state = State.JOINING;
    private long expected;
    private long gapEnd;
    private long requestedEnd;
    private long requestedAtNanos;
    private boolean inSnapshot;
    private long snapshotNext;
    private long applied;
    private long duplicates;
    private long gaps;
    private long requests;
    private long refusals;
    private RefusalReason lastRefusal;
    private long checksumsMatched;
    private long checksumsMismatched;
    private long joins;
    private long diverged;
    private long turnedAway;

    /**
     * @param incrementalAddress where it receives incremental packets (a multicast group is joined on {@code face})
     * @param snapshotAddress    where it receives snapshot packets
     * @param retransmitAddress  the retransmission service
     * @param face               the interface to join multicast groups on, or null
     * @param clock              when to ask for a gap again and to reconnect to the retransmission service
     */
    public FeedHandler(final byte[] session, final long[] symbols, final byte statusAtStart, final int maxOrders,
                       final int maxLevels, final InetSocketAddress incrementalAddress,
                       final InetSocketAddress snapshotAddress, final InetSocketAddress retransmitAddress,
                       final NetworkInterface face, final int stashedPackets, final NanoClock clock) {
        this.session = session.clone();
        this.statusAtStart = statusAtStart;
        books = new OrderBooks(symbols, statusAtStart, maxOrders, maxLevels);
        incremental = bind(incrementalAddress, face);
        snapshots = bind(snapshotAddress, face);
        this.clock = clock;
        retransmit = new RetransmitClient(retransmitAddress, session, clock);
        this.retransmitAddress = retransmitAddress;
        stash = new PacketStash(stashedPackets);
    }

    private static DatagramChannel bind(final InetSocketAddress address, final NetworkInterface face) {
        try {
            final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 8 * 1024 * 1024);
            if (address.getAddress().isMulticastAddress()) {
                channel.bind(new InetSocketAddress(address.getPort()));
                if (face == null) {
                    throw new IllegalArgumentException("the multicast group " + address + " needs an interface to join on");
                }
                channel.join(address.getAddress(), face);
            } else {
                channel.bind(address);
            }
            channel.configureBlocking(false);
            return channel;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot receive the feed on " + address + ": " + e.getMessage(), e);
        }
    }

    /** Tells {@code listener} what the handler applies and checks from now on. */
    public FeedHandler listener(final BookListener listener) {
        this.listener = listener;
        return this;
    }

    @Override
    public int doWork() {
        int work = 0;
        for (int i = 0; i < BURST && receive(incremental); i++) {
            onIncremental(receivedView, 0, received.position());
            work++;
        }
        for (int i = 0; i < BURST && receive(snapshots); i++) {
            onSnapshot(receivedView, 0, received.position());
            work++;
        }
        work += retransmit.poll(onRetransmitted);
        if (state == State.LIVE && gapEnd > expected) {
            askForGap();
        }
        return work;
    }

    private boolean receive(final DatagramChannel channel) {
        received.clear();
        try {
            return channel.receive(received) != null;
        } catch (final IOException e) {
            return false;
        }
    }

    /** An incremental packet, from the feed (or a test). */
    public void onIncremental(final DirectBuffer buffer, final int offset, final int length) {
        if (length < PacketHeader.LENGTH || !PacketHeader.isSession(buffer, offset, session)) {
            return;
        }
        if (state == State.JOINING) {
            if (PacketHeader.count(buffer, offset) > 0 && !stash.keep(buffer, offset, length)) {
                turnedAway++;
            }
            return;
        }
        deliver(buffer, offset, length);
    }

    private void deliver(final DirectBuffer buffer, final int offset, final int length) {
        final long sequence = PacketHeader.sequence(buffer, offset);
        final int count = PacketHeader.count(buffer, offset);
        if (count == 0) {
            gap(sequence);
            return;
        }
        if (sequence + count <= expected) {
            duplicates++;
            return;
        }
        if (sequence > expected) {
            if (!stash.keep(buffer, offset, length)) {
                turnedAway++;
            }
            gap(sequence);
            return;
        }
        applyPacket(buffer, offset, length);
        applyKept();
        if (state == State.LIVE) {
            gapEnd = stash.size() > 0 ? stash.lowest() : expected;
        }
    }

    /** Applies the kept packets that continue the sequence, while they do. */
    private void applyKept() {
        while (state == State.LIVE) {
            final int slot = stash.covering(expected);
            if (slot < 0) {
                return;
            }
            final int keptLength = stash.take(slot, kept);
            applyPacket(kept, 0, keptLength);
        }
    }

    /** Applies the messages of a packet from the expected sequence on. */
    private void applyPacket(final DirectBuffer buffer, final int offset, final int length) {
        long sequence = PacketHeader.sequence(buffer, offset);
        final int packetEnd = offset + length;
        for (int at = offset + PacketHeader.LENGTH; at + FeedLayout.BLOCK_LENGTH_PREFIX <= packetEnd && state == State.LIVE; ) {
            final int messageLength = buffer.getShort(at, FeedLayout.ORDER) & 0xFFFF;
            final int message = at + FeedLayout.BLOCK_LENGTH_PREFIX;
            if (sequence == expected) {
                applyMessage(buffer, message, sequence);
                expected = sequence + 1;
            }
            sequence++;
            at = message + messageLength;
        }
    }

    private void applyMessage(final DirectBuffer buffer, final int offset, final long sequence) {
        if (FeedMessage.typeAt(buffer, offset) == BookChecksum.TYPE_C) {
            checksum.wrapForDecode(buffer, offset);
            final int instrument = books.instrumentOf(checksum.symbol());
            if (instrument < 0) {
                rejoin();
                return;
            }
            final long own = books.checksum(instrument);
            if (own == checksum.checksum()) {
                checksumsMatched++;
            } else {
                checksumsMismatched++;
            }
            listener.onChecksum(instrument, sequence, checksum.checksum(), own);
            return;
        }
        if (books.apply(buffer, offset) != Applied.OK) {
            diverged++;
            rejoin();
            return;
        }
        applied++;
        listener.onApplied(sequence, FeedMessage.timestampAt(buffer, offset));
    }

    /** Messages before {@code upTo} (exclusive) are missing: ask for them. */
    private void gap(final long upTo) {
        if (upTo > expected && upTo > gapEnd) {
            if (gapEnd <= expected) {
                gaps++;
            }
            gapEnd = upTo;
            askForGap();
        }
    }

    private void askForGap() {
        final long now = clock.nanoTime();
        if (requestedEnd > expected && now - requestedAtNanos < TimeUnit.MILLISECONDS.toNanos(REREQUEST_MILLIS)) {
            return;
        }
        final int count = (int) Math.min(gapEnd - expected, 10_000);
        if (retransmit.request(expected, count)) {
            requests++;
            requestedEnd = expected + count;
            requestedAtNanos = now;
        }
    }

    private void onRetransmitted(final DirectBuffer buffer, final int offset, final int length) {
        if (length < PacketHeader.LENGTH) {
            return;
        }
        if (PacketHeader.sequence(buffer, offset) == 0) {
            refusal.wrapForDecode(buffer, offset + PacketHeader.LENGTH + FeedLayout.BLOCK_LENGTH_PREFIX);
            refusals++;
            lastRefusal = refusal.reason();
            requestedEnd = 0;
            if (lastRefusal == RefusalReason.ARCHIVED) {
                rejoin();
            }
            return;
        }
        onIncremental(buffer, offset, length);
    }

    /** A snapshot packet: taken only while joining. */
    public void onSnapshot(final DirectBuffer buffer, final int offset, final int length) {
        if (state != State.JOINING || length < PacketHeader.LENGTH || !PacketHeader.isSession(buffer, offset, session)) {
            return;
        }
        final long sequence = PacketHeader.sequence(buffer, offset);
        if (sequence == 1) {
            books.clear(statusAtStart);
            inSnapshot = true;
            snapshotNext = 1;
        }
        if (!inSnapshot || sequence != snapshotNext) {
            inSnapshot = false;
            return;
        }
        snapshotNext += PacketHeader.count(buffer, offset);
        final int packetEnd = offset + length;
        for (int at = offset + PacketHeader.LENGTH; at + FeedLayout.BLOCK_LENGTH_PREFIX <= packetEnd && inSnapshot; ) {
            final int messageLength = buffer.getShort(at, FeedLayout.ORDER) & 0xFFFF;
            final int message = at + FeedLayout.BLOCK_LENGTH_PREFIX;
            final byte type = FeedMessage.typeAt(buffer, message);
            if (type == EndOfSnapshot.TYPE_E) {
                end.wrapForDecode(buffer, message);
                joined(end.lastSequence());
                return;
            }
            if (type == BookChecksum.TYPE_C) {
                checksum.wrapForDecode(buffer, message);
                final int instrument = books.instrumentOf(checksum.symbol());
                inSnapshot = instrument >= 0 && books.checksum(instrument) == checksum.checksum();
            } else if (books.apply(buffer, message) != Applied.OK) {
                inSnapshot = false;
            }
            at = message + messageLength;
        }
    }

    private void joined(final long lastSequence) {
        inSnapshot = false;
        state = State.LIVE;
        joins++;
        expected = lastSequence + 1;
        gapEnd = expected;
        requestedEnd = 0;
        applyKept();
        if (state == State.LIVE && stash.size() > 0) {
            gap(stash.lowest());
        }
    }

    private void rejoin() {
        state = State.JOINING;
        inSnapshot = false;
        gapEnd = 0;
        requestedEnd = 0;
    }

    /** @return where it receives incremental packets (with the port the OS chose, if asked for port 0) */
    public InetSocketAddress incrementalAddress() {
        return localAddress(incremental);
    }

    /** @return the retransmission service it asks */
    public InetSocketAddress retransmitAddress() {
        return retransmitAddress;
    }

    /** @return where it receives snapshot packets */
    public InetSocketAddress snapshotAddress() {
        return localAddress(snapshots);
    }

    private static InetSocketAddress localAddress(final DatagramChannel channel) {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public State state() {
        return state;
    }

    /** @return the sequence it applies next */
    public long expected() {
        return expected;
    }

    public OrderBooks books() {
        return books;
    }

    /** @return incremental messages applied to the books (checksums not counted) */
    public long applied() {
        return applied;
    }

    public long duplicates() {
        return duplicates;
    }

    /** @return gaps found (each asked for once or more) */
    public long gaps() {
        return gaps;
    }

    /** @return retransmission requests sent */
    public long requests() {
        return requests;
    }

    public long refusals() {
        return refusals;
    }

    /** @return why the last retransmission request was refused, or null */
    public RefusalReason lastRefusal() {
        return lastRefusal;
    }

    public long checksumsMatched() {
        return checksumsMatched;
    }

    public long checksumsMismatched() {
        return checksumsMismatched;
    }

    /** @return how many times it joined from a snapshot */
    public long joins() {
        return joins;
    }

    /** @return messages that did not apply (each made it join again) */
    public long diverged() {
        return diverged;
    }

    /** @return packets it had no room to keep */
    public long turnedAway() {
        return turnedAway;
    }

    @Override
    public String roleName() {
        return "feed-handler";
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public void close() {
        retransmit.close();
        try {
            incremental.close();
            snapshots.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
