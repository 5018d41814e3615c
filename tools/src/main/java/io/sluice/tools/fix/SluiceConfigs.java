package io.sluice.tools.fix;

import io.sluice.runtime.agent.IdleConfig;

import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * The YAML configs a {@link SluiceDeployment} writes for its engine and gateways. One instrument, {@value
 * SluiceDeployment#SYMBOL}, priced on a 0.01 grid between 1 and 1000, with limits roomy enough for the liquidity
 * seeder's large resting orders; gateways admit up to {@value #MAX_SILENT_CONNECTIONS} connections that never log on,
 * from one address if need be, and keep them for an hour (the silent sockets of {@code fix-idle-sockets}, all from
 * 127.0.0.1).
 */
public final class SluiceConfigs {
    /** Connections that never log on a benchmark gateway holds at most. */
    public static final int MAX_SILENT_CONNECTIONS = 600;

    private SluiceConfigs() {
    }

    public static String engine(final Path journalRoot, final Collection<Integer> gatewayIds, final String symbol,
                         final SluiceIdle idle, final int pinCpu) {
        return engine(journalRoot, gatewayIds, symbol, idle, pinCpu, SluiceDeployment.JournalDisk.DEFAULTS);
    }

    public static String engine(final Path journalRoot, final Collection<Integer> gatewayIds, final String symbol,
                         final SluiceIdle idle, final int pinCpu, final SluiceDeployment.JournalDisk disk) {
        return engine(journalRoot, gatewayIds, symbol, idle, pinCpu, disk, "");
    }

    /** @param engineSettings more YAML keys of the engine's, e.g. {@code "counters: false"}; empty for most */
    public static String engine(final Path journalRoot, final Collection<Integer> gatewayIds, final String symbol,
                         final SluiceIdle idle, final int pinCpu, final SluiceDeployment.JournalDisk disk,
                         final String engineSettings) {
        return engine(journalRoot, gatewayIds, symbol, idle.engineIdle(), pinCpu, disk, engineSettings);
    }

    /** The same with the engine thread's {@code idle} given in full, e.g. a shadow engine's that parks only. */
    public static String engine(final Path journalRoot, final Collection<Integer> gatewayIds, final String symbol,
                         final IdleConfig idle, final int pinCpu, final SluiceDeployment.JournalDisk disk,
                         final String engineSettings) {
        return """
                !EngineConfig {%s
                  journalRoot: "%s",
                  gatewayIds: [ %s ],
                  idle: %s,
                  pinCpu: %d,
                  journalReserveBytes: %d,
                  diskWarningBytes: %d,
                  instruments: [
                    { symbol: %s, tickSize: 0.01, lotSize: 1, priceLow: 1, priceHigh: 1000,
                      maxOrderQty: 10000000, maxNotional: 10000000000 }
                  ]
                }
                """.formatted(engineSettings.isEmpty() ? "" : "\n  " + engineSettings + ",", journalRoot,
                gatewayIds.stream().map(String::valueOf).collect(Collectors.joining(", ")),
                idle.yaml(), pinCpu, disk.engineReserveBytes(), disk.warningBytes(), symbol);
    }

    public static String gateway(final Path journalRoot, final SluiceDeployment.GatewaySpec spec, final FixEndpoint endpoint,
                          final String gatewayCompId, final SluiceIdle idle) {
        return gateway(journalRoot, spec, endpoint, gatewayCompId, idle, SluiceDeployment.JournalDisk.DEFAULTS);
    }

    public static String gateway(final Path journalRoot, final SluiceDeployment.GatewaySpec spec, final FixEndpoint endpoint,
                          final String gatewayCompId, final SluiceIdle idle, final SluiceDeployment.JournalDisk disk) {
        return gateway(journalRoot, spec, endpoint, gatewayCompId, idle, disk, null, "none");
    }

    /**
     * @param tls         the TLS keys of a TLS endpoint, null for the others
     * @param replication the gateway's {@code replication} option: {@code none} or {@code acknowledged}
     */
    public static String gateway(final Path journalRoot, final SluiceDeployment.GatewaySpec spec, final FixEndpoint endpoint,
                          final String gatewayCompId, final SluiceIdle idle, final SluiceDeployment.JournalDisk disk,
                          final SluiceTls tls, final String replication) {
        final String listen = switch (endpoint.transport()) {
            case TCP -> "tcp://" + endpoint.host() + ":" + endpoint.port();
            case TLS -> "tls://" + endpoint.host() + ":" + endpoint.port();
            case UDS -> "unix:" + endpoint.socketPath();
        };
        final String sessions = spec.sessions().stream()
                .map(session -> ("    !Session { senderCompId: %s, targetCompId: %s,"
                        + " username: \"%s\", password: \"%s\"%s }")
                        .formatted(session.senderCompId(), gatewayCompId, session.username(), session.password(),
                                spec.sessionSettings().containsKey(session.senderCompId())
                                        ? ", " + spec.sessionSettings().get(session.senderCompId()) : ""))
                .collect(Collectors.joining(",\n"));
        return """
                !GatewayConfig {
                  gatewayId: %d,
                  journalRoot: "%s",
                  listen: "%s",%s%s
                  idle: { strategy: %s },
                  maxConnections: %d,
                  maxConnectionsPerAddress: %d,
                  preLogonBuffers: %d,
                  preLogonBuffersPerAddress: %d,
                  logonTimeoutMillis: 3600000,
                  journalReserveBytes: %d,
                  diskWarningBytes: %d,
                  replication: %s,
                  sessions: [
                %s
                  ]
                }
                """.formatted(spec.id(), journalRoot, listen, tls == null ? "" : "\n  tls: " + tls.gatewayYaml() + ",",
                spec.gatewaySettings().isEmpty() ? "" : "\n  " + spec.gatewaySettings() + ",",
                idle.gatewayIdle().strategy(), MAX_SILENT_CONNECTIONS + 64,
                MAX_SILENT_CONNECTIONS + 64, MAX_SILENT_CONNECTIONS, MAX_SILENT_CONNECTIONS, disk.gatewayReserveBytes(),
                disk.warningBytes(),
                replication, sessions);
    }
}
