package io.sluice.gateway;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;

import java.util.function.Consumer;

/**
 * Runs a {@link Gateway} as an Agrona {@link Agent} on an {@link io.sluice.runtime.agent.AgentThread}: it constructs
 * the gateway in {@link #onStart()}, on the thread that runs it (Chronicle appenders and tailers belong to one
 * thread), so a failure to start (damaged journal, claimed session, full disk) stops the agent like any other failure
 * and the process names it. {@code onStarted} is told of the gateway once it listens.
 */
public final class GatewayAgent implements Agent {
    private final GatewayConfig config;
    private final EpochClock clock;
    private final Consumer<Gateway> onStarted;
    private Gateway gateway;
    private volatile boolean started;

    public GatewayAgent(final GatewayConfig config, final EpochClock clock, final Consumer<Gateway> onStarted) {
        this.config = config;
        this.clock = clock;
        this.onStarted = onStarted;
    }

    @Override
    public void onStart() {
        gateway = new Gateway(config, clock);
        started = true;
        onStarted.accept(gateway);
    }

    @Override
    public int doWork() {
        return gateway.doWork();
    }

    @Override
    public void onClose() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Override
    public String roleName() {
        return "gateway " + config.gatewayId();
    }

    /** @return true once the gateway was constructed: a failure after it happened while serving */
    public boolean started() {
        return started;
    }
}
