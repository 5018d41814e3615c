package io.sluice.bench.runtime;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.ExecutionReportFields;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A FIX client in a JVM of its own, launched by the warm-up benchmark at the same moment as the engine and gateway. It
 * waits for the gateway to accept, logs on, sells 10 and buys 10 at the load's price (so its buy fills against its own
 * sell or any resting sell, whichever the book holds first), prints {@value #FILLED} and the wall-clock time in
 * microseconds since the epoch on its first fill, and exits. The time from launch to then is the start a
 * user sees who launches all three at once.
 */
public final class ColdClient {
    /** What the client prints on its first fill. */
    static final String FILLED = "cold client: first fill";
    private static final String PASSWORD = "bench";
    private static final Duration GIVE_UP = Duration.ofMinutes(2);
    private static final OrderTerms SELL = OrderTerms.of("COLD", SluiceDeployment.SYMBOL, OrderTerms.SELL, 10, "100",
            OrderTerms.DAY);
    private static final OrderTerms BUY = OrderTerms.of("COLD", SluiceDeployment.SYMBOL, OrderTerms.BUY, 10, "100",
            OrderTerms.DAY);

    private ColdClient() {
    }

    /** @return the FIX session the gateway must accept for the client */
    static SessionIdentity identity() {
        return SessionIdentity.ofSluiceClient("COLD1", PASSWORD);
    }

    /**
     * @return the wall-clock time of the client's first fill, in microseconds since the epoch, from its output;
     *         -1 if it printed none
     */
    static long firstFillMicros(final String output) {
        final int at = output.indexOf(FILLED + " ");
        if (at < 0) {
            return -1;
        }
        final int from = at + FILLED.length() + 1;
        int to = from;
        while (to < output.length() && Character.isDigit(output.charAt(to))) {
            to++;
        }
        return Long.parseLong(output.substring(from, to));
    }

    /** Launches the client against {@code endpoint} (TCP), its output in {@code log}. */
    static JavaProcess launch(final Path log, final String classPath, final FixEndpoint endpoint) throws IOException {
        return JavaProcess.start("cold-client", log, classPath, List.of(), ColdClient.class, endpoint.host(),
                Integer.toString(endpoint.port()));
    }

    public static void main(final String[] args) throws Exception {
        final FixEndpoint endpoint = FixEndpoint.tcp(args[0], Integer.parseInt(args[1]));
        final long deadline = System.nanoTime() + GIVE_UP.toNanos();
        while (!endpoint.isAccepting()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("the gateway at " + endpoint + " did not accept within " + GIVE_UP);
            }
            LockSupport.parkNanos(1_000_000);
        }
        try (FixClientSession session = new FixClientSession(endpoint, identity())) {
            session.logon(GIVE_UP);
            session.sendNewOrder(1, SELL);
            session.sendNewOrder(2, BUY);
            final boolean[] filled = {false};
            while (!filled[0]) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("no fill within " + GIVE_UP);
                }
                if (!session.poll((report, receivedNanos) -> {
                    final long status = ExecutionReportFields.ordStatus(report);
                    filled[0] |= status == '1' || status == '2';
                })) {
                    throw new IOException("the gateway closed the connection before a fill");
                }
            }
            final Instant now = Instant.now();
            System.out.println(FILLED + " " + (now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000));
            System.out.flush();
            session.logout();
        }
    }
}
