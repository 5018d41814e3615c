package io.sluice.gateway;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.gateway.transport.ListenAddress;
import io.sluice.gateway.transport.ListenSockets;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.process.AotRecording;
import io.sluice.runtime.process.AwaitPromotion;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The {@code gateway} role: {@code ./sluice gateway --config gateway.yaml}.
 * <p>
 * Reads the process's environment and clocks into a {@link GatewayContext}, whose conclusion takes the writer locks of
 * the gateway's two journals ({@link ProcessLock#journalWriter}: one process per gateway id) among its other steps, and
 * runs the gateway as an agent on its I/O thread ({@link GatewayAgent} on an {@link AgentThread}: configured idle
 * strategy, timer slack, optional pinning) until SIGTERM or Ctrl-C ({@link SigtermHook}: waits at most {@value
 * SigtermHook#GRACE_SECONDS} s for the I/O thread
 * to close the listener and the journals). With {@value AwaitPromotion#OPTION} (started by a standby ahead of its
 * takeover) it first checks its config and listen addresses, then follows the standby's words ({@link AwaitingGateway})
 * before it opens anything under the root. Exit codes, each with a message:
 * <ul>
 *   <li>1: it cannot start (another process writes its journals, a gateway with the same id: the message names it and
 *   its pid; a session another gateway serves; an unusable listen address), or an unforeseen failure
 *   outside any one session stopped it (a failure in one client's message only logs that session out);</li>
 *   <li>2: the configuration is invalid, every problem listed;</li>
 *   <li>{@value #EXIT_CORRUPT_JOURNAL}: one of its journals is damaged (checked at start and on every read); the
 *   message names file, excerpt and offset;</li>
 *   <li>{@value #EXIT_DISK_FULL}: its disk is full (at start, or once the reserve is used up); the message names the
 *   journal and the free space.</li>
 * </ul>
 */
@Command(name = "gateway", mixinStandardHelpOptions = true,
        description = "A Sluice FIX 4.4 gateway over TCP or a Unix domain socket.")
public final class GatewayMain implements Callable<Integer> {
    /** Exit code when the gateway cannot start, or an unforeseen failure outside a session stopped it. */
    public static final int EXIT_FAILED = 1;
    /** Exit code when the configuration is invalid. */
    public static final int EXIT_BAD_CONFIG = 2;
    /** Exit code when a journal is damaged (at start or while running): the message names file, excerpt and offset. */
    public static final int EXIT_CORRUPT_JOURNAL = 3;
    /** Exit code when no disk space can be had for a journal. */
    public static final int EXIT_DISK_FULL = 4;

    @Option(names = {"-c", "--config"}, required = true, description = "YAML configuration (see gateway-example.yaml)")
    private Path config;

    @Option(names = AwaitPromotion.OPTION, description = "started by a standby: check the config and the listen"
            + " addresses, then follow its words on the standard input (listening while it takes over) and open the"
            + " journals once it says PROMOTED")
    private boolean awaitPromotion;

    public static void main(final String[] args) {
        SigtermHook.handleSignals();
        System.exit(AotRecording.exit(new CommandLine(new GatewayMain()).execute(args)));
    }

    @Override
    public Integer call() throws Exception {
        final Map<String, String> environment = System.getenv();
        final GatewayConfig gatewayConfig;
        try {
            gatewayConfig = GatewayConfig.load(config, environment);
        } catch (final IllegalArgumentException | UncheckedIOException e) {
            System.err.println("gateway: cannot use " + config + ": " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        final NanoClock nanoClock = SystemNanoClock.INSTANCE;
        final GatewayContext context = new GatewayContext();
        if (awaitPromotion) {
            final AwaitingGateway awaiting = new AwaitingGateway(gatewayConfig, nanoClock);
            try {
                if (awaiting.await() == AwaitPromotion.Outcome.STANDBY_GONE) {
                    return 0;
                }
            } catch (final UncheckedIOException e) {
                awaiting.close();
                System.err.println("gateway " + gatewayConfig.gatewayId() + ": cannot start: " + e.getMessage());
                return EXIT_FAILED;
            } catch (final IllegalArgumentException e) {
                awaiting.close();
                System.err.println("gateway " + gatewayConfig.gatewayId() + ": " + e.getMessage());
                return EXIT_BAD_CONFIG;
            }
            context.listenSockets(awaiting.sockets).sessionStoreReadAhead(awaiting.sessionStore);
        }
        return run(context.config(gatewayConfig).environment(environment)
                .epochClock(SystemEpochClock.INSTANCE).nanoClock(nanoClock));
    }

    /**
     * A gateway started by a standby ahead of its takeover, its config checked, waiting for the standby's word that the
     * root is promoted ({@link AwaitPromotion}) and writing nothing under the root meanwhile (it reads its journals once,
     * {@link ReplicaReadAhead}). It listens while the
     * standby takes over (clients' connections wait in the backlog, unanswered, until it serves), not while it stands by
     * (clients are refused, and go back to the primary).
     */
    private static final class AwaitingGateway implements Consumer<AwaitPromotion.Word> {
        private final GatewayConfig config;
        private final String name;
        private final NanoClock clock;
        /** Bound while the standby takes over, else null. */
        private ListenSockets sockets;
        /** The session store's state read ahead of the promotion, or null if none was (no journals, a failure). */
        private SessionStoreRecovery sessionStore;

        AwaitingGateway(final GatewayConfig config, final NanoClock clock) {
            this.config = config;
            this.clock = clock;
            this.name = "gateway " + config.gatewayId();
        }

        /**
         * Checks that the listen addresses are free, then waits, reading its replica journals once meanwhile
         * ({@link ReplicaReadAhead}).
         *
         * @return how the wait ended, having said so
         * @throws UncheckedIOException naming a listen address that cannot be listened on
         * @throws IllegalArgumentException if the standard input carried anything but the standby's words
         */
        AwaitPromotion.Outcome await() {
            ListenSockets.bind(config.listens()).close();
            final Path root = config.journalRoot().toAbsolutePath();
            System.out.println(name + ": ready but for its journals, its listen addresses free; awaiting the standby's"
                    + " word that " + root + " is promoted");
            System.out.flush();
            final ReplicaReadAhead readAhead = new ReplicaReadAhead(config, clock);
            final AgentThread readAheadThread = AgentThread.startBackground(readAhead);
            final AwaitPromotion.Outcome outcome;
            try {
                outcome = AwaitPromotion.await(System.in, this);
            } finally {
                readAheadThread.close();
            }
            if (readAheadThread.failure() == null) { // joined: what it read is this thread's to take
                sessionStore = readAhead.sessionStore();
            }
            if (outcome == AwaitPromotion.Outcome.PROMOTED && sessionStore != null) {
                System.out.println(name + ": its session store goes on from the state read ahead of the promotion (its"
                        + " journal read up to index " + sessionStore.lastIndex() + ")");
            }
            if (outcome == AwaitPromotion.Outcome.STANDBY_GONE) {
                close();
                System.out.println(name + ": the standby that started it is gone before it promoted " + root
                        + ": stopped, the journals untouched");
            }
            return outcome;
        }

        @Override
        public void accept(final AwaitPromotion.Word word) {
            if (word == AwaitPromotion.Word.STANDING_BY && sockets != null) {
                close();
                System.out.println(name + ": the standby stands by again: not listening");
            } else if (word != AwaitPromotion.Word.STANDING_BY && sockets == null) {
                sockets = ListenSockets.bind(config.listens());
                System.out.println(name + ": the standby takes over: listening on " + String.join(" and ",
                        config.listens().stream().map(listen -> ListenAddress.format(listen.address(), listen.tls()))
                                .toList()) + "; connections wait until the root is promoted");
            }
            System.out.flush();
        }

        void close() {
            if (sockets != null) {
                sockets.close();
                sockets = null;
            }
        }
    }

    /** Runs the gateway until SIGTERM or a failure: @return the exit code */
    private static int run(final GatewayContext context) throws InterruptedException {
        final GatewayConfig gatewayConfig = context.config();
        final GatewayAgent agent = new GatewayAgent(context, gateway -> {
            System.out.println("gateway " + gatewayConfig.gatewayId() + " listening on "
                    + String.join(" and ", gateway.describeListening()) + ", journals under "
                    + gatewayConfig.journalRoot().toAbsolutePath() + ", sessions "
                    + gatewayConfig.sessions().stream().map(SessionConfig::senderCompId).collect(Collectors.joining(", "))
                    + "; idle " + gatewayConfig.idle().describe());
            System.out.flush();
        });
        final AgentThread thread = AgentThread.start(agent, gatewayConfig.idle().newStrategy(), gatewayConfig.pinCpu(),
                AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install(agent.roleName(), context.nanoClock(), thread);
        thread.awaitClosed(); // on SIGTERM, once the hook has closed it; or when it failed
        hook.close();
        return exitCode(agent, thread.failure());
    }

    /** @return the exit code for what stopped the gateway (null: SIGTERM), having printed why */
    private static int exitCode(final GatewayAgent agent, final Throwable failure) {
        final String name = agent.roleName();
        if (failure == null) {
            System.out.println(name + " stopped");
            return 0;
        }
        if (failure instanceof JournalDiskFullException) {
            System.err.println(name + ": " + failure.getMessage());
            return EXIT_DISK_FULL;
        }
        if (failure instanceof LockHeldException) {
            System.err.println(name + ": cannot start: " + failure.getMessage()
                    + ", or give this gateway a gatewayId of its own");
            return EXIT_FAILED;
        }
        if (failure instanceof CorruptJournalException) {
            System.err.println(name + (agent.started() ? ": stopped on a damaged journal: " : ": cannot start on a damaged journal: ")
                    + failure.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        }
        if (!agent.started() && (failure instanceof UncheckedIOException || failure instanceof IllegalArgumentException)) {
            System.err.println(name + ": cannot start: " + failure.getMessage());
            return EXIT_FAILED;
        }
        System.err.println(name + ": stopped by an unforeseen failure outside any one session:");
        failure.printStackTrace();
        return EXIT_FAILED;
    }
}
