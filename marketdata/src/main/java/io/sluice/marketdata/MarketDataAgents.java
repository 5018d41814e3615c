package io.sluice.marketdata;

import io.sluice.marketdata.derive.MarketDataService;
import io.sluice.marketdata.publish.FeedPublisher;
import io.sluice.marketdata.publish.RetransmitServer;
import io.sluice.marketdata.publish.SendLatency;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.NanoClock;

/**
 * The market-data process's three agents, run on one thread as one composite: {@code ./sluice marketdata}, and the
 * benchmark. The service that derives the journal, the publisher and the retransmission service are built in {@link
 * #onStart()} on the thread that runs them (Chronicle's appenders and tailers belong to the thread that first uses
 * them). It
 * prints one line when it is live and one when it stops.
 */
public final class MarketDataAgents implements Agent {
    private final MarketDataConfig config;
    private final SendLatency latency;
    private final NanoClock clock;
    private volatile MarketDataService service;
    private FeedPublisher publisher;
    private RetransmitServer retransmit;
    private CompositeAgent agents;

    /**
     * @param latency told of every message sent (benchmarks), or {@link SendLatency#NONE}
     * @param clock   the process's clock, for the publisher's heartbeats and snapshots
     */
    public MarketDataAgents(final MarketDataConfig config, final SendLatency latency, final NanoClock clock) {
        this.config = config;
        this.latency = latency;
        this.clock = clock;
    }

    @Override
    public void onStart() {
        final MarketDataService derived = new MarketDataService(config);
        try {
            publisher = new FeedPublisher(config, derived.journal(), clock).latency(latency);
            retransmit = new RetransmitServer(config.retransmitAddress(), config.sessionBytes(),
                    config.maxRetransmitCount(), derived.journal());
        } catch (final RuntimeException e) {
            if (publisher != null) {
                publisher.close();
            }
            derived.close();
            throw e;
        }
        agents = new CompositeAgent(derived, publisher, retransmit);
        service = derived;
        System.out.println("marketdata: live: feed " + new String(config.sessionBytes()).strip() + " to "
                + config.incrementalAddresses() + ", snapshots to " + config.snapshotAddresses() + " every "
                + config.snapshotIntervalMillis() + " ms, retransmission on " + retransmit.address() + ", next sequence "
                + derived.nextSequence() + "; idle " + config.idle().describe());
    }

    @Override
    public int doWork() throws Exception {
        return agents.doWork();
    }

    /** Closes the agents, then prints what they did (on this thread: a SIGTERM's hook waits for it). */
    @Override
    public void onClose() {
        if (agents != null) {
            agents.onClose();
            System.out.println("marketdata: " + summary());
        }
    }

    /** @return the sequence the next message will have, or -1 before the agents are built */
    public long nextSequence() {
        final MarketDataService derived = service;
        return derived == null ? -1 : derived.nextSequence();
    }

    /** @return what it did, for the process's last line */
    private String summary() {
        return service == null ? "not started" : "stopped at sequence " + (service.nextSequence() - 1) + " after "
                + publisher.packetsSent() + " packets, " + publisher.snapshotsSent() + " snapshots ("
                + publisher.packetsDropped() + " packets the sockets could not take), " + retransmit.answered()
                + " retransmissions (" + retransmit.refused() + " refused)";
    }

    @Override
    public String roleName() {
        return "marketdata";
    }
}
