package io.sluice.marketdata.publish;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.MarketDataJournalContents;
import io.sluice.marketdata.derive.MarketDataService;
import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.FeedText;
import io.sluice.marketdata.feed.PacketHeader;
import io.sluice.marketdata.feed.RefusalReason;
import io.sluice.marketdata.feed.RetransmitRefusal;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchWriter;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The retransmission service answers "sequence N, count M" with exactly those messages of the market-data journal,
 * and refuses what it cannot answer with a packet of sequence 0 that says why: a malformed request or another session
 * (then it closes the connection), a sequence not published yet or archived away (the connection stays open).
 */
final class RetransmitServerTest {
    private static final byte[] SESSION = PacketHeader.sessionBytes("SLUICE");

    @TempDir
    Path dir;

    @Test
    void aRequestIsAnsweredWithExactlyTheMessagesAskedForFromTheJournal() throws Exception {
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 31);
             MarketDataService service = new MarketDataService(TwoInstrumentMarketData.config(root, "127.0.0.1:9"))) {
            engine.trade(3_000, 397);
            while (service.doWork() > 0) {
                // derive it all
            }
            final List<String> journal = MarketDataJournalContents.messages(root);
            try (RetransmitServer server = server(service.journal(), 500);
                 Client client = new Client(server)) {
                final List<String> answered = client.ask(SESSION, 1_000, 300).messages(300);
                assertEquals(journal.subList(999, 1_299), answered);
                assertEquals(client.packets.size() > 1, true, "several packets: " + client.packets.size());
                final long last = service.nextSequence() - 1;
                assertEquals(journal.subList((int) last - 6, (int) last), client.ask(SESSION, last - 5, 100).messages(6),
                        "answered up to the last message written");
            }
        }
    }

    @Test
    void malformedRequestsAndOtherSessionsAreRefusedAndTheConnectionClosed() throws Exception {
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 32);
             MarketDataService service = new MarketDataService(TwoInstrumentMarketData.config(root, "127.0.0.1:9"));
             RetransmitServer server = server(service.journal(), 500)) {
            engine.trade(200, 397);
            while (service.doWork() > 0) {
                // derive it all
            }
            for (final long[] request : new long[][] {{1, 0}, {0, 10}, {1, 501}}) {
                try (Client client = new Client(server)) {
                    final RetransmitRefusal refusal = client.ask(SESSION, request[0], (int) request[1]).refusal();
                    assertEquals(RefusalReason.MALFORMED_REQUEST, refusal.reason(), "request " + request[0] + "/" + request[1]);
                    assertTrue(client.closedByServer(), "closed after a malformed request");
                }
            }
            try (Client client = new Client(server)) {
                final RetransmitRefusal refusal = client.ask(PacketHeader.sessionBytes("OTHER"), 1, 10).refusal();
                assertEquals(RefusalReason.WRONG_SESSION, refusal.reason());
                assertTrue(client.closedByServer());
            }
            try (Client client = new Client(server)) {
                final long next = service.nextSequence();
                final RetransmitRefusal refusal = client.ask(SESSION, next, 10).refusal();
                assertEquals(RefusalReason.NOT_YET_PUBLISHED, refusal.reason());
                assertEquals(next, refusal.requestedSequence());
                assertEquals(next, refusal.nextSequence());
                assertEquals(1, refusal.firstAvailable());
                assertEquals(3, client.ask(SESSION, 1, 3).messages(3).size(), "the connection stays open");
            }
        }
    }

    @Test
    void aRequestForMessagesArchivedAwayIsRefusedNamingTheFirstStillHeld() throws Exception {
        final Path journalDir = Journals.marketDataJournal(dir);
        final SetTimeProvider clock = new SetTimeProvider(TimeUnit.DAYS.toNanos(20_000));
        try (ChronicleQueue journal = Journals.open(journalDir, clock); ExcerptAppender appender = journal.createAppender()) {
            final BatchWriter batch = new BatchWriter();
            final TradingStatus status = new TradingStatus();
            long sequence = 1;
            for (int day = 0; day < 2; day++) {
                for (int i = 0; i < 10; i++) {
                    status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                    batch.commit(status.encode(TradingStatus.OPEN, 1, i, false));
                    batch.appendTo(appender, i, sequence++);
                }
                clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
            }
        }
        final Path archive = Files.createDirectories(dir.resolve("archive"));
        try (Stream<Path> files = Files.list(journalDir)) {
            final Path firstDay = files.filter(f -> f.toString().endsWith(".cq4")).sorted().findFirst().orElseThrow();
            Files.move(firstDay, archive.resolve(firstDay.getFileName()));
        }
        Journals.refreshListing(journalDir);
        try (ChronicleQueue journal = Journals.openReadOnly(journalDir);
             RetransmitServer server = server(journal, 500);
             Client client = new Client(server)) {
            final RetransmitRefusal refusal = client.ask(SESSION, 3, 5).refusal();
            assertEquals(RefusalReason.ARCHIVED, refusal.reason());
            assertEquals(11, refusal.firstAvailable());
            assertEquals(21, refusal.nextSequence());
            assertEquals(5, client.ask(SESSION, 12, 5).messages(5).size(), "what the journal holds is answered, on the same connection");
        }
    }

    private static RetransmitServer server(final ChronicleQueue journal, final int maxCount) {
        return new RetransmitServer(new InetSocketAddress("127.0.0.1", 0), SESSION, maxCount, journal);
    }

    /** A client of the service on a non-blocking socket, the server's turns taken on this thread while it waits. */
    private static final class Client implements AutoCloseable {
        private final RetransmitServer server;
        private final SocketChannel channel;
        private final ByteBuffer in = ByteBuffer.allocate(1 << 20).order(FeedLayout.ORDER);
        private final List<byte[]> packets = new ArrayList<>();
        private boolean eof;

        Client(final RetransmitServer server) throws IOException {
            this.server = server;
            channel = SocketChannel.open(server.address());
            channel.configureBlocking(false);
        }

        Client ask(final byte[] session, final long sequence, final int count) throws IOException {
            final UnsafeBuffer request = new UnsafeBuffer(new byte[PacketHeader.LENGTH]);
            PacketHeader.encode(request, 0, session, sequence, count);
            channel.write(ByteBuffer.wrap(request.byteArray()));
            packets.clear();
            return this;
        }

        /** @return the next {@code count} messages answered, as text */
        List<String> messages(final int count) throws IOException {
            final List<String> messages = new ArrayList<>();
            long expected = -1;
            while (messages.size() < count) {
                final UnsafeBuffer packet = new UnsafeBuffer(nextPacket());
                final long sequence = PacketHeader.sequence(packet, 0);
                assertTrue(expected < 0 || sequence == expected, "packets in sequence");
                int at = PacketHeader.LENGTH;
                for (int i = 0; i < PacketHeader.count(packet, 0); i++) {
                    final int length = packet.getShort(at, FeedLayout.ORDER) & 0xFFFF;
                    messages.add((sequence + i) + ": " + FeedText.describe(packet, at + 2));
                    at += 2 + length;
                }
                expected = sequence + PacketHeader.count(packet, 0);
            }
            return messages;
        }

        RetransmitRefusal refusal() throws IOException {
            final UnsafeBuffer packet = new UnsafeBuffer(nextPacket());
            assertEquals(0, PacketHeader.sequence(packet, 0), "a refusal has sequence 0");
            assertEquals(1, PacketHeader.count(packet, 0));
            final RetransmitRefusal refusal = new RetransmitRefusal();
            refusal.wrapForDecode(packet, PacketHeader.LENGTH + 2);
            return refusal;
        }

        boolean closedByServer() throws IOException {
            turnsUntil(() -> eof);
            return eof;
        }

        private byte[] nextPacket() throws IOException {
            turnsUntil(() -> in.position() >= 2 && in.position() >= 2 + (in.getShort(0) & 0xFFFF));
            in.flip();
            final byte[] packet = new byte[in.getShort() & 0xFFFF];
            in.get(packet);
            in.compact();
            packets.add(packet);
            return packet;
        }

        private void turnsUntil(final BooleanSupplier done) throws IOException {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!done.getAsBoolean()) {
                if (System.nanoTime() - deadline > 0) {
                    fail("no answer from the retransmission service in 30 s");
                }
                server.doWork();
                if (!eof && channel.read(in) < 0) {
                    eof = true;
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
