package io.sluice.bench.fix;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.SessionIdentity;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The floor under every FIX round trip measured here: the least a FIX acceptor can do. One thread per
 * connection blocks in read, frames and parses each message with Sluice's codec, answers a Logon with a Logon
 * and each NewOrderSingle with an ack and a fill in one write; no session layer, no journal, no engine. The
 * FIX benchmarks measure it with the same client, over TCP and Unix domain sockets, beside Sluice and
 * QuickFIX/J: what is left between it and Sluice is Sluice's own cost (journals, engine, idle strategies), what
 * it takes itself is the loopback transport and the wake-ups of two blocked threads.
 * <p>
 * {@code FixEchoAcceptor tcp <port>} or {@code FixEchoAcceptor uds <socket path>}; runs until killed.
 */
public final class FixEchoAcceptor {
    /** The acceptor's CompID: the TargetCompID clients send. */
    public static final String COMP_ID = "ECHO";
    private static final int BUFFER_SIZE = 64 * 1024;
    private static final int MAX_BODY_LENGTH = 8192;
    private static final byte[] ORDER_ID = "1".getBytes(StandardCharsets.US_ASCII);

    private final SocketChannel channel;
    private final ByteBuffer receive = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final UnsafeBuffer received = new UnsafeBuffer(receive);
    private final ByteBuffer send = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final UnsafeBuffer sendBytes = new UnsafeBuffer(send);
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_BODY_LENGTH)));
    private final FixFramer framer = new FixFramer(MAX_BODY_LENGTH);
    private final FixMessage message = new FixMessage(256);
    private final byte[] self = COMP_ID.getBytes(StandardCharsets.US_ASCII);
    private byte[] client;
    private long nextSeq = 1;
    private long execId;

    private FixEchoAcceptor(final SocketChannel channel) {
        this.channel = channel;
    }

    /** Starts the floor acceptor over {@code transport} in a child JVM, its log and socket under {@code dir}. */
    public static BaselineProcess start(final FixTransport transport, final Path dir, final Duration timeout)
            throws IOException, InterruptedException {
        final FixEndpoint endpoint = transport == FixTransport.TCP
                ? FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free()) : FixEndpoint.uds(dir.resolve("echo.sock"));
        final String where = transport == FixTransport.TCP
                ? Integer.toString(endpoint.port()) : endpoint.socketPath().toString();
        final FixTarget target = new FixTarget("Echo floor " + transport, endpoint,
                new SessionIdentity("LOADE", COMP_ID, "", ""));
        return BaselineProcess.start(target, dir.resolve("echo-" + transport + ".log"), List.of(), timeout,
                FixEchoAcceptor.class, transport == FixTransport.TCP ? "tcp" : "uds", where);
    }

    public static void main(final String[] args) throws IOException {
        final boolean tcp = "tcp".equals(args[0]);
        final ServerSocketChannel server = ServerSocketChannel.open(tcp ? StandardProtocolFamily.INET
                : StandardProtocolFamily.UNIX);
        final FixEndpoint endpoint = tcp ? FixEndpoint.tcp("127.0.0.1", Integer.parseInt(args[1]))
                : FixEndpoint.uds(Path.of(args[1]));
        if (!tcp) {
            Files.deleteIfExists(endpoint.socketPath());
        }
        server.bind(endpoint.address());
        System.out.println("FIX echo acceptor listening on " + endpoint);
        while (true) {
            final SocketChannel channel = server.accept();
            if (tcp) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            Thread.ofPlatform().name("echo-connection").start(() -> new FixEchoAcceptor(channel).serve());
        }
    }

    private void serve() {
        try (channel) {
            while (channel.read(receive) >= 0) {
                final int available = receive.position();
                int offset = 0;
                int length;
                while ((length = framer.scan(received, offset, available - offset)) > 0) {
                    message.parse(received, framer.bodyStart(), framer.bodyEnd());
                    answer();
                    offset += length;
                }
                flush();
                if (length < 0) {
                    return;
                }
                receive.limit(available).position(offset);
                receive.compact();
            }
        } catch (final IOException closed) {
            // The client went away: this connection's thread ends.
        }
    }

    private void answer() throws IOException {
        switch (message.msgType()) {
            case MsgTypes.LOGON -> {
                final int sender = message.indexOf(FixTags.SENDER_COMP_ID);
                client = new byte[message.valueLength(sender)];
                message.buffer().getBytes(message.valueOffset(sender), client);
                start(MsgTypes.LOGON).longField(FixTags.ENCRYPT_METHOD, 0)
                        .longField(FixTags.HEART_BT_INT, message.unsignedValue(FixTags.HEART_BT_INT))
                        .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true);
                queue();
            }
            case MsgTypes.NEW_ORDER_SINGLE -> {
                report('0', '0', 0);
                report('F', '2', message.unsignedValue(FixTags.ORDER_QTY));
            }
            default -> {
            }
        }
    }

    private void report(final char execType, final char ordStatus, final long filled) throws IOException {
        final int clOrdId = message.indexOf(FixTags.CL_ORD_ID);
        final int symbol = message.indexOf(FixTags.SYMBOL);
        final long quantity = message.unsignedValue(FixTags.ORDER_QTY);
        start(MsgTypes.EXECUTION_REPORT)
                .field(FixTags.ORDER_ID, ORDER_ID)
                .field(FixTags.CL_ORD_ID, message.buffer(), message.valueOffset(clOrdId), message.valueLength(clOrdId))
                .longField(FixTags.EXEC_ID, ++execId)
                .charField(FixTags.EXEC_TYPE, execType)
                .charField(FixTags.ORD_STATUS, ordStatus)
                .field(FixTags.SYMBOL, message.buffer(), message.valueOffset(symbol), message.valueLength(symbol))
                .charField(FixTags.SIDE, (char) message.charValue(FixTags.SIDE))
                .longField(FixTags.ORDER_QTY, quantity)
                .longField(FixTags.LAST_QTY, filled)
                .longField(FixTags.LEAVES_QTY, quantity - filled)
                .longField(FixTags.CUM_QTY, filled)
                .longField(FixTags.AVG_PX, 0);
        queue();
    }

    private FixEncoder start(final int msgType) {
        return encoder.start(msgType).header(self, client, nextSeq++, System.currentTimeMillis());
    }

    private void queue() throws IOException {
        final int length = encoder.finish();
        if (send.remaining() < length) {
            flush();
        }
        sendBytes.putBytes(send.position(), encoder.buffer(), encoder.messageOffset(), length);
        send.position(send.position() + length);
    }

    private void flush() throws IOException {
        send.flip();
        while (send.hasRemaining()) {
            channel.write(send);
        }
        send.clear();
    }
}
