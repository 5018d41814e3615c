package io.sluice.tools.stat;

import io.sluice.runtime.counters.CountersDirectory;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice stat --root DIR}: every Sluice process's live counters under a deployment's journal root, as a
 * table refreshed each second, like AeronStat. It only maps the counters files read-only
 * ({@link CountersDirectory}): the processes never notice it. {@code --once} prints the table once and exits.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = "Live counters of every Sluice process under a journal root, refreshed each second.")
public final class StatMain implements Callable<Integer> {
    /** Exit code when the root does not exist. */
    public static final int EXIT_NO_ROOT = 2;
    private static final String CLEAR_SCREEN = "\033[H\033[2J";

    /** The process's wall clock: the time above each refresh. */
    private final EpochClock clock = SystemEpochClock.INSTANCE;

    @Option(names = "--root", required = true, paramLabel = "DIR",
            description = "the deployment's journal root (its counters are in DIR/counters)")
    private Path root;

    @Option(names = "--once", description = "print the counters once and exit")
    private boolean once;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "1000", description = "refresh period (default 1000)")
    private long intervalMillis;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new StatMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!Files.isDirectory(root)) {
            System.err.println("stat: no such directory: " + root.toAbsolutePath());
            return EXIT_NO_ROOT;
        }
        final CountersDirectory counters = new CountersDirectory(root);
        if (once) {
            System.out.print(CountersTable.render(root.toString(), counters.read()));
            return 0;
        }
        while (!Thread.currentThread().isInterrupted()) {
            System.out.print(CLEAR_SCREEN + Instant.ofEpochMilli(clock.time()) + "  " + root.toAbsolutePath() + "\n\n"
                    + CountersTable.render(root.toString(), counters.read()));
            System.out.flush();
            Thread.sleep(intervalMillis);
        }
        return 0;
    }
}
