package io.sluice.bench.marketdata;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One FIX market-data subscriber of the fan-out benchmarks: a raw TCP session that logs on, subscribes to one symbol's
 * full book and trades, and finds each message's MsgType and RptSeq as the bytes come, across reads. It times each
 * incremental (X) or snapshot (W) against the append of the feed message its RptSeq names, and counts what it got.
 */
final class FanOutSubscriber {
    private static final byte SOH = 1;
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private final SocketChannel channel;
    private final String compId;
    private final String symbol;
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
    private int nextSeqNum = 1;
    private int tag;
    private long value;
    private boolean inValue;
    private byte msgType;
    private long lastSeen;
    private volatile long incrementals;
    private volatile long snapshots;
    private volatile long heartbeats;
    private volatile long others;
    private long measuredIncrementals;
    private long measuredSnapshots;

    private FanOutSubscriber(final SocketChannel channel, final String compId, final String symbol) {
        this.channel = channel;
        this.compId = compId;
        this.symbol = symbol;
    }

    /**
     * Connects and logs on as {@code compId} with {@code password}, and its CompID as Username if {@code username};
     * the channel is non-blocking from then on.
     */
    static FanOutSubscriber logOn(final SocketAddress address, final String compId, final boolean username,
                                  final String password, final String symbol) throws IOException {
        final SocketChannel channel = SocketChannel.open(address);
        channel.socket().setTcpNoDelay(true);
        final FanOutSubscriber subscriber = new FanOutSubscriber(channel, compId, symbol);
        subscriber.send("35=A|98=0|108=30|" + (username ? "553=" + compId + "|" : "") + "554=" + password + "|");
        channel.configureBlocking(false);
        return subscriber;
    }

    SocketChannel channel() {
        return channel;
    }

    /** Sends a MarketDataRequest subscribing to the symbol's full book, bids, offers and trades (MDReqID: CompID). */
    void subscribe() throws IOException {
        send("35=V|262=" + compId + "|263=1|264=0|267=3|269=0|269=1|269=2|146=1|55=" + symbol + "|");
    }

    /** Ends the subscription. */
    void unsubscribe() throws IOException {
        send("35=V|262=" + compId + "|263=2|264=0|267=3|269=0|269=1|269=2|146=1|55=" + symbol + "|");
    }

    /** Sends a TestRequest: its Heartbeat comes back after everything the gateway got before it has been handled. */
    void testRequest() throws IOException {
        send("35=1|112=" + nextSeqNum + "|");
    }

    /** Sends a Heartbeat, so that a subscriber that only reads is not logged out. */
    void heartbeat() throws IOException {
        send("35=0|");
    }

    long incrementals() {
        return incrementals;
    }

    long snapshots() {
        return snapshots;
    }

    long heartbeats() {
        return heartbeats;
    }

    @Override
    public String toString() {
        return compId + ": " + snapshots + " W, " + incrementals + " X, " + heartbeats + " heartbeats, " + others
                + " other messages";
    }

    long measuredIncrementals() {
        return measuredIncrementals;
    }

    long measuredSnapshots() {
        return measuredSnapshots;
    }

    long lastSeen() {
        return lastSeen;
    }

    /**
     * Reads what has come and times each X or W of a new RptSeq at or past {@code measuredFrom} against
     * {@code appendNanos[RptSeq - firstSequence]}; {@code latency} null: counts only.
     */
    void poll(final long[] appendNanos, final long firstSequence, final long measuredFrom, final Histogram latency)
            throws IOException {
        in.clear();
        final int read = channel.read(in);
        if (read < 0) {
            throw new IOException("the gateway closed subscriber " + compId);
        }
        final long now = System.nanoTime();
        for (int i = 0; i < read; i++) {
            final byte b = in.get(i);
            if (b == SOH) {
                onField(appendNanos, firstSequence, measuredFrom, latency, now);
                tag = 0;
                value = 0;
                inValue = false;
            } else if (b == '=' && !inValue) {
                inValue = true;
            } else if (!inValue) {
                tag = tag * 10 + (b - '0');
            } else if (tag == 35) {
                msgType = b;
            } else if (tag == 83) {
                value = value * 10 + (b - '0');
            }
        }
    }

    private void onField(final long[] appendNanos, final long firstSequence, final long measuredFrom,
                         final Histogram latency, final long now) {
        if (tag == 35) {
            switch (msgType) {
                case 'X' -> incrementals++;
                case 'W' -> snapshots++;
                case '0' -> heartbeats++;
                default -> others++;
            }
            return;
        }
        if (tag != 83 || msgType != 'X' && msgType != 'W' || latency == null) {
            return;
        }
        final long sequence = value;
        if (sequence <= lastSeen) {
            return;
        }
        lastSeen = sequence;
        if (sequence >= measuredFrom) {
            if (msgType == 'X') {
                measuredIncrementals++;
            } else {
                measuredSnapshots++;
            }
            latency.recordValue(Math.min(latency.getHighestTrackableValue(),
                    Math.max(0, now - appendNanos[(int) (sequence - firstSequence)])));
        }
    }

    private synchronized void send(final String fields) throws IOException {
        final String body = ("35=" + fields.substring(3, fields.indexOf('|')) + "|34=" + nextSeqNum++ + "|49="
                + compId + "|56=SLUICE|52=" + UTC.format(Instant.now()) + "|" + fields.substring(fields.indexOf('|')
                + 1)).replace('|', '\u0001');
        final String head = "8=FIX.4.4\u00019=" + body.length() + "\u0001";
        int sum = 0;
        for (final byte b : (head + body).getBytes(StandardCharsets.US_ASCII)) {
            sum += b;
        }
        final String message = head + body + "10=" + String.format("%03d", sum & 0xFF) + "\u0001";
        final ByteBuffer out = ByteBuffer.wrap(message.getBytes(StandardCharsets.US_ASCII));
        while (out.hasRemaining()) {
            channel.write(out);
        }
    }
}
