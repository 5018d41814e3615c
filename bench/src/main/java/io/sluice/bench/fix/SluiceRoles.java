package io.sluice.bench.fix;

/**
 * The main classes of the engine and gateway roles, and how to tell from a role's output that it is ready.
 * Looked up by name so that the bench module builds before the engine and gateway roles exist; a missing
 * one fails with a message saying which.
 */
final class SluiceRoles {
    static final String ENGINE_MAIN = "io.sluice.engine.EngineMain";
    static final String GATEWAY_MAIN = "io.sluice.gateway.GatewayMain";

    private SluiceRoles() {
    }

    static Class<?> engineMain() {
        return role(ENGINE_MAIN, "engine");
    }

    static Class<?> gatewayMain() {
        return role(GATEWAY_MAIN, "gateway");
    }

    /** @return whether both roles are on the class path (false while a branch with one is not merged). */
    static boolean available() {
        try {
            Class.forName(ENGINE_MAIN);
            Class.forName(GATEWAY_MAIN);
            return true;
        } catch (final ClassNotFoundException e) {
            return false;
        }
    }

    /** @return true once the engine has printed that it recovered and is processing. */
    static boolean engineReady(final String log) {
        return log.contains("engine: recovered");
    }

    private static Class<?> role(final String className, final String role) {
        try {
            return Class.forName(className);
        } catch (final ClassNotFoundException e) {
            throw new IllegalStateException("the " + role + " role (" + className + ") is not on the class path:"
                    + " this build has no " + role + " yet", e);
        }
    }
}
