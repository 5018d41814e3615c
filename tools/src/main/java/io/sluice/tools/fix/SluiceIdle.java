package io.sluice.tools.fix;

import io.sluice.runtime.agent.IdleConfig;

/**
 * What the engine and gateway threads of a {@link SluiceDeployment} do when they find no work, as {@code --idle} names
 * it. The demo's and the FIX benchmarks' option maps onto the one idle vocabulary of the configs ({@link IdleConfig},
 * Agrona's aliases with the shared defaults): backoff (kind to a 2-core machine), yield, busy-spin (Agrona's {@code
 * spin}: lowest latency, but only with a free core per spinning thread), or engine-spin: the one engine thread spins
 * and the gateways back off, the one busy thread a 2-core machine can afford, given to the hop every order takes.
 */
public enum SluiceIdle {
    BACKOFF("backoff", "backoff", "backoff"),
    YIELD("yield", "yield", "yield"),
    BUSY_SPIN("busy-spin", "spin", "spin"),
    ENGINE_SPIN("engine-spin", "spin", "backoff");

    private final String label;
    private final String engine;
    private final String gateway;

    SluiceIdle(final String label, final String engine, final String gateway) {
        this.label = label;
        this.engine = engine;
        this.gateway = gateway;
    }

    /** @return the name {@link #parse} takes. */
    public String label() {
        return label;
    }

    /** @return the engine config's {@code idle}. */
    public IdleConfig engineIdle() {
        return IdleConfig.of(engine);
    }

    /** @return the gateway config's {@code idle}. */
    public IdleConfig gatewayIdle() {
        return IdleConfig.of(gateway);
    }

    /** @return the idle choice named {@code text}: backoff, yield, busy-spin (or Agrona's spin) or engine-spin. */
    public static SluiceIdle parse(final String text) {
        for (final SluiceIdle idle : values()) {
            if (idle.label.equalsIgnoreCase(text)) {
                return idle;
            }
        }
        if ("spin".equalsIgnoreCase(text)) {
            return BUSY_SPIN;
        }
        throw new IllegalArgumentException("idle '" + text + "' must be one of backoff, yield, busy-spin (or spin), engine-spin");
    }
}
