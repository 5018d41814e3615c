package io.sluice.marketdata;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.derive.MarketDataService;
import io.sluice.marketdata.publish.FeedPublisher;
import io.sluice.marketdata.publish.RetransmitServer;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sluice marketdata --config FILE}: the market-data process. Derives the market-data journal from the engine
 * journal ({@link MarketDataService}), sends it as the binary feed ({@link FeedPublisher}) and answers retransmission
 * requests ({@link RetransmitServer}): three agents on one thread (a composite, with the configured idle strategy), so
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
        final Started started = new Started(config);
        final AgentThread thread = AgentThread.start(started, config.idle().newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("marketdata", thread);
        thread.awaitClosed();
        hook.remove();
        final Throwable failure = thread.failure();
        if (failure == null) {
            started.printStopped();
            return 0;
        }
        System.err.println("marketdata: stopped: " + failure.getMessage());
        return failure instanceof CorruptJournalException ? EXIT_CORRUPT_JOURNAL : EXIT_FAILED;
    }

    /**
     * The process's three agents, built in {@link #onStart()} on the thread that runs them (Chronicle's appenders and
     * tailers belong to the thread that first uses them), and run there as one composite.
     */
    private static final class Started implements Agent {
        private final MarketDataConfig config;
        private MarketDataService service;
        private FeedPublisher publisher;
        private RetransmitServer retransmit;
        private CompositeAgent agents;

        Started(final MarketDataConfig config) {
            this.config = config;
        }

        @Override
        public void onStart() {
            service = new MarketDataService(config);
            publisher = new FeedPublisher(config, service.journal());
            retransmit = new RetransmitServer(config.retransmitAddress(), config.sessionBytes(),
                    config.maxRetransmitCount(), service.journal());
            agents = new CompositeAgent(service, publisher, retransmit);
            System.out.println("marketdata: live: feed " + new String(config.sessionBytes()).strip() + " to "
                    + config.incrementalAddresses() + ", snapshots to " + config.snapshotAddresses() + " every "
                    + config.snapshotIntervalMillis() + " ms, retransmission on " + retransmit.address()
                    + ", next sequence " + service.nextSequence() + "; idle " + config.idle().describe());
        }

        @Override
        public int doWork() throws Exception {
            return agents.doWork();
        }

        @Override
        public void onClose() {
            if (agents != null) {
                agents.onClose();
            } else {
                // a start that failed half way: close what was opened
                if (retransmit != null) {
                    retransmit.close();
                }
                if (publisher != null) {
                    publisher.close();
                }
                if (service != null) {
                    service.close();
                }
            }
        }

        void printStopped() {
            if (service != null) {
                System.out.println("marketdata: stopped at sequence " + (service.nextSequence() - 1) + " after "
                        + publisher.packetsSent() + " packets, " + publisher.snapshotsSent() + " snapshots ("
                        + publisher.packetsDropped() + " packets the sockets could not take), "
                        + retransmit.answered() + " retransmissions (" + retransmit.refused() + " refused)");
            }
        }

        @Override
        public String roleName() {
            return "marketdata";
        }
    }
}
