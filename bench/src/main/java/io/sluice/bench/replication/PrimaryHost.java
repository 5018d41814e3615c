package io.sluice.bench.replication;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The primary host of the multi-host scenario ({@link MultiHostReplicationBench}), run in the primary's network
 * namespace. So every process it starts is on that host too: an engine and one gateway (a {@link SluiceDeployment}), a
 * shipper ({@code ./sluice replicate}, mode ship) towards the Kafka broker on the replica host, and a FIX load client
 * in this JVM sending paced buy orders against seeded liquidity until the file {@value #STOP_FILE} appears under {@code
 * --root} (looked for once a second, between slices of load: the scenario's phases start only once replication flows,
 * which takes as long as the broker needs to start). Prints
 * {@code primary: load started} and {@code primary: load finished ...}, then keeps the shipper running until SIGTERM, so
 * the replica can catch up; the journals stay under {@code --root} for the final comparison.
 * <p>
 * Arguments: {@code --root DIR --kafka HOST:PORT --deployment ID --rate ORDERS_PER_SECOND}.
 */
public final class PrimaryHost {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** The file under the root whose appearance ends the load. */
    static final String STOP_FILE = "stop-load";
    private static final long SLICE_NANOS = 1_000_000_000L;
    private static final Duration MAX_LOAD = Duration.ofHours(1);

    private PrimaryHost() {
    }

    public static void main(final String[] args) throws Exception {
        Path root = null;
        String kafka = null;
        String deployment = null;
        long rate = 1_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Path.of(args[++i]);
                case "--kafka" -> kafka = args[++i];
                case "--deployment" -> deployment = args[++i];
                case "--rate" -> rate = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("primary: unknown option " + args[i]);
            }
        }
        if (root == null || kafka == null || deployment == null) {
            throw new IllegalArgumentException("primary: --root, --kafka and --deployment are required");
        }
        final SessionIdentity load = SessionIdentity.ofSluiceClient("LOAD1", "netns");
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", "netns");
        final PrimaryProcesses host = PrimaryProcesses.start(root, List.of(
                new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(load, seeder))), kafka, deployment);
        final SluiceDeployment sluice = host.sluice();
        try (LiquiditySeeder liquidity = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seeder));
             FixClientSession session = new FixClientSession(sluice.endpoint(1), load)) {
            liquidity.start(START_TIMEOUT);
            session.logon(START_TIMEOUT);
            final OrderLoad orders = new OrderLoad(session, StandardOrders.BUY, 64, 1, OrderLoad.newRecorder()).pace(rate);
            System.out.println("primary: load started, " + rate + " orders/s until " + root.resolve(STOP_FILE) + " appears");
            System.out.flush();
            boolean completed = true;
            try (Watchdog watchdog = Watchdog.closeAfter(MAX_LOAD, session)) {
                while (completed && !Files.exists(root.resolve(STOP_FILE))) {
                    completed = orders.run(Long.MAX_VALUE, System.nanoTime() + SLICE_NANOS);
                }
            }
            session.logout();
            System.out.println("primary: load finished: " + orders.sent() + " orders sent, " + orders.filled() + " filled, "
                    + orders.rejected() + " rejected" + (completed ? "" : ", NOT completed (no reports within the watchdog)"));
            System.out.flush();
        }
        if (!Files.exists(root)) {
            throw new IllegalStateException("primary: " + root + " is gone");
        }
        host.awaitStopped(); // until SIGTERM: the shipper keeps shipping what the replica has not got yet
    }
}
