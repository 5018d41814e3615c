package io.sluice.tools.fix;

import io.sluice.engine.config.IdleChoice;
import io.sluice.gateway.IdleStrategies;

/**
 * What the engine and gateway threads of a {@link SluiceDeployment} do when they find no work, written into
 * both configs: back off (kind to a 2-core machine), yield, busy-spin (lowest latency, but only with a free
 * core per spinning thread), or engine-spin: the one engine thread spins and the gateways back off, the one
 * busy thread a 2-core machine can afford, given to the hop every order takes.
 */
public enum SluiceIdle {
    BACKOFF("backoff", IdleChoice.BACK_OFF, IdleStrategies.BACKOFF),
    YIELD("yield", IdleChoice.YIELD, IdleStrategies.YIELD),
    BUSY_SPIN("busy-spin", IdleChoice.BUSY_SPIN, IdleStrategies.BUSY_SPIN),
    ENGINE_SPIN("engine-spin", IdleChoice.BUSY_SPIN, IdleStrategies.BACKOFF);

    private final String label;
    private final IdleChoice engine;
    private final String gateway;

    SluiceIdle(final String label, final IdleChoice engine, final String gateway) {
        this.label = label;
        this.engine = engine;
        this.gateway = gateway;
    }

    /** @return the name {@link #parse} takes. */
    public String label() {
        return label;
    }

    /** @return the value of the engine config's {@code idleStrategy}. */
    String engineConfigValue() {
        return engine.name();
    }

    /** @return the value of the gateway config's {@code idle}. */
    String gatewayConfigValue() {
        return gateway;
    }

    /** @return the idle choice named {@code text}: backoff, yield, busy-spin or engine-spin. */
    public static SluiceIdle parse(final String text) {
        for (final SluiceIdle idle : values()) {
            if (idle.label.equalsIgnoreCase(text)) {
                return idle;
            }
        }
        throw new IllegalArgumentException("idle '" + text + "' must be one of backoff, yield, busy-spin, engine-spin");
    }
}
