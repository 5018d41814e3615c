package io.sluice.marketdata.publish;

import io.sluice.contracts.time.SluiceClock;
import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.PacketHeader;
import io.sluice.marketdata.feed.PacketWriter;
import io.sluice.marketdata.feed.RefusalReason;
import io.sluice.marketdata.feed.RetransmitRefusal;
import io.sluice.marketdata.journal.BatchHandler;
import io.sluice.marketdata.journal.BatchReader;
import io.sluice.marketdata.journal.SequenceSearch;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The feed's retransmission service, as an Agrona {@link Agent}: a TCP listener that sends messages again from the
 * market-data journal. Its clients ask for "sequence N, count M" (a {@link PacketHeader} with the feed's session) and
 * get those messages as feed packets, each framed by its length (an unsigned 16-bit integer before it), up to the last
 * message written.
 * A request that cannot be answered gets one packet of sequence 0 holding a {@link RetransmitRefusal} that says why:
 * {@link RefusalReason#MALFORMED_REQUEST} (count 0 or over {@code maxRetransmitCount}, sequence below 1) and
 * {@link RefusalReason#WRONG_SESSION}, after which the connection is closed; {@link RefusalReason#ARCHIVED} (the
 * journal no longer holds it) and {@link RefusalReason#NOT_YET_PUBLISHED}, after which the client may ask again.
 * Non-blocking throughout: a slow client only waits for its own answer.
 */
public final class RetransmitServer implements Agent, AutoCloseable {
    private static final int MAX_CLIENTS = 16;

    private final ServerSocketChannel server;
    private final Selector selector;
    private final Consumer<SelectionKey> onAcceptable = key -> accept();
    private final byte[] session;
    private final int maxCount;
    private final SequenceSearch search;
    private final ExcerptTailer tailer;
    private final BatchReader reader;
    private final PacketWriter packet;
    private final RetransmitRefusal refusal = new RetransmitRefusal();
    private final Client[] clients = new Client[MAX_CLIENTS];
    private final Filler filler = new Filler();
    private long refused;
    private long answered;

    public RetransmitServer(final InetSocketAddress listen, final byte[] session, final int maxCount,
                            final ChronicleQueue journal) {
        this.session = session.clone();
        this.maxCount = maxCount;
        search = new SequenceSearch(journal);
        tailer = journal.createTailer();
        reader = new BatchReader(journal, tailer);
        packet = new PacketWriter(session);
        for (int i = 0; i < MAX_CLIENTS; i++) {
            clients[i] = new Client();
        }
        try {
            server = ServerSocketChannel.open();
            server.bind(listen);
            server.configureBlocking(false);
            // Accepting only when a connection waits: ServerSocketChannel.accept allocates on every call, even with
            // nothing to accept; selectNow with a consumer built once does not.
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot listen for retransmission requests on " + listen, e);
        }
    }

    /** @return where it listens (with the port the OS chose, if the config said 0) */
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int doWork() {
        int work;
        try {
            work = selector.selectNow(onAcceptable);
        } catch (final IOException e) {
            throw new UncheckedIOException("the retransmission service's selector failed", e);
        }
        for (final Client client : clients) {
            if (client.channel != null) {
                work += client.work();
            }
        }
        return work;
    }

    private int accept() {
        try {
            final SocketChannel accepted = server.accept();
            if (accepted == null) {
                return 0;
            }
            for (final Client client : clients) {
                if (client.channel == null) {
                    accepted.configureBlocking(false);
                    accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    client.open(accepted);
                    return 1;
                }
            }
            accepted.close();
            return 1;
        } catch (final IOException e) {
            return 0;
        }
    }

    /** @return requests refused */
    public long refused() {
        return refused;
    }

    /** @return requests answered with messages */
    public long answered() {
        return answered;
    }

    @Override
    public String roleName() {
        return "marketdata-retransmit";
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public void close() {
        for (final Client client : clients) {
            client.close();
        }
        try {
            selector.close();
            server.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        tailer.close();
        search.close();
    }

    /** What a connection is doing. */
    private enum State {
        /** Reading the next request. */
        READING,
        /** Sending the messages asked for. */
        SENDING,
        /** Sending a refusal, then closing. */
        CLOSING
    }

    /** One connection: its request buffer, what it still has to get, and the bytes not yet written. */
    private final class Client {
        private final ByteBuffer request = ByteBuffer.allocateDirect(PacketHeader.LENGTH);
        private final UnsafeBuffer requestView = new UnsafeBuffer(request);
        private final ByteBuffer out = ByteBuffer.allocateDirect(64 * 1024).order(FeedLayout.ORDER);
        private SocketChannel channel;
        private State state;
        private long next;
        private long end;

        void open(final SocketChannel channel) {
            this.channel = channel;
            state = State.READING;
            request.clear();
            out.clear().flip();
        }

        int work() {
            try {
                if (out.hasRemaining()) {
                    channel.write(out);
                    if (out.hasRemaining()) {
                        return 1;
                    }
                }
                return switch (state) {
                    case SENDING -> fill();
                    case CLOSING -> {
                        close();
                        yield 1;
                    }
                    case READING -> read();
                };
            } catch (final IOException e) {
                close();
                return 1;
            }
        }

        private int read() throws IOException {
            if (channel.read(request) < 0) {
                close();
                return 1;
            }
            if (request.hasRemaining()) {
                return 0;
            }
            request.clear();
            final long sequence = PacketHeader.sequence(requestView, 0);
            final int count = PacketHeader.count(requestView, 0);
            if (!PacketHeader.isSession(requestView, 0, session)) {
                refuse(RefusalReason.WRONG_SESSION, sequence, State.CLOSING);
            } else if (sequence < 1 || count == 0 || count > maxCount) {
                refuse(RefusalReason.MALFORMED_REQUEST, sequence, State.CLOSING);
            } else {
                final long index = search.indexOf(sequence);
                if (index == SequenceSearch.ARCHIVED) {
                    refuse(RefusalReason.ARCHIVED, sequence, State.READING);
                } else if (index == SequenceSearch.NOT_YET_WRITTEN) {
                    refuse(RefusalReason.NOT_YET_PUBLISHED, sequence, State.READING);
                } else {
                    next = sequence;
                    end = Math.min(sequence + count, search.nextToWrite());
                    state = State.SENDING;
                    answered++;
                }
            }
            return 1;
        }

        /** Appends packets of the messages asked for while they fit the output buffer. */
        private int fill() {
            out.compact();
            while (next < end && out.remaining() >= FeedLayout.MAX_PACKET + FeedLayout.BLOCK_LENGTH_PREFIX) {
                final long index = search.indexOf(next);
                if (index < 0 || !tailer.moveToIndex(index)) {
                    end = next;
                    break;
                }
                packet.begin(next);
                filler.start(next, end);
                while (!filler.full && filler.next < end && reader.readOne(filler)) {
                    // batches until the packet is full or the request answered
                }
                next = filler.next;
                frame(packet.finish());
            }
            out.flip();
            if (next >= end) {
                state = State.READING;
            }
            return 1;
        }

        private void refuse(final RefusalReason reason, final long sequence, final State then) {
            refused++;
            packet.begin(0);
            refusal.wrapForEncode(packet.buffer(), packet.nextMessageOffset());
            packet.commit(refusal.encode(reason, SluiceClock.nowTicks(), sequence, search.firstHeld(),
                    search.nextToWrite()));
            out.compact();
            frame(packet.finish());
            out.flip();
            state = then;
        }

        private void frame(final ByteBuffer packetBytes) {
            out.putShort((short) packetBytes.remaining());
            out.put(packetBytes);
        }

        void close() {
            if (channel != null) {
                try {
                    channel.close();
                } catch (final IOException ignored) {
                    // closing: nothing more to do with it
                }
                channel = null;
            }
        }
    }

    /** Copies the messages of a batch from {@code next} (below {@code end}) into the packet while they fit. */
    private final class Filler implements BatchHandler {
        private long next;
        private long end;
        private boolean full;

        void start(final long from, final long to) {
            next = from;
            end = to;
            full = false;
        }

        @Override
        public void onBatch(final long engineIndex, final long firstSequence, final int count, final DirectBuffer blocks,
                            final int length) {
            long sequence = firstSequence;
            for (int at = 0; at < length; ) {
                final int messageLength = blocks.getShort(at, FeedLayout.ORDER) & 0xFFFF;
                if (sequence == next && next < end && !full) {
                    if (packet.fits(messageLength)) {
                        packet.append(blocks, at + FeedLayout.BLOCK_LENGTH_PREFIX, messageLength);
                        next++;
                    } else {
                        full = true;
                    }
                }
                sequence++;
                at += FeedLayout.BLOCK_LENGTH_PREFIX + messageLength;
            }
        }
    }
}
