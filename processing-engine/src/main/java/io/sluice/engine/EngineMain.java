package io.sluice.engine;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.InputFailedException;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.journal.ReplicaRootException;
import io.sluice.runtime.process.AotRecording;
import io.sluice.runtime.process.AwaitPromotion;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code ./sluice engine --config FILE}: the processing engine process.
 * <p>
 * It times its start, phase by phase, and prints where the time went when it is live ({@link StartupPhases}). Reads
 * the YAML config ({@link EngineConfig}), launches the {@link EngineService} on an {@link EngineContext} (which takes
 * the engine journal's writer lock, {@link ProcessLock#journalWriter}: one engine per journal root, opens the
 * journals and recovers from them, on the main thread) and runs it as an agent on a thread of its own
 * ({@link AgentThread}: configured idle strategy, timer slack, optional pinning), processing the gateway journals
 * until SIGTERM ({@link SigtermHook}: a clean stop after the command in hand; a SIGTERM during the recovery, before
 * the agent runs, ends the process at once, and a stop still not done after {@value SigtermHook#GRACE_SECONDS} s
 * lets it exit anyway: the journals are safe at any instant). With {@value AwaitPromotion#OPTION} (started by a standby
 * ahead of its takeover) it reads and checks its config, then waits for the standby's word that the root is promoted
 * ({@link AwaitPromotion}) before it writes anything under it, following the replica read-only meanwhile
 * ({@link ReplicaFollower}). Exit codes, each with a message on stderr:
 * <ul>
 *   <li>{@value #EXIT_FAILED}: another process writes the engine journal (the message names it and its pid), or
 *   anything unforeseen stopped the engine (the message names it);</li>
 *   <li>{@value #EXIT_BAD_CONFIG}: the config file is missing or invalid, or the admin journal is open to other users
 *   than the deployment's (the message names its directory, owner and mode);</li>
 *   <li>{@value #EXIT_CORRUPT_JOURNAL}: a corrupt, truncated or altered journal (a record failing its checksum, or
 *   recovery re-running an input into other reports than recorded), or one of another journal format; the message
 *   names the file, excerpt and byte offset;</li>
 *   <li>{@value #EXIT_DISK_FULL}: a full disk, before anything is written; the message names the journal and the free
 *   space;</li>
 *   <li>{@value #EXIT_INPUT_FAILED}: processing an input failed ({@link InputFailedException}); the message names the
 *   gateway journal, the excerpt index and byte offset, and the input as YAML. The engine's state may have been half
 *   changed, so it never skips the input: a restart stops again on it. A supervisor must not restart on this code
 *   in a loop: the input needs a fixed engine.</li>
 * </ul>
 */
public final class EngineMain {
    /** Exit code when another process writes the engine journal, or something unforeseen stopped the engine. */
    public static final int EXIT_FAILED = 1;
    /** Exit code when the config file is missing or invalid (or the command line is). */
    public static final int EXIT_BAD_CONFIG = 2;
    /** Exit code when a journal cannot be read on. */
    public static final int EXIT_CORRUPT_JOURNAL = 3;
    /** Exit code when no disk space can be had for the engine journal. */
    public static final int EXIT_DISK_FULL = 4;
    /** Exit code when processing an input failed: restarting will fail on the same input. */
    public static final int EXIT_INPUT_FAILED = 5;

    private static final String USAGE = """
            Usage: engine --config=FILE [--await-promotion] [-h]
            The Sluice processing engine: tails the gateway journals, matches, writes reports.
                  --config=FILE   engine config, YAML (see engine-example.yaml)
                  --await-promotion
                                  started by a standby: wait for its word PROMOTED on the standard input
                                  before opening the journals
              -h, --help          Show this help message and exit.""";

    private EngineMain() {
    }

    public static void main(final String[] args) throws InterruptedException {
        final NanoClock nanoClock = SystemNanoClock.INSTANCE;
        final EpochClock epochClock = SystemEpochClock.INSTANCE;
        final StartupPhases phases = StartupPhases.sinceJvmStart("jvm", nanoClock, epochClock);
        SigtermHook.handleSignals();
        System.exit(AotRecording.exit(start(args, new EngineContext().nanoClock(nanoClock).epochClock(epochClock)
                .phases(phases))));
    }

    /**
     * Parses the command line by hand, not with picocli as the other roles do: the engine's start is on the path of
     * every restart, and picocli's scanning of the annotations took 70-110 ms of CPU time of it (200-280 ms of wall
     * time on the shared 2-core VM), as the start-up line showed, for one option.
     *
     * @param context the process's clocks and start-up phases; the config is set here
     * @return the process's exit code
     */
    private static int start(final String[] args, final EngineContext context) throws InterruptedException {
        Path configFile = null;
        boolean awaitPromotion = false;
        for (int i = 0; i < args.length; i++) {
            final String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println(USAGE);
                return 0;
            } else if (arg.equals("--config") && i + 1 < args.length) {
                configFile = Path.of(args[++i]);
            } else if (arg.startsWith("--config=")) {
                configFile = Path.of(arg.substring("--config=".length()));
            } else if (arg.equals(AwaitPromotion.OPTION)) {
                awaitPromotion = true;
            } else {
                return usageError(arg.equals("--config") ? "Missing required parameter for option '--config' (FILE)"
                        : "Unknown option: '" + arg + "'");
            }
        }
        if (configFile == null) {
            return usageError("Missing required option: '--config=FILE'");
        }
        context.phases().end("command line");
        try {
            context.config(EngineConfig.load(configFile));
        } catch (final RuntimeException e) {
            System.err.println("engine: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        context.phases().end("config");
        try {
            if (awaitPromotion && awaitPromotion(context) == AwaitPromotion.Outcome.STANDBY_GONE) {
                return 0;
            }
        } catch (final IllegalArgumentException e) {
            System.err.println("engine: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        return run(context);
    }

    /**
     * Started by a standby ahead of its takeover, with the JVM up and the config checked: waits for its word that the
     * root is promoted ({@link AwaitPromotion}; the words before it concern the gateways), writing nothing under the
     * root meanwhile. A {@link ReplicaFollower} on a background thread re-runs, read-only, what the standby's receiver
     * appends, so that once promoted the engine re-runs only what came since it last looked.
     *
     * @return how the wait ended, having said so
     * @throws IllegalArgumentException if the standard input carried anything but the standby's words
     */
    private static AwaitPromotion.Outcome awaitPromotion(final EngineContext context) {
        final Path root = context.config().journalRoot().toAbsolutePath();
        System.out.println("engine: ready but for its journals; awaiting the standby's word that " + root
                + " is promoted");
        System.out.flush();
        final ReplicaFollower follower = context.followReplica();
        final AgentThread following = AgentThread.startBackground(follower);
        AwaitPromotion.Outcome outcome = AwaitPromotion.Outcome.STANDBY_GONE;
        try {
            outcome = AwaitPromotion.await(System.in, word -> { });
        } finally {
            following.close();
            if (outcome != AwaitPromotion.Outcome.PROMOTED) {
                follower.close();
            }
        }
        if (outcome == AwaitPromotion.Outcome.STANDBY_GONE) {
            System.out.println("engine: the standby that started it is gone before it promoted " + root
                    + ": stopped, the journals untouched");
        }
        context.phases().end("awaiting promotion");
        return outcome;
    }

    /**
     * Launches the engine on {@code context} ({@link EngineService#launch(EngineContext)}: its writer lock, journals and
     * recovery) and runs it as the engine process does, on an agent thread of its own, until SIGTERM or a failure.
     *
     * @return the process's exit code, having printed why it stopped (or why it could not start)
     */
    public static int run(final EngineContext context) throws InterruptedException {
        final EngineService service;
        try {
            service = EngineService.launch(context);
        } catch (final LockHeldException e) {
            System.err.println("engine: cannot start: " + e.getMessage());
            return EXIT_FAILED;
        } catch (final ReplicaRootException e) {
            System.err.println(e.getMessage());
            return EXIT_BAD_CONFIG;
        } catch (final IllegalStateException e) { // an admin journal others could write (AdminJournal.requireOwnerOnly)
            System.err.println("engine: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        } catch (final IllegalArgumentException e) { // a journal of another format
            System.err.println("engine: cannot use the journals: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } catch (final RuntimeException e) { // a full disk, or recovery stopped on a journal or an input
            return exitCode(e);
        }
        final EngineConfig config = context.config();
        final AgentThread engine = AgentThread.start(new Started(service), config.idle().newStrategy(),
                config.pinCpu(), AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("engine", context.nanoClock(), engine);
        engine.awaitClosed(); // on SIGTERM, once the hook has closed it; or when it failed
        hook.close();
        return exitCode(engine.failure());
    }

    private static int usageError(final String message) {
        System.err.println(message);
        System.err.println(USAGE);
        return EXIT_BAD_CONFIG;
    }

    /** @return the exit code for what stopped the engine (null: SIGTERM), having printed why */
    private static int exitCode(final Throwable failure) {
        if (failure == null) {
            return 0;
        }
        if (failure instanceof CorruptJournalException) {
            System.err.println("engine: stopped on a corrupt journal: " + failure.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        }
        if (failure instanceof JournalDiskFullException) {
            System.err.println("engine: " + failure.getMessage());
            return EXIT_DISK_FULL;
        }
        if (failure instanceof InputFailedException) {
            System.err.println("engine: stopped: " + failure.getMessage());
            failure.getCause().printStackTrace();
            return EXIT_INPUT_FAILED;
        }
        System.err.println("engine: stopped by an unforeseen failure:");
        failure.printStackTrace();
        return EXIT_FAILED;
    }

    /** What the engine says at start when its OrderIDs and ExecIDs are permuted with the built-in key. */
    static final String ID_KEY_BUILT_IN = "engine: idKey is not set: OrderIDs and ExecIDs are permuted with the"
            + " built-in key, which is no secret; set idKey in the engine config to a secret of the deployment's own";
    /** What it says when they are not permuted at all. */
    static final String ID_KEY_COUNTERS = "engine: idKey is counters: OrderIDs and ExecIDs are the engine's counters,"
            + " which tell every client the venue's volume";

    /** The engine service, saying how its recovery went, and where its start's time went, once on its thread. */
    private record Started(EngineService service) implements Agent {
        @Override
        public void onStart() {
            final EngineContext context = service.context();
            final EngineConfig config = context.config();
            final StartupPhases phases = context.phases();
            phases.end("agent thread");
            final SnapshotRestore.Restored snapshot = context.restoredFrom();
            System.out.println("engine: recovered " + context.recovered() + " inputs in "
                    + context.recoveryNanos() / 1_000_000 + " ms from " + config.journalRoot().toAbsolutePath()
                    + (context.followedBeforePromotion() == 0 ? "" : " (" + context.followedBeforePromotion()
                    + " of them followed before the promotion)")
                    + (snapshot == null ? "" : " after the " + snapshot.describe()) + "; processing gateways "
                    + Arrays.toString(config.gatewayIds()) + "; idle " + config.idle().describe());
            if (phases != StartupPhases.IGNORED) {
                System.out.println("engine: " + phases.describe());
            }
            if (!config.hasOwnIdKey()) {
                System.out.println(config.publicIds().permutes() ? ID_KEY_BUILT_IN : ID_KEY_COUNTERS);
            }
        }

        @Override
        public int doWork() {
            return service.doWork();
        }

        @Override
        public void onClose() {
            service.close();
        }

        @Override
        public String roleName() {
            return service.roleName();
        }
    }
}
