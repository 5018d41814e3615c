package io.sluice.marketdata.handler;

import io.sluice.contracts.TradingSession;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.feed.FeedText;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code ./sluice feed --config marketdata.yaml}: the reference feed handler ({@link FeedHandler}) as a process. It
 * reads the feed's session, instruments and addresses from the market-data config (listening where the publisher sends
 * its first incremental and snapshot address, asking the retransmission service the config names), joins whenever it
 * starts, and prints each instrument's top of book ({@link TopOfBook}) every {@code --print-ms}, and every book
 * checksum of the feed that does not equal its own. Exit codes: 2 a bad config or an unknown {@code --symbol}, 1 a
 * socket it cannot use, 0 at the end of {@code --seconds} or on SIGTERM; with {@code --seconds} it exits 3 if it saw
 * a checksum differ.
 */
@Command(name = "feed", mixinStandardHelpOptions = true,
        description = "The reference feed handler: joins the binary feed from a snapshot, recovers gaps by retransmission,"
                + " prints the top of book and checks the book checksums.")
public final class FeedMain implements Callable<Integer> {
    @Option(names = "--config", required = true, description = "the market-data config the publisher runs with")
    private Path configFile;

    @Option(names = "--symbol", description = "print this instrument only")
    private String symbol;

    @Option(names = "--print-ms", description = "top of book every N ms, 0 never (default ${DEFAULT-VALUE})")
    private long printMillis = 1_000;

    @Option(names = "--seconds", description = "stop after N seconds (default: at SIGTERM)")
    private long seconds;

    @Option(names = "--retransmit", description = "host:port of the retransmission service (default: the config's)")
    private String retransmit;

    @Option(names = "--interface", description = "the interface to join multicast groups on")
    private String face;

    @Option(names = "--idle", description = "idle strategy alias (default ${DEFAULT-VALUE})")
    private String idle = "backoff";

    public static void main(final String[] args) {
        SigtermHook.handleSignals();
        System.exit(new CommandLine(new FeedMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException, SocketException {
        final MarketDataConfig config;
        try {
            config = MarketDataConfig.load(configFile);
        } catch (final RuntimeException e) {
            System.err.println("feed: " + e.getMessage());
            return 2;
        }
        final long[] symbols = config.symbols();
        int only = -1;
        if (symbol != null) {
            only = Arrays.stream(symbols).boxed().toList().indexOf(ShortTextLongConverter.INSTANCE.parse(symbol));
            if (only < 0) {
                System.err.println("feed: unknown symbol " + symbol + ": the feed carries "
                        + Arrays.stream(symbols).mapToObj(FeedText::symbol).collect(Collectors.joining(", ")));
                return 2;
            }
        }
        if (config.snapshotAddresses().isEmpty()) {
            System.err.println("feed: the config names no snapshot address: a handler cannot join without snapshots");
            return 2;
        }
        final InetSocketAddress retransmitAddress = retransmit != null ? addressOf(retransmit) : config.retransmitAddress();
        final NanoClock clock = SystemNanoClock.INSTANCE;
        final FeedHandler handler;
        try {
            handler = new FeedHandler(config.sessionBytes(), symbols,
                    config.tradingSessionAtStart() == TradingSession.OPEN ? TradingStatus.OPEN : TradingStatus.CLOSED,
                    config.maxOrders(), config.maxPriceLevels(), config.incrementalAddresses().get(0),
                    config.snapshotAddresses().get(0), retransmitAddress,
                    face == null ? null : NetworkInterface.getByName(face), 16_384, clock);
        } catch (final RuntimeException e) {
            System.err.println("feed: " + e.getMessage());
            return 1;
        }
        System.out.println("feed: joining " + new String(config.sessionBytes()).strip() + " on "
                + config.incrementalAddresses().get(0) + ", snapshots on " + config.snapshotAddresses().get(0)
                + ", retransmission from " + retransmitAddress);
        final Printer printer = new Printer(handler, only, printMillis, clock);
        handler.listener(printer);
        final AgentThread thread = AgentThread.start(new CompositeAgent(handler, printer),
                IdleConfig.of(idle).newStrategy(), CpuPinning.NONE, AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("feed", clock, thread);
        if (seconds > 0) {
            thread.awaitClosed(seconds, TimeUnit.SECONDS);
            thread.close(5, TimeUnit.SECONDS);
        } else {
            thread.awaitClosed();
        }
        hook.close();
        return seconds > 0 && handler.checksumsMismatched() > 0 ? 3 : 0;
    }

    private static InetSocketAddress addressOf(final String text) {
        final int colon = text.lastIndexOf(':');
        return new InetSocketAddress(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
    }

    /** Prints the top of book now and then, and every checksum that differs, on the handler's thread. */
    private static final class Printer implements Agent, BookListener {
        private final FeedHandler handler;
        private final int only;
        private final long intervalNanos;
        private final NanoClock clock;
        private long nextNanos;

        Printer(final FeedHandler handler, final int only, final long intervalMillis, final NanoClock clock) {
            this.handler = handler;
            this.only = only;
            this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
            this.clock = clock;
            nextNanos = clock.nanoTime();
        }

        @Override
        public int doWork() {
            final long now = clock.nanoTime();
            if (intervalNanos == 0 || now - nextNanos < 0) {
                return 0;
            }
            nextNanos = now + intervalNanos;
            if (handler.state() == FeedHandler.State.LIVE) {
                printAll();
            } else {
                System.out.println("feed: joining: waiting for a snapshot");
            }
            return 1;
        }

        void printAll() {
            for (int i = 0; i < handler.books().instruments(); i++) {
                if (only < 0 || only == i) {
                    System.out.println("seq " + (handler.expected() - 1) + "  " + TopOfBook.line(handler.books(), i));
                }
            }
        }

        @Override
        public void onChecksum(final int instrument, final long sequence, final long feed, final long own) {
            if (feed != own) {
                System.out.println("feed: checksum of " + FeedText.symbol(handler.books().symbol(instrument))
                        + " at sequence " + sequence + " differs: the feed's 0x" + Long.toHexString(feed)
                        + ", this handler's 0x" + Long.toHexString(own));
            }
        }

        /** The last word, on the handler's thread as it stops (a SIGTERM's hook waits for it; the main thread may not). */
        @Override
        public void onClose() {
            System.out.println("feed: " + handler.state() + " at sequence " + (handler.expected() - 1) + ": "
                    + handler.applied() + " messages applied, " + handler.joins() + " joins, " + handler.gaps()
                    + " gaps, " + handler.requests() + " retransmission requests, " + handler.refusals() + " refused, "
                    + handler.duplicates() + " duplicates, checksums " + handler.checksumsMatched() + " equal and "
                    + handler.checksumsMismatched() + " different");
            printAll();
        }

        @Override
        public String roleName() {
            return "feed-printer";
        }
    }
}
