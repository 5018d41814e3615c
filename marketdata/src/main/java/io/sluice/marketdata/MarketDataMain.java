package io.sluice.marketdata;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.publish.SendLatency;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sluice marketdata --config FILE}: the market-data process. Derives the market-data journal from the engine
 * journal, sends it as the binary feed and answers retransmission requests ({@link MarketDataAgents}): three agents
 * on one thread (a composite, with the configured idle strategy), so
 * that it takes one core at most. Waits for the engine journal to exist. Exit codes, each with a message on stderr:
 * 2 a bad config, 3 a damaged journal or one the engine journal does not match, 1 anything else (another marketdata
 * process on the same root, a port taken, an instrument the config does not list).
 */
@Command(name = "marketdata", mixinStandardHelpOptions = true,
        description = "Market data: the books, trades and trading status from the engine journal, as a sequenced"
                + " journal, a UDP feed with snapshots and a TCP retransmission service.")
public final class MarketDataMain implements Callable<Integer> {
    static final int EXIT_FAILED = 1;
    static final int EXIT_BAD_CONFIG = 2;
    static final int EXIT_CORRUPT_JOURNAL = 3;

    @Option(names = "--config", required = true, description = "market-data config, YAML (see marketdata-example.yaml)")
    private Path configFile;

    public static void main(final String[] args) {
        SigtermHook.handleSignals();
        System.exit(new CommandLine(new MarketDataMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        final MarketDataConfig config;
        try {
            config = MarketDataConfig.load(configFile);
        } catch (final RuntimeException e) {
            System.err.println("marketdata: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        final Path engineJournal = Journals.engineJournal(config.journalRoot());
        boolean told = false;
        while (!Files.exists(engineJournal.resolve("metadata.cq4t"))) {
            if (!told) {
                System.out.println("marketdata: waiting for the engine journal " + engineJournal.toAbsolutePath());
                told = true;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        final NanoClock clock = SystemNanoClock.INSTANCE;
        final MarketDataAgents agents = new MarketDataAgents(config, SendLatency.NONE, clock);
        final AgentThread thread = AgentThread.start(agents, config.idle().newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("marketdata", clock, thread);
        thread.awaitClosed();
        hook.close();
        final Throwable failure = thread.failure();
        if (failure == null) {
            return 0;
        }
        System.err.println("marketdata: stopped: " + failure.getMessage());
        return failure instanceof CorruptJournalException ? EXIT_CORRUPT_JOURNAL : EXIT_FAILED;
    }
}
