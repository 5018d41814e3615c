package io.sluice.tools.archive;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice archive --root DIR --to DIR [--keep-days N] [--config engine.yaml] [--dry-run]}: archives a stopped
 * deployment's old day files. It moves the day files its {@link RetentionPolicy} lets go into an archive directory, in
 * the same layout ({@code <to>/<journal>/<yyyyMMdd>F.cq4}), and prints each file moved and why each other one is kept.
 * It refuses while any process has the journals open ({@link LiveProcesses}), never overwrites a file in the archive,
 * never touches {@code metadata.cq4t}, and afterwards has each journal whose files moved record its new first day
 * ({@link Journals#refreshListing}). {@code --dry-run} prints the same and moves nothing.
 */
@Command(name = "archive", mixinStandardHelpOptions = true,
        description = "Move old journal days that no restart, replay or resend needs out of a stopped deployment.")
public final class ArchiveMain implements Callable<Integer> {
    /** Exit code for bad arguments (no such root, a bad config). */
    public static final int EXIT_BAD_ARGUMENTS = 2;
    /** Exit code when processes have the deployment's journals open: nothing was moved. */
    public static final int EXIT_PROCESSES_RUNNING = 3;

    @Option(names = "--root", required = true, paramLabel = "DIR", description = "the deployment's journal root")
    private Path root;

    @Option(names = "--to", required = true, paramLabel = "DIR",
            description = "the archive directory; day files go to DIR/<journal>/")
    private Path to;

    @Option(names = "--keep-days", paramLabel = "N", defaultValue = "7",
            description = "UTC days kept whatever else is needed, today included (default 7)")
    private int keepDays;

    @Option(names = "--config", paramLabel = "FILE",
            description = "the engine's config: its gateways, and snapshots checked against it as its restart does")
    private Path config;

    @Option(names = "--dry-run", description = "print what would move and why the rest stays; move nothing")
    private boolean dryRun;

    private final PrintStream out;
    private final PrintStream err;
    private final LocalDate today;
    private final NanoClock clock;

    /**
     * @param today today's UTC day, which the kept days end with
     * @param clock paces the looks for the shipper's acknowledged index ({@link RetentionPolicy})
     */
    ArchiveMain(final PrintStream out, final PrintStream err, final LocalDate today, final NanoClock clock) {
        this.out = out;
        this.err = err;
        this.today = today;
        this.clock = clock;
    }

    public static void main(final String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs with {@code args} as the command line would, printing everything to {@code out}. @return the exit code */
    static int run(final PrintStream out, final String... args) {
        return run(out, out, args);
    }

    private static int run(final PrintStream out, final PrintStream err, final String... args) {
        return new CommandLine(new ArchiveMain(out, err, RetentionPolicy.todayUtc(SystemEpochClock.INSTANCE),
                SystemNanoClock.INSTANCE)).execute(args);
    }

    @Override
    public Integer call() {
        if (!Files.isDirectory(root)) {
            err.println("archive: no such directory: " + root.toAbsolutePath());
            return EXIT_BAD_ARGUMENTS;
        }
        final EngineConfig engineConfig;
        try {
            engineConfig = config == null ? null : EngineConfig.load(config);
        } catch (final RuntimeException e) {
            err.println("archive: cannot read the engine config " + config + ": " + e.getMessage());
            return EXIT_BAD_ARGUMENTS;
        }
        if (engineConfig != null && !sameDirectory(engineConfig.journalRoot(), root)) {
            err.println("archive: the engine config " + config + " is for the journal root "
                    + engineConfig.journalRoot() + ", not " + root);
            return EXIT_BAD_ARGUMENTS;
        }
        if (sameDirectory(root, to) || to.toAbsolutePath().normalize().startsWith(root.toAbsolutePath().normalize())) {
            err.println("archive: the archive directory " + to + " must be outside the journal root " + root);
            return EXIT_BAD_ARGUMENTS;
        }
        final List<String> live = LiveProcesses.under(root);
        if (!live.isEmpty()) {
            err.println("archive: " + (dryRun ? "warning: " : "refused: ") + live.size()
                    + " process(es) have the journals under " + root.toAbsolutePath() + " open; Chronicle cannot have"
                    + " cycle files moved under a running appender or tailer, so stop them first"
                    + (dryRun ? " (this dry run goes on, but the plan may change while they run)" : "") + ":");
            live.forEach(line -> err.println("  " + line));
            if (!dryRun) {
                return EXIT_PROCESSES_RUNNING;
            }
        }
        final RetentionPolicy.Plan plan;
        try {
            plan = new RetentionPolicy(root, keepDays, today, engineConfig, clock).plan();
        } catch (final IllegalArgumentException e) {
            err.println("archive: " + e.getMessage());
            return EXIT_BAD_ARGUMENTS;
        }
        out.printf("archive: journal root %s, archive %s, keeping %d day(s): %s to %s (UTC)%s%n", root.toAbsolutePath(),
                to.toAbsolutePath(), keepDays, today.minusDays(keepDays - 1), today, dryRun ? "; dry run, nothing moves" : "");
        plan.notes().forEach(note -> out.println("  " + note));
        final Set<String> touched = new TreeSet<>();
        try {
            for (final RetentionPolicy.Decision decision : plan.decisions()) {
                final String name = decision.journal() + "/" + decision.file().getFileName();
                if (!decision.move()) {
                    out.println("kept  " + name + ": " + decision.reason());
                    continue;
                }
                final Path target = to.resolve(decision.journal()).resolve(decision.file().getFileName());
                if (dryRun) {
                    out.println("would move " + name + " to " + target + ": " + decision.reason());
                    continue;
                }
                if (Files.exists(target)) {
                    err.println("archive: " + target + " already exists; " + name + " not moved (nothing is"
                            + " overwritten); the files moved before it stay moved");
                    return 1;
                }
                try {
                    Files.createDirectories(target.getParent());
                    Files.move(decision.file(), target);
                } catch (final IOException e) {
                    err.println("archive: cannot move " + decision.file() + " to " + target + ": " + e
                            + "; the files moved before it stay moved");
                    return 1;
                }
                touched.add(decision.journal());
                out.println("moved " + name + " to " + target + ": " + decision.reason());
            }
        } finally {
            // Whatever moved, each journal records its new first day, so read-only openers find it.
            for (final String journal : touched) {
                Journals.refreshListing(root.resolve(journal));
            }
        }
        out.printf("archive: %s %d day file(s), kept %d%n", dryRun ? "would move" : "moved", plan.moves().size(),
                plan.decisions().size() - plan.moves().size());
        return 0;
    }

    private static boolean sameDirectory(final Path a, final Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}
