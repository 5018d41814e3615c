package io.sluice.replay;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.Console;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice replay --recorded DIR --config engine.yaml --out DIR}: replays a recorded session through a fresh
 * engine ({@link Replay}). It prints "identical, N reports" (exit 0) or the first divergence (exit {@value
 * #EXIT_DIVERGED}). Journals or a config that do not allow a replay exit with
 * {@value #EXIT_CANNOT_REPLAY} and a message naming the file.
 * <p>
 * {@code --follow DIR} instead of {@code --recorded DIR} runs the replay as a shadow engine ({@link ShadowEngine}) on
 * journals still being written, until SIGTERM, {@code --stop-at} or {@code --until-idle}; its first divergence exits
 * with {@value #EXIT_SHADOW_DIVERGED}.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replay recorded gateway journals through a fresh engine and compare its reports with the recorded ones;"
                + " with --follow, live, as a shadow engine, on journals still being written.",
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:identical (a shadow: stopped by SIGTERM, Ctrl-C, --stop-at or --until-idle with every report"
                        + " identical, its summary printed)",
                "1:a replay diverged (or an unforeseen failure)",
                "2:the journals, config or options do not allow a replay",
                "3:a shadow (--follow) diverged"})
public final class ReplayMain implements Callable<Integer> {
    /** Exit code when the replay diverged from the recording. */
    public static final int EXIT_DIVERGED = 1;
    /** Exit code when the journals, config or options do not allow a replay. */
    public static final int EXIT_CANNOT_REPLAY = 2;
    /** Exit code when a shadow engine ({@code --follow}) diverged: distinct, for a supervisor to raise the alarm. */
    public static final int EXIT_SHADOW_DIVERGED = 3;

    /** The process's clock: it times the replay and a shadow's status lines. */
    private final NanoClock clock = SystemNanoClock.INSTANCE;

    @ArgGroup(multiplicity = "1")
    private JournalRoot journals;

    /** Either a finished recording or journals still being written. */
    private static final class JournalRoot {
        @Option(names = "--recorded", required = true, paramLabel = "DIR",
                description = "directory of the recorded journals: engine/ and gateway-<id>/ (opened read-only)")
        private Path recorded;

        @Option(names = "--follow", required = true, paramLabel = "DIR",
                description = "run as a shadow engine on the journals under DIR while they are written (the primary's"
                        + " root or a replica): compare every report as it arrives, print a status line each second")
        private Path followed;
    }

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the engine config (YAML) to replay with")
    private Path configFile;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "where the new engine journal goes (DIR/engine)")
    private Path out;

    @Option(names = "--stop-at", paramLabel = "N", description = "stop after the first N recorded inputs")
    private Long stopAt;

    @Option(names = "--sources", split = ",", paramLabel = "ID",
            description = "replay only these gateways' inputs, e.g. 1,2 (OrderID and ExecID, engine-wide counters, are then not compared)")
    private List<Integer> sources;

    @Option(names = "--pace", paramLabel = "recorded|flat", defaultValue = "flat",
            description = "flat: as fast as possible (default); recorded: at the recorded inter-arrival times")
    private Pace pace;

    @Option(names = "--until-idle", paramLabel = "SECONDS",
            description = "with --follow: stop once nothing new was followed for this long (default: follow until SIGTERM)")
    private Double untilIdleSeconds;

    @Option(names = "--quiet", description = "no progress bar")
    private boolean quiet;

    @Option(names = "--from-snapshot", paramLabel = "INDEX|latest",
            description = "start from a snapshot of DIR/snapshots (./sluice snapshot): the newest valid one, or the one taken"
                    + " at this engine journal index (0x... or decimal); replays only the inputs after it")
    private String fromSnapshot;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new ReplayMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (journals.followed != null) {
            return follow();
        }
        if (untilIdleSeconds != null) {
            System.err.println("replay: --until-idle applies to --follow only");
            return EXIT_CANNOT_REPLAY;
        }
        final Path recorded = journals.recorded;
        final ReplayResult result;
        try {
            final Replay replay = new Replay(recorded, EngineConfig.load(configFile)).output(out).pace(pace)
                    .clock(clock)
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
        } catch (final UncheckedIOException e) {
            System.err.println("replay: " + e.getMessage() + ": " + e.getCause());
            return EXIT_CANNOT_REPLAY;
        }
        System.out.println(result.summary());
        System.err.printf(Locale.ROOT, "replay: %,d inputs in %.3f s: %,.0f inputs/s; new engine journal in %s%n",
                result.inputs(), result.elapsedNanos() / 1e9, result.inputsPerSecond(), out.resolve("engine").toAbsolutePath());
        return result.identical() ? 0 : EXIT_DIVERGED;
    }

    /** Runs a {@link ShadowEngine} on its agent thread until it stops by itself or SIGTERM closes it. */
    private int follow() throws InterruptedException {
        if (pace != Pace.FLAT) {
            System.err.println("replay: --pace applies to a recording; --follow goes at the pace the journals arrive");
            return EXIT_CANNOT_REPLAY;
        }
        if (untilIdleSeconds != null && !(untilIdleSeconds > 0)) {
            System.err.println("replay: --until-idle must be a positive number of seconds, got " + untilIdleSeconds);
            return EXIT_CANNOT_REPLAY;
        }
        final ShadowEngine shadow;
        final EngineConfig config;
        try {
            config = EngineConfig.load(configFile);
            final Replay replay = new Replay(journals.followed, config).output(out).clock(clock);
            if (stopAt != null) {
                replay.stopAt(stopAt);
            }
            if (sources != null) {
                replay.sources(sources.stream().mapToInt(Integer::intValue).toArray());
            }
            shadow = new ShadowEngine(replay, System.out,
                    untilIdleSeconds == null ? 0 : Math.round(untilIdleSeconds * 1e9));
        } catch (final ReplayException | IllegalArgumentException e) {
            System.err.println("replay: " + e.getMessage());
            return EXIT_CANNOT_REPLAY;
        } catch (final UncheckedIOException e) {
            System.err.println("replay: " + e.getMessage() + ": " + e.getCause());
            return EXIT_CANNOT_REPLAY;
        }
        System.out.println("shadow: following " + journals.followed.toAbsolutePath() + " with " + configFile
                + "; its own engine journal in " + out.resolve("engine").toAbsolutePath() + "; idle " + config.idle().describe());
        final AgentThread thread = AgentThread.start(shadow, config.idle().newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("shadow", clock, thread);
        thread.awaitClosed();
        hook.close();
        System.out.flush();
        final Throwable failure = thread.failure();
        if (failure instanceof ReplayException || failure instanceof CorruptJournalException
                || failure instanceof IllegalArgumentException || failure instanceof UncheckedIOException) {
            System.err.println("replay: " + failure.getMessage());
            return EXIT_CANNOT_REPLAY;
        }
        if (failure != null) {
            System.err.println("replay: the shadow stopped by an unforeseen failure:");
            failure.printStackTrace();
            return 1;
        }
        return shadow.result().identical() ? 0 : EXIT_SHADOW_DIVERGED;
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
