package io.sluice.tools.demo;

import io.sluice.marketdata.MarketDataMain;
import io.sluice.marketdata.feed.PacketHeader;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.handler.FeedHandler;
import io.sluice.marketdata.handler.TopOfBookLine;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.SluiceDeployment;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo's market data: {@code ./sluice marketdata} as one more child process on the demo's journals, and a feed
 * handler in the demo's own process (on a thread that sleeps between packets, so it takes no core of the load's) whose
 * top of book and last trade the demo prints beside each second's latencies.
 */
final class MarketDataSide implements AutoCloseable {
    private static final String SESSION = "DEMO";

    private final JavaProcess process;
    private final AgentThread handlerThread;
    private final TopOfBookLine line;
    private final Path config;
    private final Path journals;

    private MarketDataSide(final JavaProcess process, final AgentThread handlerThread, final TopOfBookLine line,
                           final Path config, final Path journals) {
        this.process = process;
        this.handlerThread = handlerThread;
        this.line = line;
        this.config = config;
        this.journals = journals;
    }

    static MarketDataSide start(final Path root, final SluiceDeployment sluice, final NanoClock clock)
            throws IOException {
        final int retransmitPort = LoopbackPorts.free();
        final FeedHandler handler = new FeedHandler(PacketHeader.sessionBytes(SESSION),
                new long[] {ShortTextLongConverter.INSTANCE.parse(SluiceDeployment.SYMBOL)}, TradingStatus.OPEN, 1 << 20,
                4_096, new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", retransmitPort), null, 4_096, clock);
        final Path config = root.resolve("marketdata.yaml");
        Files.writeString(config, """
                !MarketDataConfig {
                  journalRoot: "%s",
                  instruments: [ %s ],
                  session: %s,
                  incremental: [ "127.0.0.1:%d" ],
                  snapshot: [ "127.0.0.1:%d" ],
                  retransmit: "127.0.0.1:%d",
                  idle: { strategy: backoff }
                }
                """.formatted(sluice.journals(), SluiceDeployment.SYMBOL, SESSION, handler.incrementalAddress().getPort(),
                handler.snapshotAddress().getPort(), retransmitPort));
        final JavaProcess process = JavaProcess.start("marketdata", root.resolve("marketdata.log"), List.of("-Xmx512m"),
                MarketDataMain.class, "--config", config.toString());
        final TopOfBookLine line = new TopOfBookLine(handler, 0, 500, clock);
        final AgentThread thread = AgentThread.start(new CompositeAgent(handler, line),
                IdleConfig.sleepNanos(TimeUnit.MICROSECONDS.toNanos(200)).newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        return new MarketDataSide(process, thread, line, config, sluice.journals());
    }

    String describe() {
        return "  marketdata pid " + process.pid() + ": the book, trades and status of " + SluiceDeployment.SYMBOL
                + " as a UDP feed (" + config + "); its journal: ./sluice dump " + journals.resolve("marketdata");
    }

    /** @return the feed handler's latest top of book line */
    String status() {
        if (handlerThread.failure() != null) {
            return "market data: the feed handler stopped: " + handlerThread.failure();
        }
        return process.isAlive() ? line.line() : "market data: the marketdata process exited: " + process.logText();
    }

    @Override
    public void close() throws InterruptedException {
        handlerThread.close(5, TimeUnit.SECONDS);
        process.close();
    }
}
