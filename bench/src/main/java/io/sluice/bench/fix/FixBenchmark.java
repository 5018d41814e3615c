package io.sluice.bench.fix;

import io.sluice.bench.report.BenchResult;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The two FIX benchmarks, run by the same client in the same way against Sluice, QuickFIX/J and the floor under them.
 * Sluice's full path (gateway, journal, engine, journal, gateway) runs over TCP and over a Unix domain socket; in the
 * same run a QuickFIX/J acceptor just answers each order with two reports, and the floor is a trivial acceptor over
 * each transport ({@link FixEchoAcceptor}). The targets take turns in slices ({@link FixMeasurement}) so that the
 * machine's background load weighs on all of them alike:
 * <ul>
 *   <li>{@code ./sluice bench fix-round-trip}: ping-pong in the style of the published FIX engine comparisons.
 *   One NewOrderSingle, wait for both execution reports (ack and fill against pre-seeded liquidity), then
 *   the next.</li>
 *   <li>{@code ./sluice bench fix-pipelined}: orders sent without waiting, at most {@code --window}
 *   outstanding: throughput through the full path, with the round trips under that load.</li>
 *   <li>{@code ./sluice bench fix-idle-sockets}: the ping-pong of one session on a gateway that also holds
 *   {@code --idle-sockets} connections that never log on, against the same on a gateway that holds none, in
 *   the same run (Sluice over TCP only, no QuickFIX/J, no floor, unless asked): what idle connections cost.</li>
 * </ul>
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false)
public final class FixBenchmark implements Callable<Integer> {
    private final String scenario;

    @Option(names = "--warmup", description = "warm-up orders per target (default ${DEFAULT-VALUE})")
    private long warmup = 50_000;

    @Option(names = "--orders", description = "measured orders per target (default ${DEFAULT-VALUE})")
    private long orders;

    @Option(names = "--window", description = "most orders outstanding at once (default ${DEFAULT-VALUE})")
    private int window;

    @Option(names = "--rounds", description = "slices the measured orders go out in, targets taking turns"
            + " (default ${DEFAULT-VALUE})")
    private int rounds = 10;

    @Option(names = "--transports", split = ",", description = "Sluice transports to measure (default ${DEFAULT-VALUE})")
    private List<String> transports;

    @Option(names = "--transport", description = "one more Sluice transport measured beside plain TCP in the same run,"
            + " e.g. tls (the JDK's TLS 1.3, keys made by keytool for the run): the same as --transports tcp,<it>")
    private String besideTcp;

    @Option(names = "--idle", description = "what Sluice's engine and gateway threads do when idle: yield (each keeps a"
            + " core busy; lowest latency where idle CPUs halt, as on a VM), backoff, busy-spin, or engine-spin (the"
            + " engine spins, the gateways back off) (default ${DEFAULT-VALUE}, as in ./sluice demo)")
    private String idle = SluiceIdle.YIELD.label();

    @Option(names = "--quickfixj", negatable = true, fallbackValue = "true",
            description = "measure the QuickFIX/J baseline (default ${DEFAULT-VALUE})")
    private boolean quickFixJ;

    @Option(names = "--floor", split = ",", description = "transports to measure the echo floor over, a trivial"
            + " acceptor answering each order with two reports (default ${DEFAULT-VALUE}; none to skip)")
    private List<String> floor;

    @Option(names = "--idle-sockets", description = "measure each Sluice transport twice: on a gateway holding this"
            + " many connections that never log on, and on one holding none (default ${DEFAULT-VALUE})")
    private int idleSockets;

    @Option(names = "--control", description = "with --idle-sockets: an A/A run, the second gateway set up alike but"
            + " holding no idle sockets, to show how much the two arms differ by themselves (written as <scenario>-control)")
    private boolean control;

    @Option(names = "--validation-arm", negatable = true, fallbackValue = "true",
            description = "also measure Sluice over the first transport on a gateway with validation off"
                    + " (validateIncomingMessage: false), to show what the FIX 4.4 dictionary checks cost beside it"
                    + " (default ${DEFAULT-VALUE})")
    private boolean validationArm;

    @Option(names = "--sluice", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "measure Sluice (default true)")
    private boolean sluice;

    @Option(names = "--keep-root", description = "keep the deployment's journals and logs (the path is printed) for"
            + " ./sluice tail --offline --root <path>/sluice/journals")
    private boolean keepRoot;

    @Option(names = "--run-timeout", description = "seconds one slice of orders may take (default ${DEFAULT-VALUE})")
    private long runTimeoutSeconds = 600;

    private FixBenchmark(final String scenario, final long orders, final int window, final int idleSockets) {
        this.scenario = scenario;
        this.orders = orders;
        this.window = window;
        this.idleSockets = idleSockets;
        this.quickFixJ = idleSockets == 0;
        this.validationArm = "fix-round-trip".equals(scenario);
        this.transports = idleSockets == 0 ? List.of("tcp", "uds") : List.of("tcp");
        this.floor = idleSockets == 0 ? List.of("tcp", "uds") : List.of("none");
    }

    /** {@code ./sluice bench fix-round-trip [options]}: the round trip is this class's {@code main}, as a child JVM runs it. */
    public static void main(final String[] args) {
        run(new FixBenchmark("fix-round-trip", 100_000, 1, 0),
                "Ping-pong FIX round trip (NewOrderSingle -> ack + fill): Sluice over TCP and UDS beside QuickFIX/J,"
                        + " and over TCP with validation off to show what it costs.",
                args);
    }

    /** {@code ./sluice bench fix-pipelined [options]}. */
    public static void pipelined(final String[] args) {
        run(new FixBenchmark("fix-pipelined", 200_000, 64, 0),
                "Pipelined FIX orders (bounded window): Sluice's throughput over TCP and UDS beside QuickFIX/J.",
                args);
    }

    /** {@code ./sluice bench fix-idle-sockets [options]}. */
    public static void idleSockets(final String[] args) {
        run(new FixBenchmark("fix-idle-sockets", 100_000, 1, 500),
                "Ping-pong FIX round trip on a gateway holding 500 idle connections against one holding none,"
                        + " in the same run.", args);
    }

    private static void run(final FixBenchmark benchmark, final String description, final String[] args) {
        final CommandLine commandLine = new CommandLine(benchmark);
        commandLine.setCommandName("./sluice bench " + benchmark.scenario);
        commandLine.getCommandSpec().usageMessage().description(description);
        System.exit(commandLine.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final List<String> chosen = besideTcp == null ? transports : List.of("tcp", besideTcp);
        final List<FixTransport> sluiceTransports = sluice
                ? chosen.stream().map(FixTransport::parse).distinct().toList() : List.of();
        try (FixBenchEnvironment environment = FixBenchEnvironment.start(sluiceTransports,
                SluiceIdle.parse(idle), quickFixJ,
                floor.contains("none") ? List.of() : floor.stream().map(FixTransport::parse).toList(), keepRoot,
                idleSockets, control, validationArm, System.out)) {
            final FixMeasurement measurement = new FixMeasurement(StandardOrders.BUY,
                    Duration.ofSeconds(runTimeoutSeconds), System.out);
            final List<MeasuredRun> runs = measurement.measure(environment.targets(), window, warmup, orders, rounds);
            if (environment.seederFailure() != null) {
                System.out.println("note: the liquidity seeder reported: " + environment.seederFailure());
            }
            final String title = window == 1
                    ? String.format("FIX round trip, ping-pong (1 NewOrderSingle -> ack + fill), %,d warm-up + %,d"
                    + " measured per target", warmup, orders)
                    : String.format("FIX pipelined orders, window %d (NewOrderSingle -> ack + fill), %,d warm-up + %,d"
                    + " measured per target", window, warmup, orders);
            final String name = control ? scenario + "-control" : scenario;
            FixBenchReport.printAndSave(name, title, runs, BenchResult.section().put("warmup", warmup)
                    .put("orders", orders).put("window", window).put("rounds", rounds)
                    .put("sluiceIdle", idle).put("idleSockets", idleSockets), System.out);
        }
        return 0;
    }
}
