package io.sluice.gateway;

import org.agrona.concurrent.Agent;

import java.util.function.Consumer;

/**
 * Runs a {@link Gateway} as an Agrona {@link Agent}, launching it from its context on the thread that runs it.
 * <p>
 * The gateway is launched in {@link #onStart()} ({@link Gateway#launch}: its context concluded, then the gateway wired),
 * on the thread of an {@link io.sluice.runtime.agent.AgentThread}, because Chronicle appenders and tailers belong to one
 * thread; so a failure to start (a journal another process writes, a damaged journal, a claimed session, a full disk)
 * stops the agent like any other failure and the process names it. {@code onStarted} is told of the gateway once it
 * listens.
 */
public final class GatewayAgent implements Agent {
    private final GatewayContext context;
    private final Consumer<Gateway> onStarted;
    private Gateway gateway;
    private volatile boolean started;

    /** @param context a context to conclude, not concluded yet */
    public GatewayAgent(final GatewayContext context, final Consumer<Gateway> onStarted) {
        this.context = context;
        this.onStarted = onStarted;
    }

    @Override
    public void onStart() {
        gateway = Gateway.launch(context);
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
        return "gateway " + context.config().gatewayId();
    }

    /** @return true once the gateway was launched: a failure after it happened while serving */
    public boolean started() {
        return started;
    }
}
