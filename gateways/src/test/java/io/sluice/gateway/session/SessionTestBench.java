package io.sluice.gateway.session;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.JournalSessionStore;
import io.sluice.gateway.codec.FixBytes;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One acceptor session (CLIENT1 to SLUICE, password "secret") over a real journal store, driven through
 * the real framing and parsing path with a hand-moved clock. Client messages are written with the same
 * encoder a FIX client would use.
 */
final class SessionTestBench implements AutoCloseable {
    static final long START = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
    static final byte[] CLIENT = "CLIENT1".getBytes(StandardCharsets.US_ASCII);
    static final byte[] GATEWAY = "SLUICE".getBytes(StandardCharsets.US_ASCII);

    final CachedEpochClock clock = new CachedEpochClock();
    final JournalSessionStore store;
    final FixSession session;
    final FixAcceptor acceptor;
    /** The real reasons of refused connections, as the gateway's log would name them. */
    final List<String> refusals = new ArrayList<>();
    final FixEncoder client = new FixEncoder(new UnsafeBuffer(new byte[4096]));
    MemoryConnection connection = new MemoryConnection();
    long clientSeq = 1;

    /** @param application what the session hands its application messages to (it journals nothing) */
    SessionTestBench(final Path journal, final BiConsumer<FixSession, FixMessage> application) {
        this(journal, application, 1);
    }

    /** @param minHeartBtInt the smallest HeartBtInt (108) the session accepts, in seconds */
    SessionTestBench(final Path journal, final BiConsumer<FixSession, FixMessage> application,
                     final int minHeartBtInt) {
        clock.update(START);
        store = new JournalSessionStore(Journals.open(journal), 8192);
        session = new FixSession(new SessionIdentity("CLIENT1", "SLUICE", null, "secret"), store,
                new FixApplication() {
                    @Override
                    public void onApplicationMessage(final FixSession session, final FixMessage message) {
                        application.accept(session, message);
                    }

                    @Override
                    public long lastEventId() {
                        return 0;
                    }
                }, clock,
                8192, 120_000, 2_000, minHeartBtInt);
        session.restore(store.nextSenderSeq(session.id()), store.nextTargetSeq(session.id()));
        acceptor = new FixAcceptor(List.of(session), clock, 8192, 256, new SessionEvents() {
            @Override
            public void onRefused(final SocketAddress from, final CharSequence senderCompId, final CharSequence reason) {
                refusals.add(reason.toString());
            }
        });
    }

    /** Sends a client message with the next MsgSeqNum; {@code body} adds fields after the header. */
    void send(final int msgType, final Consumer<FixEncoder> body) {
        sendWithSeq(msgType, clientSeq++, body);
    }

    void sendWithSeq(final int msgType, final long seq, final Consumer<FixEncoder> body) {
        client.start(msgType).header(CLIENT, GATEWAY, seq, clock.time());
        body.accept(client);
        client.finish();
        acceptor.onData(connection, client.buffer(), client.messageOffset(), client.messageLength(), 0);
    }

    /** Sends a client message with no MsgSeqNum (34) at all; {@code body} adds fields after the header. */
    void sendWithoutSeq(final int msgType, final Consumer<FixEncoder> body) {
        client.start(msgType).field(FixTags.SENDER_COMP_ID, CLIENT).field(FixTags.TARGET_COMP_ID, GATEWAY)
                .timestampField(FixTags.SENDING_TIME, clock.time());
        body.accept(client);
        client.finish();
        acceptor.onData(connection, client.buffer(), client.messageOffset(), client.messageLength(), 0);
    }

    /** Sends a Logon with ResetSeqNumFlag (141) Y and MsgSeqNum {@code seq}; the client's next number is 2. */
    void logonWithReset(final long seq) {
        sendWithSeq(MsgTypes.LOGON, seq, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, "secret")
                .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true));
        clientSeq = seq + 1;
    }

    /** Sends a message with no body fields whose SendingTime is {@code sendingTime}. */
    void sendSentAt(final long sendingTime, final int msgType) {
        client.start(msgType).header(CLIENT, GATEWAY, clientSeq++, sendingTime).finish();
        acceptor.onData(connection, client.buffer(), client.messageOffset(), client.messageLength(), 0);
    }

    /** Sends raw bytes ('|' for SOH), e.g. a garbled message. */
    void sendRaw(final String pipeDelimited) {
        final UnsafeBuffer buffer = FixBytes.buffer(pipeDelimited);
        acceptor.onData(connection, buffer, 0, buffer.capacity(), 0);
    }

    void logon(final int heartBtInt) {
        send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                .longField(FixTags.HEART_BT_INT, heartBtInt).textField(FixTags.PASSWORD, "secret"));
    }

    /** A new TCP connection from the same client. */
    void reconnect() {
        connection = new MemoryConnection();
    }

    void advance(final long millis) {
        clock.advance(millis);
    }

    @Override
    public void close() {
        store.close();
    }
}
