package io.sluice.bench.replication;

import io.sluice.contracts.RejectReason;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The primary host of the split-brain scenario ({@link SplitBrainBench}), run in the primary's network namespace.
 * An engine and one gateway, a shipper towards the broker on the other side of the link, and a FIX client on this side
 * that asks every {@value #ASK_MILLIS} ms whether the primary takes an order ({@link OrderProbe}), so it still reaches
 * the primary when the link is cut. Prints a line, stamped with the wall clock, each time the answer changes
 * ({@code primary: [1764369012345] orders TAKEN ...}, then {@code LEASE_LAPSED}, then {@code FENCED}), and once the
 * file {@value #STOP_FILE} appears under {@code --root}, the count of each answer, of which how many orders were taken
 * after the first lease reject: a primary cut off from Kafka must take none.
 * <p>
 * Arguments: {@code --root DIR --kafka HOST:PORT --deployment ID}.
 */
public final class SplitBrainPrimary {
    /** The file under the root whose appearance ends the asking. */
    static final String STOP_FILE = "stop-asking";
    /** The FIX session that asks, configured on both sides: on the standby it must not reach the promoted primary. */
    static final SessionIdentity ASKER = SessionIdentity.ofSluiceClient("ASKER", "splitbrain");
    /** The FIX session of the probe on the standby's side. */
    static final SessionIdentity PROBE = SessionIdentity.ofSluiceClient("PROBE", "splitbrain");
    private static final long ASK_MILLIS = 20;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    /** What an answer says about the primary. */
    enum Answer {
        TAKEN, LEASE_LAPSED, FENCED, OTHER_REJECT;

        static Answer of(final OrderProbe.Answer answer) {
            if (answer.taken()) {
                return TAKEN;
            }
            if (answer.text().startsWith(RejectReason.LEASE_LAPSED.text())) {
                return LEASE_LAPSED;
            }
            return answer.text().startsWith(RejectReason.PRIMARY_FENCED.text()) ? FENCED : OTHER_REJECT;
        }
    }

    private SplitBrainPrimary() {
    }

    /** @return the gateways of either side: one, with both sessions */
    static List<SluiceDeployment.GatewaySpec> gateways() {
        return List.of(new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(ASKER, PROBE)));
    }

    public static void main(final String[] args) throws Exception {
        Path root = null;
        String kafka = null;
        String deployment = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Path.of(args[++i]);
                case "--kafka" -> kafka = args[++i];
                case "--deployment" -> deployment = args[++i];
                default -> throw new IllegalArgumentException("primary: unknown option " + args[i]);
            }
        }
        if (root == null || kafka == null || deployment == null) {
            throw new IllegalArgumentException("primary: --root, --kafka and --deployment are required");
        }
        final PrimaryProcesses host = PrimaryProcesses.start(root, gateways(), kafka, deployment);
        final Map<Answer, Long> counts = new EnumMap<>(Answer.class);
        long takenAfterLapse = 0;
        try (FixClientSession session = new FixClientSession(host.sluice().endpoint(1), ASKER)) {
            session.logon(START_TIMEOUT);
            Answer last = null;
            boolean lapsed = false;
            for (long clOrdId = 1; !Files.exists(root.resolve(STOP_FILE)); clOrdId++) {
                final OrderProbe.Answer answer = OrderProbe.ask(session, clOrdId);
                final Answer now = Answer.of(answer);
                counts.merge(now, 1L, Long::sum);
                lapsed |= now == Answer.LEASE_LAPSED;
                if (lapsed && now == Answer.TAKEN) {
                    takenAfterLapse++;
                }
                if (now != last) {
                    System.out.println("primary: [" + System.currentTimeMillis() + "] orders " + now + " from order "
                            + clOrdId + (answer.text().isEmpty() ? "" : ": " + answer.text()));
                    System.out.flush();
                    last = now;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ASK_MILLIS));
            }
            session.logout();
        }
        System.out.println("primary: finished: " + counts + "; taken after the first lease reject: " + takenAfterLapse);
        System.out.flush();
        host.awaitStopped(); // until SIGTERM
    }
}
