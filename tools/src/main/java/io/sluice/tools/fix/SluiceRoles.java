package io.sluice.tools.fix;

import io.sluice.engine.EngineMain;
import io.sluice.gateway.GatewayMain;

/** The main classes of the engine and gateway roles, and how to tell from a role's output that it is ready. */
final class SluiceRoles {
    private SluiceRoles() {
    }

    static Class<?> engineMain() {
        return EngineMain.class;
    }

    static Class<?> gatewayMain() {
        return GatewayMain.class;
    }

    /** @return true once the engine has printed that it recovered and is processing. */
    static boolean engineReady(final String log) {
        return log.contains("engine: recovered");
    }
}
