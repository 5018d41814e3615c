package io.sluice.bench.fix;

import io.sluice.engine.config.IdleChoice;
import io.sluice.gateway.IdleStrategies;

/**
 * What the engine and gateway threads of a {@link SluiceDeployment} do when they find no work, written into
 * both configs: back off (the default, kind to a 2-core machine), yield, or busy-spin (lowest latency, but
 * only with a free core per spinning thread).
 */
public enum SluiceIdle {
    BACKOFF(IdleChoice.BACK_OFF, IdleStrategies.BACKOFF),
    YIELD(IdleChoice.YIELD, IdleStrategies.YIELD),
    BUSY_SPIN(IdleChoice.BUSY_SPIN, IdleStrategies.BUSY_SPIN);

    private final IdleChoice engine;
    private final String gateway;

    SluiceIdle(final IdleChoice engine, final String gateway) {
        this.engine = engine;
        this.gateway = gateway;
    }

    /** @return the value of the engine config's {@code idleStrategy}. */
    String engineConfigValue() {
        return engine.name();
    }

    /** @return the value of the gateway config's {@code idle}. */
    String gatewayConfigValue() {
        return gateway;
    }

    /** @return the idle choice named {@code text}: backoff, yield or busy-spin. */
    public static SluiceIdle parse(final String text) {
        for (final SluiceIdle idle : values()) {
            if (idle.gateway.equalsIgnoreCase(text)) {
                return idle;
            }
        }
        throw new IllegalArgumentException("idle '" + text + "' must be one of backoff, yield, busy-spin");
    }
}
