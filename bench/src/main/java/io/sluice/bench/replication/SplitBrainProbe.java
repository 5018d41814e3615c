package io.sluice.bench.replication;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The client of the split-brain scenario ({@link SplitBrainBench}) on the standby's side of the cut link. From the
 * moment the link is cut it tries to log on to the standby's gateway, and once logged on asks until an order is taken
 * ({@link OrderProbe}), then prints {@code probe: [<wall-clock ms>] orders TAKEN by the standby} and exits 0. Exits 1
 * with the last failure if that takes longer than {@value #GIVE_UP_SECONDS} s.
 * <p>
 * Arguments: {@code --port PORT} (the standby's gateway on 127.0.0.1).
 */
public final class SplitBrainProbe {
    private static final long GIVE_UP_SECONDS = 120;
    private static final Duration LOGON_TIMEOUT = Duration.ofSeconds(5);
    private static final long RETRY_MILLIS = 50;

    private SplitBrainProbe() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length != 2 || !"--port".equals(args[0])) {
            throw new IllegalArgumentException("probe: usage: --port PORT");
        }
        final FixEndpoint standby = FixEndpoint.tcp("127.0.0.1", Integer.parseInt(args[1]));
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS);
        IOException last = null;
        long clOrdId = 1;
        while (System.nanoTime() - giveUp < 0) {
            try (FixClientSession session = new FixClientSession(standby, SplitBrainPrimary.PROBE)) {
                session.logon(LOGON_TIMEOUT);
                while (true) {
                    final OrderProbe.Answer answer = OrderProbe.ask(session, clOrdId++);
                    if (answer.taken()) {
                        System.out.println("probe: [" + System.currentTimeMillis() + "] orders TAKEN by the standby");
                        session.logout();
                        System.exit(0);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS));
                }
            } catch (final IOException e) {
                last = e;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS));
            }
        }
        System.out.println("probe: no order taken by the standby within " + GIVE_UP_SECONDS + " s; last: " + last);
        System.exit(1);
    }
}
