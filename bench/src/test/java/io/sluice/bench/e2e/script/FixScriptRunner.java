package io.sluice.bench.e2e.script;

import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.tools.fix.FixEndpoint;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * Plays a {@link FixScript} against a gateway over a real socket: sends its {@code I} lines, checks the gateway's
 * messages against its {@code E} lines, in order. Every wait has a deadline (a selector, nothing sleeps); a failure
 * names the script's file and line, what was expected and what came.
 */
public final class FixScriptRunner implements AutoCloseable {
    private static final long TIMEOUT_MILLIS = 10_000;

    private final FixEndpoint endpoint;
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    private final UnsafeBuffer inView = new UnsafeBuffer(in);
    private final FixFramer framer = new FixFramer(1 << 16);
    private final FixMessage received = new FixMessage(512);
    private final FixMessage expected = new FixMessage(512);
    private SocketChannel channel;
    private Selector selector;
    private boolean peerClosed;
    private int readOffset;

    public FixScriptRunner(final FixEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Runs every step; throws {@link AssertionError} at the first that does not hold. */
    public void run(final FixScript script) throws IOException {
        for (final FixScript.Step step : script.steps()) {
            final String where = script.file().getFileName() + ":" + step.line() + ": ";
            switch (step.kind()) {
                case 'I' -> send(where, FixScript.frame(step.text(), System.currentTimeMillis()));
                case 'E' -> expect(where, step.text());
                default -> {
                    switch (step.text()) {
                        case "connect" -> connect();
                        case "disconnect" -> close();
                        case "closed" -> expectClosed(where);
                        default -> throw new AssertionError(where + "unknown step !" + step.text());
                    }
                }
            }
        }
    }

    private void connect() throws IOException {
        close();
        channel = endpoint.connect();
        channel.configureBlocking(false);
        selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
        peerClosed = false;
        in.clear();
        readOffset = 0;
    }

    private void send(final String where, final byte[] bytes) throws IOException {
        if (channel == null) {
            throw new AssertionError(where + "not connected (no !connect before)");
        }
        final ByteBuffer out = ByteBuffer.wrap(bytes);
        final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        while (out.hasRemaining()) {
            channel.write(out);
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError(where + "the gateway did not take our bytes within 10 s");
            }
        }
    }

    private void expect(final String where, final String line) throws IOException {
        final UnsafeBuffer wanted = frameForComparison(line);
        framer.scan(wanted, 0, wanted.capacity());
        expected.parse(wanted, framer.bodyStart(), framer.bodyEnd());
        final String got = next(where, line);
        for (int i = 0; i < expected.fieldCount(); i++) {
            final int tag = expected.tag(i);
            final String value = wanted.getStringWithoutLengthAscii(expected.valueOffset(i), expected.valueLength(i));
            final int index = received.indexOf(tag);
            if (index < 0) {
                throw new AssertionError(where + "expected " + line + "\n  but tag " + tag + " is missing from " + got);
            }
            final String actual = received.buffer().getStringWithoutLengthAscii(received.valueOffset(index),
                    received.valueLength(index));
            final boolean loose = value.equals("*") || tag == FixTags.SENDING_TIME || tag == FixTags.ORIG_SENDING_TIME;
            if (!loose && !value.equals(actual)) {
                throw new AssertionError(where + "expected " + line + "\n  but " + tag + "=" + actual + " in " + got);
            }
        }
    }

    /** An {@code E} line as a frame the codec reads; its BodyLength and CheckSum are not compared. */
    private static UnsafeBuffer frameForComparison(final String line) {
        final String withoutFraming = line.replaceAll("\\|9=[^|]*", "").replaceAll("\\|10=[^|]*\\|?$", "|");
        return new UnsafeBuffer(FixScript.frame(withoutFraming, 0));
    }

    /** @return the gateway's next message as text; {@link #received} holds it parsed */
    private String next(final String where, final String line) throws IOException {
        final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        while (true) {
            final String message = poll(where);
            if (message != null) {
                return message;
            }
            final long left = deadline - System.currentTimeMillis();
            if (left <= 0 || peerClosed) {
                throw new AssertionError(where + "expected " + line + "\n  but "
                        + (peerClosed ? "the gateway closed the connection" : "nothing came within 10 s"));
            }
            selector.select(left);
            selector.selectedKeys().clear();
            readAvailable();
        }
    }

    private void expectClosed(final String where) throws IOException {
        final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        while (!peerClosed) {
            final String unexpected = poll(where);
            if (unexpected != null) {
                throw new AssertionError(where + "expected the gateway to close the connection, got " + unexpected);
            }
            final long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new AssertionError(where + "the gateway did not close the connection within 10 s");
            }
            selector.select(left);
            selector.selectedKeys().clear();
            readAvailable();
        }
    }

    private String poll(final String where) {
        final int available = in.position() - readOffset;
        if (available == 0) {
            return null;
        }
        final int length = framer.scan(inView, readOffset, available);
        if (length == 0) {
            return null;
        }
        final String text = inView.getStringWithoutLengthAscii(readOffset, Math.max(length, available))
                .replace('\u0001', '|');
        if (length < 0 || framer.error() != FixError.NONE
                || received.parse(inView, framer.bodyStart(), framer.bodyEnd()) != FixError.NONE) {
            throw new AssertionError(where + "the gateway sent a message that is not well-formed FIX 4.4: " + text);
        }
        readOffset += length;
        return inView.getStringWithoutLengthAscii(readOffset - length, length).replace('\u0001', '|');
    }

    private void readAvailable() throws IOException {
        if (readOffset > 0) {
            final int remaining = in.position() - readOffset;
            inView.putBytes(0, inView, readOffset, remaining);
            in.position(remaining);
            readOffset = 0;
        }
        try {
            if (channel.read(in) < 0) {
                peerClosed = true;
            }
        } catch (final IOException e) {
            peerClosed = true;
        }
    }

    @Override
    public void close() throws IOException {
        if (selector != null) {
            selector.close();
            selector = null;
        }
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
