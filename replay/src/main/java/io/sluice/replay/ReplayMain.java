package io.sluice.replay;

import io.sluice.engine.config.EngineConfig;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.engine.snapshot.SnapshotRestore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.Console;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice replay --recorded DIR --config engine.yaml --out DIR}: replays a recorded session through
 * a fresh engine ({@link Replay}) and prints "identical, N reports" (exit 0) or the first divergence (exit
 * {@value #EXIT_DIVERGED}). Journals or a config that do not allow a replay exit with
 * {@value #EXIT_CANNOT_REPLAY} and a message naming the file.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replay recorded gateway journals through a fresh engine and compare its reports with the recorded ones.")
public final class ReplayMain implements Callable<Integer> {
    /** Exit code when the replay diverged from the recording. */
    public static final int EXIT_DIVERGED = 1;
    /** Exit code when the journals, config or options do not allow a replay. */
    public static final int EXIT_CANNOT_REPLAY = 2;

    @Option(names = "--recorded", required = true, paramLabel = "DIR",
            description = "directory of the recorded journals: engine/ and gateway-<id>/ (opened read-only)")
    private Path recorded;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the engine config (YAML) to replay with")
    private Path configFile;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "where the new engine journal goes (DIR/engine)")
    private Path out;

    @Option(names = "--stop-at", paramLabel = "N", description = "stop after the first N recorded inputs")
    private Long stopAt;

    @Option(names = "--sources", split = ",", paramLabel = "ID", description = "replay only these gateways' inputs, e.g. 1,2 (OrderID and ExecID, engine-wide counters, are then not compared)")
    private List<Integer> sources;

    @Option(names = "--pace", paramLabel = "recorded|flat", defaultValue = "flat",
            description = "flat: as fast as possible (default); recorded: at the recorded inter-arrival times")
    private Pace pace;

    @Option(names = "--quiet", description = "no progress bar")
    private boolean quiet;

    @Option(names = "--from-snapshot", paramLabel = "INDEX|latest",
            description = "start from a snapshot of DIR/snapshots (./sluice snapshot): the newest valid one, or the one taken at this engine journal index (0x... or decimal); replays only the inputs after it")
    private String fromSnapshot;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new ReplayMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() {
        final ReplayResult result;
        try {
            final Replay replay = new Replay(recorded, EngineConfig.load(configFile)).output(out).pace(pace)
                    .progress(quiet || !onTerminal() ? ReplayProgress.NONE : new TerminalProgress(System.err));
            if (stopAt != null) {
                replay.stopAt(stopAt);
            }
            if (sources != null) {
                replay.sources(sources.stream().mapToInt(Integer::intValue).toArray());
            }
            if (fromSnapshot != null) {
                replay.fromSnapshot(snapshotIndex(fromSnapshot));
            }
            result = replay.run();
            if (replay.restoredFrom() != null) {
                System.err.println("replay: started from the " + replay.restoredFrom().describe());
            }
        } catch (final ReplayException | CorruptJournalException | IllegalArgumentException e) {
            System.err.println("replay: " + e.getMessage());
            return EXIT_CANNOT_REPLAY;
        } catch (final java.io.UncheckedIOException e) {
            System.err.println("replay: " + e.getMessage() + ": " + e.getCause());
            return EXIT_CANNOT_REPLAY;
        }
        System.out.println(result.summary());
        System.err.printf(Locale.ROOT, "replay: %,d inputs in %.3f s: %,.0f inputs/s; new engine journal in %s%n",
                result.inputs(), result.elapsedNanos() / 1e9, result.inputsPerSecond(), out.resolve("engine").toAbsolutePath());
        return result.identical() ? 0 : EXIT_DIVERGED;
    }

    /** @return {@link SnapshotRestore#LATEST} for "latest", else the engine journal index given */
    private static long snapshotIndex(final String option) {
        if ("latest".equalsIgnoreCase(option)) {
            return SnapshotRestore.LATEST;
        }
        try {
            return Long.decode(option);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("--from-snapshot takes 'latest' or an engine journal index, got '" + option + "'");
        }
    }

    private static boolean onTerminal() {
        final Console console = System.console();
        return console != null && console.isTerminal();
    }
}
