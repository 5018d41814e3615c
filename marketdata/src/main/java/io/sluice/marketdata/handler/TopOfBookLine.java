package io.sluice.marketdata.handler;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;

/**
 * An instrument's {@link TopOfBook} line, made on the feed handler's thread every interval and handed to another thread
 * to print. It is made beside the handler in a composite: how {@code ./sluice demo} shows the book beside its latencies
 * without reading the handler's books from a second thread.
 */
public final class TopOfBookLine implements Agent {
    private final FeedHandler handler;
    private final int instrument;
    private final long intervalNanos;
    private final NanoClock clock;
    private long nextNanos;
    private volatile String line = "market data: joining";

    public TopOfBookLine(final FeedHandler handler, final int instrument, final long intervalMillis,
                         final NanoClock clock) {
        this.handler = handler;
        this.instrument = instrument;
        intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.clock = clock;
        nextNanos = clock.nanoTime();
    }

    @Override
    public int doWork() {
        final long now = clock.nanoTime();
        if (now - nextNanos < 0) {
            return 0;
        }
        nextNanos = now + intervalNanos;
        line = handler.state() == FeedHandler.State.LIVE
                ? "seq " + (handler.expected() - 1) + "  " + TopOfBook.line(handler.books(), instrument)
                : "market data: joining (waiting for a snapshot)";
        return 1;
    }

    /** @return the latest line */
    public String line() {
        return line;
    }

    @Override
    public String roleName() {
        return "top-of-book";
    }
}
