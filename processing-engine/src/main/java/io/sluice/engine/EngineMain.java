package io.sluice.engine;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.InputFailedException;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.journal.JournalDiskFullException;
import org.agrona.concurrent.Agent;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice engine --config FILE}: the processing engine process. Reads the YAML config
 * ({@link EngineConfig}) and runs the {@link EngineService} as an agent on a thread of its own ({@link AgentThread}:
 * configured idle strategy, timer slack, optional pinning), which recovers from the journals and then processes the
 * gateway journals until SIGTERM ({@link SigtermHook}: a clean stop after the command in hand; a stop still not done
 * after {@value SigtermHook#GRACE_SECONDS} s, e.g. in a long recovery, lets the process exit anyway: the journals are
 * safe at any instant). Exit codes, each with a message on stderr:
 * <ul>
 *   <li>{@value #EXIT_FAILED}: anything unforeseen stopped the engine (the message names it);</li>
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
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "The Sluice processing engine: tails the gateway journals, matches, writes reports.")
public final class EngineMain implements Callable<Integer> {
    /** Exit code when something unforeseen stopped the engine. */
    public static final int EXIT_FAILED = 1;
    /** Exit code when the config file is missing or invalid. */
    public static final int EXIT_BAD_CONFIG = 2;
    /** Exit code when a journal cannot be read on. */
    public static final int EXIT_CORRUPT_JOURNAL = 3;
    /** Exit code when no disk space can be had for the engine journal. */
    public static final int EXIT_DISK_FULL = 4;
    /** Exit code when processing an input failed: restarting will fail on the same input. */
    public static final int EXIT_INPUT_FAILED = 5;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "engine config, YAML (see engine-example.yaml)")
    private Path configFile;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new EngineMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final EngineConfig config;
        try {
            config = EngineConfig.load(configFile);
        } catch (final RuntimeException e) {
            System.err.println("engine: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        final EngineService service;
        try {
            service = new EngineService(config);
        } catch (final io.sluice.runtime.replication.ReplicaRootException e) {
            System.err.println(e.getMessage());
            return EXIT_BAD_CONFIG;
        } catch (final IllegalStateException e) { // an admin journal others could write (AdminJournal.requireOwnerOnly)
            System.err.println("engine: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        } catch (final IllegalArgumentException e) { // a journal of another format
            System.err.println("engine: cannot use the journals: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } catch (final JournalDiskFullException e) {
            System.err.println("engine: " + e.getMessage());
            return EXIT_DISK_FULL;
        }
        return run(config, service);
    }

    /**
     * Runs {@code service} as the engine process does, until SIGTERM or a failure.
     *
     * @return the process's exit code, having printed why it stopped
     */
    public static int run(final EngineConfig config, final EngineService service) throws InterruptedException {
        final AgentThread engine = AgentThread.start(new Started(service, config), config.idle().newStrategy(),
                config.pinCpu(), AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("engine", engine);
        engine.awaitClosed(); // on SIGTERM, once the hook has closed it; or when it failed
        hook.remove();
        return exitCode(engine.failure());
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

    /** The engine service, saying how its recovery went when it has recovered. */
    private record Started(EngineService service, EngineConfig config) implements Agent {
        @Override
        public void onStart() {
            final long start = System.nanoTime();
            final long recovered = service.recover();
            final SnapshotRestore.Restored snapshot = service.restoredFrom();
            System.out.println("engine: recovered " + recovered + " inputs in " + (System.nanoTime() - start) / 1_000_000
                    + " ms from " + config.journalRoot().toAbsolutePath()
                    + (snapshot == null ? "" : " after the " + snapshot.describe()) + "; processing gateways "
                    + Arrays.toString(config.gatewayIds()) + "; idle " + config.idle().describe());
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
