package io.sluice.engine;

import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.engine.config.EngineConfig;
import io.sluice.contracts.journal.CorruptJournalException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sluice engine --config FILE}: the processing engine process. Reads the YAML config
 * ({@link EngineConfig}), recovers from its journal, then processes the gateway journals until SIGTERM
 * (a clean stop after the command in hand; a stop still not done after {@value #STOP_GRACE_SECONDS} s, e.g. in a
 * long recovery, lets the process exit anyway: the journals are safe at any instant). A corrupt, truncated or altered
 * journal (a record failing its checksum, or recovery re-running an input into other reports than recorded), or one
 * of another journal format, stops it with a message naming the file, excerpt and byte offset, and exit code
 * {@value #EXIT_CORRUPT_JOURNAL}; a full disk, before anything is written, with a message naming the journal and the
 * free space, and exit code {@value #EXIT_DISK_FULL}; a bad config with {@value #EXIT_BAD_CONFIG}.
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "The Sluice processing engine: tails the gateway journals, matches, writes reports.")
public final class EngineMain implements Callable<Integer> {
    /** Exit code when the config file is missing or invalid. */
    public static final int EXIT_BAD_CONFIG = 2;
    /** Exit code when a journal cannot be read on. */
    public static final int EXIT_CORRUPT_JOURNAL = 3;
    /** Exit code when no disk space can be had for the engine journal. */
    public static final int EXIT_DISK_FULL = 4;
    private static final long STOP_GRACE_SECONDS = 5;

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
        } catch (final IllegalArgumentException e) { // a journal of another format
            System.err.println("engine: cannot use the journals: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } catch (final JournalDiskFullException e) {
            System.err.println("engine: " + e.getMessage());
            return EXIT_DISK_FULL;
        }
        final Thread shutdown = new Thread(() -> {
            try {
                System.out.println(service.stop(STOP_GRACE_SECONDS, TimeUnit.SECONDS) ? "engine: stopped"
                        : "engine: not stopped after " + STOP_GRACE_SECONDS + " s, exiting anyway");
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "engine-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        try {
            final long start = System.nanoTime();
            final long recovered = service.recover();
            System.out.println("engine: recovered " + recovered + " inputs in " + (System.nanoTime() - start) / 1_000_000
                    + " ms from " + config.journalRoot().toAbsolutePath()
                    + "; processing gateways " + java.util.Arrays.toString(config.gatewayIds()));
            service.run(); // returns on SIGTERM, once the shutdown hook has stopped it
            return 0;
        } catch (final CorruptJournalException e) {
            System.err.println("engine: stopped on a corrupt journal: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } catch (final JournalDiskFullException e) {
            System.err.println("engine: " + e.getMessage());
            return EXIT_DISK_FULL;
        } finally {
            removeHook(shutdown);
        }
    }

    private static void removeHook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException alreadyShuttingDown) {
            // stopping on SIGTERM: the hook is what is running
        }
    }
}
