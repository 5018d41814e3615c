package io.sluice.tools.demo;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.Watchdog;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.time.Duration;

/**
 * One of the demo's load sessions on a thread of its own: logged on by {@link #start}, it sends orders until
 * the deadline, waits for the outstanding ones and logs out. A watchdog closes the session if the reports
 * stop coming, so the demo always ends.
 */
final class LoadThread {
    private static final Duration LOGON_TIMEOUT = Duration.ofSeconds(30);

    private final FixClientSession session;
    private final OrderLoad load;
    private final Thread thread;
    private volatile String failure;
    private volatile long filled;

    private LoadThread(final FixClientSession session, final OrderLoad load, final long deadlineNanos,
                       final Duration giveUpAfter) {
        this.session = session;
        this.load = load;
        this.thread = Thread.ofPlatform().name("load-" + session.identity().senderCompId())
                .unstarted(() -> run(deadlineNanos, giveUpAfter));
    }

    static LoadThread start(final FixClientSession session, final OrderTerms order, final int window,
                            final long ordersPerSecond, final Recorder latencies, final long deadlineNanos,
                            final Duration giveUpAfter) throws IOException {
        session.logon(LOGON_TIMEOUT);
        final OrderLoad load = new OrderLoad(session, order, window, 1, latencies).pace(ordersPerSecond);
        final LoadThread loadThread = new LoadThread(session, load, deadlineNanos, giveUpAfter);
        loadThread.thread.start();
        return loadThread;
    }

    private void run(final long deadlineNanos, final Duration giveUpAfter) {
        try (Watchdog watchdog = Watchdog.closeAfter(giveUpAfter, session)) {
            if (!load.run(Long.MAX_VALUE, deadlineNanos)) {
                failure = watchdog.fired()
                        ? (load.sent() - load.completed()) + " orders got no final report within " + giveUpAfter.toSeconds() + " s"
                        : "the gateway closed the connection";
            } else if (load.rejected() > 0) {
                failure = load.rejected() + " orders rejected, first: " + load.firstRejectText();
            }
            session.logout();
        } catch (final IOException e) {
            failure = e.getMessage();
        } finally {
            filled = load.filled();
        }
    }

    String name() {
        return session.identity().senderCompId();
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    long filled() {
        return filled;
    }

    String failure() {
        return failure;
    }
}
